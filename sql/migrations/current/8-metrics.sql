-- Metrics (GET /metrics, README "Metrics"): what the series are computed from lives here, so
-- every API instance answers the same numbers whichever of them is scraped.

-- A histogram per row: `buckets[i]` counts the observations ≤ `bounds[i]` (cumulative, as
-- Prometheus exposes them); +Inf is `observations`. Counters since the table was created.
create table if not exists app_private.metric_histograms (
  name text primary key,
  bounds double precision[] not null,
  buckets bigint[] not null,
  total double precision not null default 0,
  observations bigint not null default 0,
  constraint metric_histograms_shape check (cardinality(bounds) = cardinality(buckets) and cardinality(bounds) > 0)
);

insert into app_private.metric_histograms (name, bounds, buckets) values
  -- on time is under a second (500 ms polling); a channel's budget defers by up to a minute;
  -- a worker outage or a flood wait shows in the long tail
  ('publish_lateness_seconds', '{0.5,1,2,5,10,30,60,120,300,900,3600}', array_fill(0::bigint, array[11])),
  -- README's fairness target is 2 s under a burst
  ('sign_in_mail_delay_seconds', '{0.25,0.5,1,2,5,10,30,60,300}', array_fill(0::bigint, array[9]))
on conflict (name) do nothing;

-- Telegram calls by method and result, added in batches by each process (core/telegram/call_counts.ts).
-- Unlogged: no WAL for a counter; a crash of PostgreSQL empties it, which Prometheus reads as
-- a counter reset.
create unlogged table if not exists app_private.telegram_call_counts (
  method text not null,
  result text not null,
  calls bigint not null default 0,
  primary key (method, result),
  constraint telegram_call_counts_result_check check (result in ('ok', 'rate_limited', 'refused', 'unreachable'))
);
