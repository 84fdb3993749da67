CREATE TABLE `audit_head` (
	`id` integer PRIMARY KEY NOT NULL,
	`last_id` integer NOT NULL,
	`hash` text NOT NULL
);
