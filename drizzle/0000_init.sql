CREATE TABLE `audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ts` integer NOT NULL,
	`run_id` text,
	`call_id` text,
	`type` text NOT NULL,
	`actor` text NOT NULL,
	`tool` text,
	`action` text,
	`result` text,
	`risk` text,
	`auto_approved` integer,
	`reason` text,
	`data` text,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_run_idx` ON `audit` (`run_id`,`id`);--> statement-breakpoint
CREATE INDEX `audit_ts_idx` ON `audit` (`ts`);--> statement-breakpoint
CREATE INDEX `audit_type_idx` ON `audit` (`type`,`ts`);--> statement-breakpoint
CREATE TABLE `calls` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`item_id` text,
	`attempt` integer DEFAULT 1 NOT NULL,
	`tool` text NOT NULL,
	`args` text NOT NULL,
	`args_hash` text NOT NULL,
	`decision` text,
	`risk` text,
	`decided_by` text,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	`duration_ms` integer,
	`exit_code` integer,
	`output` text,
	`bytes` integer,
	`error_code` text,
	`error_type` text,
	`error_message` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calls_run_seq_idx` ON `calls` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `calls_status_idx` ON `calls` (`run_id`,`status`);--> statement-breakpoint
CREATE TABLE `checkpoints` (
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`created_at` integer NOT NULL,
	`state` text NOT NULL,
	PRIMARY KEY(`run_id`, `seq`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`ts` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_run_idx` ON `events` (`run_id`,`id`);--> statement-breakpoint
CREATE TABLE `grants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`tool` text NOT NULL,
	`pattern` text,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `grants_run_idx` ON `grants` (`run_id`);--> statement-breakpoint
CREATE TABLE `plan_items` (
	`run_id` text NOT NULL,
	`id` text NOT NULL,
	`seq` integer NOT NULL,
	`title` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`run_id`, `id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text,
	`item_id` text,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`title` text NOT NULL,
	`detail` text,
	`answer` text,
	`for_run` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`settled_at` integer,
	`settled_by` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `requests_run_idx` ON `requests` (`run_id`,`status`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`task` text NOT NULL,
	`task_file` text NOT NULL,
	`workdir` text NOT NULL,
	`status` text NOT NULL,
	`driver` text NOT NULL,
	`policy_hash` text,
	`pid` integer,
	`host` text,
	`batch` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	`exit_code` integer,
	`message` text,
	`options` text
);
--> statement-breakpoint
CREATE INDEX `runs_created_idx` ON `runs` (`created_at`);--> statement-breakpoint
CREATE INDEX `runs_status_idx` ON `runs` (`status`);--> statement-breakpoint
CREATE TABLE `snapshots` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`call_id` text,
	`step` integer NOT NULL,
	`ref` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `snapshots_run_idx` ON `snapshots` (`run_id`,`step`);--> statement-breakpoint
CREATE TABLE `trust` (
	`path` text PRIMARY KEY NOT NULL,
	`hash` text NOT NULL,
	`trusted_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `usage` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`turn` integer NOT NULL,
	`model` text NOT NULL,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`cost` real DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `usage_run_idx` ON `usage` (`run_id`);