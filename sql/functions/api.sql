-- The api functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.etag(p_id bigint, p_updated_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: a draft's or a post's version as an HTTP entity tag: it moves with every change (updated_at is touched by every update, whoever makes it) */
  select '"' || md5(p_id::text || ':' || (extract(epoch from p_updated_at) * 1000000)::bigint::text) || '"'
$function$;

CREATE OR REPLACE FUNCTION app_public.begin_idempotent(p_user_id bigint, p_key text, p_fingerprint bytea)
 RETURNS TABLE(status integer, answer text, mismatch boolean)
 LANGUAGE plpgsql
AS $function$
/*
 * why: the first request with a key claims it (no row answered: go on, in this transaction,
 * and finish_idempotent stores the answer in it). A request while the first still runs waits
 * here for it (the claim is an uncommitted row), then answers what it answered; a first that
 * failed left nothing, so the retry runs. A stored answer replays for 24 hours; another body
 * under the key is a mismatch.
 */
#variable_conflict use_column
begin
  delete from app_private.idempotency_keys k
  where k.user_id = p_user_id and k.key = p_key and k.created_at <= now() - interval '24 hours';
  insert into app_private.idempotency_keys (user_id, key, fingerprint) values (p_user_id, p_key, p_fingerprint)
  on conflict (user_id, key) do nothing;
  if found then
    return;
  end if;
  return query select k.status, k.answer, k.fingerprint <> p_fingerprint
  from app_private.idempotency_keys k where k.user_id = p_user_id and k.key = p_key;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.finish_idempotent(p_user_id bigint, p_key text, p_status integer, p_answer text)
 RETURNS void
 LANGUAGE sql
AS $function$
  /* why: the answer a replay gives, stored in the creation's transaction: both or neither */
  update app_private.idempotency_keys set status = p_status, answer = p_answer
  where user_id = p_user_id and key = p_key
$function$;

CREATE OR REPLACE FUNCTION app_public.idempotent_answer(p_user_id bigint, p_key text, p_fingerprint bytea)
 RETURNS TABLE(status integer, answer text, mismatch boolean)
 LANGUAGE sql
 STABLE
AS $function$
  /* why: a key's stored answer read before anything else runs, so a replay answers at once and
     repeats none of the first request's work outside the database (a question to Telegram);
     none while the key is free, claimed by a request still running, or older than 24 hours */
  select k.status, k.answer, k.fingerprint <> p_fingerprint
  from app_private.idempotency_keys k
  where k.user_id = p_user_id and k.key = p_key and k.status is not null and k.created_at > now() - interval '24 hours'
$function$;

CREATE OR REPLACE FUNCTION app_public.lock_current_etag(p_user_id bigint, p_project_id bigint, p_kind text, p_id bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
/* why: If-Match is compared with the row locked until the update in the same transaction
   commits, so two clients holding one version cannot both change it; a non-member learns
   nothing (404 before any version is read) */
declare
  v_etag text;
begin
  perform app_private.authorize(p_user_id, p_project_id, 'project.read');
  if p_kind = 'draft' then
    select app_private.etag(d.id, d.updated_at) into v_etag from app_public.drafts d
    where d.id = p_id and d.project_id = p_project_id for update;
    if v_etag is null then
      raise exception 'Draft not found' using errcode = 'NTFND', hint = 'drafts.notFound';
    end if;
  else
    select app_private.etag(p.id, p.updated_at) into v_etag from app_public.posts p
    where p.id = p_id and p.project_id = p_project_id for update;
    if v_etag is null then
      raise exception 'Post not found' using errcode = 'NTFND', hint = 'posts.notFound';
    end if;
  end if;
  return v_etag;
end;
$function$;

CREATE OR REPLACE FUNCTION app_public.prune_idempotency_keys()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: answers are replayed for 24 hours; older ones are only weight */
  with gone as (delete from app_private.idempotency_keys where created_at <= now() - interval '24 hours' returning 1)
  select count(*)::int from gone
$function$;
