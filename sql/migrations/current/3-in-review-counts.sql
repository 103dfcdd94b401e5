-- The home cards and the weekly summary count the posts waiting for review: one more column in
-- what these functions return, so they are dropped here and made again from
-- sql/functions/home_cards.sql and sql/functions/notifications.sql.
drop function if exists app_public.account_project_overview(bigint);
drop function if exists app_public.weekly_summary(bigint, date);
