-- Review before Telegram, and comments on posts (docs/teams.md "Review" and "Comments").

-- An author's post waits in `in_review` until an editor or owner approves or returns it; it
-- never reaches an approver's chat from there (claim_post_for_approval refuses it).
alter table app_public.posts drop constraint if exists posts_status_check;
alter table app_public.posts add constraint posts_status_check check (status in
  ('draft', 'in_review', 'scheduled', 'approved', 'sending', 'published', 'rejected', 'failed', 'uncertain'));

-- who made the post (null: the system, or a post older than teams); the author whose change
-- waits for review, or waited (told of the outcome; on a series, its occurrences wait too);
-- whether that author pressed Publish (an approval then asks the approver at once); when an
-- editor last returned it to draft (a comment on it then reaches its author)
alter table app_public.posts add column if not exists created_by bigint references app_public.users (id) on delete set null;
alter table app_public.posts add column if not exists review_author_id bigint references app_public.users (id) on delete set null;
alter table app_public.posts add column if not exists review_publish boolean not null default false;
alter table app_public.posts add column if not exists returned_at timestamptz;
create index if not exists posts_in_review_idx on app_public.posts (project_id, scheduled_for) where status = 'in_review';

create table if not exists app_public.post_comments (
  id bigint generated always as identity primary key,
  project_id bigint not null references app_public.projects (id) on delete cascade,
  post_id bigint not null references app_public.posts (id) on delete cascade,
  -- a deleted account's comments stay, without their writer
  user_id bigint references app_public.users (id) on delete set null,
  text text not null check (length(text) between 1 and 2000 and btrim(text) <> ''),
  created_at timestamptz not null default now()
);
create index if not exists post_comments_post_idx on app_public.post_comments (post_id, id);
