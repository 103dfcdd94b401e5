-- The home cards say which posts awaiting approval are late, and since when: two more columns
-- in what these functions return, so they are dropped here and made again from
-- sql/functions/home_cards.sql.
drop function if exists app_public.account_project_overview(bigint);
drop function if exists app_private.posts_needing_attention(bigint);
