CREATE TABLE "rate_limit_window" (
	"key" text PRIMARY KEY NOT NULL,
	"count" bigint NOT NULL,
	"window_ends_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_window_by_end_idx" ON "rate_limit_window" USING btree ("window_ends_at");