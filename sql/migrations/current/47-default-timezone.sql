-- The default timezone has one home in SQL, app_private.default_timezone() (its source is
-- sql/functions/limits.sql; restated here because the column defaults below name it and the
-- migrations run before the function files). The value is unchanged: Europe/Moscow.
create or replace function app_private.default_timezone()
 returns text
 language sql
 immutable parallel safe
as $function$
  /* why: the timezone a project or a slot gets when none is given, in one place for every
     function and column default (DEFAULT_TIMEZONE in TypeScript) */
  select 'Europe/Moscow'::text
$function$;

alter table app_public.projects alter column timezone set default app_private.default_timezone();
alter table app_public.content_plans alter column timezone set default app_private.default_timezone();
