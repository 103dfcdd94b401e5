/* A project ready to publish: signed-in owner, registered admin, connected channel, drafts. */
import { expect } from "vitest";
import { createBot } from "../../bot/bot.ts";
import { silentLog } from "../../core/log.ts";
import { makePng } from "./images.ts";
import type { Stack } from "./stack.ts";
import { uniqueEmail } from "./stack.ts";

let counter = 0;

/** Tomorrow 09:00 Moscow (06:00 UTC), as a series' first time. */
export function tomorrowNine() {
  const at = new Date(Date.now() + 86400_000);
  at.setUTCHours(6, 0, 0, 0);
  return at;
}

export async function projectWithChannel(
  stack: Stack,
  /** approverRole: the admin created the channel (default), or is one of its administrators who may post. */
  options: {
    drafts?: string[];
    timezone?: string;
    language?: string;
    approverRole?: "creator" | "administrator";
    /** Runs once the project exists, before its channel is connected (e.g. to hear of the connection). */
    beforeChannel?: (project: { id: number; base: string; cookie: string }) => Promise<void>;
  } = {},
) {
  counter += 1;
  const telegram = stack.telegram!;
  const { cookie } = await stack.signIn(uniqueEmail("owner"));
  const handle = `admin_${Date.now().toString(36)}_${counter}`;
  const admin = telegram.addUser({ username: handle, first_name: "Admin", language_code: "ru", startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${handle}, ${admin.id})`;
  // Telegram confirms the admin as the channel's approver: its creator, or an administrator.
  const creator = options.approverRole === "administrator" ? undefined : admin.id;
  const channel = telegram.addChannel({ username: `channel_${Date.now().toString(36)}_${counter}`, title: "Channel", owner: creator });
  if (creator === undefined) telegram.setMemberRights(channel.id, admin.id, "administrator");
  const project = (await stack.call("POST", "/api/projects", {
    name: "Publishing",
    adminHandle: handle,
    timezone: options.timezone ?? "Europe/Moscow",
  }, cookie)).json;
  if (options.language) await stack.call("PATCH", `/api/projects/${project.id}`, { language: options.language }, cookie);
  await options.beforeChannel?.({ id: project.id, base: `/api/projects/${project.id}`, cookie });
  const added = await stack.call("POST", `/api/projects/${project.id}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
  if (added.status !== 201) throw new Error(`channel: ${added.text}`);
  // The admin allows the connection in the bot (docs/trust-model.md).
  const question = await approverQuestion(stack, admin.id);
  const allowed = await press(stack, admin.id, admin.id, question.message_id, buttonsOf(question)[0]!);
  if (allowed.text?.startsWith("✅") !== true) throw new Error(`the approver's Allow: ${allowed.text}`);
  const drafts = options.drafts?.length
    ? (await stack.call("POST", `/api/projects/${project.id}/drafts/bulk`, { titles: options.drafts }, cookie)).json as { id: number; title: string }[]
    : [];
  /** `question`: the bot's message that asked the admin to allow the connection, the first in their chat. */
  return { cookie, admin, channel, project, drafts, question, base: `/api/projects/${project.id}` };
}

/** The callback_data of a message's inline buttons. */
export const buttonsOf = (m: { reply_markup?: { inline_keyboard: { callback_data?: string }[][] } | object }) =>
  ((m.reply_markup as { inline_keyboard?: { callback_data?: string }[][] } | undefined)?.inline_keyboard ?? [])
    .flat().map((b) => b.callback_data);

type WithButtons = Parameters<typeof buttonsOf>[0];
const actionData = (action: string, postId: number) => new RegExp(`^${action}:${postId}(?::\\d+)?$`);

/** Whether the message has the admin's `action` button for the post (with any round). */
export const hasButton = (m: WithButtons, action: string, postId: number) =>
  buttonsOf(m).some((data) => data !== undefined && actionData(action, postId).test(data));

/** The callback_data of the message's `action` button for the post, as the approver's press sends it. */
export function buttonData(m: WithButtons, action: string, postId: number): string {
  const data = buttonsOf(m).find((candidate) => candidate !== undefined && actionData(action, postId).test(candidate));
  if (!data) throw new Error(`no ${action} button for post ${postId}: ${JSON.stringify(buttonsOf(m))}`);
  return data;
}

/** What a preview's buttons carry: Approve and Reject for the post, each naming the preview's round. */
export const previewButtons = (postId: number) =>
  ["approve", "reject"].map((action) => expect.stringMatching(new RegExp(`^${action}:${postId}:\\d+$`)));

type ProjectWithChannel = Awaited<ReturnType<typeof projectWithChannel>>;

/**
 * The bot's question about the newest request made of this approver (docs/trust-model.md),
 * once the worker has recorded which message asks (only then do presses count).
 */
export async function approverQuestion(stack: Stack, approverId: number, timeoutMs = 20_000) {
  const telegram = stack.telegram!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [request] = await stack.sql<{ messageId: number | null }[]>`
      select message_id from app_public.approver_requests where approver_user_id = ${approverId} order by id desc limit 1`;
    const question = request?.messageId ? telegram.messages(approverId).find((m) => m.message_id === Number(request.messageId)) : undefined;
    if (question) return question;
    if (Date.now() > deadline) throw new Error("the approver's question was never recorded");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `from` presses `data` on the bot's message `messageId` in `chat` (their own private chat)
 * through the Bot API double, and the bot answers; `forged`: data no button carries, as a
 * modified client may send. Stacks without a running bot (nor a webhook) have the update
 * handled by a bot made for it. Answers the bot's callback answer.
 */
export async function press(stack: Stack, from: number, chat: number, messageId: number, data: string, options: { forged?: boolean } = {}) {
  const telegram = stack.telegram!;
  const query = telegram.userPressesButton(from, chat, messageId, data, options);
  // in webhook mode Telegram pushes the press to the API's bot; a second bot would answer it again
  if (!stack.botRunning && !stack.config.telegramWebhookSecret) {
    const bot = createBot(telegram.token, { sql: stack.sql, log: silentLog, apiRoot: telegram.apiRoot });
    await bot.init();
    const update = telegram.pendingUpdates().find((u) => u.callback_query?.id === query);
    if (update) await bot.handleUpdate(update);
  }
  return await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
}

/** The approver answers the bot's latest question: Allow, Deny, or Deny and block. */
export async function approverAnswers(stack: Stack, approverId: number, decision: "allow" | "deny" | "block", timeoutMs = 20_000) {
  const question = await approverQuestion(stack, approverId, timeoutMs);
  const data = buttonsOf(question).find((d) => d?.startsWith(`ar:${decision}:`))!;
  return await press(stack, approverId, approverId, question.message_id, data);
}

/** Gives a draft a real uploaded PNG and the content. */
export async function giveImage(stack: Stack, p: ProjectWithChannel, draftId: number, content: string) {
  const form = new FormData();
  form.append("image", new File([makePng(320, 200)], "story.png", { type: "image/png" }));
  const res = await stack.app.request(`${p.base}/upload-image`, { method: "POST", body: form, headers: { cookie: p.cookie } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload: ${await res.text()}`);
  const { imageUrl } = await res.json() as { imageUrl: string };
  const patched = await stack.call("PATCH", `${p.base}/drafts/${draftId}`, { content, imageUrl }, p.cookie);
  if (patched.status !== 200) throw new Error(`draft: ${patched.text}`);
}

/**
 * The admin's preview of a post, with Approve/Reject on it, once the worker has recorded
 * which message carries the buttons (only then do presses count). Waits up to `timeoutMs`
 * for each.
 */
export async function approvalPreview(stack: Stack, p: ProjectWithChannel, postId: number, timeoutMs = 20_000) {
  const telegram = stack.telegram!;
  const preview = await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "approve", postId)), timeoutMs);
  const deadline = Date.now() + timeoutMs;
  while (!(await stack.sql`select approval_preview ? 'chatId' as sent from app_public.posts where id = ${postId}`)[0].sent) {
    if (Date.now() > deadline) throw new Error("the preview was never recorded");
    await new Promise((r) => setTimeout(r, 50));
  }
  return preview;
}

/** Until the post has `status` (the worker and the bot move it); answers its row. */
export async function postReaches(stack: Stack, postId: number, status: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [post] = await stack.sql`select * from app_public.posts where id = ${postId}`;
    if (post.status === status) return post;
    if (Date.now() > deadline) throw new Error(`post ${postId} stayed ${post.status}, never ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A post of the draft that Telegram refuses at publication: sent for approval, approved, and
 * `failed` once the worker's send meets a 400. Nothing else may send a message meanwhile (the
 * refusal is the next sendMessage's), so callers plan other posts after it.
 */
export async function failedInTelegram(stack: Stack, p: ProjectWithChannel, draftId: number) {
  const telegram = stack.telegram!;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 3000);
  telegram.failNext("sendMessage", { code: 400, description: "Bad Request: chat not found" });
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await postReaches(stack, postId, "failed");
  return postId;
}

/** Schedules the draft `inMs` from now and publishes it; answers with the admin's preview. */
export async function sentForApproval(stack: Stack, p: ProjectWithChannel, draftId: number, inMs: number) {
  const created = await stack.call("POST", `${p.base}/posts`, { draftId, scheduledFor: new Date(Date.now() + inMs).toISOString() }, p.cookie);
  if (created.status !== 201) throw new Error(`schedule: ${created.text}`);
  const postId = created.json.id as number;
  await stack.call("POST", `${p.base}/posts/${postId}/publish`, undefined, p.cookie);
  return { postId, preview: await approvalPreview(stack, p, postId) };
}

/**
 * Whether another account is served while a burst runs: a sign-in mail arrives within
 * `mailMs`, and `p`'s draft, sent for approval 4 s ahead and approved, reaches its channel
 * less than `lateMs` after its time. Answers the post's lateness.
 */
export async function anotherAccountServed(stack: Stack, p: ProjectWithChannel, draftId: number, limits: { mailMs: number; lateMs: number }) {
  const telegram = stack.telegram!;
  const email = uniqueEmail("waiting");
  const asked = Date.now();
  expect((await stack.call("POST", "/api/auth/request-otp", { email })).status).toBe(200);
  await stack.smtp.waitForMail(email, 1, limits.mailMs);
  expect(Date.now() - asked).toBeLessThan(limits.mailMs);

  const { postId, preview } = await sentForApproval(stack, p, draftId, 4_000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 5_000);
  const [{ scheduledFor }] = await stack.sql`select scheduled_for from app_public.posts where id = ${postId}`;
  const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 15_000);
  expect(inChannel.text).toBe(p.drafts.find((d) => d.id === draftId)!.title);
  const lateMs = Date.now() - Date.parse(scheduledFor);
  expect(lateMs).toBeLessThan(limits.lateMs);
  return lateMs;
}
