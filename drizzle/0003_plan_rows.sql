ALTER TABLE `plan_items` ADD `needs` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `plan_items` ADD `continue_on_error` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `plan_items` ADD `depth` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `plan_items` ADD `note` text;--> statement-breakpoint
ALTER TABLE `plan_items` ADD `waiting` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `plan_items` ADD `denied` text;