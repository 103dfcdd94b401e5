--! Previous: sha1:739463cf9715fc5c83a7ad7dee8f5176e58243e2
--! Hash: sha1:a34fdf24dbf06d74ce384ee63656a1b24c7a1b82
--! Message: API tokens: personal bearer tokens stored as hashes, for one project or all, read or read and write, counted per minute in PostgreSQL

--! split: 65-api-tokens.sql
-- Personal API tokens (docs/api.md): an account's, for one of its projects or all, read or
-- read+write. Stored as SHA-256 only, like sessions kept from the app role: the app reaches
-- them through SECURITY DEFINER functions that answer what a request needs and nothing more.
create table app_private.api_tokens (
  id bigint generated always as identity primary key,
  user_id bigint not null references app_public.users (id) on delete cascade,
  name text not null check (btrim(name) <> '' and length(name) <= 100),
  project_id bigint references app_public.projects (id) on delete cascade,
  scopes text[] not null check (scopes = '{read}' or scopes = '{read,write}'),
  token_hash bytea not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_tokens_user_idx on app_private.api_tokens (user_id, id desc);

-- each token's requests per minute, counted where every API instance sees them
create table app_private.api_token_hits (
  token_id bigint not null references app_private.api_tokens (id) on delete cascade,
  minute timestamptz not null,
  hits integer not null default 0,
  primary key (token_id, minute)
);
revoke all on app_private.api_tokens, app_private.api_token_hits from pressa_app;

--! split: 66-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
