/*
 * A project's activity log (shared contract, docs/teams.md): who did what, newest first, a
 * page at a time. Each entry is written by the act's own SQL function, in its transaction.
 */
import * as v from "valibot";

/** Every action the log records (DESIGN.md "Teams": at least these, and post.deleted). */
export const ACTIVITY_ACTIONS = [
  "member.invited", "member.joined", "member.roleChanged", "member.removed",
  "channel.connected", "channel.disconnected",
  "draft.created", "draft.deleted",
  "post.scheduled", "post.inReview", "post.reviewed", "post.approvalRequested", "post.approved", "post.rejected", "post.published", "post.failed", "post.edited",
  "post.deleted",
  // an ad's feed time ended: the bot deleted it, or it is the owner's to delete by hand (docs/ads.md)
  "post.adRemoved", "post.adRemovalDue",
  "project.updated", "webhook.disabled",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export const ACTIVITY_PAGE_SIZE = 50;
export const ACTIVITY_PAGE_MAX = 100;

const PositiveId = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/), v.toNumber());

/** ?before=<id>&limit=<1-100>, and the page's filters: the member who acted, the action. */
export const ActivityQuery = v.object({
  before: v.optional(PositiveId),
  limit: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,3}$/), v.toNumber(), v.minValue(1), v.maxValue(ACTIVITY_PAGE_MAX))),
  actor: v.optional(PositiveId),
  action: v.optional(v.picklist(ACTIVITY_ACTIONS)),
});

export type ActivityActor =
  | { type: "user"; userId: number | null; email: string | null }
  | { type: "telegram"; userId: number; handle: string | null }
  | { type: "system" };

export type ActivityItem = {
  id: number;
  at: string;
  actor: ActivityActor;
  action: ActivityAction;
  target: { type: string; id: number | null };
  details: Record<string, unknown>;
};

export type ActivityPage = { items: ActivityItem[]; next: number | null };
