--! Previous: sha1:0285b74e2333cb11ef63f2e9bc58569558b387b7
--! Hash: sha1:d9320124932b872ceb952ddc8ba1b7ed5325e278
--! Message: sessions: read without writing on every request

/*
 * The session lookup runs on every request. It only reads now; the API extends the
 * session (rarely: when less than half of its 30 days is left) with extend_session.
 */
drop function if exists app_public.session_user(text);
create function app_public.session_user(p_session_id text)
returns table (id bigint, email text, is_admin boolean, expires_at timestamptz)
language sql stable security definer set search_path = pg_catalog, public as $$
  /* why: one cheap read per request: the user behind a live session */
  select u.id, u.email, u.is_admin, s.expires_at
  from app_private.sessions s join app_public.users u on u.id = s.user_id
  where s.id = p_session_id and s.expires_at > now()
$$;

create or replace function app_public.extend_session(p_session_id text) returns timestamptz
language sql volatile security definer set search_path = pg_catalog, public as $$
  /* why: a used session lives 30 days from its last use (sliding expiry) */
  update app_private.sessions set expires_at = now() + interval '30 days'
  where id = p_session_id and expires_at > now()
  returning expires_at
$$;
