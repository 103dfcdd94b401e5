/*
 * Every word Pressa sends by e-mail: the sign-in code (the address's language is unknown
 * before sign-in, so Russian first, the product's default, and English below) and the
 * notifications to a project's owner, in the project's language. tests/texts.test.ts keeps
 * the two languages' keys equal.
 */
import { SIGN_IN_CODE_TTL_MINUTES } from "../contract/limits.ts";
import type { PostReasonParams } from "../contract/post_reasons.ts";

export function signInCodeMail(code: string) {
  const text = [
    `Ваш код для входа в Pressa: ${code}`,
    `Код действует ${SIGN_IN_CODE_TTL_MINUTES} минут. Если вы не запрашивали код, просто проигнорируйте это письмо.`,
    "",
    `Your Pressa sign-in code: ${code}`,
    `It is valid for ${SIGN_IN_CODE_TTL_MINUTES} minutes. If you did not ask for it, ignore this e-mail.`,
  ].join("\n");
  return { subject: `Pressa: код для входа ${code} / your sign-in code`, text };
}

/** What a notification mail says about its project and post (app_public.owner_notification). */
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
  /** A member's mail (app_public.member_notification): who acted, and the comment quoted. */
  actorEmail?: string | null;
  comment?: string | null;
};

/** What a weekly summary says (app_public.weekly_summary), its numbers and dates already written out. */
export type WeeklySummaryWords = {
  projectName: string;
  /** "18 November – 24 November", the 7 days summed up, in the project's timezone. */
  period: string;
  /** The count now; null while unknown. */
  subscribers: string | null;
  /** "+12", "−3", "0"; null when the count of a week ago is unknown. */
  change: string | null;
  joins: string;
  leaves: string;
  postsPublished: number;
  topPost: { title: string; reactions: string; url: string | null } | null;
  topLink: { name: string; joins: string } | null;
  draftsLeft: string;
  plannedNextWeek: string;
  /** Posts authors sent for review, waiting for an editor's or the owner's decision. */
  inReview: number;
  awaitingApproval: number;
  /** Failed in the week, and of unknown fate. */
  failures: number;
};

/** A notification mail, by kind: its subject, lines and the page its link opens. */
export const NOTIFICATION_WORDS = {
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
    webhookDisabled: (f: NotificationFacts) => ({
      subject: `Pressa: вебхук проекта «${f.projectName}» отключён`,
      lines: ["Адрес вебхука не принимал доставки 3 дня, и Pressa перестала на него отправлять. Проверьте получателя и повторите любую доставку из журнала, чтобы включить его снова."],
      path: "webhooks" as const,
    }),
    reviewRequested: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: пост «${f.postTitle}» ждёт проверки`,
      lines: [`${f.actorEmail ?? "Автор"} отправил на проверку пост «${f.postTitle}» (${when}) в проекте «${f.projectName}». Пока вы его не одобрите, он не уйдёт в Telegram.`],
      path: "review" as const,
    }),
    reviewApproved: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: пост «${f.postTitle}» одобрен`,
      lines: [
        `${f.actorEmail ?? "Редактор"} одобрил ваш пост «${f.postTitle}» (${when}) в проекте «${f.projectName}». Теперь его согласует администратор канала в Telegram.`,
        f.comment ? `Комментарий: ${f.comment}` : "",
      ],
      path: "schedule" as const,
    }),
    reviewReturned: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: пост «${f.postTitle}» возвращён на доработку`,
      lines: [
        `${f.actorEmail ?? "Редактор"} вернул ваш пост «${f.postTitle}» (${when}) в проекте «${f.projectName}» в черновики. Он не уйдёт в Telegram, пока вы не опубликуете его снова.`,
        f.comment ? `Комментарий: ${f.comment}` : "",
      ],
      path: "schedule" as const,
    }),
    postCommented: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: новый комментарий к посту «${f.postTitle}»`,
      lines: [`${f.actorEmail ?? "Участник проекта"} прокомментировал ваш возвращённый пост «${f.postTitle}» (${when}) в проекте «${f.projectName}»:`, f.comment ?? ""],
      path: "schedule" as const,
    }),
    adRemovalDue: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: рекламу «${f.postTitle}» пора удалить из канала`,
      lines: [
        `Срок рекламы «${f.postTitle}» (вышла по плану ${when}) в проекте «${f.projectName}» истёк.`,
        "Telegram не даёт ботам удалять сообщения старше 48 часов, поэтому удалите пост в канале вручную: откройте его, нажмите на сообщение и выберите «Удалить».",
      ],
      path: "schedule" as const,
    }),
    adCannotDelete: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: бот не может удалить рекламу «${f.postTitle}»`,
      lines: [
        `Реклама «${f.postTitle}» (${when}) в проекте «${f.projectName}» должна уйти из канала в конце срока, но у бота нет права удалять сообщения.`,
        "Выдайте его в Telegram: канал → Администраторы → бот → включите «Удаление сообщений». Pressa пробует снова каждые 10 минут и удалит рекламу, как только право появится.",
      ],
      path: "channels" as const,
    }),
    weeklySummary: (w: WeeklySummaryWords) => ({
      subject: `Pressa: итоги недели проекта «${w.projectName}»` + (w.change === null ? "" : `, подписчики ${w.change}`),
      lines: [
        `«${w.projectName}»: итоги недели ${w.period}.`,
        w.subscribers === null
          ? "Подписчики: число пока неизвестно."
          : `Подписчики: ${w.subscribers}` + (w.change === null ? " (неделю назад число ещё не было известно)." : ` (${w.change} за неделю).`),
        `Пришли: ${w.joins}, ушли: ${w.leaves}.`,
        w.topPost
          ? `Лучший пост: «${w.topPost.title}», реакций: ${w.topPost.reactions}.` + (w.topPost.url ? ` ${w.topPost.url}` : "")
          : w.postsPublished > 0
          ? `Опубликовано постов: ${w.postsPublished}; реакций на них пока нет.`
          : "За неделю не вышло ни одного поста.",
        w.topLink ? `Больше всего подписчиков привела ссылка «${w.topLink.name}»: ${w.topLink.joins}.` : "",
        `Очередь: свободных черновиков ${w.draftsLeft}, на следующую неделю запланировано постов: ${w.plannedNextWeek}.` +
          (w.inReview > 0 ? ` Ждут проверки: ${w.inReview}.` : "") +
          (w.awaitingApproval > 0 ? ` Ждут согласования: ${w.awaitingApproval}.` : "") +
          (w.failures > 0 ? ` Не опубликовано (нужно ваше решение): ${w.failures}.` : ""),
      ],
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
    webhookDisabled: (f: NotificationFacts) => ({
      subject: `Pressa: a webhook of “${f.projectName}” was switched off`,
      lines: ["The webhook's address has not taken a delivery for 3 days, so Pressa stopped sending to it. Check the receiver, then redeliver any delivery from its log to switch it on again."],
      path: "webhooks" as const,
    }),
    reviewRequested: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the post “${f.postTitle}” waits for your review`,
      lines: [`${f.actorEmail ?? "An author"} sent the post “${f.postTitle}” (${when}) of “${f.projectName}” for review. It does not go to Telegram until you approve it.`],
      path: "review" as const,
    }),
    reviewApproved: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the post “${f.postTitle}” was approved`,
      lines: [
        `${f.actorEmail ?? "An editor"} approved your post “${f.postTitle}” (${when}) of “${f.projectName}”. The channel's admin now approves it in Telegram.`,
        f.comment ? `Comment: ${f.comment}` : "",
      ],
      path: "schedule" as const,
    }),
    reviewReturned: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the post “${f.postTitle}” was returned to you`,
      lines: [
        `${f.actorEmail ?? "An editor"} returned your post “${f.postTitle}” (${when}) of “${f.projectName}” to draft. It does not go to Telegram until you publish it again.`,
        f.comment ? `Comment: ${f.comment}` : "",
      ],
      path: "schedule" as const,
    }),
    postCommented: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: a new comment on the post “${f.postTitle}”`,
      lines: [`${f.actorEmail ?? "A member"} commented on your returned post “${f.postTitle}” (${when}) of “${f.projectName}”:`, f.comment ?? ""],
      path: "schedule" as const,
    }),
    adRemovalDue: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the ad “${f.postTitle}” is due for removal from the channel`,
      lines: [
        `The feed time of the ad “${f.postTitle}” (planned for ${when}) of “${f.projectName}” is over.`,
        "Telegram does not let bots delete messages older than 48 hours, so delete the post in the channel by hand: open it, tap the message and choose Delete.",
      ],
      path: "schedule" as const,
    }),
    adCannotDelete: (f: NotificationFacts, when: string) => ({
      subject: `Pressa: the bot cannot delete the ad “${f.postTitle}”`,
      lines: [
        `The ad “${f.postTitle}” (${when}) of “${f.projectName}” is to leave the channel at the end of its feed time, but the bot may not delete messages there.`,
        "Grant the right in Telegram: the channel → Administrators → the bot → turn on “Delete messages”. Pressa tries again every 10 minutes and removes the ad as soon as it may.",
      ],
      path: "channels" as const,
    }),
    weeklySummary: (w: WeeklySummaryWords) => ({
      subject: `Pressa: the week of “${w.projectName}”` + (w.change === null ? "" : `, subscribers ${w.change}`),
      lines: [
        `“${w.projectName}”: the week of ${w.period}.`,
        w.subscribers === null
          ? "Subscribers: not known yet."
          : `Subscribers: ${w.subscribers}` + (w.change === null ? " (the count of a week ago is not known)." : ` (${w.change} this week).`),
        `Joined: ${w.joins}, left: ${w.leaves}.`,
        w.topPost
          ? `Top post: “${w.topPost.title}”, reactions: ${w.topPost.reactions}.` + (w.topPost.url ? ` ${w.topPost.url}` : "")
          : w.postsPublished > 0
          ? `Posts published: ${w.postsPublished}; no reactions on them yet.`
          : "No post went out this week.",
        w.topLink ? `The link that brought the most subscribers: “${w.topLink.name}”, ${w.topLink.joins}.` : "",
        `Queue: ${w.draftsLeft} draft(s) left, ${w.plannedNextWeek} post(s) planned for the next week.` +
          (w.inReview > 0 ? ` Waiting for review: ${w.inReview}.` : "") +
          (w.awaitingApproval > 0 ? ` Waiting for approval: ${w.awaitingApproval}.` : "") +
          (w.failures > 0 ? ` Not published (needs you): ${w.failures}.` : ""),
      ],
    }),
    open: "Open in Pressa:",
    footer: "You can turn these e-mails off in Pressa: Settings → Notifications.",
  },
} as const;

/** What an invitation mail says (app_public.invitation_mail), in the project's language. */
export type InvitationFacts = {
  email: string;
  role: "owner" | "editor" | "author" | "viewer";
  projectName: string;
  language: string;
  inviterEmail: string | null;
  expiresAt: string;
};

export const INVITATION_WORDS = {
  ru: {
    roles: { owner: "владелец", editor: "редактор", author: "автор", viewer: "наблюдатель" },
    subject: (f: InvitationFacts) => `Pressa: приглашение в проект «${f.projectName}»`,
    lines: (f: InvitationFacts, role: string, until: string, link: string) => [
      `${f.inviterEmail ?? "Владелец проекта"} приглашает вас в проект «${f.projectName}» в Pressa. Ваша роль: ${role}.`,
      "",
      `Принять приглашение: ${link}`,
      "",
      `Ссылка действует до ${until}. Войдите с адресом ${f.email}, чтобы принять его.`,
      "Если вы не ждали этого письма, просто проигнорируйте его.",
    ],
  },
  en: {
    roles: { owner: "owner", editor: "editor", author: "author", viewer: "viewer" },
    subject: (f: InvitationFacts) => `Pressa: an invitation to "${f.projectName}"`,
    lines: (f: InvitationFacts, role: string, until: string, link: string) => [
      `${f.inviterEmail ?? "The project's owner"} invites you to the project "${f.projectName}" on Pressa, as ${role}.`,
      "",
      `Accept the invitation: ${link}`,
      "",
      `The link works until ${until}. Sign in with ${f.email} to accept it.`,
      "If you did not expect this mail, ignore it.",
    ],
  },
} as const;
