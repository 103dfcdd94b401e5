--! Previous: sha1:ff0230f7103688c557c0ab48157bc60749ae280f
--! Hash: sha1:0285b74e2333cb11ef63f2e9bc58569558b387b7
--! Message: health: worker and bot liveness

create or replace function app_public.health() returns table (worker_alive boolean, bot_alive boolean, bot_seen boolean)
language sql stable as $$
  /* why: GET /api/health reports the worker and the bot from their heartbeats (the bot's
     are named bot:<pid>); bot_seen tells "never started" from "stopped" */
  select
    exists (select 1 from app_private.worker_heartbeats where worker_id not like 'bot:%' and seen_at > now() - interval '10 seconds'),
    exists (select 1 from app_private.worker_heartbeats where worker_id like 'bot:%' and seen_at > now() - interval '30 seconds'),
    exists (select 1 from app_private.worker_heartbeats where worker_id like 'bot:%')
$$;
