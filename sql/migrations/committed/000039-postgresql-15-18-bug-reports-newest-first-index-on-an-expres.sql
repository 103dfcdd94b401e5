--! Previous: sha1:7c9899075ff6e2571f14a9bd70f9c30235e56202
--! Hash: sha1:2703c7ee5f960126dcff3f74dff7d043f57bb442
--! Message: PostgreSQL 15-18: bug reports' newest-first index on an expression immutable on every version; the compat schema that let 000015 run below 18 goes

--! split: 39-pg-15-to-18.sql
/*
 * Bug reports' newest-first index, on an expression that is IMMUTABLE on PostgreSQL 15–18:
 * date_trunc with a zone is immutable only from 18 on, so 000015's index needed the
 * app_pg_compat schema below 18 (sql/pg_versions.ts). The same millisecond in UTC, as a
 * timestamp, orders the rows exactly as before (admin_bug_reports compares its cursor in the
 * same form). Once nothing depends on it, the compat schema goes.
 */
drop index if exists app_public.bug_reports_created_ms_idx;
create index bug_reports_created_ms_idx
  on app_public.bug_reports (date_trunc('milliseconds', created_at at time zone 'UTC') desc, id desc);
drop function if exists app_pg_compat.date_trunc(text, timestamptz, text);
drop schema if exists app_pg_compat;

--! split: 40-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_public.admin_bug_reports(p_user_id bigint, p_before timestamp with time zone, p_before_id bigint, p_limit integer)
 RETURNS TABLE(id bigint, user_id bigint, user_email text, description text, screenshot_url text, page_url text, user_agent text, status text, created_at timestamp with time zone, updated_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE
AS $function$
/*
 * why: the admin list of bug reports with the reporter's e-mail, newest first, a page at a
 * time after the last report shown (p_before: its time as the API shows it, p_before_id: its
 * id), so reports sent meanwhile never shift or repeat rows; both sides are the UTC
 * millisecond as a timestamp, the form bug_reports_created_ms_idx can hold on PostgreSQL 15–18
 */
begin
  perform app_private.assert_admin(p_user_id);
  return query
    select b.id, b.user_id, u.email, b.description, b.screenshot_url, b.page_url, b.user_agent, b.status,
           b.created_at, b.updated_at
    from app_public.bug_reports b
    left join app_public.users u on u.id = b.user_id
    where (date_trunc('milliseconds', b.created_at at time zone 'UTC'), b.id)
        < (coalesce(p_before, 'infinity') at time zone 'UTC', coalesce(p_before_id, 0))
    order by date_trunc('milliseconds', b.created_at at time zone 'UTC') desc, b.id desc
    limit p_limit;
end;
$function$;
