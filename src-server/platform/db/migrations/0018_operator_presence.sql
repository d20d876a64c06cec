CREATE TABLE `operator_presence` (
	`instance_id` text PRIMARY KEY NOT NULL,
	`expires_at` text NOT NULL
);
