-- Least privilege (README "Least privilege"): the API, the worker and the bot run as
-- pressa_app, which owns nothing. The migrations run as the owner; pressa_app gets the rows
-- of the tables and the functions, never the right to drop, alter or replace them. The role
-- is made before the migrations by sql/app_role.ts (roles belong to the server, not to a
-- database).

grant usage on schema app_public, app_private, graphile_worker to pressa_app;

grant select, insert, update, delete on all tables in schema app_public, app_private to pressa_app;
grant usage, select on all sequences in schema app_public, app_private, graphile_worker to pressa_app;
grant execute on all functions in schema app_public, app_private, graphile_worker to pressa_app;

-- Sessions, sign-in codes and per-IP attempts are reached only through the SECURITY DEFINER
-- sign-in functions: the app never reads a session's or a code's hash, so a bug in it
-- cannot list them.
revoke all on app_private.sessions, app_private.sign_in_codes, app_private.sign_in_attempts from pressa_app;

-- graphile-worker's runner claims, completes and fails jobs, registers its task names and
-- crontab, and at start reads which of its migrations ran (it changes its schema only
-- through `deno task migrate`, as the owner).
grant select, insert, update, delete on all tables in schema graphile_worker to pressa_app;
revoke insert, update, delete, truncate on graphile_worker.migrations from pressa_app;

-- What later migrations (ours and graphile-worker's) create, as this same owner, is
-- granted the same way without a line in each of them.
alter default privileges in schema app_public, app_private, graphile_worker
  grant select, insert, update, delete on tables to pressa_app;
alter default privileges in schema app_public, app_private, graphile_worker
  grant usage, select on sequences to pressa_app;
alter default privileges in schema app_public, app_private, graphile_worker
  grant execute on functions to pressa_app;

-- PostgreSQL 15 stopped letting everyone create objects in `public`, but a database upgraded
-- from an older server keeps the old grant: the app role could then plant a function or an
-- operator there that a SECURITY DEFINER function (search_path pg_catalog, public) might
-- pick up. An owner who does not own `public` (some managed services) leaves it as it is.
do $$
begin
  revoke create on schema public from public;
exception when insufficient_privilege or invalid_schema_name then
  raise notice 'left the privileges of schema public as they are: %', sqlerrm;
end $$;
