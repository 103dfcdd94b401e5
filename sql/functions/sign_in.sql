-- The sign in functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.hash_sign_in_code(p_salt text, p_code text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select encode(sha256(convert_to(p_salt || ':' || p_code, 'UTF8')), 'hex')
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_mails_to(p_email text)
 RETURNS integer
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: an invitation mail counts against the address's sign-in mail limit; the app may
     not read the codes (they are the owner's), so it gets their number in the last 10 minutes */
  select count(*)::int from app_private.sign_in_codes where email = p_email and created_at > now() - interval '10 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_public.count_sign_in_attempt(p_ip text, p_kind text, p_max integer)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: the per-address rules (3 codes, 5 tries) do not stop one client spraying requests
 * over many addresses. Each code request or check of a client IP counts here; over
 * p_max in 10 minutes it is refused (RATEL, the detail is the seconds to wait). Refused
 * attempts are not counted, so a client that keeps trying waits only the window.
 */
declare
  v_count int;
  v_oldest timestamptz;
begin
  perform pg_advisory_xact_lock(hashtextextended('sign_in_ip:' || p_kind || ':' || p_ip, 0));
  delete from app_private.sign_in_attempts where ip = p_ip and kind = p_kind and at <= now() - interval '10 minutes';
  select count(*), min(at) into v_count, v_oldest from app_private.sign_in_attempts where ip = p_ip and kind = p_kind;
  if v_count >= p_max then
    raise exception 'Too many sign-in attempts from this network. Please wait a few minutes and try again.'
      using errcode = 'RATEL', hint = 'auth.tooManyAttempts', detail = greatest(1, ceil(extract(epoch from v_oldest + interval '10 minutes' - now())))::int::text;
  end if;
  insert into app_private.sign_in_attempts (ip, kind) values (p_ip, p_kind);
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.delete_expired_sign_in_state()
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: expired sessions, old codes, old attempts and old AI counters only grow the tables */
  delete from app_private.sessions where expires_at < now();
  delete from app_private.sign_in_codes where created_at < now() - interval '1 day';
  delete from app_private.sign_in_attempts where at < now() - interval '1 day';
  delete from app_private.ai_calls where called_at < now() - interval '1 day';
  delete from app_private.ai_tokens where day < app_private.utc_today() - 7;
$function$;

CREATE OR REPLACE FUNCTION app_public.extend_session(p_session_id text)
 RETURNS timestamp with time zone
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: a used session lives session_ttl (30 days) from its last use, but never past 90 days from sign-in */
  update app_private.sessions set expires_at = least(now() + app_private.session_ttl(), created_at + interval '90 days')
  where id = p_session_id and expires_at > now()
  returning expires_at
$function$;

CREATE OR REPLACE FUNCTION app_public.request_sign_in_code(p_email text, p_code text)
 RETURNS boolean
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: issues a code for an e-mail and queues the mail in the same transaction. Answers
 * true (code already sent, nothing mailed) while a live code exists; refuses a 4th code
 * within 10 minutes. Known and unknown addresses take the same path.
 */
declare
  v_salt text := gen_random_uuid()::text;
  v_recent int;
begin
  -- one request per address at a time, so concurrent requests cannot exceed the limits
  perform pg_advisory_xact_lock(hashtextextended('sign_in_code:' || p_email, 0));
  if exists (
    select 1 from app_private.sign_in_codes
    where email = p_email and used_at is null and expires_at > now()
      and failed_attempts < app_private.sign_in_code_attempts_max()
  ) then
    return true;
  end if;
  select count(*) into v_recent from app_private.sign_in_codes
    where email = p_email and created_at > now() - interval '10 minutes';
  if v_recent >= 3 then
    raise exception 'Too many codes requested for this e-mail. Please wait 10 minutes and try again.'
      using errcode = 'RATEL', hint = 'auth.tooManyCodes';
  end if;
  insert into app_private.sign_in_codes (email, code_hash, salt, expires_at)
    values (p_email, app_private.hash_sign_in_code(v_salt, p_code), v_salt, now() + app_private.sign_in_code_ttl());
  perform graphile_worker.add_job(
    'sign_in_codes__send',
    json_build_object('email', p_email, 'code', p_code),
    max_attempts := 8
  );
  return false;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.revoke_session(p_session_id text)
 RETURNS void
 LANGUAGE sql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: logout must end the session on the server, not only drop the cookie */
  delete from app_private.sessions where id = p_session_id
$function$;

CREATE OR REPLACE FUNCTION app_public."session_user"(p_session_id text)
 RETURNS TABLE(id bigint, email text, is_admin boolean, expires_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
  /* why: one cheap read per request: the user behind a live session */
  select u.id, u.email, u.is_admin, s.expires_at
  from app_private.sessions s join app_public.users u on u.id = s.user_id
  where s.id = p_session_id and s.expires_at > now()
$function$;

CREATE OR REPLACE FUNCTION app_public.verify_sign_in_code(p_email text, p_code text, p_session_id text, p_make_admin boolean)
 RETURNS TABLE(id bigint, email text, is_admin boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO 'pg_catalog', 'public'
AS $function$
/*
 * why: checks the newest live code of an address. A wrong code counts an attempt (the
 * fifth kills the code) and answers no row instead of raising, so the count is kept.
 * The right code is spent, the user is created on first sign-in, and a session opens.
 */
declare
  v_code app_private.sign_in_codes;
  v_user app_public.users;
begin
  select * into v_code from app_private.sign_in_codes c
    where c.email = p_email and c.used_at is null and c.expires_at > now()
      and c.failed_attempts < app_private.sign_in_code_attempts_max()
    order by c.created_at desc limit 1
    for update;
  if not found then
    return;
  end if;
  if v_code.code_hash <> app_private.hash_sign_in_code(v_code.salt, p_code) then
    update app_private.sign_in_codes set failed_attempts = failed_attempts + 1 where sign_in_codes.id = v_code.id;
    return;
  end if;
  update app_private.sign_in_codes set used_at = now() where sign_in_codes.id = v_code.id;
  insert into app_public.users as u (email, is_admin) values (p_email, p_make_admin)
    on conflict on constraint users_email_key do update set is_admin = u.is_admin or excluded.is_admin
    returning * into v_user;
  insert into app_private.sessions (id, user_id, expires_at) values (p_session_id, v_user.id, now() + app_private.session_ttl());
  return query select v_user.id, v_user.email, v_user.is_admin;
end;
$function$;
