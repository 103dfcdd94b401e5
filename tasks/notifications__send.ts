/*
 * Mails the project's owner about something that needs them (app_private.notify_owner
 * decides when: the kinds they want, one mail per project, kind and day). The mail is in
 * the project's language; a post's stored reason is said in it too, through the same
 * dictionary as the interface (web/src/lib/postMessages.ts words its code and params), so
 * there is one wording per reason.
 */
import type { Task } from "graphile-worker";
import rosetta from "rosetta";
import * as v from "valibot";
import { NOTIFICATION_KINDS, type NotificationKind } from "../api/contract/notifications.ts";
import type { PostReasonParams } from "../api/contract/post_reasons.ts";
import type { Sql } from "../core/db.ts";
import en from "../web/src/i18n/en.json" with { type: "json" };
import ru from "../web/src/i18n/ru.json" with { type: "json" };
import type { TFunction } from "../web/src/i18n/i18n.tsx";
import { reasonText } from "../web/src/lib/postMessages.ts";
import type { Mail, Mailer } from "./mailer.ts";


const Payload = v.object({
  projectId: v.number(),
  kind: v.picklist(NOTIFICATION_KINDS),
  postId: v.nullable(v.number()),
});

export type NotificationFacts = {
  email: string;
  projectName: string;
  language: string;
  timezone: string;
  postTitle: string | null;
  scheduledFor: string | null;
  reasonCode: string | null;
  reasonParams: PostReasonParams | null;
  runsDryAt: string | null;
  draftsLeft: number | null;
};

const WORDS = {
  ru: {
    queueLow: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: черновики проекта «${f.projectName}» закончатся ${when}`,
      lines: [
        `В очереди проекта «${f.projectName}» осталось черновиков: ${f.draftsLeft ?? 0}. При нынешнем контент-плане и сериях их хватит до ${when}.`,
        "Добавьте черновики или попросите ИИ предложить новые заголовки, чтобы канал не замолчал.",
      ],
      path: "drafts" as const,
    }),
    postFailed: (f: NotificationFacts, when: string, reason: string) => ({
      subject: `Pressa: пост «${f.postTitle}» не опубликован`,
      lines: [`Пост «${f.postTitle}» (${when}) в проекте «${f.projectName}» не удалось опубликовать или неизвестно, вышел ли он.`, reason],
      path: "schedule" as const,
    }),
    postRejected: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: пост «${f.postTitle}» отклонён`,
      lines: [`Администратор канала отклонил пост «${f.postTitle}» (${when}) в проекте «${f.projectName}». Он не будет опубликован.`],
      path: "schedule" as const,
    }),
    channelLost: (f: NotificationFacts, when: string, reason: string) => ({
      subject: `Pressa: нет прав на публикацию в канале проекта «${f.projectName}»`,
      lines: [`Пост «${f.postTitle}» (${when}) не отправлен: у бота или администратора больше нет нужных прав в канале.`, reason],
      path: "channels" as const,
    }),
    open: "Открыть в Pressa:",
    footer: "Эти письма можно отключить в Pressa: Настройки → Уведомления.",
  },
  en: {
    queueLow: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the drafts of “${f.projectName}” run out on ${when}`,
      lines: [
        `The queue of “${f.projectName}” has ${f.draftsLeft ?? 0} draft(s) left. At the current content plan and series they last until ${when}.`,
        "Add drafts, or ask the AI for new titles, so the channel does not go quiet.",
      ],
      path: "drafts" as const,
    }),
    postFailed: (f: NotificationFacts, when: string, reason: string) => ({
      subject: `Pressa: the post “${f.postTitle}” was not published`,
      lines: [`The post “${f.postTitle}” (${when}) of “${f.projectName}” failed, or it is not known whether it went out.`, reason],
      path: "schedule" as const,
    }),
    postRejected: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the post “${f.postTitle}” was rejected`,
      lines: [`The channel's admin rejected the post “${f.postTitle}” (${when}) of “${f.projectName}”. It will not be published.`],
      path: "schedule" as const,
    }),
    channelLost: (f: NotificationFacts, when: string, reason: string) => ({
      subject: `Pressa: no right to post in the channel of “${f.projectName}”`,
      lines: [`The post “${f.postTitle}” (${when}) was not sent: the bot or the admin no longer has the rights it needs in the channel.`, reason],
      path: "channels" as const,
    }),
    open: "Open in Pressa:",
    footer: "You can turn these e-mails off in Pressa: Settings → Notifications.",
  },
};

/** The mail about one event, in the project's language. */
export function notificationMail(kind: NotificationKind, facts: NotificationFacts, projectId: number, publicUrl: string): Mail {
  const language = facts.language === "en" ? "en" : "ru";
  const words = WORDS[language];
  const dictionary = rosetta<Record<string, string>>({ dictionary: language === "en" ? en : ru });
  const t = ((key: string, params?: Record<string, unknown>) => dictionary.t([key], params, "dictionary") || key) as TFunction;
  const at = kind === "queueLow" ? facts.runsDryAt : facts.scheduledFor;
  const when = at
    ? new Intl.DateTimeFormat(language === "en" ? "en-GB" : "ru-RU", {
      timeZone: facts.timezone, day: "numeric", month: "short", hour: kind === "queueLow" ? undefined : "2-digit",
      minute: kind === "queueLow" ? undefined : "2-digit",
    }).format(new Date(at))
    : "—";
  const reason = facts.reasonCode ? reasonText(t, facts.reasonCode, facts.reasonParams ?? {}) : "";
  const { subject, lines, path } = words[kind](facts, when, reason);
  const link = `${publicUrl}/project/${projectId}/${path}`;
  return { to: facts.email, subject, text: [...lines.filter(Boolean), "", `${words.open} ${link}`, "", words.footer].join("\n") };
}

export function sendNotification(sql: Sql, mailer: Mailer, publicUrl: string): Task {
  return async (payload, helpers) => {
    const parsed = v.safeParse(Payload, payload);
    if (!parsed.success) return helpers.logger.error("notifications__send: malformed payload, dropped");
    const { projectId, kind, postId } = parsed.output;
    const [facts] = await sql<NotificationFacts[]>`select * from app_public.owner_notification(${projectId}, ${kind}, ${postId})`;
    if (!facts) return; // the project is gone, or the owner turned this kind off meanwhile
    await mailer.send(notificationMail(kind, facts, projectId, publicUrl));
  };
}
