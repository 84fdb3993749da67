CREATE TABLE `agent_messages` (
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`message` text NOT NULL,
	PRIMARY KEY(`run_id`, `seq`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
