/* Channel statistics (docs/statistics.md): the API's shapes and limits, shared with the SPA. */
import * as v from "valibot";
import type { AdReport } from "./ads.ts";
import { withoutControlCharacters } from "./text.ts";

/** The Statistics page's default range, in days before now. */
export const STATS_DEFAULT_DAYS = 30;
/** The longest range one request may read (a year and a month). */
export const STATS_RANGE_MAX_DAYS = 400;
/** Telegram cuts longer invite link names silently, so the API refuses them. */
export const INVITE_LINK_NAME_MAX = 32;

export type ChannelStats = {
  /** `current` is null until the channel's count is first known (no channel connected yet). */
  subscribers: { current: number | null; points: { at: string; count: number }[] };
  /** Days in the project's timezone; days with no joins and no leaves are left out. */
  days: { day: string; joins: number; leaves: number }[];
  /** `url`: the post in the channel, as Published links to it (null when the approver confirmed it by hand). */
  posts: {
    postId: number;
    title: string;
    publishedAt: string;
    url: string | null;
    reactions: { total: number; byEmoji: Record<string, number> };
  }[];
  /** weekday 1 = Monday … 7 = Sunday, hour 0–23, both in the project's timezone. */
  bestTimes: { weekday: number; hour: number; posts: number; avgReactions: number }[];
};

export type InviteLink = {
  id: number;
  name: string;
  url: string;
  joins: number;
  leaves: number;
  createdAt: string;
  revoked: boolean;
};

/**
 * The period a statistics read takes (the Statistics page, the ad report), as the OpenAPI
 * document describes it; the routes check it with api/validate.ts statsRange.
 */
export const StatsPeriodQuery = v.object({
  from: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description(`Default: ${STATS_DEFAULT_DAYS} days before to`))),
  to: v.optional(v.pipe(v.string(), v.isoTimestamp(), v.description(`Default: now; at most ${STATS_RANGE_MAX_DAYS} days after from`))),
});

export const InviteLinkCreateSchema = v.object({
  name: v.pipe(
    v.optional(v.string("inviteLinks.nameRequired"), ""),
    v.trim(),
    v.nonEmpty("inviteLinks.nameRequired"),
    v.maxLength(INVITE_LINK_NAME_MAX, "inviteLinks.nameTooLong"),
    withoutControlCharacters(), // checked before Telegram is asked to make the link
  ),
});

/**
 * One home card's figures (GET /api/projects/overview answers one per project of the account,
 * newest project first, in one read: docs/statistics.md, home cards).
 */
export type ProjectOverview = {
  projectId: number;
  channelConnected: boolean;
  /** A channel waiting for this approver's Allow in Telegram (none connected yet); null otherwise. */
  channelAwaitingHandle: string | null;
  /** The running count; null until the channel's count is first known. */
  subscribers: number | null;
  /** Now minus the sample of 7 days ago; null when either is unknown (a channel connected since). */
  subscribersChange7d: number | null;
  /** The next one-off post still to go out, or a running series' next date; null when none is planned. */
  nextPostAt: string | null;
  /** Empty for a series whose posts take their drafts in turn. */
  nextPostTitle: string | null;
  nextPostRecurring: boolean | null;
  /** Posts sent to the approver and not answered yet. */
  awaitingApproval: number;
  /** Of those, the ones past their time. */
  lateApproval: number;
  /** The earliest due time among the late ones (how late the latest is); null when none is late. */
  lateSince: string | null;
  /**
   * Posts waiting for an editor's or owner's review (docs/review.md): every one for a member whose
   * role reviews (`posts.review`), the member's own for anyone else (an author's posts waiting).
   */
  inReview: number;
  /** Posts that failed in the last 7 days. */
  failed: number;
  /** Posts whose fate is unknown: the owner says whether they are in the channel. */
  uncertain: number;
  /** What the ads published this calendar month (the project's timezone) earned, per currency; empty when none. */
  adIncome: AdReport["totals"];
};
