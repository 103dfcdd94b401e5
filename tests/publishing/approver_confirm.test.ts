/*
 * The named approver confirms in Telegram (docs/trust-model.md), played as the hostile
 * account would play it against the real API, worker and bot and the local Bot API: naming
 * a real channel admin's handle gets a question to that admin and nothing else.
 * Home of tasks/approver_requests__ask.ts (the question) and bot/features/approver_requests.ts
 * (the press), docs/testing.md.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { approverAnswers, approverQuestion, buttonsOf, press } from "../helpers/publishing.ts";
import { until } from "../helpers/until.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

let counter = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++counter}`;

/** A Telegram user who has written to the bot (so a project may name them). */
async function registered(firstName: string) {
  const handle = unique(firstName.toLowerCase());
  const user = stack.telegram!.addUser({ username: handle, first_name: firstName, startedBot: true });
  await stack.sql`select app_public.record_admin_chat(${handle}, ${user.id})`;
  return { ...user, handle };
}

async function account(name: string) {
  const email = uniqueEmail(name);
  return { email, cookie: (await stack.signIn(email)).cookie };
}

async function project(cookie: string, adminHandle: string, drafts: string[] = []) {
  const res = await stack.call("POST", "/api/projects", { name: "Named admin", adminHandle }, cookie);
  if (res.status !== 201) throw new Error(res.text);
  const id = res.json.id as number;
  if (drafts.length) await stack.call("POST", `/api/projects/${id}/drafts/bulk`, { titles: drafts }, cookie);
  return id;
}

const connect = (projectId: number, channel: { username?: string }, cookie: string) =>
  stack.call("POST", `/api/projects/${projectId}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
const channelsOf = async (projectId: number, cookie: string) =>
  (await stack.call("GET", `/api/projects/${projectId}/channels`, undefined, cookie)).json as
    { id: number; status: string; awaiting: { handle: string } | null }[];
const questionsTo = (userId: number) =>
  stack.telegram!.messages(userId).filter((m) => buttonsOf(m).some((d) => d?.startsWith("ar:")) || m.text?.startsWith("🔐"));

test("squatting: an account naming the real admin stays pending, never gets posts to the admin, and the real owner connects once the admin allows", async () => {
  const telegram = stack.telegram!;
  const olga = await registered("Olga");
  const channel = telegram.addChannel({ username: unique("olga_news"), owner: olga.id });

  // Mallory names Olga's handle: Telegram confirms Olga administers the channel, so the request is made
  const mallory = await account("mallory");
  const malloryProject = await project(mallory.cookie, olga.handle, ["Phishing"]);
  const requested = await connect(malloryProject, channel, mallory.cookie);
  expect(requested.status, requested.text).toBe(201);
  expect(requested.json).toMatchObject({ status: "pending", approver: null, awaiting: { handle: olga.handle } });

  // Olga gets one question naming the account, masked, and the channel: Allow first, Deny second
  const question = await approverQuestion(stack, olga.id);
  expect(question.text).toContain(`${mallory.email[0]}***@${mallory.email.split("@")[1]}`);
  expect(question.text).not.toContain(mallory.email);
  expect(question.text).toContain(`@${channel.username}`);
  const buttons = buttonsOf(question);
  expect(buttons[0]).toMatch(/^ar:allow:\d+$/);
  expect(buttons[1]).toMatch(/^ar:deny:\d+$/);

  // pending: Mallory may plan, but her post waits for a channel and nothing is sent to Olga for approval
  const [draft] = (await stack.call("GET", `/api/projects/${malloryProject}/drafts`, undefined, mallory.cookie)).json;
  const scheduled = await stack.call("POST", `/api/projects/${malloryProject}/posts`, {
    draftId: draft.id, scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
  }, mallory.cookie);
  expect(scheduled.status).toBe(201);
  await until(
    async () => (await stack.sql`select last_error_code as code from app_public.posts where id = ${scheduled.json.id}`)[0]?.code,
    (code) => code === "schedule.waitingForChannel",
  );

  // the real owner's request is not blocked by Mallory's pending one
  const owner = await account("owner");
  const ownerProject = await project(owner.cookie, olga.handle);
  expect((await connect(ownerProject, channel, owner.cookie)).status).toBe(201);
  expect((await approverAnswers(stack, olga.id, "allow")).text).toMatch(/Разрешено/);
  expect((await channelsOf(ownerProject, owner.cookie))[0]).toMatchObject({ status: "connected", awaiting: null });

  // Mallory's request was dropped when Olga allowed the owner; her late Allow connects nothing
  expect(await channelsOf(malloryProject, mallory.cookie)).toEqual([]);
  const late = await press(stack, olga.id, olga.id, question.message_id, buttons[0]!);
  expect(late.text).toMatch(/устарело/);
  expect(await channelsOf(malloryProject, mallory.cookie)).toEqual([]);
  // and asking again now is refused: the chat is connected
  const again = await connect(malloryProject, channel, mallory.cookie);
  expect(again.status).toBe(409);
  expect(again.json.code).toBe("channels.alreadyConnected");
  expect(telegram.messages(olga.id).filter((m) => buttonsOf(m).some((d) => d?.startsWith("approve:")))).toEqual([]);
}, 60_000);

test("Deny removes the request; the account may ask again, once at a time", async () => {
  const olga = await registered("Olga");
  const channel = stack.telegram!.addChannel({ username: unique("deny"), owner: olga.id });
  const mallory = await account("mallory");
  const pid = await project(mallory.cookie, olga.handle);
  expect((await connect(pid, channel, mallory.cookie)).status).toBe(201);
  expect((await approverAnswers(stack, olga.id, "deny")).text).toMatch(/Отказано/);
  expect(await channelsOf(pid, mallory.cookie)).toEqual([]);
  expect(await stack.sql`select 1 from app_public.channels where chat_id = ${channel.id}`).toHaveLength(0);

  // one pending request per approver and account: a second project naming Olga is refused while the first waits
  expect((await connect(pid, channel, mallory.cookie)).status).toBe(201);
  const second = await project(mallory.cookie, olga.handle);
  const other = stack.telegram!.addChannel({ username: unique("deny_b"), owner: olga.id });
  const refused = await connect(second, other, mallory.cookie);
  expect(refused.status).toBe(409);
  expect(refused.json.code).toBe("channels.requestPending");
  expect(refused.json.message).toContain(`@${olga.handle}`);
  expect(await channelsOf(second, mallory.cookie)).toEqual([]);
  await approverQuestion(stack, olga.id);
  expect(questionsTo(olga.id)).toHaveLength(2);
}, 60_000);

test("a request expires after 24 hours: treated as absent, its Allow does nothing, and a new one may be made", async () => {
  const olga = await registered("Olga");
  const channel = stack.telegram!.addChannel({ username: unique("expiry"), owner: olga.id });
  const { cookie } = await account("slow");
  const pid = await project(cookie, olga.handle);
  expect((await connect(pid, channel, cookie)).status).toBe(201);
  const question = await approverQuestion(stack, olga.id);

  await stack.sql`update app_public.approver_requests set created_at = now() - interval '24 hours 1 second'
    where channel_id in (select id from app_public.channels where project_id = ${pid})`;
  expect(await channelsOf(pid, cookie)).toEqual([]);
  const late = await press(stack, olga.id, olga.id, question.message_id, buttonsOf(question)[0]!);
  expect(late.text).toMatch(/устарело/);
  expect(await stack.sql`select 1 from app_public.channels where project_id = ${pid} and status = 'connected'`).toHaveLength(0);

  // the slot is free again: the expired request is cleaned up and a new question is sent
  expect((await connect(pid, channel, cookie)).status).toBe(201);
  expect(await stack.sql`select 1 from app_public.approver_requests where created_at < now() - interval '1 hour'`).toHaveLength(0);
  expect((await approverAnswers(stack, olga.id, "allow")).text).toMatch(/Разрешено/);
  expect((await channelsOf(pid, cookie))[0].status).toBe("connected");
}, 60_000);

test("Deny and block: that account's further requests to the approver are refused for good, others' are not", async () => {
  const olga = await registered("Olga");
  const channel = stack.telegram!.addChannel({ username: unique("block"), owner: olga.id });
  const mallory = await account("mallory");
  const pid = await project(mallory.cookie, olga.handle);
  expect((await connect(pid, channel, mallory.cookie)).status).toBe(201);
  expect((await approverAnswers(stack, olga.id, "block")).text).toMatch(/больше не будет/);
  const asked = questionsTo(olga.id).length;

  const again = await connect(pid, channel, mallory.cookie);
  expect(again.status).toBe(403);
  expect(again.json.code).toBe("channels.approverRefused");
  expect(again.json.message).toBe(`@${olga.handle} has refused requests from this account`);
  // nor through a handle change on a project whose channel someone else approves
  const ivan = await registered("Ivan");
  const own = stack.telegram!.addChannel({ username: unique("own"), owner: ivan.id });
  stack.telegram!.setMemberRights(own.id, olga.id, "administrator");
  const second = await project(mallory.cookie, ivan.handle);
  expect((await connect(second, own, mallory.cookie)).status).toBe(201);
  await approverAnswers(stack, ivan.id, "allow");
  const handover = await stack.call("PATCH", `/api/projects/${second}`, { adminHandle: olga.handle }, mallory.cookie);
  expect(handover.status).toBe(403);
  expect(handover.json.code).toBe("channels.approverRefused");
  await new Promise((r) => setTimeout(r, 1000));
  expect(questionsTo(olga.id)).toHaveLength(asked);

  // another account is still asked
  const friend = await account("friend");
  const friendly = await project(friend.cookie, olga.handle);
  expect((await connect(friendly, channel, friend.cookie)).status).toBe(201);
  await approverQuestion(stack, olga.id);
}, 60_000);

test("a stranger pressing the buttons, even with forged data, changes nothing", async () => {
  const olga = await registered("Olga");
  const channel = stack.telegram!.addChannel({ username: unique("stranger"), owner: olga.id });
  const mallory = await registered("Mallory");
  const { cookie } = await account("owner");
  const pid = await project(cookie, olga.handle);
  expect((await connect(pid, channel, cookie)).status).toBe(201);
  const question = await approverQuestion(stack, olga.id);
  const allow = buttonsOf(question)[0]!;

  // Mallory gets a bot message of her own (registration's reply) and sends Olga's Allow on it
  stack.telegram!.userSends(mallory.id, "/start");
  const own = await stack.telegram!.waitFor(() => stack.telegram!.messages(mallory.id).find((m) => m.from?.is_bot), 10_000);
  const answer = await press(stack, mallory.id, mallory.id, own.message_id, allow, { forged: true });
  expect(answer.text).toMatch(/устарело/);
  // and Olga's Deny, on Olga's own message id, as if she were Olga
  const denied = await press(stack, mallory.id, mallory.id, own.message_id, buttonsOf(question)[1]!, { forged: true });
  expect(denied.text).toMatch(/устарело/);
  expect((await channelsOf(pid, cookie))[0]).toMatchObject({ status: "pending", awaiting: { handle: olga.handle } });

  // Olga's own press still decides
  await approverAnswers(stack, olga.id, "allow");
  expect((await channelsOf(pid, cookie))[0].status).toBe("connected");
}, 60_000);

test("a post planned before the channel waits for it, then its preview goes to the approver once the channel is connected", async () => {
  const olga = await registered("Olga");
  const channel = stack.telegram!.addChannel({ username: unique("later"), owner: olga.id });
  const owner = await account("planner");
  const pid = await project(owner.cookie, olga.handle, ["Planned early"]);
  const [draft] = (await stack.call("GET", `/api/projects/${pid}/drafts`, undefined, owner.cookie)).json;
  const planned = await stack.call("POST", `/api/projects/${pid}/posts`, {
    draftId: draft.id, scheduledFor: new Date(Date.now() + 3600_000).toISOString(),
  }, owner.cookie);
  expect(planned.status, planned.text).toBe(201);
  const post = `/api/projects/${pid}/posts/${planned.json.id}`;
  await until(async () => (await stack.call("GET", post, undefined, owner.cookie)).json, (p) => p.lastErrorCode === "schedule.waitingForChannel");

  expect((await connect(pid, channel, owner.cookie)).status).toBe(201);
  expect((await approverAnswers(stack, olga.id, "allow")).text).toMatch(/Разрешено/);
  // the wait ends: the preview with its buttons reaches Olga, and the reason is gone
  await until(
    async () => stack.telegram!.messages(olga.id).filter((m) => buttonsOf(m).some((d) => d?.startsWith(`approve:${planned.json.id}:`))),
    (previews) => previews.length === 1,
  );
  expect((await stack.call("GET", post, undefined, owner.cookie)).json).toMatchObject({ status: "scheduled", lastErrorCode: null });
}, 60_000);
