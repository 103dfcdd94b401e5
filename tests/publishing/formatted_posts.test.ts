/*
 * A formatted post end to end (README "Post format"): the draft's entities and options reach
 * the approver's preview and then the channel exactly; a pinned post is pinned once it is
 * out and unpinned when its hours are up; a draft the AI writes in Markdown arrives as text
 * plus entities, with no markup left in it.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { MessageEntity } from "../../api/contract/entities.ts";
import { buttonsOf, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true });
});
afterAll(() => stack.close());

const TEXT = "🔥 Big news: the bridge opens today. Details inside.";
const ENTITIES: MessageEntity[] = [
  { type: "bold", offset: 3, length: 8 },
  { type: "spoiler", offset: 16, length: 6 },
  { type: "text_link", offset: 37, length: 7, url: "https://city.example/bridge" },
];
const BUTTONS = [[{ text: "Map", url: "https://maps.example/bridge" }]];

const statusOf = async (postId: number) => (await stack.sql`select status from app_public.posts where id = ${postId}`)[0].status;

test("the preview and the channel get the exact entities and buttons; silent; pinned, then unpinned on time", async () => {
  const telegram = stack.telegram!;
  const p = await projectWithChannel(stack);
  const options = { silent: true, pin: true, unpinAfterHours: 6, buttons: BUTTONS };
  const { id: draftId } = (await stack.call("POST", `${p.base}/drafts`, { title: "Bridge", content: TEXT, entities: ENTITIES, options }, p.cookie)).json;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 3_000);

  // the preview: the post as it will look, with its own buttons, then the decision apart
  const shown = telegram.messages(p.admin.id).find((m) => m.text === TEXT)!;
  expect(shown.entities).toEqual(ENTITIES);
  expect(shown.reply_markup?.inline_keyboard).toEqual(BUTTONS);
  expect(preview.message_id).toBeGreaterThan(shown.message_id);
  expect(buttonsOf(preview)).toEqual([`approve:${postId}`, `reject:${postId}`]);

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, `approve:${postId}`);
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  await expect.poll(() => statusOf(postId), { timeout: 20_000 }).toBe("published");

  const [published] = telegram.messages(p.channel.id).filter((m) => !m.pinned_message);
  expect(published.text).toBe(TEXT);
  expect(published.entities).toEqual(ENTITIES);
  expect(published.reply_markup?.inline_keyboard).toEqual(BUTTONS);
  expect(telegram.messageInfo(p.channel.id, published.message_id)!.silent).toBe(true);
  await telegram.waitFor(() => telegram.pinnedMessageIds(p.channel.id).includes(published.message_id), 10_000);

  // the unpin waits its six hours as a job; bring it forward instead of waiting
  const [unpin] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${postId}:unpin`}`;
  expect(Date.parse(unpin.runAt) - Date.now()).toBeGreaterThan(5.9 * 3_600_000);
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:unpin`}`;
  await telegram.waitFor(() => !telegram.pinnedMessageIds(p.channel.id).includes(published.message_id) || undefined, 10_000);
  expect(telegram.messages(p.channel.id).filter((m) => !m.pinned_message)).toHaveLength(1);
}, 60_000);

test("a draft the AI writes in Markdown gets text and entities, no markup", async () => {
  const p = await projectWithChannel(stack, { drafts: ["Bridge"] });
  stack.openai!.reply(() => "**The bridge opens** today — _finally_.\n\nSee [the map](https://maps.example/bridge).");
  const job = await stack.call("POST", `${p.base}/drafts/generate-content`, { draftIds: [p.drafts[0].id] }, p.cookie);
  expect(job.status).toBeLessThan(300);
  await expect.poll(async () => (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json[0].content, { timeout: 20_000 })
    .toBe("The bridge opens today — finally.\n\nSee the map.");
  const [draft] = (await stack.call("GET", `${p.base}/drafts`, undefined, p.cookie)).json;
  const marked = draft.entities.map((e: MessageEntity) => [e.type, draft.content.slice(e.offset, e.offset + e.length)]);
  expect(marked).toEqual([["bold", "The bridge opens"], ["italic", "finally"], ["text_link", "the map"]]);
}, 60_000);
