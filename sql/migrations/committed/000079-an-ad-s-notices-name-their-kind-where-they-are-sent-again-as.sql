--! Previous: sha1:c0a2507b9be4329335da556df0a371da98e8aab5
--! Hash: sha1:f43959d15447eeb40d7be12fbcd07f632f887043
--! Message: An ad's notices name their kind where they are sent again, as the texts test reads them

--! split: 2-sql-functions.sql
-- The functions changed in sql/functions/ (copied by scripts/migrations.ts commit).

CREATE OR REPLACE FUNCTION app_private.tell_ad_owners(p_post app_public.posts, p_kind text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
/* why: what an ad's term asks of people goes to the project's owners by e-mail (each with
   their own switches and language) and to the channel's approver in Telegram, in their queue */
begin
  -- each kind is named where it is sent (tests/texts.test.ts reads the kinds SQL sends from the calls)
  if p_kind = 'adRemovalDue' then
    perform app_private.notify_member(m.user_id, p_post.project_id, 'adRemovalDue', p_post.id, null, null)
    from app_public.project_members m where m.project_id = p_post.project_id and m.role = 'owner';
  else
    perform app_private.notify_member(m.user_id, p_post.project_id, 'adCannotDelete', p_post.id, null, null)
    from app_public.project_members m where m.project_id = p_post.project_id and m.role = 'owner';
  end if;
  perform app_private.notify_admin(p_post.id, p_kind);
end;
$function$;
