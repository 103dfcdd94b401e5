-- The autopilot post to write answers its project too (the post's prompt carries the
-- project's best-received posts, app_public.best_received_posts): a changed return type.
drop function if exists app_public.autopilot_post_to_write(bigint);
