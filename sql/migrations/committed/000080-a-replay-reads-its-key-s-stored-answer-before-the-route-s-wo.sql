--! Previous: sha1:f43959d15447eeb40d7be12fbcd07f632f887043
--! Hash: sha1:b548812ddcf2cd766de1d5114dd91b03f1aa2b06
--! Message: A replay reads its key's stored answer before the route's work outside the database (a question to Telegram) and before any transaction

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

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
