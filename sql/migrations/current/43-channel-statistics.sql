-- Channel statistics (README "Statistics"): subscriber samples, joins and leaves with their
-- invite links, and the reaction counts of the channel's messages. Raw member events are
-- kept 30 days (dedupe window); the 15-minute rollups, samples thinned to one a day and the
-- per-message reaction counts of posts are what the pages read.

create table if not exists app_public.invite_links (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects(id) on delete cascade,
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  name text not null check (btrim(name) <> '' and char_length(name) <= 32),
  url text not null check (length(url) <= 200),
  joins integer not null default 0,
  leaves integer not null default 0,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint invite_links_url_key unique (channel_id, url)
);
create index if not exists invite_links_project_idx on app_public.invite_links (project_id, id);

-- One row per channel: the last known subscriber count and the salt of its member hashes.
create table if not exists app_private.channel_stats (
  channel_id bigint primary key references app_public.channels(id) on delete cascade,
  subscribers integer check (subscribers >= 0),
  sampled_at timestamptz,
  salt bytea not null default decode(replace(gen_random_uuid()::text, '-', ''), 'hex')
);

create table if not exists app_private.subscriber_samples (
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  sampled_at timestamptz not null,
  subscribers integer not null check (subscribers >= 0),
  primary key (channel_id, sampled_at)
);

-- Raw joins and leaves: who only as a salted hash, kept 30 days to refuse repeats.
create table if not exists app_private.member_events (
  id bigint generated always as identity primary key,
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  update_id bigint not null,
  happened_at timestamptz not null,
  member_hash bytea not null,
  kind text not null check (kind in ('join', 'leave')),
  invite_link_id bigint references app_public.invite_links(id) on delete set null,
  recorded_at timestamptz not null default now()
);
create unique index if not exists member_events_update_key on app_private.member_events (channel_id, update_id);
create unique index if not exists member_events_content_key on app_private.member_events (channel_id, member_hash, happened_at, kind);
create index if not exists member_events_recorded_idx on app_private.member_events (recorded_at);
create index if not exists member_events_link_idx on app_private.member_events (invite_link_id) where invite_link_id is not null;

-- Joins and leaves per channel per 15 minutes (UTC), so a day in any timezone is a sum.
create table if not exists app_private.member_buckets (
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  bucket timestamptz not null,
  joins integer not null default 0,
  leaves integer not null default 0,
  primary key (channel_id, bucket)
);

-- Who joined through one of our links and is still a member, so their leave counts for it.
create table if not exists app_private.link_members (
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  member_hash bytea not null,
  invite_link_id bigint not null references app_public.invite_links(id) on delete cascade,
  joined_at timestamptz not null,
  primary key (channel_id, member_hash)
);
create index if not exists link_members_link_idx on app_private.link_members (invite_link_id);

-- The latest reaction counts of each message: an update replaces them, never adds.
create table if not exists app_private.message_reactions (
  channel_id bigint not null references app_public.channels(id) on delete cascade,
  message_id bigint not null,
  reactions jsonb not null check (jsonb_typeof(reactions) = 'object'),
  total integer not null check (total >= 0),
  reacted_at timestamptz not null,
  update_id bigint not null,
  primary key (channel_id, message_id)
);
