import { Badge } from "@mantine/core";
import "@mantine/core/styles/Badge.layer.css";
import type { ComponentType } from "react";
import type { Post, PostStatus } from "../../../../contract/posts.ts";
import { type TFunction, type TranslationKey, useT } from "../../i18n/i18n.tsx";
import { lateText, minutesLate } from "../../lib/lateness.ts";
import { clockText, zonedAt } from "../../lib/projectTime.ts";
import { type CalendarPost, type GridPost, isVirtualPost } from "../../lib/recurrence.ts";
import {
  IconAlert,
  IconCheck,
  IconClock,
  IconHelpCircle,
  IconHourglass,
  IconRepeat,
  IconSend,
  IconXCircle,
} from "../Icons/Icons.tsx";

/** Spec §2: published green, rejected red, anything else grey. */
export type PostTone = "green" | "red" | "gray";

export function postTone(status: PostStatus): PostTone {
  if (status === "published") return "green";
  if (status === "rejected") return "red";
  return "gray";
}

/**
 * How each state reads; a series' future repeats, a stopped series and a post past its time
 * still awaiting approval (late) read as themselves.
 */
type StatusKind = PostStatus | "virtual" | "stopped" | "late";

const STATUS_LOOK: Record<StatusKind, { label: TranslationKey; hint: TranslationKey; Icon: ComponentType<{ size?: number; className?: string }> }> = {
  draft: { label: "schedule.status.draft", hint: "schedule.statusHint.draft", Icon: IconClock },
  in_review: { label: "schedule.status.in_review", hint: "schedule.statusHint.in_review", Icon: IconHourglass },
  scheduled: { label: "schedule.status.scheduled", hint: "schedule.statusHint.scheduled", Icon: IconHourglass },
  approved: { label: "schedule.status.approved", hint: "schedule.statusHint.approved", Icon: IconCheck },
  sending: { label: "schedule.status.sending", hint: "schedule.statusHint.sending", Icon: IconSend },
  published: { label: "schedule.status.published", hint: "schedule.statusHint.published", Icon: IconCheck },
  rejected: { label: "schedule.status.rejected", hint: "schedule.statusHint.rejected", Icon: IconXCircle },
  failed: { label: "schedule.status.failed", hint: "schedule.statusHint.failed", Icon: IconAlert },
  uncertain: { label: "schedule.status.uncertain", hint: "schedule.statusHint.uncertain", Icon: IconHelpCircle },
  virtual: { label: "schedule.status.virtual", hint: "schedule.statusHint.virtual", Icon: IconRepeat },
  stopped: { label: "schedule.status.stopped", hint: "schedule.statusHint.stopped", Icon: IconAlert },
  late: { label: "schedule.status.scheduled", hint: "schedule.statusHint.late", Icon: IconAlert },
};

export function statusKind(post: CalendarPost<GridPost>): StatusKind {
  if (isVirtualPost(post)) return "virtual";
  if (post.isRecurring && post.status === "failed") return "stopped";
  if (minutesLate(post) !== null) return "late";
  return post.status;
}
export const statusLook = (post: CalendarPost<GridPost>) => STATUS_LOOK[statusKind(post)];

/** The status in words: a late post says by how much ("Late by 21 min"). */
export function statusText(t: TFunction, post: CalendarPost<GridPost>): string {
  const late = isVirtualPost(post) ? null : minutesLate(post);
  return late === null ? t(statusLook(post).label) : lateText(t, late);
}

/** A series is named by when it runs ("Weekly at 18:30"): its own title is a placeholder. */
export function seriesName(t: TFunction, series: Pick<Post, "recurringType" | "scheduledFor">, timeZone: string): string {
  const repeat = t(series.recurringType === "weekly" ? "schedule.repeat.weekly" : "schedule.repeat.daily");
  return t("schedule.seriesTitle", { repeat, time: clockText(zonedAt(series.scheduledFor, timeZone)) });
}

/** The status as a small badge with its icon, coloured like the calendar. */
export function PostStatusBadge({ post, size = "md" }: { post: CalendarPost<GridPost>; size?: "sm" | "md" | "lg" }) {
  const t = useT();
  const { Icon } = statusLook(post);
  const kind = statusKind(post);
  // late is the one grey state that asks the owner to act: orange, as the details' warnings
  const tone = kind === "late" ? "orange" : postTone(post.status);
  return (
    <Badge
      variant="light"
      color={tone}
      radius="sm"
      size={size}
      tt="none"
      fw={600}
      leftSection={<Icon size={size === "sm" ? 12 : 14} />}
      data-testid="post-status"
      data-status={kind}
    >
      {statusText(t, post)}
    </Badge>
  );
}
