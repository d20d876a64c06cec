ALTER TABLE `marketplace_order` ADD `refundable_until` text;--> statement-breakpoint
ALTER TABLE `wallet` ADD `holds_json` text DEFAULT '{}' NOT NULL;--> statement-breakpoint
-- Hand-written (keep when regenerating): the earn cap's holds as holds by day. What was held on the last earnings
-- day stays held until that day is over; anything frozen before it is due at once.
UPDATE `wallet` SET `holds_json` = json_patch(
  CASE WHEN `held_on_day` > 0 THEN json_object(`earnings_day`, min(`held_on_day`, `frozen_balance`)) ELSE '{}' END,
  CASE WHEN `frozen_balance` > `held_on_day` THEN json_object('1970-01-01', `frozen_balance` - `held_on_day`) ELSE '{}' END
) WHERE `frozen_balance` > 0;--> statement-breakpoint
-- Hand-written (keep): avatars are stored images only and covers https only; earlier values are dropped.
UPDATE `user` SET `avatar_url` = NULL WHERE `avatar_url` NOT LIKE 'data:%';--> statement-breakpoint
UPDATE `listing` SET `cover_image_url` = NULL WHERE `cover_image_url` NOT LIKE 'https://%';
