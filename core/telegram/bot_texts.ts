/*
 * What the channel admin reads in Telegram, in the project's language (ru by default).
 * Used by the worker (approval requests, notices) and the bot (decisions).
 */
export type AdminLanguage = "ru" | "en";

export function adminLanguage(language: string | null | undefined): AdminLanguage {
  return language === "en" ? "en" : "ru";
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
    approvalRequest: (channel: string, when: string) =>
      `📝 Пост на согласование для ${channel}\nПубликация: ${when}\n\nНиже — пост в том виде, в каком он выйдет в канале. Одобрите или отклоните его.`,
    approve: "✅ Одобрить",
    reject: "❌ Отклонить",
    decideAbove: "⬆️ Пост выше — одобрить или отклонить?",
    editRequest: (channel: string, published: string) =>
      `✏️ Правка поста в ${channel}, опубликованного ${published}\n\nНиже — пост после правки. Одобрите, и сообщение в канале изменится; отклоните — останется как есть.`,
    editApproved: "✅ Правка одобрена: сообщение в канале будет изменено.",
    editRejected: "❌ Правка отклонена: пост в канале остался как был.",
    approved: (when: string) => `✅ Одобрено. Пост выйдет ${when}.`,
    rejected: "❌ Отклонено. Пост не будет опубликован.",
    stale: "Это сообщение устарело или решение уже принято — ничего не изменилось.",
    outdatedEdited: "⚠️ Пост изменили после отправки — эта версия устарела, её кнопки не действуют.",
    outdatedDeleted: "🗑 Пост удалён — кнопки больше не действуют.",
    outdatedChannelChanged: "🔌 Канал проекта отключили — это согласование больше не действует.",
    outdatedApproverChanged: "👤 Согласующим проекта назначен другой администратор — кнопки больше не действуют.",
    failed: (title: string, channel: string, reason: string) =>
      `⚠️ Не удалось опубликовать пост «${title}» в ${channel}.\nПричина: ${reason}`,
    uncertain: (title: string, channel: string, reason: string) =>
      `❓ Неизвестно, вышел ли пост «${title}» в ${channel}: ${reason}\n\nПроверьте канал и выберите, что делать.`,
    inChannel: "Он в канале",
    sendAgain: "Отправить снова",
    resolvedInChannel: "👍 Отмечено как опубликованное.",
    resolvedSendAgain: "🔁 Пост будет отправлен снова.",
  },
  en: {
    approvalRequest: (channel: string, when: string) =>
      `📝 Post for approval in ${channel}\nPublishing: ${when}\n\nBelow is the post exactly as it will appear in the channel. Approve or reject it.`,
    approve: "✅ Approve",
    reject: "❌ Reject",
    decideAbove: "⬆️ The post above: approve or reject?",
    editRequest: (channel: string, published: string) =>
      `✏️ An edit of the post in ${channel} published ${published}\n\nBelow is the post as edited. Approve it and the channel's message changes; reject it and it stays as it is.`,
    editApproved: "✅ Edit approved: the channel's message will be changed.",
    editRejected: "❌ Edit rejected: the post in the channel stays as it was.",
    approved: (when: string) => `✅ Approved. The post goes out ${when}.`,
    rejected: "❌ Rejected. The post will not be published.",
    stale: "This message is outdated or already decided; nothing changed.",
    outdatedEdited: "⚠️ The post was edited after this was sent: this version is outdated and its buttons do nothing.",
    outdatedDeleted: "🗑 The post was deleted: these buttons do nothing any more.",
    outdatedChannelChanged: "🔌 The project's channel was disconnected: this approval no longer applies.",
    outdatedApproverChanged: "👤 Another administrator now approves this project's posts: these buttons do nothing any more.",
    failed: (title: string, channel: string, reason: string) =>
      `⚠️ Could not publish "${title}" in ${channel}.\nReason: ${reason}`,
    uncertain: (title: string, channel: string, reason: string) =>
      `❓ It is not known whether "${title}" reached ${channel}: ${reason}\n\nCheck the channel and choose what to do.`,
    inChannel: "It is in the channel",
    sendAgain: "Send again",
    resolvedInChannel: "👍 Marked as published.",
    resolvedSendAgain: "🔁 The post will be sent again.",
  },
} as const;

/** callback_data of the admin's buttons: "<action>:<postId>". */
export type AdminAction = "approve" | "reject" | "inchannel" | "resend" | "editok" | "editno";
export const callbackData = (action: AdminAction, postId: number) => `${action}:${postId}`;
export function parseCallbackData(data: string): { action: AdminAction; postId: number } | null {
  const match = data.match(/^(approve|reject|inchannel|resend|editok|editno):(\d{1,15})$/);
  return match ? { action: match[1] as AdminAction, postId: Number(match[2]) } : null;
}
