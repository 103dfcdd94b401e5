-- A channel's messages are touched only while it is the project's channel (issue 23, item 2):
-- the edit jobs learn whether the post's chat is still the project's channel, so
-- post_edit_info answers one more column (a changed signature is dropped first; the
-- function's body is in sql/functions/posts_edit.sql).
drop function if exists app_public.post_edit_info(bigint);
