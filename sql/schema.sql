-- Generated from the migrated database's catalog (sql/schema_files.ts): tables, constraints, indexes, triggers and types.
-- Read here; change them in sql/migrations/current/, then commit the change with
--   npx deno run -A scripts/migrations.ts commit "what it does"

create table app_private.ai_calls (
  user_id bigint not null,
  called_at timestamp with time zone default now() not null,
  constraint ai_calls_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX ai_calls_user_idx ON app_private.ai_calls USING btree (user_id, called_at);

create table app_private.ai_reservations (
  id bigint generated always as identity not null,
  user_id bigint not null,
  tokens bigint not null,
  reserved_at timestamp with time zone default now() not null,
  constraint ai_reservations_pkey PRIMARY KEY (id),
  constraint ai_reservations_tokens_check CHECK ((tokens >= 0)),
  constraint ai_reservations_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX ai_reservations_user ON app_private.ai_reservations USING btree (user_id, reserved_at);

create table app_private.ai_tokens (
  user_id bigint not null,
  day date not null,
  tokens bigint default 0 not null,
  constraint ai_tokens_pkey PRIMARY KEY (user_id, day),
  constraint ai_tokens_tokens_check CHECK ((tokens >= 0)),
  constraint ai_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);

create table app_private.ai_tokens_total (
  day date not null,
  tokens bigint default 0 not null,
  constraint ai_tokens_total_pkey PRIMARY KEY (day),
  constraint ai_tokens_total_tokens_check CHECK ((tokens >= 0))
);

create table app_private.api_token_hits (
  token_id bigint not null,
  minute timestamp with time zone not null,
  hits integer default 0 not null,
  constraint api_token_hits_pkey PRIMARY KEY (token_id, minute),
  constraint api_token_hits_token_id_fkey FOREIGN KEY (token_id) REFERENCES app_private.api_tokens(id) ON DELETE CASCADE
);

create table app_private.api_tokens (
  id bigint generated always as identity not null,
  user_id bigint not null,
  name text not null,
  project_id bigint,
  scopes text[] not null,
  token_hash bytea not null,
  created_at timestamp with time zone default now() not null,
  last_used_at timestamp with time zone,
  revoked_at timestamp with time zone,
  constraint api_tokens_name_check CHECK (((btrim(name) <> ''::text) AND (length(name) <= 100))),
  constraint api_tokens_pkey PRIMARY KEY (id),
  constraint api_tokens_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint api_tokens_scopes_check CHECK (((scopes = '{read}'::text[]) OR (scopes = '{read,write}'::text[]))),
  constraint api_tokens_token_hash_key UNIQUE (token_hash),
  constraint api_tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX api_tokens_user_idx ON app_private.api_tokens USING btree (user_id, id DESC);

create table app_private.channel_stats (
  channel_id bigint not null,
  subscribers integer,
  sampled_at timestamp with time zone,
  salt bytea default decode(replace((gen_random_uuid())::text, '-'::text, ''::text), 'hex'::text) not null,
  constraint channel_stats_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint channel_stats_pkey PRIMARY KEY (channel_id),
  constraint channel_stats_subscribers_check CHECK ((subscribers >= 0))
);

create table app_private.idempotency_keys (
  user_id bigint not null,
  key text not null,
  fingerprint bytea not null,
  status integer,
  answer text,
  created_at timestamp with time zone default now() not null,
  constraint idempotency_keys_key_check CHECK (((length(key) >= 1) AND (length(key) <= 255))),
  constraint idempotency_keys_pkey PRIMARY KEY (user_id, key),
  constraint idempotency_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX idempotency_keys_age_idx ON app_private.idempotency_keys USING btree (created_at);

create table app_private.link_members (
  channel_id bigint not null,
  member_hash bytea not null,
  invite_link_id bigint not null,
  joined_at timestamp with time zone not null,
  constraint link_members_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint link_members_invite_link_id_fkey FOREIGN KEY (invite_link_id) REFERENCES app_public.invite_links(id) ON DELETE CASCADE,
  constraint link_members_pkey PRIMARY KEY (channel_id, member_hash)
);
CREATE INDEX link_members_link_idx ON app_private.link_members USING btree (invite_link_id);

create table app_private.list_versions (
  project_id bigint not null,
  drafts bigint default 0 not null,
  content_plans bigint default 0 not null,
  constraint list_versions_pkey PRIMARY KEY (project_id),
  constraint list_versions_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);

create table app_private.member_buckets (
  channel_id bigint not null,
  bucket timestamp with time zone not null,
  joins integer default 0 not null,
  leaves integer default 0 not null,
  constraint member_buckets_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint member_buckets_pkey PRIMARY KEY (channel_id, bucket)
);

create table app_private.member_events (
  id bigint generated always as identity not null,
  channel_id bigint not null,
  update_id bigint not null,
  happened_at timestamp with time zone not null,
  member_hash bytea not null,
  kind text not null,
  invite_link_id bigint,
  recorded_at timestamp with time zone default now() not null,
  constraint member_events_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint member_events_invite_link_id_fkey FOREIGN KEY (invite_link_id) REFERENCES app_public.invite_links(id) ON DELETE SET NULL,
  constraint member_events_kind_check CHECK ((kind = ANY (ARRAY['join'::text, 'leave'::text]))),
  constraint member_events_pkey PRIMARY KEY (id)
);
CREATE INDEX member_events_link_idx ON app_private.member_events USING btree (invite_link_id) WHERE (invite_link_id IS NOT NULL);
CREATE INDEX member_events_recorded_idx ON app_private.member_events USING btree (recorded_at);
CREATE UNIQUE INDEX member_events_content_key ON app_private.member_events USING btree (channel_id, member_hash, happened_at, kind);
CREATE UNIQUE INDEX member_events_update_key ON app_private.member_events USING btree (channel_id, update_id);

create table app_private.message_reactions (
  channel_id bigint not null,
  message_id bigint not null,
  reactions jsonb not null,
  total integer not null,
  reacted_at timestamp with time zone not null,
  update_id bigint not null,
  constraint message_reactions_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint message_reactions_pkey PRIMARY KEY (channel_id, message_id),
  constraint message_reactions_reactions_check CHECK ((jsonb_typeof(reactions) = 'object'::text)),
  constraint message_reactions_total_check CHECK ((total >= 0))
);

create table app_private.metric_histograms (
  name text not null,
  bounds double precision[] not null,
  buckets bigint[] not null,
  total double precision default 0 not null,
  observations bigint default 0 not null,
  constraint metric_histograms_pkey PRIMARY KEY (name),
  constraint metric_histograms_shape CHECK (((cardinality(bounds) = cardinality(buckets)) AND (cardinality(bounds) > 0)))
);

create table app_private.notifications_sent (
  project_id bigint not null,
  kind text not null,
  day date not null,
  post_id bigint,
  created_at timestamp with time zone default now() not null,
  constraint notifications_sent_kind_check CHECK ((kind = ANY (ARRAY['queueLow'::text, 'postFailed'::text, 'postRejected'::text, 'channelLost'::text, 'webhookDisabled'::text]))),
  constraint notifications_sent_pkey PRIMARY KEY (project_id, kind, day),
  constraint notifications_sent_post_id_fkey FOREIGN KEY (post_id) REFERENCES app_public.posts(id) ON DELETE SET NULL,
  constraint notifications_sent_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);

create table app_private.plan_fills (
  plan_id bigint not null,
  slot_at timestamp with time zone not null,
  post_id bigint,
  created_at timestamp with time zone default now() not null,
  constraint plan_fills_pkey PRIMARY KEY (plan_id, slot_at),
  constraint plan_fills_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES app_public.content_plans(id) ON DELETE CASCADE,
  constraint plan_fills_post_id_fkey FOREIGN KEY (post_id) REFERENCES app_public.posts(id) ON DELETE SET NULL
);
CREATE INDEX plan_fills_post_idx ON app_private.plan_fills USING btree (post_id) WHERE (post_id IS NOT NULL);

create table app_private.posts_versions (
  project_id bigint not null,
  version bigint default 1 not null,
  constraint posts_versions_pkey PRIMARY KEY (project_id),
  constraint posts_versions_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);

create table app_private.role_actions (
  role text not null,
  action text not null,
  constraint role_actions_pkey PRIMARY KEY (role, action),
  constraint role_actions_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'editor'::text, 'author'::text, 'viewer'::text])))
);

create table app_private.sessions (
  id text not null,
  user_id bigint not null,
  expires_at timestamp with time zone not null,
  created_at timestamp with time zone default now() not null,
  constraint sessions_id_check CHECK ((id ~ '^[0-9a-f]{64}$'::text)),
  constraint sessions_pkey PRIMARY KEY (id),
  constraint sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX sessions_expires_at_idx ON app_private.sessions USING btree (expires_at);
CREATE INDEX sessions_user_id_idx ON app_private.sessions USING btree (user_id);

create table app_private.sign_in_attempts (
  ip text not null,
  kind text not null,
  at timestamp with time zone default now() not null,
  constraint sign_in_attempts_ip_check CHECK ((length(ip) <= 100)),
  constraint sign_in_attempts_kind_check CHECK ((kind = ANY (ARRAY['request'::text, 'verify'::text])))
);
CREATE INDEX sign_in_attempts_ip_idx ON app_private.sign_in_attempts USING btree (ip, kind, at);

create table app_private.sign_in_codes (
  id bigint generated always as identity not null,
  email text not null,
  code_hash text not null,
  salt text not null,
  failed_attempts integer default 0 not null,
  expires_at timestamp with time zone not null,
  used_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint sign_in_codes_code_hash_check CHECK ((code_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint sign_in_codes_email_check CHECK ((email = lower(btrim(email)))),
  constraint sign_in_codes_failed_attempts_check CHECK (((failed_attempts >= 0) AND (failed_attempts <= 5))),
  constraint sign_in_codes_pkey PRIMARY KEY (id)
);
CREATE INDEX sign_in_codes_email_created_idx ON app_private.sign_in_codes USING btree (email, created_at DESC);

create table app_private.subscriber_samples (
  channel_id bigint not null,
  sampled_at timestamp with time zone not null,
  subscribers integer not null,
  constraint subscriber_samples_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint subscriber_samples_pkey PRIMARY KEY (channel_id, sampled_at),
  constraint subscriber_samples_subscribers_check CHECK ((subscribers >= 0))
);

create unlogged table app_private.telegram_call_counts (
  method text not null,
  result text not null,
  calls bigint default 0 not null,
  constraint telegram_call_counts_pkey PRIMARY KEY (method, result),
  constraint telegram_call_counts_result_check CHECK ((result = ANY (ARRAY['ok'::text, 'rate_limited'::text, 'refused'::text, 'unreachable'::text])))
);

create unlogged table app_private.telegram_sends (
  bot_id text not null,
  chat_key text not null,
  send_at timestamp with time zone not null
);
CREATE INDEX telegram_sends_idx ON app_private.telegram_sends USING btree (bot_id, chat_key, send_at);

create unlogged table app_private.telegram_slots (
  bot_id text not null,
  send_at timestamp with time zone not null
);
CREATE INDEX telegram_slots_idx ON app_private.telegram_slots USING btree (bot_id, send_at);

create table app_private.telegram_updates (
  update_id bigint not null,
  body jsonb not null,
  received_at timestamp with time zone default now() not null,
  claimed_by text,
  claimed_at timestamp with time zone,
  handled_at timestamp with time zone,
  constraint telegram_updates_pkey PRIMARY KEY (update_id)
);
CREATE INDEX telegram_updates_handled ON app_private.telegram_updates USING btree (handled_at) WHERE (handled_at IS NOT NULL);
CREATE INDEX telegram_updates_waiting ON app_private.telegram_updates USING btree (update_id) WHERE (handled_at IS NULL);

create table app_private.telegram_webhooks (
  bot_id text not null,
  url text not null,
  secret_digest text not null,
  registered_at timestamp with time zone default now() not null,
  constraint telegram_webhooks_pkey PRIMARY KEY (bot_id)
);

create table app_private.uploads (
  key text not null,
  project_id bigint,
  user_id bigint,
  content_type text not null,
  size_bytes integer not null,
  created_at timestamp with time zone default now() not null,
  constraint uploads_key_check CHECK ((key ~ '^[A-Za-z0-9_-]{16,64}\.(png|jpg|webp|gif)$'::text)),
  constraint uploads_key_project_key UNIQUE (key, project_id),
  constraint uploads_pkey PRIMARY KEY (key),
  constraint uploads_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint uploads_size_bytes_check CHECK ((size_bytes > 0)),
  constraint uploads_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE SET NULL
);
CREATE INDEX uploads_created_idx ON app_private.uploads USING btree (created_at);
CREATE INDEX uploads_project_idx ON app_private.uploads USING btree (project_id);
CREATE INDEX uploads_user_idx ON app_private.uploads USING btree (user_id);

create table app_private.webhook_secrets (
  webhook_id bigint not null,
  secret text not null,
  constraint webhook_secrets_pkey PRIMARY KEY (webhook_id),
  constraint webhook_secrets_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES app_public.webhooks(id) ON DELETE CASCADE
);

create table app_private.weekly_summaries_sent (
  project_id bigint not null,
  week date not null,
  created_at timestamp with time zone default now() not null,
  constraint weekly_summaries_sent_pkey PRIMARY KEY (project_id, week),
  constraint weekly_summaries_sent_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);

create table app_private.worker_heartbeats (
  worker_id text not null,
  seen_at timestamp with time zone default now() not null,
  constraint worker_heartbeats_pkey PRIMARY KEY (worker_id)
);

create table app_public.activity (
  id bigint generated always as identity not null,
  project_id bigint not null,
  at timestamp with time zone default now() not null,
  actor_type text not null,
  actor_user_id bigint,
  actor_telegram_id bigint,
  actor_handle text,
  action text not null,
  target_type text not null,
  target_id bigint,
  details jsonb default '{}'::jsonb not null,
  constraint activity_actor_type_check CHECK ((actor_type = ANY (ARRAY['user'::text, 'telegram'::text, 'system'::text]))),
  constraint activity_actor_user_id_fkey FOREIGN KEY (actor_user_id) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint activity_pkey PRIMARY KEY (id),
  constraint activity_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE
);
CREATE INDEX activity_project_actor_idx ON app_public.activity USING btree (project_id, actor_user_id, id DESC) WHERE (actor_user_id IS NOT NULL);
CREATE INDEX activity_project_idx ON app_public.activity USING btree (project_id, id DESC);
CREATE TRIGGER _300_webhooks AFTER INSERT ON app_public.activity FOR EACH ROW EXECUTE FUNCTION app_private.queue_webhook_deliveries();

create table app_public.admin_chat_ids (
  id bigint generated always as identity not null,
  admin_handle text not null,
  chat_id bigint not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint admin_chat_ids_admin_handle_check CHECK ((admin_handle ~ '^[a-z0-9_]{5,64}$'::text)),
  constraint admin_chat_ids_handle_key UNIQUE (admin_handle),
  constraint admin_chat_ids_pkey PRIMARY KEY (id)
);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.admin_chat_ids FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();

create table app_public.approver_blocks (
  approver_user_id bigint not null,
  user_id bigint not null,
  created_at timestamp with time zone default now() not null,
  constraint approver_blocks_pkey PRIMARY KEY (approver_user_id, user_id),
  constraint approver_blocks_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX approver_blocks_user_id_idx ON app_public.approver_blocks USING btree (user_id);

create table app_public.approver_requests (
  id bigint generated always as identity not null,
  channel_id bigint not null,
  user_id bigint not null,
  kind text not null,
  approver_user_id bigint not null,
  approver_handle text not null,
  approver_name text,
  message_id bigint,
  asked_at timestamp with time zone,
  created_at timestamp with time zone default now() not null,
  constraint approver_requests_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE CASCADE,
  constraint approver_requests_kind_check CHECK ((kind = ANY (ARRAY['connect'::text, 'handover'::text]))),
  constraint approver_requests_one_per_approver_account UNIQUE (approver_user_id, user_id),
  constraint approver_requests_one_per_channel UNIQUE (channel_id),
  constraint approver_requests_pkey PRIMARY KEY (id),
  constraint approver_requests_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX approver_requests_created_at_idx ON app_public.approver_requests USING btree (created_at);
CREATE INDEX approver_requests_user_id_idx ON app_public.approver_requests USING btree (user_id);

create table app_public.bug_reports (
  id bigint generated always as identity not null,
  user_id bigint,
  description text not null,
  screenshot_url text,
  page_url text,
  user_agent text,
  status text default 'new'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  screenshot_key text generated always as (app_private.upload_key(screenshot_url)) stored,
  constraint bug_reports_description_check CHECK (((btrim(description) <> ''::text) AND (length(description) <= 10000))),
  constraint bug_reports_page_url_check CHECK (((page_url IS NULL) OR (length(page_url) <= 2000))),
  constraint bug_reports_pkey PRIMARY KEY (id),
  constraint bug_reports_screenshot_upload_fkey FOREIGN KEY (screenshot_key) REFERENCES app_private.uploads(key) NOT VALID,
  constraint bug_reports_screenshot_url_check CHECK (((screenshot_url IS NULL) OR (length(screenshot_url) <= 1000))),
  constraint bug_reports_status_check CHECK ((status = ANY (ARRAY['new'::text, 'in_progress'::text, 'resolved'::text, 'closed'::text]))),
  constraint bug_reports_user_agent_check CHECK (((user_agent IS NULL) OR (length(user_agent) <= 1000))),
  constraint bug_reports_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE SET NULL
);
CREATE INDEX bug_reports_created_ms_idx ON app_public.bug_reports USING btree (date_trunc('milliseconds'::text, (created_at AT TIME ZONE 'UTC'::text)) DESC, id DESC);
CREATE INDEX bug_reports_screenshot_key_idx ON app_public.bug_reports USING btree (screenshot_key) WHERE (screenshot_key IS NOT NULL);
CREATE INDEX bug_reports_user_idx ON app_public.bug_reports USING btree (user_id);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.bug_reports FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();

create table app_public.channels (
  id bigint generated always as identity not null,
  project_id bigint not null,
  type text not null,
  link text not null,
  status text default 'pending'::text not null,
  config jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  chat_id bigint,
  approver_user_id bigint,
  approver_handle text,
  approver_name text,
  rights_checked_at timestamp with time zone,
  constraint channels_config_check CHECK ((jsonb_typeof(config) = 'object'::text)),
  constraint channels_connected_has_chat CHECK (((status <> 'connected'::text) OR (chat_id IS NOT NULL))),
  constraint channels_link_check CHECK (((btrim(link) <> ''::text) AND (length(link) <= 200))),
  constraint channels_one_per_project UNIQUE (project_id),
  constraint channels_pkey PRIMARY KEY (id),
  constraint channels_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint channels_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'connected'::text]))),
  constraint channels_type_check CHECK ((type = ANY (ARRAY['telegram'::text, 'vk'::text, 'dzen'::text])))
);
CREATE INDEX channels_chat_id_idx ON app_public.channels USING btree (chat_id);
CREATE UNIQUE INDEX channels_connected_chat_key ON app_public.channels USING btree (chat_id) WHERE (status = 'connected'::text);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.channels FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();

create table app_public.chat_messages (
  id bigint generated always as identity not null,
  project_id bigint not null,
  user_id bigint not null,
  role text not null,
  content text not null,
  created_at timestamp with time zone default now() not null,
  constraint chat_messages_content_check CHECK ((length(content) <= 20000)),
  constraint chat_messages_pkey PRIMARY KEY (id),
  constraint chat_messages_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint chat_messages_role_check CHECK ((role = ANY (ARRAY['user'::text, 'assistant'::text]))),
  constraint chat_messages_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX chat_messages_project_created_idx ON app_public.chat_messages USING btree (project_id, created_at DESC, id DESC);
CREATE INDEX chat_messages_user_idx ON app_public.chat_messages USING btree (user_id);

create table app_public.content_plans (
  id bigint generated always as identity not null,
  project_id bigint not null,
  day_of_week smallint not null,
  "time" text not null,
  timezone text default app_private.default_timezone() not null,
  post_length integer not null,
  active boolean default true not null,
  created_at timestamp with time zone default now() not null,
  constraint content_plans_day_of_week_check CHECK (((day_of_week >= 0) AND (day_of_week <= 6))),
  constraint content_plans_pkey PRIMARY KEY (id),
  constraint content_plans_post_length_check CHECK (((post_length >= 50) AND (post_length <= 5000))),
  constraint content_plans_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint content_plans_time_check CHECK (("time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'::text)),
  constraint content_plans_timezone_check CHECK (app_private.is_supported_timezone(timezone))
);
CREATE INDEX content_plans_project_idx ON app_public.content_plans USING btree (project_id, day_of_week, "time");
CREATE TRIGGER _200_bump_version_delete AFTER DELETE ON app_public.content_plans REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('content_plans');
CREATE TRIGGER _200_bump_version_insert AFTER INSERT ON app_public.content_plans REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('content_plans');
CREATE TRIGGER _200_bump_version_update AFTER UPDATE ON app_public.content_plans REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('content_plans');

create table app_public.drafts (
  id bigint generated always as identity not null,
  project_id bigint not null,
  title text not null,
  content text default ''::text not null,
  image_url text,
  sort_order integer default 0 not null,
  status text default 'draft'::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  image_key text generated always as (app_private.upload_key(image_url)) stored,
  entities jsonb default '[]'::jsonb not null,
  options jsonb default '{}'::jsonb not null,
  image_urls text[] default '{}'::text[] not null,
  ad jsonb,
  constraint drafts_ad_check CHECK (((ad IS NULL) OR (jsonb_typeof(ad) = 'object'::text))),
  constraint drafts_content_check CHECK ((length(content) <= 20000)),
  constraint drafts_entities_check CHECK (((jsonb_typeof(entities) = 'array'::text) AND (jsonb_array_length(entities) <= 100))),
  constraint drafts_image_upload_fkey FOREIGN KEY (image_key, project_id) REFERENCES app_private.uploads(key, project_id) NOT VALID,
  constraint drafts_image_url_check CHECK (((image_url IS NULL) OR (length(image_url) <= 1000))),
  constraint drafts_image_urls_check CHECK (((cardinality(image_urls) <= 10) AND (NOT (image_url IS DISTINCT FROM image_urls[1])))),
  constraint drafts_options_check CHECK ((jsonb_typeof(options) = 'object'::text)),
  constraint drafts_pkey PRIMARY KEY (id),
  constraint drafts_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint drafts_status_check CHECK ((status = 'draft'::text)),
  constraint drafts_title_check CHECK (((btrim(title) <> ''::text) AND (length(title) <= 500)))
);
CREATE INDEX drafts_image_key_idx ON app_public.drafts USING btree (image_key) WHERE (image_key IS NOT NULL);
CREATE INDEX drafts_image_urls_idx ON app_public.drafts USING gin (image_urls);
CREATE INDEX drafts_project_order_idx ON app_public.drafts USING btree (project_id, sort_order, created_at, id);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.drafts FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();
CREATE TRIGGER _200_bump_version_delete AFTER DELETE ON app_public.drafts REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('drafts');
CREATE TRIGGER _200_bump_version_insert AFTER INSERT ON app_public.drafts REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('drafts');
CREATE TRIGGER _200_bump_version_update AFTER UPDATE ON app_public.drafts REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_list_version('drafts');

create table app_public.generation_jobs (
  id bigint generated always as identity not null,
  project_id bigint not null,
  type text not null,
  status text default 'pending'::text not null,
  data jsonb default '{}'::jsonb not null,
  result jsonb default '{}'::jsonb not null,
  error text,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint generation_jobs_pkey PRIMARY KEY (id),
  constraint generation_jobs_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint generation_jobs_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text]))),
  constraint generation_jobs_type_check CHECK ((type = 'generate_content'::text))
);
CREATE INDEX generation_jobs_project_idx ON app_public.generation_jobs USING btree (project_id, created_at DESC);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.generation_jobs FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();

create table app_public.invite_links (
  id bigint generated always as identity not null,
  project_id bigint not null,
  channel_id bigint,
  name text not null,
  url text not null,
  joins integer default 0 not null,
  leaves integer default 0 not null,
  created_at timestamp with time zone default now() not null,
  revoked_at timestamp with time zone,
  constraint invite_links_channel_id_fkey FOREIGN KEY (channel_id) REFERENCES app_public.channels(id) ON DELETE SET NULL,
  constraint invite_links_name_check CHECK (((btrim(name) <> ''::text) AND (char_length(name) <= 32))),
  constraint invite_links_pkey PRIMARY KEY (id),
  constraint invite_links_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint invite_links_url_check CHECK ((length(url) <= 200)),
  constraint invite_links_url_key UNIQUE (channel_id, url)
);
CREATE INDEX invite_links_project_idx ON app_public.invite_links USING btree (project_id, id);

create table app_public.post_comments (
  id bigint generated always as identity not null,
  project_id bigint not null,
  post_id bigint not null,
  user_id bigint,
  text text not null,
  created_at timestamp with time zone default now() not null,
  constraint post_comments_pkey PRIMARY KEY (id),
  constraint post_comments_post_id_fkey FOREIGN KEY (post_id) REFERENCES app_public.posts(id) ON DELETE CASCADE,
  constraint post_comments_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint post_comments_text_check CHECK ((((length(text) >= 1) AND (length(text) <= 2000)) AND (btrim(text) <> ''::text))),
  constraint post_comments_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE SET NULL
);
CREATE INDEX post_comments_post_idx ON app_public.post_comments USING btree (post_id, id);

create table app_public.posts (
  id bigint generated always as identity not null,
  project_id bigint not null,
  draft_id bigint,
  title text default ''::text not null,
  content text default ''::text not null,
  image_url text,
  status text default 'draft'::text not null,
  scheduled_for timestamp with time zone not null,
  is_recurring boolean default false not null,
  recurring_type text default 'none'::text not null,
  recurring_last_post timestamp with time zone,
  approval_preview jsonb default '{}'::jsonb not null,
  published_links jsonb default '{}'::jsonb not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  series_id bigint,
  channel_message_ids jsonb default '[]'::jsonb not null,
  sending_worker_id text,
  sending_started_at timestamp with time zone,
  published_at timestamp with time zone,
  approval_chat_id bigint,
  approved_chat_id bigint,
  channel_chat_id bigint,
  image_key text generated always as (app_private.upload_key(image_url)) stored,
  entities jsonb default '[]'::jsonb not null,
  options jsonb default '{}'::jsonb not null,
  edited_at timestamp with time zone,
  pending_edit jsonb,
  image_urls text[] default '{}'::text[] not null,
  plan_id bigint,
  awaiting_text boolean default false not null,
  series_ends_after integer,
  series_ends_on date,
  series_skips timestamp with time zone[] default '{}'::timestamp with time zone[] not null,
  series_made integer default 0 not null,
  last_error_code text,
  last_error_params jsonb default '{}'::jsonb not null,
  created_by bigint,
  review_author_id bigint,
  review_publish boolean default false not null,
  returned_at timestamp with time zone,
  ad jsonb,
  ad_removed_at timestamp with time zone,
  ad_removal_reminded_at timestamp with time zone,
  ad_removal_blocked_at timestamp with time zone,
  constraint posts_ad_check CHECK (((ad IS NULL) OR (jsonb_typeof(ad) = 'object'::text))),
  constraint posts_ad_not_recurring CHECK (((ad IS NULL) OR (NOT is_recurring))),
  constraint posts_approval_preview_check CHECK ((jsonb_typeof(approval_preview) = 'object'::text)),
  constraint posts_channel_message_ids_check CHECK ((jsonb_typeof(channel_message_ids) = 'array'::text)),
  constraint posts_content_check CHECK ((length(content) <= 20000)),
  constraint posts_created_by_fkey FOREIGN KEY (created_by) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint posts_draft_id_fkey FOREIGN KEY (draft_id) REFERENCES app_public.drafts(id) ON DELETE SET NULL,
  constraint posts_entities_check CHECK (((jsonb_typeof(entities) = 'array'::text) AND (jsonb_array_length(entities) <= 100))),
  constraint posts_image_upload_fkey FOREIGN KEY (image_key, project_id) REFERENCES app_private.uploads(key, project_id) NOT VALID,
  constraint posts_image_url_check CHECK (((image_url IS NULL) OR (length(image_url) <= 1000))),
  constraint posts_image_urls_check CHECK (((cardinality(image_urls) <= 10) AND (NOT (image_url IS DISTINCT FROM image_urls[1])))),
  constraint posts_options_check CHECK ((jsonb_typeof(options) = 'object'::text)),
  constraint posts_pending_edit_check CHECK (((pending_edit IS NULL) OR (jsonb_typeof(pending_edit) = 'object'::text))),
  constraint posts_pkey PRIMARY KEY (id),
  constraint posts_plan_id_fkey FOREIGN KEY (plan_id) REFERENCES app_public.content_plans(id) ON DELETE SET NULL,
  constraint posts_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint posts_published_links_check CHECK ((jsonb_typeof(published_links) = 'object'::text)),
  constraint posts_recurring_type_check CHECK ((recurring_type = ANY (ARRAY['none'::text, 'daily'::text, 'weekly'::text]))),
  constraint posts_recurring_type_matches CHECK ((is_recurring = (recurring_type <> 'none'::text))),
  constraint posts_review_author_id_fkey FOREIGN KEY (review_author_id) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint posts_series_ends_after_check CHECK (((series_ends_after >= 1) AND (series_ends_after <= 1000))),
  constraint posts_series_id_fkey FOREIGN KEY (series_id) REFERENCES app_public.posts(id) ON DELETE SET NULL,
  constraint posts_series_skips_check CHECK ((cardinality(series_skips) <= 100)),
  constraint posts_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'in_review'::text, 'scheduled'::text, 'approved'::text, 'sending'::text, 'published'::text, 'rejected'::text, 'failed'::text, 'uncertain'::text]))),
  constraint posts_title_check CHECK ((length(title) <= 500)),
  constraint posts_title_unless_recurring CHECK ((is_recurring OR (btrim(title) <> ''::text)))
);
CREATE INDEX posts_draft_idx ON app_public.posts USING btree (draft_id) WHERE (draft_id IS NOT NULL);
CREATE INDEX posts_due_idx ON app_public.posts USING btree (scheduled_for) WHERE (status = ANY (ARRAY['draft'::text, 'scheduled'::text]));
CREATE INDEX posts_image_key_idx ON app_public.posts USING btree (image_key) WHERE (image_key IS NOT NULL);
CREATE INDEX posts_image_urls_idx ON app_public.posts USING gin (image_urls);
CREATE INDEX posts_in_review_idx ON app_public.posts USING btree (project_id, scheduled_for) WHERE (status = 'in_review'::text);
CREATE INDEX posts_plan_idx ON app_public.posts USING btree (plan_id) WHERE (plan_id IS NOT NULL);
CREATE INDEX posts_project_ads_idx ON app_public.posts USING btree (project_id, scheduled_for) WHERE (ad IS NOT NULL);
CREATE INDEX posts_project_attention_idx ON app_public.posts USING btree (project_id, status) WHERE (status = ANY (ARRAY['scheduled'::text, 'failed'::text, 'uncertain'::text]));
CREATE INDEX posts_project_live_draft_idx ON app_public.posts USING btree (project_id) WHERE ((draft_id IS NOT NULL) AND (status = ANY (ARRAY['draft'::text, 'scheduled'::text, 'approved'::text, 'sending'::text, 'uncertain'::text])));
CREATE INDEX posts_project_published_idx ON app_public.posts USING btree (project_id, published_at DESC) WHERE (status = 'published'::text);
CREATE INDEX posts_project_scheduled_idx ON app_public.posts USING btree (project_id, scheduled_for, id);
CREATE INDEX posts_project_series_idx ON app_public.posts USING btree (project_id) WHERE is_recurring;
CREATE INDEX posts_sending_idx ON app_public.posts USING btree (sending_started_at) WHERE (status = 'sending'::text);
CREATE INDEX posts_series_idx ON app_public.posts USING btree (series_id) WHERE (series_id IS NOT NULL);
CREATE UNIQUE INDEX posts_one_live_per_draft ON app_public.posts USING btree (draft_id) WHERE ((draft_id IS NOT NULL) AND (status <> ALL (ARRAY['rejected'::text, 'failed'::text])));
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.posts FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();
CREATE TRIGGER _200_bump_version_delete AFTER DELETE ON app_public.posts REFERENCING OLD TABLE AS changed_posts FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_posts_version();
CREATE TRIGGER _200_bump_version_insert AFTER INSERT ON app_public.posts REFERENCING NEW TABLE AS changed_posts FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_posts_version();
CREATE TRIGGER _200_bump_version_update AFTER UPDATE ON app_public.posts REFERENCING NEW TABLE AS changed_posts FOR EACH STATEMENT EXECUTE FUNCTION app_private.bump_posts_version();

create table app_public.project_invitations (
  id bigint generated always as identity not null,
  project_id bigint not null,
  email text not null,
  role text not null,
  token_hash bytea not null,
  invited_by bigint,
  created_at timestamp with time zone default now() not null,
  expires_at timestamp with time zone default (now() + '7 days'::interval) not null,
  accepted_at timestamp with time zone,
  accepted_by bigint,
  withdrawn_at timestamp with time zone,
  constraint project_invitations_accepted_by_fkey FOREIGN KEY (accepted_by) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint project_invitations_email_check CHECK ((((length(email) >= 3) AND (length(email) <= 254)) AND (email ~~ '%_@_%'::text))),
  constraint project_invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint project_invitations_pkey PRIMARY KEY (id),
  constraint project_invitations_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint project_invitations_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'editor'::text, 'author'::text, 'viewer'::text]))),
  constraint project_invitations_token_hash_key UNIQUE (token_hash)
);
CREATE INDEX project_invitations_day_idx ON app_public.project_invitations USING btree (invited_by, created_at);
CREATE UNIQUE INDEX project_invitations_open_key ON app_public.project_invitations USING btree (project_id, lower(email)) WHERE ((accepted_at IS NULL) AND (withdrawn_at IS NULL));

create table app_public.project_members (
  project_id bigint not null,
  user_id bigint not null,
  role text not null,
  joined_at timestamp with time zone default now() not null,
  constraint project_members_pkey PRIMARY KEY (project_id, user_id),
  constraint project_members_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint project_members_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'editor'::text, 'author'::text, 'viewer'::text]))),
  constraint project_members_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE
);
CREATE INDEX project_members_user_idx ON app_public.project_members USING btree (user_id, project_id);

create table app_public.projects (
  id bigint generated always as identity not null,
  user_id bigint not null,
  name text not null,
  description text default ''::text not null,
  writing_style jsonb default '{"formality": 2, "emojiUsage": 1, "seriousness": 2}'::jsonb not null,
  admin_handle text not null,
  timezone text default app_private.default_timezone() not null,
  language text default 'ru'::text not null,
  sources text default ''::text not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  constraint projects_admin_handle_check CHECK ((admin_handle ~ '^[A-Za-z0-9_]{5,64}$'::text)),
  constraint projects_description_check CHECK ((length(description) <= 2000)),
  constraint projects_language_check CHECK ((language = ANY (ARRAY['ru'::text, 'en'::text]))),
  constraint projects_name_check CHECK (((btrim(name) <> ''::text) AND (length(name) <= 100))),
  constraint projects_pkey PRIMARY KEY (id),
  constraint projects_sources_check CHECK ((length(sources) <= 5000)),
  constraint projects_timezone_check CHECK (app_private.is_supported_timezone(timezone)),
  constraint projects_user_id_fkey FOREIGN KEY (user_id) REFERENCES app_public.users(id) ON DELETE CASCADE,
  constraint projects_writing_style_check CHECK ((((jsonb_typeof(writing_style) = 'object'::text) AND (jsonb_typeof((writing_style -> 'formality'::text)) = 'number'::text) AND (jsonb_typeof((writing_style -> 'seriousness'::text)) = 'number'::text) AND (jsonb_typeof((writing_style -> 'emojiUsage'::text)) = 'number'::text) AND (((writing_style ->> 'formality'::text))::numeric = ANY (ARRAY[(0)::numeric, (1)::numeric, (2)::numeric, (3)::numeric, (4)::numeric])) AND (((writing_style ->> 'seriousness'::text))::numeric = ANY (ARRAY[(0)::numeric, (1)::numeric, (2)::numeric, (3)::numeric, (4)::numeric])) AND (((writing_style ->> 'emojiUsage'::text))::numeric = ANY (ARRAY[(0)::numeric, (1)::numeric, (2)::numeric]))) IS TRUE))
);
CREATE INDEX projects_user_created_idx ON app_public.projects USING btree (user_id, created_at DESC, id DESC);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.projects FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();
CREATE TRIGGER _200_creator_owns AFTER INSERT ON app_public.projects FOR EACH ROW EXECUTE FUNCTION app_private.add_creator_as_owner();

create table app_public.users (
  id bigint generated always as identity not null,
  email text not null,
  is_admin boolean default false not null,
  created_at timestamp with time zone default now() not null,
  updated_at timestamp with time zone default now() not null,
  notifications jsonb default '{"queueLow": true, "postFailed": true, "channelLost": true, "postRejected": true}'::jsonb not null,
  weekly_summary boolean default true not null,
  language text,
  constraint users_email_check CHECK (((email = lower(btrim(email))) AND (email ~ '^[^@\s]+@[^@\s]+$'::text) AND (length(email) <= 254))),
  constraint users_email_key UNIQUE (email),
  constraint users_language_check CHECK ((language = ANY (ARRAY['ru'::text, 'en'::text]))),
  constraint users_notifications_check CHECK ((jsonb_typeof(notifications) = 'object'::text)),
  constraint users_pkey PRIMARY KEY (id)
);
CREATE INDEX users_email_trgm_idx ON app_public.users USING gin (email gin_trgm_ops);
CREATE TRIGGER _100_touch BEFORE UPDATE ON app_public.users FOR EACH ROW EXECUTE FUNCTION app_private.touch_updated_at();

create table app_public.webhook_deliveries (
  id bigint generated always as identity not null,
  webhook_id bigint not null,
  message_id text not null,
  event_type text not null,
  payload jsonb not null,
  status text default 'pending'::text not null,
  attempts integer default 0 not null,
  last_status integer,
  last_error text,
  created_at timestamp with time zone default now() not null,
  delivered_at timestamp with time zone,
  post_id bigint,
  constraint webhook_deliveries_pkey PRIMARY KEY (id),
  constraint webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text]))),
  constraint webhook_deliveries_webhook_id_fkey FOREIGN KEY (webhook_id) REFERENCES app_public.webhooks(id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_created_idx ON app_public.webhook_deliveries USING btree (created_at) WHERE (status <> 'pending'::text);
CREATE INDEX webhook_deliveries_pending_post_idx ON app_public.webhook_deliveries USING btree (webhook_id, post_id, id) WHERE ((status = 'pending'::text) AND (post_id IS NOT NULL));
CREATE INDEX webhook_deliveries_webhook_idx ON app_public.webhook_deliveries USING btree (webhook_id, id DESC);

create table app_public.webhooks (
  id bigint generated always as identity not null,
  project_id bigint not null,
  url text not null,
  events text[] not null,
  created_by bigint,
  created_at timestamp with time zone default now() not null,
  disabled_at timestamp with time zone,
  constraint webhooks_created_by_fkey FOREIGN KEY (created_by) REFERENCES app_public.users(id) ON DELETE SET NULL,
  constraint webhooks_events_check CHECK (((cardinality(events) >= 1) AND (cardinality(events) <= 20))),
  constraint webhooks_pkey PRIMARY KEY (id),
  constraint webhooks_project_id_fkey FOREIGN KEY (project_id) REFERENCES app_public.projects(id) ON DELETE CASCADE,
  constraint webhooks_url_check CHECK (((length(url) <= 2000) AND (url ~ '^https?://'::text)))
);
CREATE INDEX webhooks_project_idx ON app_public.webhooks USING btree (project_id);

