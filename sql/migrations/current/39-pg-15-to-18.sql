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
