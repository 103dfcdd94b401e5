/*
 * Mails the project's owner about something that needs them (app_private.notify_owner
 * decides when: the kinds they want, one mail per project, kind and day), or one member about
 * their team's review (app_private.notify_member: a post waits for their review; their post
 * was approved, returned or commented on). The mail is in the project's language; a post's
 * stored reason is said in it too, from the dictionary the interface shares
 * (texts/reasons.*.json), so there is one wording per reason.
 */
import type { Task } from "graphile-worker";
import * as v from "valibot";
import { NOTIFICATION_KINDS, type NotificationKind } from "../contract/notifications.ts";
import type { Sql } from "../core/db.ts";
import { type NotificationFacts, NOTIFICATION_WORDS } from "../texts/mail.ts";
import { reasonWords } from "../texts/reasons.ts";
import type { Mail, Mailer } from "./mailer.ts";

const Payload = v.object({
  projectId: v.number(),
  kind: v.picklist(NOTIFICATION_KINDS),
  postId: v.nullable(v.number()),
  // a member's mail: to whom, who acted, and the comment it quotes
  userId: v.optional(v.nullable(v.number())),
  actorId: v.optional(v.nullable(v.number())),
  commentId: v.optional(v.nullable(v.number())),
});

/** The mail about one event, in the project's language. */
export function notificationMail(kind: NotificationKind, facts: NotificationFacts, projectId: number, publicUrl: string): Mail {
  const language = facts.language === "en" ? "en" : "ru";
  const words = NOTIFICATION_WORDS[language];
  const at = kind === "queueLow" ? facts.runsDryAt : facts.scheduledFor;
  const when = at
    ? new Intl.DateTimeFormat(language === "en" ? "en-GB" : "ru-RU", {
      timeZone: facts.timezone, day: "numeric", month: "short", hour: kind === "queueLow" ? undefined : "2-digit",
      minute: kind === "queueLow" ? undefined : "2-digit",
    }).format(new Date(at))
    : "—";
  const reason = facts.reasonCode ? reasonWords(language, facts.reasonCode, facts.reasonParams ?? {}) : "";
  const { subject, lines, path } = words[kind](facts, when, reason);
  const link = `${publicUrl}/project/${projectId}/${path}`;
  return { to: facts.email, subject, text: [...lines.filter(Boolean), "", `${words.open} ${link}`, "", words.footer].join("\n") };
}

export function sendNotification(sql: Sql, mailer: Mailer, publicUrl: string): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("notifications__send: malformed payload, dropped");
    const { projectId, kind, postId, userId, actorId, commentId } = parsed.output;
    const [facts] = userId
      ? await sql<NotificationFacts[]>`
          select * from app_public.member_notification(${userId}, ${projectId}, ${kind}, ${postId}, ${actorId ?? null}, ${commentId ?? null})`
      : await sql<NotificationFacts[]>`select * from app_public.owner_notification(${projectId}, ${kind}, ${postId})`;
    if (!facts) return; // the project is gone, the member left, or the kind was turned off meanwhile
    await mailer.send(notificationMail(kind, facts, projectId, publicUrl));
  };
}
