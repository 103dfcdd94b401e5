/*
 * Every word the bot sends in Telegram: to the channel admin (approval requests, notices,
 * decisions), in the project's language (ru by default), and to whoever registers with the
 * bot, in their Telegram language. Used by the worker and the bot; tests/texts.test.ts keeps
 * the two languages' keys equal.
 */
import type { PostOptions, UrlButton } from "../contract/post_options.ts";

export type AdminLanguage = "ru" | "en";

/**
 * The one rule for the language the bot speaks in: a message about a project is in the
 * project's language (its owner chose it for everything the project says, the approver's
 * messages included); a message about no project (registering with the bot) is in the
 * person's Telegram language, Russian for Russian and English for any other; with neither
 * known, Russian, the product's default.
 */
export function botLanguage(projectLanguage: string | null | undefined, telegramLanguage?: string): AdminLanguage {
  if (projectLanguage === "en" || projectLanguage === "ru") return projectLanguage;
  if (telegramLanguage === undefined || telegramLanguage === "") return "ru";
  return telegramLanguage.toLowerCase().startsWith("ru") ? "ru" : "en";
}

export function formatWhen(at: Date | string, timezone: string, language: AdminLanguage) {
  return new Intl.DateTimeFormat(language === "en" ? "en-GB" : "ru-RU", {
    timeZone: timezone,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(at)) + ` (${timezone})`;
}

export const ADMIN_TEXTS = {
  ru: {
    approvalRequest: (channel: string, when: string, options: PostOptions) =>
      `📝 Пост на согласование для ${channel}\nПубликация: ${when}\n\n${postOptionsText(options, "ru")}\n\nНиже — пост в том виде, в каком он выйдет в канале. Одобрите или отклоните его.`,
    pinned: (unpinAfterHours: number | undefined) =>
      unpinAfterHours ? `📌 Будет закреплён в канале и откреплён через ${unpinAfterHours} ч` : "📌 Будет закреплён в канале",
    notPinned: "📌 Не закрепляется",
    silent: "🔕 Без звука: подписчики не получат уведомления",
    loud: "🔔 Со звуком: подписчики получат уведомление",
    buttonsLead: "🔗 Кнопки под постом и куда они ведут:",
    noButtons: "🔗 Кнопок под постом нет",
    approve: "✅ Одобрить",
    reject: "❌ Отклонить",
    decideAbove: "⬆️ Пост выше — одобрить или отклонить?",
    editRequest: (channel: string, published: string, buttons: UrlButton[][]) =>
      `✏️ Правка поста в ${channel}, опубликованного ${published}\n\n${buttonsText(buttons, "ru")}\n\nНиже — пост после правки. Одобрите, и сообщение в канале изменится; отклоните — останется как есть.`,
    editApproved: "✅ Правка одобрена: сообщение в канале будет изменено.",
    editRejected: "❌ Правка отклонена: пост в канале остался как был.",
    approved: (when: string) => `✅ Одобрено. Пост выйдет ${when}.`,
    approvedLate: (when: string) => `✅ Одобрено. Время поста (${when}) уже прошло — он выходит сейчас.`,
    rejected: "❌ Отклонено. Пост не будет опубликован.",
    stale: "Это сообщение устарело или решение уже принято — ничего не изменилось.",
    staleStillWaiting: "Это превью устарело: пост всё ещё ждёт решения. Нажмите «Одобрить» или «Отклонить» под его последним превью в этом чате.",
    outdatedEdited: "⚠️ Пост изменили после отправки — эта версия устарела, её кнопки не действуют.",
    outdatedDeleted: "🗑 Пост удалён — кнопки больше не действуют.",
    outdatedChannelChanged: "🔌 Канал проекта отключили — это согласование больше не действует.",
    outdatedApproverChanged: "👤 Согласующим проекта назначен другой администратор — кнопки больше не действуют.",
    outdatedResent: "🔁 Автор отправил пост на согласование заново — кнопки этого превью больше не действуют, решайте под новым.",
    outdatedMoved: "🕒 Автор перенёс пост на другое время — кнопки этого превью больше не действуют.",
    lateReminder: (channel: string, when: string, minutes: number) =>
      `⏰ Пост для ${channel} должен был выйти ${when} и опаздывает уже на ${minutes} мин: он ждёт вашего решения. Нажмите «Одобрить» или «Отклонить» под превью выше — одобренный пост выйдет сразу.`,
    failed: (title: string, channel: string, reason: string) =>
      `⚠️ Не удалось опубликовать пост «${title}» в ${channel}.\nПричина: ${reason}`,
    uncertain: (title: string, channel: string, reason: string) =>
      `❓ Неизвестно, вышел ли пост «${title}» в ${channel}: ${reason}\n\nПроверьте канал и выберите, что делать.`,
    adRemovalDue: (title: string, channel: string, link: string) =>
      `🗑 Срок рекламы «${title}» в ${channel} истёк — её пора удалить. Telegram не даёт ботам удалять сообщения старше 48 часов: удалите пост в канале вручную.${link ? `\n${link}` : ""}`,
    adCannotDelete: (title: string, channel: string) =>
      `⚠️ Реклама «${title}» в ${channel} должна уйти из канала в конце срока, но у бота нет права удалять сообщения. Выдайте его: канал → Администраторы → бот → «Удаление сообщений». Pressa пробует снова каждые 10 минут.`,
    inChannel: "Он в канале",
    sendAgain: "Отправить снова",
    resolvedInChannel: "👍 Отмечено как опубликованное.",
    resolvedSendAgain: "🔁 Пост будет отправлен снова.",
    approverRequest: (account: string, channel: string, kind: "connect" | "handover") =>
      kind === "connect"
        ? `🔐 Аккаунт Pressa ${account} хочет подключить канал ${channel} и публиковать в нём посты, которые вы одобрите.\n\nЕсли вы не знаете этот аккаунт, откажите: без вашего согласия канал не подключится.`
        : `🔐 Аккаунт Pressa ${account} хочет, чтобы посты в канал ${channel} одобряли вы.\n\nЕсли вы не знаете этот аккаунт, откажите: без вашего согласия ничего не изменится.`,
    allow: "✅ Разрешить",
    deny: "❌ Отказать",
    denyAndBlock: "🚫 Отказать и больше не спрашивать",
    requestAllowed: (channel: string) => `✅ Разрешено: канал ${channel} подключён, посты будут приходить вам на согласование.`,
    handoverAllowed: (channel: string) => `✅ Разрешено: теперь посты в ${channel} одобряете вы.`,
    requestDenied: "❌ Отказано: ничего не изменилось.",
    requestBlocked: "🚫 Отказано. Запросов от этого аккаунта больше не будет.",
    requestTaken: (channel: string) => `⚠️ Канал ${channel} уже подключён в другом аккаунте — этот запрос отклонён.`,
  },
  en: {
    approvalRequest: (channel: string, when: string, options: PostOptions) =>
      `📝 Post for approval in ${channel}\nPublishing: ${when}\n\n${postOptionsText(options, "en")}\n\nBelow is the post exactly as it will appear in the channel. Approve or reject it.`,
    pinned: (unpinAfterHours: number | undefined) =>
      unpinAfterHours ? `📌 Will be pinned in the channel, and unpinned after ${unpinAfterHours} h` : "📌 Will be pinned in the channel",
    notPinned: "📌 Not pinned",
    silent: "🔕 Silent: subscribers get no notification",
    loud: "🔔 With sound: subscribers get a notification",
    buttonsLead: "🔗 Buttons under the post and where they lead:",
    noButtons: "🔗 No buttons under the post",
    approve: "✅ Approve",
    reject: "❌ Reject",
    decideAbove: "⬆️ The post above: approve or reject?",
    editRequest: (channel: string, published: string, buttons: UrlButton[][]) =>
      `✏️ An edit of the post in ${channel} published ${published}\n\n${buttonsText(buttons, "en")}\n\nBelow is the post as edited. Approve it and the channel's message changes; reject it and it stays as it is.`,
    editApproved: "✅ Edit approved: the channel's message will be changed.",
    editRejected: "❌ Edit rejected: the post in the channel stays as it was.",
    approved: (when: string) => `✅ Approved. The post goes out ${when}.`,
    approvedLate: (when: string) => `✅ Approved. The post's time (${when}) has passed, so it goes out now.`,
    rejected: "❌ Rejected. The post will not be published.",
    stale: "This message is outdated or already decided; nothing changed.",
    staleStillWaiting: "This preview is outdated: the post is still waiting for your decision. Press Approve or Reject under its latest preview in this chat.",
    outdatedEdited: "⚠️ The post was edited after this was sent: this version is outdated and its buttons do nothing.",
    outdatedDeleted: "🗑 The post was deleted: these buttons do nothing any more.",
    outdatedChannelChanged: "🔌 The project's channel was disconnected: this approval no longer applies.",
    outdatedApproverChanged: "👤 Another administrator now approves this project's posts: these buttons do nothing any more.",
    outdatedResent: "🔁 The author sent the post for approval again: this preview's buttons do nothing any more; decide under the new one.",
    outdatedMoved: "🕒 The author moved the post to another time: this preview's buttons do nothing any more.",
    lateReminder: (channel: string, when: string, minutes: number) =>
      `⏰ The post for ${channel} was due ${when} and is ${minutes} min late: it waits for your decision. Press Approve or Reject under the preview above; once approved it goes out at once.`,
    failed: (title: string, channel: string, reason: string) =>
      `⚠️ Could not publish "${title}" in ${channel}.\nReason: ${reason}`,
    uncertain: (title: string, channel: string, reason: string) =>
      `❓ It is not known whether "${title}" reached ${channel}: ${reason}\n\nCheck the channel and choose what to do.`,
    adRemovalDue: (title: string, channel: string, link: string) =>
      `🗑 The feed time of the ad "${title}" in ${channel} is over: it is due for removal. Telegram does not let bots delete messages older than 48 hours, so delete the post in the channel by hand.${link ? `\n${link}` : ""}`,
    adCannotDelete: (title: string, channel: string) =>
      `⚠️ The ad "${title}" in ${channel} is to leave the channel at the end of its feed time, but the bot may not delete messages there. Grant the right: the channel → Administrators → the bot → "Delete messages". Pressa tries again every 10 minutes.`,
    inChannel: "It is in the channel",
    sendAgain: "Send again",
    resolvedInChannel: "👍 Marked as published.",
    resolvedSendAgain: "🔁 The post will be sent again.",
    approverRequest: (account: string, channel: string, kind: "connect" | "handover") =>
      kind === "connect"
        ? `🔐 The Pressa account ${account} wants to connect the channel ${channel} and publish there the posts you approve.\n\nIf you do not know this account, deny: without your consent the channel is not connected.`
        : `🔐 The Pressa account ${account} wants you to approve the posts of the channel ${channel}.\n\nIf you do not know this account, deny: without your consent nothing changes.`,
    allow: "✅ Allow",
    deny: "❌ Deny",
    denyAndBlock: "🚫 Deny and block this account",
    requestAllowed: (channel: string) => `✅ Allowed: ${channel} is connected, and its posts will come to you for approval.`,
    handoverAllowed: (channel: string) => `✅ Allowed: you now approve the posts of ${channel}.`,
    requestDenied: "❌ Denied: nothing changed.",
    requestBlocked: "🚫 Denied. This account will not ask you again.",
    requestTaken: (channel: string) => `⚠️ ${channel} is already connected in another account: this request is refused.`,
  },
} as const;

/** Shown addresses are cut here: nine buttons' worth must leave the header well under Telegram's 4096. */
const SHOWN_URL_MAX = 200;

/**
 * Where a URL button leads, as the approver should judge it: the site's host first (as
 * ASCII, so a look-alike Unicode domain shows as its xn-- form), then the address itself;
 * a tg:// button is named as a Telegram link with its address.
 */
function destination(url: string): string {
  const shown = url.length > SHOWN_URL_MAX ? `${url.slice(0, SHOWN_URL_MAX)}…` : url;
  if (/^tg:/i.test(url)) return `Telegram: ${shown}`;
  try {
    return `${new URL(url).hostname} — ${shown}`;
  } catch {
    return shown;
  }
}

function buttonsText(buttons: UrlButton[][] | undefined, language: AdminLanguage): string {
  const texts = ADMIN_TEXTS[language];
  const all = (buttons ?? []).flat();
  if (all.length === 0) return texts.noButtons;
  return [texts.buttonsLead, ...all.map((b) => `• «${b.text}» → ${destination(b.url)}`)].join("\n");
}

/**
 * What the approver approves besides the words: pin (and when it lifts), sound, and every
 * button's destination. The preview shows the buttons, but not where they go without a tap
 * (and a tap on tg:// acts at once), nor the pin or the sound at all.
 */
export function postOptionsText(options: PostOptions, language: AdminLanguage): string {
  const texts = ADMIN_TEXTS[language];
  return [
    options.pin ? texts.pinned(options.unpinAfterHours) : texts.notPinned,
    options.silent ? texts.silent : texts.loud,
    buttonsText(options.buttons, language),
  ].join("\n");
}

/**
 * An account as the approver sees it: enough to recognise someone they know
 * (o***@example.com), not the whole address of a stranger.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email[0]}***${email.slice(at)}`;
}

/** What someone who writes to the bot reads back: in their Telegram language (botLanguage). */
export const REGISTRATION_TEXTS = {
  ru: {
    registered: (handle: string) =>
      `Готово! Я запомнил вас как @${handle}.\n\nТеперь в Pressa укажите @${handle} администратором проекта, ` +
      `добавьте меня администратором канала с правом публикации сообщений и подключите канал. ` +
      `Посты на согласование будут приходить сюда.`,
    noUsername:
      "У вашего аккаунта Telegram нет имени пользователя (@username). Задайте его в настройках Telegram и напишите мне снова.",
  },
  en: {
    registered: (handle: string) =>
      `Done! I have registered you as @${handle}.\n\nNow, in Pressa, set @${handle} as the project's admin, ` +
      `make me an administrator of your channel with the right to post messages, and connect the channel. ` +
      `Posts for approval will arrive here.`,
    noUsername:
      "Your Telegram account has no username (@username). Set one in Telegram's settings and message me again.",
  },
} as const;
