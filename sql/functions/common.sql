-- Generated from the migrated database's catalog (sql/schema_files.ts): the current definitions of the common functions.
-- Read here; change a rule in a new migration (sql/migrations/current/), then regenerate.

CREATE OR REPLACE FUNCTION app_private.is_supported_timezone(p_zone text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  select p_zone in (
    'UTC', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Athens', 'Europe/Kaliningrad',
    'Europe/Moscow', 'Europe/Samara', 'Asia/Yekaterinburg', 'Asia/Omsk', 'Asia/Krasnoyarsk',
    'Asia/Irkutsk', 'Asia/Yakutsk', 'Asia/Vladivostok', 'Asia/Magadan', 'Asia/Kamchatka',
    'Asia/Dubai', 'Asia/Singapore', 'Asia/Tokyo', 'America/New_York', 'America/Chicago',
    'America/Denver', 'America/Los_Angeles', 'Australia/Sydney')
$function$;

CREATE OR REPLACE FUNCTION app_private.touch_updated_at()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
begin
  /* why: updated_at must move on every change, whoever makes it (API, worker, psql) */
  new.updated_at := now();
  return new;
end;
$function$;
