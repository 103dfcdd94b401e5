--! Previous: sha1:93bbbc0d4bb6969096a948fe36be010977f9c7f8
--! Hash: sha1:fdd87048e698ce6a7b488250da630ee2a08f1731
--! Message: The calendar's range read fetches the ids its index scans find by primary key

--! split: 1-current.sql
/*
 * The calendar's range read is driven by its three index scans: the ids they find (about a
 * month of posts) are joined to their rows by primary key. Written as a filter on the
 * project's posts, the planner read every post of every project of the user (10,500 rows
 * for a month of 168 in bench:api, 14 ms) before keeping the month's; as a join to the ids,
 * it hashed the whole table (22 ms). An array of ids is fetched by the primary key.
 */
create or replace function app_public.project_posts_between(
  p_user_id bigint, p_project_id bigint, p_from timestamptz, p_to timestamptz
) returns setof app_public.posts
language sql stable as $$
  /* why: the calendar's month: the posts due in [p_from, p_to); every series that may have
     occurrences there (begun before p_to and not stopped before p_from), so the grid can
     show its virtual occurrences; and every post still holding a draft, wherever it lies,
     so the schedule form knows which drafts are free. Only for the project's owner. */
  select po.* from app_public.posts po
  where po.id = any(array(
    select id from app_public.posts
    where project_id = p_project_id and scheduled_for >= p_from and scheduled_for < p_to
    union
    select id from app_public.posts
    where project_id = p_project_id and is_recurring and scheduled_for < p_to
      and (status = 'draft' or coalesce(recurring_last_post, scheduled_for) >= p_from)
    union
    select id from app_public.posts
    where project_id = p_project_id and draft_id is not null
      and status in ('draft', 'scheduled', 'approved', 'sending', 'uncertain')
  ))
  and exists (select 1 from app_public.projects p where p.id = p_project_id and p.user_id = p_user_id)
  order by po.scheduled_for, po.id
$$;
