--! Previous: sha1:7a28b75022b0aa83e57273fcbfd81f046c49648e
--! Hash: sha1:d8fccee45ef5f53a935918fbd391f6071b2adc4d
--! Message: A slot switched off, moved or deleted takes back its posts waiting for review too

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.autopilot_remove_slot_posts(p_plan_id bigint)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/*
 * why: a slot switched off, moved or deleted takes back its future posts that were not sent
 * (waiting, in review, asked for approval, approved): their previews are withdrawn from the approver's
 * chat, their jobs dropped, and their slot times forgotten so the slot can fill again if it
 * comes back. Published, failed and rejected posts stay as history.
 */
declare
  v_row app_public.posts;
begin
  for v_row in
    select * from app_public.posts
    where plan_id = p_plan_id and status in ('draft', 'in_review', 'scheduled', 'approved') and scheduled_for > now()
    for update
  loop
    perform app_private.retract_approval(v_row, 'deleted');
    perform app_private.unqueue_post_jobs(v_row.id);
    delete from app_public.posts where id = v_row.id;
  end loop;
  delete from app_private.plan_fills where plan_id = p_plan_id and slot_at > now();
end;
$function$;
