-- A post's reason is stored as a code with its params (contract/post_reasons.ts), worded
-- by whoever shows it; the English sentences of last_error are mapped to codes once, here,
-- and the column goes (nothing may read a reason back from its words again).
alter table app_public.posts add column if not exists last_error_code text;
alter table app_public.posts add column if not exists last_error_params jsonb not null default '{}';

do $migration$
begin
  if exists (select 1 from information_schema.columns
             where table_schema = 'app_public' and table_name = 'posts' and column_name = 'last_error') then
    update app_public.posts p set last_error_code = coalesce(m.code, 'posts.error.other'),
      last_error_params = coalesce(m.params, jsonb_build_object('text', p.last_error))
    from app_public.posts p0
    left join lateral (
      select f.code,
        (select coalesce(jsonb_object_agg(f.names[i], x.g[i]), '{}') from generate_subscripts(f.names, 1) i) as params
      from (values
        (1, '^@(.*?) is no longer an administrator of (.*) who may post messages$', 'posts.error.approverLost', array['handle', 'channel']),
        (2, '^The bot is no longer an administrator of (.*) who may post messages$', 'posts.error.botLost', array['channel']),
        (3, '^The channel (.*) was disconnected before this post went out; publish it again to send it for approval$',
            'posts.error.channelDisconnected', array['channel']),
        (4, '^The channel changed after this post was approved; publish it again to send it for approval$', 'posts.error.channelChanged', array[]::text[]),
        (5, '^The Telegram bot is not configured on the server$', 'posts.error.botNotConfigured', array[]::text[]),
        (6, '^The project has no connected channel$', 'posts.error.noChannel', array[]::text[]),
        (7, '^The project''s admin has not messaged the bot yet$', 'posts.error.adminNotRegistered', array[]::text[]),
        (8, '^The post''s image is missing from storage$', 'posts.error.imageMissing', array[]::text[]),
        (9, '^The worker stopped while sending; the post may or may not be in the channel$', 'posts.error.workerStopped', array[]::text[]),
        (9, '^The database went away while the post was being sent; it may or may not be in the channel$', 'posts.error.databaseLost', array[]::text[]),
        (10, '^schedule\.seriesOutOfDrafts$', 'schedule.seriesOutOfDrafts', array[]::text[]),
        (11, '^Connect a channel before publishing$', 'schedule.noChannelToPublish', array[]::text[]),
        (12, '^schedule\.captionTooLong: (\d+)/(\d+)$', 'schedule.captionTooLong', array['current', 'max']),
        (13, '^The AI could not write this post \((.*)\); it keeps its draft as it is$', 'posts.error.autopilotNoAi', array['reason']),
        (14, '^Telegram: (.*) \(the photo is in the channel; the text may not be\)$', 'posts.error.textUncertain', array['description']),
        (15, '^Telegram: (.*)\. The photo went out without its text and could not be removed: (.*)$', 'posts.error.photoAlone',
             array['description', 'removal']),
        (16, '^Telegram refused to deliver the approval request: (.*)$', 'posts.error.approvalUndelivered', array['description']),
        (17, '^Telegram refused the edit: (.*)$', 'posts.error.editRefused', array['description']),
        (18, '^Telegram: (.*)$', 'posts.error.telegram', array['description'])
      ) f(rank, pattern, code, names)
      cross join lateral (select regexp_match(p0.last_error, f.pattern, 's') as g) x
      where x.g is not null
      order by f.rank
      limit 1
    ) m on true
    where p.id = p0.id and p0.last_error is not null;

    -- the numbers stay numbers, as claim_post_for_approval writes them now
    update app_public.posts set last_error_params = jsonb_build_object(
      'current', (last_error_params ->> 'current')::int, 'max', (last_error_params ->> 'max')::int)
    where last_error_code = 'schedule.captionTooLong';

    -- the AI's failure is the code of its message (the words of the catalogue at this time)
    update app_public.posts p set last_error_params = jsonb_build_object('reason', ai.code)
    from (values
      ('AI is not configured on this server: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for another OpenAI-compatible server such as Ollama or vLLM), then restart.', 'ai.notConfigured'),
      ('Too many AI requests from this account. Please wait a minute and try again.', 'ai.rateLimited'),
      ('The daily AI budget of this account is spent. It renews at midnight UTC.', 'ai.dailyBudgetSpent'),
      ('The AI has reached this service''s daily limit for all accounts. It renews at midnight UTC.', 'ai.globalDailyLimit'),
      ('The request was cancelled.', 'ai.aborted'),
      ('The AI took too long to answer. Please try again.', 'ai.timeout'),
      ('The AI server cannot be reached right now. Please try again later.', 'ai.unreachable'),
      ('The AI server refused our API key: check OPENAI_API_KEY.', 'ai.unauthorized'),
      ('The AI server does not know the model set in OPENAI_MODEL.', 'ai.modelNotFound'),
      ('The AI provider is busy (rate limit reached). Please try again in a minute.', 'ai.providerBusy'),
      ('The AI provider had an error. Please try again.', 'ai.unavailable'),
      ('The AI provider refused the request. Please try again.', 'ai.badRequest'),
      ('The AI request failed. Please try again.', 'ai.failed'),
      ('The AI returned an empty answer. Please try again.', 'ai.emptyAnswer')
    ) ai(message, code)
    where p.last_error_code = 'posts.error.autopilotNoAi' and p.last_error_params ->> 'reason' = ai.message;

    alter table app_public.posts drop column last_error;
  end if;
end
$migration$;

-- The worker reads reasons as code and params too.
alter type app_public.post_delivery drop attribute if exists last_error;
do $migration$
begin
  if not exists (select 1 from pg_attribute
                 where attrelid = 'app_public.post_delivery'::regclass and attname = 'last_error_code' and not attisdropped) then
    alter type app_public.post_delivery add attribute last_error_code text, add attribute last_error_params jsonb;
  end if;
end
$migration$;

-- Each function that records a reason takes its code and params instead of its words.
drop function if exists app_public.fail_post_for_channel_rights(bigint, text);
drop function if exists app_private.withdraw_approvals(bigint, text, text);
drop function if exists app_private.withdraw_approval(bigint, text);
drop function if exists app_public.record_approval_failed(bigint, text);
drop function if exists app_public.record_edit_failed(bigint, text);
drop function if exists app_public.record_send_failed(bigint, text, boolean);
drop function if exists app_public.record_autopilot_content(bigint, text, jsonb, text);
drop function if exists app_public.owner_notification(bigint, text, bigint);

-- The low-queue threshold is the autopilot's (sql/functions/autopilot.sql), named as what it is.
drop function if exists app_private.queue_low_days_max();
