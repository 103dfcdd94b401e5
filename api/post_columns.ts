/**
 * The columns behind the API's Post, selected by every route that answers posts: the worker's
 * bookkeeping (sending worker, channel message ids) stays in the database, and PostgreSQL
 * prints and the driver parses less (+~15% on the posts list, bench:api). The spec's
 * approvalMessageIds is the column approval_preview (the preview's chat and message ids once
 * sent, before that the claim of the job sending it).
 */
export const POST_COLUMNS = [
  "id", "project_id", "draft_id", "series_id", "title", "content", "entities", "image_url", "image_urls", "options", "status", "created_at", "scheduled_for",
  "is_recurring", "recurring_type", "recurring_last_post", "approval_preview as approval_message_ids", "published_links",
  "published_at", "last_error_code", "last_error_params", "edited_at", "pending_edit", "plan_id", "awaiting_text",
  "series_ends_after as ends_after", "series_ends_on::text as ends_on", "series_made as occurrences_made",
  // who made it, and the author whose change waits (or waited) for review (docs/teams.md)
  "created_by", "review_author_id", "(select u.email from app_public.users u where u.id = review_author_id) as review_author_email",
  "review_publish", "returned_at",
  // a sold post and where it stands in its format (contract/ads.ts)
  "app_private.post_ad(ad, ad_removed_at) as ad", "app_private.ad_state(ad, published_at, scheduled_for, ad_removed_at, ad_removal_reminded_at) as ad_state",
  // a post that went out in a chat that is not the project's channel now: read-only history
  "app_private.post_channel_changed(project_id, status, channel_chat_id, approved_chat_id) as channel_changed",
  // ISO instants, as every other time the API answers
  `array(select to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') from unnest(series_skips) s order by s) as skipped_occurrences`,
].join(", ");
