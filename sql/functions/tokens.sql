-- The tokens functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_public.create_api_token(p_user_id bigint, p_name text, p_project_id bigint, p_scopes text[], p_token text, p_max_tokens integer)
 RETURNS TABLE(id bigint, name text, project_id bigint, scopes text[], created_at timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/* why: a token for one project must be for a project the account is a member of (404
   otherwise, as any project call); it is kept as its hash only; an account holds at most
   p_max_tokens live tokens */
begin
  if p_project_id is not null then
    perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  end if;
  perform pg_advisory_xact_lock(hashtextextended('api_tokens:' || p_user_id, 0));
  if (select count(*) from app_private.api_tokens t where t.user_id = p_user_id and t.revoked_at is null) >= p_max_tokens then
    raise exception 'An account can have at most % API tokens. Revoke one you no longer use.', p_max_tokens
      using errcode = 'QUOTA', hint = 'tokens.quotaReached';
  end if;
  return query
  insert into app_private.api_tokens as t (user_id, name, project_id, scopes, token_hash)
  values (p_user_id, btrim(p_name), p_project_id, p_scopes, sha256(convert_to(p_token, 'UTF8')))
  returning t.id, t.name, t.project_id, t.scopes, t.created_at;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.rename_api_token(p_user_id bigint, p_token_id bigint, p_name text)
 RETURNS TABLE(id bigint, name text, project_id bigint, scopes text[], created_at timestamp with time zone, last_used_at timestamp with time zone)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/* why: a token's name says where it is used; its scope and project never change (make a new one) */
#variable_conflict use_column
begin
  update app_private.api_tokens t set name = btrim(p_name) where t.id = p_token_id and t.user_id = p_user_id and t.revoked_at is null;
  if not found then
    raise exception 'Token not found' using errcode = 'NTFND', hint = 'tokens.notFound';
  end if;
  return query select t.id, t.name, t.project_id, t.scopes, t.created_at, t.last_used_at from app_private.api_tokens t where t.id = p_token_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.revoke_api_token(p_user_id bigint, p_token_id bigint)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/* why: a revoked token answers 401 from its next request on (tokens are read on every request, never cached) */
begin
  update app_private.api_tokens t set revoked_at = now()
  where t.id = p_token_id and t.user_id = p_user_id and t.revoked_at is null;
  if not found then
    raise exception 'Token not found' using errcode = 'NTFND', hint = 'tokens.notFound';
  end if;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.token_user(p_token text, p_per_minute integer)
 RETURNS TABLE(id bigint, email text, is_admin boolean, token_id bigint, project_id bigint, scopes text[])
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: the account behind a bearer token, with what the token narrows it to; none for an
 * unknown or revoked token. Each token's requests are counted per minute here, where every
 * API instance sees them (RATEL tokens.rateLimited, the detail the seconds to the next
 * minute); the last use is written at most once a minute.
 */
#variable_conflict use_column
declare
  v_token app_private.api_tokens;
  v_minute timestamptz := date_trunc('minute', now());
  v_hits integer;
begin
  select * into v_token from app_private.api_tokens t
  where t.token_hash = sha256(convert_to(p_token, 'UTF8')) and t.revoked_at is null;
  if not found then
    return;
  end if;
  insert into app_private.api_token_hits as h (token_id, minute, hits) values (v_token.id, v_minute, 1)
  on conflict (token_id, minute) do update set hits = h.hits + 1
  returning h.hits into v_hits;
  if v_hits > p_per_minute then
    raise exception 'Too many requests with this token. Please wait a minute.'
      using errcode = 'RATEL', hint = 'tokens.rateLimited',
            detail = greatest(1, ceil(extract(epoch from v_minute + interval '1 minute' - now())))::int::text;
  end if;
  if v_hits = 1 then
    -- a new minute: last minute's counts are history
    delete from app_private.api_token_hits h where h.token_id = v_token.id and h.minute < v_minute;
    update app_private.api_tokens t set last_used_at = now() where t.id = v_token.id;
  end if;
  return query
  select u.id, u.email, u.is_admin, v_token.id, v_token.project_id, v_token.scopes
  from app_public.users u where u.id = v_token.user_id;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.user_api_tokens(p_user_id bigint)
 RETURNS TABLE(id bigint, name text, project_id bigint, scopes text[], created_at timestamp with time zone, last_used_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: the account's live tokens, newest first, never their secret */
  select t.id, t.name, t.project_id, t.scopes, t.created_at, t.last_used_at
  from app_private.api_tokens t
  where t.user_id = p_user_id and t.revoked_at is null
  order by t.id desc
$function$;
