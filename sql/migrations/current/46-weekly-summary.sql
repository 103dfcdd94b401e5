-- Issue 27 items 4 and 6: the home cards' one read and the weekly summary mail.

-- The weekly summary is a switch of its own (README "Notifications"): accounts that exist
-- when it ships get it off (they never asked for a new kind of mail), accounts made after
-- get it on. Adding the column with default false fills every existing row with false; the
-- default then becomes true for rows to come. Run again, the add does nothing and existing
-- choices stay as they are.
alter table app_public.users add column if not exists weekly_summary boolean not null default false;
alter table app_public.users alter column weekly_summary set default true;

-- One row per project and week a summary was queued for, written in the same transaction as
-- its job: a second pass the same Monday, a retry or a restarted worker finds the row and
-- queues nothing (README "Notifications").
create table if not exists app_private.weekly_summaries_sent (
  project_id bigint not null references app_public.projects (id) on delete cascade,
  week date not null, -- the Monday the summary went out, in the project's timezone
  created_at timestamptz not null default now(),
  primary key (project_id, week)
);

-- The home cards count the posts that need the owner (awaiting approval, failed, uncertain)
-- among a project's few such rows, never over its whole history of published posts.
create index if not exists posts_project_attention_idx on app_public.posts (project_id, status)
  where status in ('scheduled', 'failed', 'uncertain');
