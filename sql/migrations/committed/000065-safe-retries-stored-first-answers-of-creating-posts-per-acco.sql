--! Previous: sha1:a34fdf24dbf06d74ce384ee63656a1b24c7a1b82
--! Hash: sha1:5737ad14d50c3350bb6a9a95c3548e2f01ffe42c
--! Message: Safe retries: stored first answers of creating POSTs per account and Idempotency-Key for 24 hours, and each draft's and post's version for If-Match

--! split: 66-idempotency.sql
-- Safe retries (docs/api.md): the first answer to a creating POST with an Idempotency-Key,
-- kept per account for 24 hours, written in the creation's own transaction.
create table app_private.idempotency_keys (
  user_id bigint not null references app_public.users (id) on delete cascade,
  key text not null check (length(key) between 1 and 255),
  -- SHA-256 of the method, the path and the body: another body under the same key is refused
  fingerprint bytea not null,
  status integer,
  answer text,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
create index idempotency_keys_age_idx on app_private.idempotency_keys (created_at);

--! split: 67-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.etag(p_id bigint, p_updated_at timestamp with time zone)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: a draft's or a post's version as an HTTP entity tag: it moves with every change (updated_at is touched by every update, whoever makes it) */
  select '"' || md5(p_id::text || ':' || (extract(epoch from p_updated_at) * 1000000)::bigint::text) || '"'
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

CREATE OR REPLACE FUNCTION app_public.prune_idempotency_keys()
 RETURNS integer
 LANGUAGE sql
AS $function$
  /* why: answers are replayed for 24 hours; older ones are only weight */
  with gone as (delete from app_private.idempotency_keys where created_at <= now() - interval '24 hours' returning 1)
  select count(*)::int from gone
$function$;
