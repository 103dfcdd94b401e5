/*
 * Autopilot end to end, against the local Bot API and OpenAI-compatible servers: a content
 * plan slot a few minutes ahead takes the top draft of the queue, the AI writes its text at
 * the slot's length, the admin gets the preview at once (the post is due within 2 hours),
 * approves it, and the channel gets it at the slot's minute.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approvalPreview, buttonData, projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import type { ChatRequest } from "../doubles/openai/server.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true });
});
afterAll(() => stack.close());

/** The next whole minute at least `leadMs` ahead, as a Moscow slot (UTC+3 all year). */
function slotAhead(leadMs: number) {
  const at = new Date(Math.ceil((Date.now() + leadMs) / 60_000) * 60_000);
  const moscow = new Date(at.getTime() + 3 * 3600_000);
  const time = `${String(moscow.getUTCHours()).padStart(2, "0")}:${String(moscow.getUTCMinutes()).padStart(2, "0")}`;
  return { at, dayOfWeek: moscow.getUTCDay(), time };
}

type ListedPost = { id: number; planId: number | null; draftId: number | null; title: string; scheduledFor: string; status: string;
  content: string; awaitingText: boolean; lastErrorCode: string | null; lastErrorParams: Record<string, string> };

async function postsOf(p: { base: string; cookie: string }) {
  return (await stack.call("GET", `${p.base}/posts`, undefined, p.cookie)).json as ListedPost[];
}

/** The slot's post, once there is one (and `ready` holds for it). */
async function planPost(p: { base: string; cookie: string }, planId: number, ready: (post: ListedPost) => boolean = () => true) {
  let found: ListedPost | undefined;
  await expect.poll(async () => {
    found = (await postsOf(p)).find((x) => x.planId === planId && ready(x));
    return found !== undefined;
  }, { timeout: 30_000 }).toBe(true);
  return found!;
}

/** The model writes Markdown of about the length the prompt asks for. */
function writesToLength(request: ChatRequest) {
  const asked = Number(/Length: about (\d+) characters/.exec(request.messages.at(-1)?.content ?? "")?.[1] ?? 0);
  if (!asked) return "Title ideas";
  const body = "Fresh bread every morning. ".repeat(Math.ceil(asked / 27)).slice(0, asked - 20).trim();
  return `**Good morning!** ${body}`;
}

test("a slot minutes ahead: top draft, AI text of the slot's length, preview, Approve, published at the slot's minute", async () => {
  const telegram = stack.telegram!;
  stack.openai!.reply(writesToLength);
  const p = await projectWithChannel(stack, { drafts: ["Bakery opening", "Second in line"] });
  // Slots are whole minutes, so the test waits for the next one at least 30 s ahead (30-90 s):
  // time enough to fill the slot, write, preview and approve before it, even on a loaded machine.
  const slot = slotAhead(30_000);

  const created = await stack.call("POST", `${p.base}/content-plans`, {
    dayOfWeek: slot.dayOfWeek, time: slot.time, timezone: "Europe/Moscow", postLength: 400,
  }, p.cookie);
  expect(created.status).toBe(201);

  // the slot fills within seconds, from the top draft
  const post = await planPost(p, created.json.id);
  expect(post).toMatchObject({ title: "Bakery opening", draftId: p.drafts[0].id, scheduledFor: slot.at.toISOString() });

  // the preview carries the AI's text, formatted, of about the slot's length
  const preview = await approvalPreview(stack, p, post.id, 20_000);
  expect(preview.text!.startsWith("Good morning! Fresh bread")).toBe(true);
  expect(preview.text!.length).toBeGreaterThan(400 * 0.8);
  expect(preview.text!.length).toBeLessThanOrEqual(400);
  expect(preview.entities).toEqual([{ type: "bold", offset: 0, length: 13 }]);
  const asked = stack.openai!.journal.find((r) => r.body.messages.at(-1)?.content.includes('"Bakery opening"'));
  expect(asked?.body.messages.at(-1)?.content).toContain("Length: about 400 characters");

  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", post.id));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  expect(telegram.messages(p.channel.id)).toHaveLength(0);

  const inChannel = await telegram.waitFor(() => telegram.messages(p.channel.id)[0], 150_000);
  expect(Date.now()).toBeGreaterThanOrEqual(slot.at.getTime() - 100);
  expect(inChannel.text).toBe(preview.text);
  await expect.poll(async () => (await postsOf(p)).find((x) => x.id === post.id)?.status, { timeout: 5000 }).toBe("published");
  // one slot time, one post: the second draft waits for next week's
  expect((await postsOf(p)).filter((x) => x.planId === created.json.id)).toHaveLength(1);
}, 200_000);

test("AI unavailable: the slot's post goes to the approver with its draft as it is, and says why", async () => {
  stack.openai!.failNext(503, 20, "The model is overloaded");
  const p = await projectWithChannel(stack, { drafts: ["Without AI"] });
  const slot = slotAhead(3 * 3600_000); // the preview is due an hour from now: nothing is sent yet
  const created = await stack.call("POST", `${p.base}/content-plans`, {
    dayOfWeek: slot.dayOfWeek, time: slot.time, timezone: "Europe/Moscow", postLength: 300,
  }, p.cookie);
  const post = await planPost(p, created.json.id, (x) => !x.awaitingText);
  expect(post.content).toBe("");
  expect(post.lastErrorCode).toBe("posts.error.autopilotNoAi");
  expect(post.lastErrorParams.reason).toMatch(/^ai\./);
  const [job] = await stack.sql`select run_at from graphile_worker.jobs where key = ${`post:${post.id}:approval`}`;
  expect(new Date(job.runAt).getTime()).toBe(slot.at.getTime() - 2 * 3600_000);
  stack.openai!.reset();
}, 60_000);

test.each([
  [
    "the account's own",
    // over its own 300,000, under the service's 5,000,000
    (userId: number) => stack.sql`select app_public.record_ai_tokens(${userId}, 400000)`,
    "ai.dailyBudgetSpent",
  ],
  [
    "every account's together",
    // other accounts spent the service's day; this one has used nothing
    () => stack.sql`insert into app_private.ai_tokens_total (day, tokens) values (app_private.utc_today(), 5000000)
      on conflict (day) do update set tokens = app_private.ai_tokens_total.tokens + 5000000`,
    "ai.globalDailyLimit",
  ],
] as const)("when %s AI day is spent: the slot's post is not written (no AI call), goes to approval as it is, and says why", async (_, spend, reason) => {
  const p = await projectWithChannel(stack, { drafts: ["Spent budget"] });
  const [owner] = await stack.sql`select user_id from app_public.projects where id = ${p.project.id}`;
  await spend(owner.userId);
  try {
    const calls = stack.openai!.journal.length;
    const slot = slotAhead(3 * 3600_000);
    const created = await stack.call("POST", `${p.base}/content-plans`, {
      dayOfWeek: slot.dayOfWeek, time: slot.time, timezone: "Europe/Moscow", postLength: 300,
    }, p.cookie);
    const post = await planPost(p, created.json.id, (x) => !x.awaitingText);
    expect(post.content).toBe("");
    expect(post).toMatchObject({ lastErrorCode: "posts.error.autopilotNoAi", lastErrorParams: { reason } });
    expect(stack.openai!.journal.length).toBe(calls);
  } finally {
    // the service's day is shared by the tests after this one
    await stack.sql`update app_private.ai_tokens_total set tokens = 0 where day = app_private.utc_today()`;
  }
}, 60_000);
