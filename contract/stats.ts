/* Channel statistics (shared/DESIGN.md "Channel statistics"): the API's shapes and limits, shared with the SPA. */
import * as v from "valibot";

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

export const InviteLinkCreateSchema = v.object({
  name: v.pipe(
    v.optional(v.string("inviteLinks.nameRequired"), ""),
    v.trim(),
    v.nonEmpty("inviteLinks.nameRequired"),
    v.maxLength(INVITE_LINK_NAME_MAX, "inviteLinks.nameTooLong"),
  ),
});
