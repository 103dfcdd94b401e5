/*
 * What the approver approves besides the words (docs/trust-model.md): the preview's header
 * states the pin and when it lifts, the sound, and where every URL button leads, in the
 * project's language, so a button cannot hide its destination behind a friendly label.
 * Read from the messages the local Bot API received.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { buttonData, hasButton, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

const headerOf = (adminId: number, start: string) => stack.telegram!.messages(adminId).find((m) => m.text?.startsWith(start))!.text!;

test("the preview states pin, unpin-after, silence and each button's destination (ru)", async () => {
  const p = await projectWithChannel(stack);
  const buttons = [
    [{ text: "Билеты", url: "https://fair.example/tickets?utm=1" }, { text: "Чат", url: "tg://resolve?domain=fair_chat" }],
    // a look-alike of a known site: its host is shown as the ASCII form Telegram's apps resolve
    [{ text: "PayPal", url: "https://pаypal.example/login" }],
  ];
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, {
    title: "Fair", content: "The fair opens on Saturday.", options: { pin: true, unpinAfterHours: 6, silent: true, buttons },
  }, p.cookie)).json;
  await sentForApproval(stack, p, draftId, 3600_000);
  const header = headerOf(p.admin.id, "📝");
  expect(header).toContain("📌 Будет закреплён в канале и откреплён через 6 ч");
  expect(header).toContain("🔕 Без звука: подписчики не получат уведомления");
  expect(header).toContain("🔗 Кнопки под постом и куда они ведут:\n" +
    "• «Билеты» → fair.example — https://fair.example/tickets?utm=1\n" +
    "• «Чат» → Telegram: tg://resolve?domain=fair_chat\n" +
    "• «PayPal» → xn--pypal-4ve.example — https://pаypal.example/login");
}, 40_000);

test("a plain post's preview says so, and an edit's preview states its buttons (en)", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack, { language: "en" });
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Plain", content: "Plain words." }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 2_000);
  const header = headerOf(p.admin.id, "📝");
  expect(header).toContain("📌 Not pinned\n🔔 With sound: subscribers get a notification\n🔗 No buttons under the post");

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(async () => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status, { timeout: 20_000 })
    .toBe("published");
  // once decided, the header keeps stating what was approved
  expect(headerOf(p.admin.id, "📝")).toContain("🔗 No buttons under the post");

  const post = (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json.find((x: { id: number }) => x.id === postId);
  const put = await stack.call("PUT", `${p.base}/posts/${postId}`, {
    draftId: post.draftId, scheduledFor: post.scheduledFor, content: "Plain words, edited.",
    options: { buttons: [[{ text: "Join", url: "tg://join?invite=AbCd" }]] },
  }, p.cookie);
  expect(put.status, put.text).toBe(200);
  await telegram.waitFor(() => telegram.messages(p.admin.id).find((m) => hasButton(m, "editok", postId)), 10_000);
  expect(headerOf(p.admin.id, "✏️")).toContain("🔗 Buttons under the post and where they lead:\n• «Join» → Telegram: tg://join?invite=AbCd");
}, 60_000);
