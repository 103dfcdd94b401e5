-- The home cards' read answers the month's ad income too: a changed result, so the function is
-- made again from sql/functions/home_cards.sql.
drop function if exists app_public.account_project_overview(bigint);
