DROP INDEX `chat_message_by_session_seq_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `chat_message_by_session_seq_idx` ON `chat_message` (`session_id`,`seq`);