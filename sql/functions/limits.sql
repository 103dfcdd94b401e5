-- The limits functions. This file is their source: change a function here (a new one goes
-- in the file of its area, FUNCTION_AREAS in sql/schema_files.ts), then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"
-- A drop, a changed signature, tables and data go in sql/migrations/current/.

CREATE OR REPLACE FUNCTION app_private.approver_request_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long an approver's Allow/Deny request stays open (APPROVER_REQUEST_TTL_HOURS in TypeScript) */
  select interval '24 hours'
$function$;

CREATE OR REPLACE FUNCTION app_private.bulk_add_lines_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the titles one bulk add may hold (BULK_ADD_MAX_LINES in TypeScript) */
  select 30
$function$;

CREATE OR REPLACE FUNCTION app_private.content_plan_slots_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the slots one project's weekly content plan may hold (CONTENT_PLAN_SLOTS_MAX in TypeScript) */
  select 50
$function$;

CREATE OR REPLACE FUNCTION app_private.default_timezone()
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the timezone a project or a slot gets when none is given, in one place for every
     function and column default (DEFAULT_TIMEZONE in TypeScript) */
  select 'Europe/Moscow'::text
$function$;

CREATE OR REPLACE FUNCTION app_private.drafts_per_generation_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the drafts one generation job may fill (DRAFTS_PER_GENERATION_MAX in TypeScript) */
  select 30
$function$;

CREATE OR REPLACE FUNCTION app_private.generated_post_length_default()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the post length a job asks for when it names none (GENERATED_POST_LENGTH.default in TypeScript) */
  select 1500
$function$;

CREATE OR REPLACE FUNCTION app_private.photo_caption_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: Telegram's longest photo caption (PHOTO_CAPTION_MAX in TypeScript) */
  select 1024
$function$;

CREATE OR REPLACE FUNCTION app_private.post_text_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: Telegram's longest message text (POST_CONTENT_MAX in TypeScript) */
  select 4096
$function$;

CREATE OR REPLACE FUNCTION app_private.queue_forecast_days_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how far ahead the queue's forecast looks; a queue lasting longer "lasts over N days"
     (QUEUE_FORECAST_DAYS in TypeScript) */
  select 60
$function$;

CREATE OR REPLACE FUNCTION app_private.series_ends_after_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the most posts a series may be set to end after (SERIES_ENDS_AFTER_MAX in TypeScript;
     posts_series_ends_after_check says the same) */
  select 1000
$function$;

CREATE OR REPLACE FUNCTION app_private.series_horizon_days_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how far ahead a series' occurrences are stepped through: the next spawn is looked
     for within it, and a date beyond it cannot be skipped, so no request steps a series
     further (SERIES_HORIZON_DAYS in TypeScript) */
  select 400
$function$;

CREATE OR REPLACE FUNCTION app_private.series_per_project_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the recurring series one project may hold; each is stepped through by the queue's
     forecast, so their number bounds what one read of it costs (SERIES_PER_PROJECT_MAX in
     TypeScript) */
  select 50
$function$;

CREATE OR REPLACE FUNCTION app_private.series_skips_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: future dates one series may skip (SERIES_SKIPS_MAX in TypeScript; posts_series_skips_check
     says the same) */
  select 100
$function$;

CREATE OR REPLACE FUNCTION app_private.session_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long a session lives after its last use (SESSION_TTL_DAYS, the cookie's Max-Age) */
  select interval '30 days'
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_code_attempts_max()
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: the wrong tries that kill a sign-in code, counted where codes are issued and checked */
  select 5
$function$;

CREATE OR REPLACE FUNCTION app_private.sign_in_code_ttl()
 RETURNS interval
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: how long a sign-in code is valid (SIGN_IN_CODE_TTL_MINUTES: the mail says it) */
  select interval '10 minutes'
$function$;

CREATE OR REPLACE FUNCTION app_private.supported_timezones()
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  /* why: spec §3, UTC plus 23 cities, in the order the SPA lists them (TIMEZONES in
     TypeScript; tests/sql/limits.test.ts keeps each limit equal to its twin) */
  select array[
    'UTC', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Athens', 'Europe/Kaliningrad',
    'Europe/Moscow', 'Europe/Samara', 'Asia/Yekaterinburg', 'Asia/Omsk', 'Asia/Krasnoyarsk',
    'Asia/Irkutsk', 'Asia/Yakutsk', 'Asia/Vladivostok', 'Asia/Magadan', 'Asia/Kamchatka',
    'Asia/Dubai', 'Asia/Singapore', 'Asia/Tokyo', 'America/New_York', 'America/Chicago',
    'America/Denver', 'America/Los_Angeles', 'Australia/Sydney']
$function$;
