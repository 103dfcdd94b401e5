/*
 * Channel trust (docs/trust-model.md), as a hostile account would try it against the local
 * Bot API: who may connect a channel, and who may become a project's approver.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approverAnswers, approverQuestion, buttonsOf, press } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ telegram: true });
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

async function account() {
  return (await stack.signIn(uniqueEmail("trust"))).cookie;
}

async function project(cookie: string, adminHandle: string) {
  const res = await stack.call("POST", "/api/projects", { name: "Trust", adminHandle }, cookie);
  if (res.status !== 201) throw new Error(res.text);
  return res.json.id as number;
}

const connect = (projectId: number, channel: { username?: string }, cookie: string) =>
  stack.call("POST", `/api/projects/${projectId}/channels`, { type: "telegram", link: `@${channel.username}` }, cookie);
/** A connect request the named approver allows in Telegram. */
async function connectAllowed(projectId: number, channel: { username?: string }, cookie: string, approverId: number) {
  const res = await connect(projectId, channel, cookie);
  if (res.status === 201) await approverAnswers(stack, approverId, "allow");
  return res;
}
const channelsOf = async (projectId: number, cookie: string) =>
  (await stack.call("GET", `/api/projects/${projectId}/channels`, undefined, cookie)).json as
    { approver: unknown; status: string; awaiting: { handle: string } | null }[];
const storedFor = async (chatId: number) => await stack.sql`select project_id from app_public.channels where chat_id = ${chatId}`;

describe("connecting proves the approver administers the channel", () => {
  test("a stranger naming their own handle cannot connect someone else's channel; nothing is stored", async () => {
    const olga = await registered("Olga");
    const channel = stack.telegram!.addChannel({ username: unique("olga_news"), owner: olga.id });
    const mallory = await registered("Mallory");
    const cookie = await account();
    const pid = await project(cookie, mallory.handle);

    const res = await connect(pid, channel, cookie);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("channels.approverNotAdmin");
    expect(res.json.message).toContain(`@${mallory.handle}`);
    expect(res.json.message).toContain(`@${channel.username}`);
    expect(await channelsOf(pid, cookie)).toEqual([]);
    expect(await storedFor(channel.id)).toHaveLength(0);
  });

  test("a subscriber, an administrator who may not post, or a removed administrator is refused", async () => {
    const cookie = await account();
    for (const standing of ["member", { can_post_messages: false }, "kicked"] as const) {
      const person = await registered("Sub");
      const channel = stack.telegram!.addChannel({ username: unique("sub_chan") });
      stack.telegram!.setMemberRights(channel.id, person.id, standing);
      const pid = await project(cookie, person.handle);
      const res = await connect(pid, channel, cookie);
      expect(res.status, JSON.stringify(standing)).toBe(403);
      expect(res.json.code).toBe("channels.approverNotAdmin");
      expect(await storedFor(channel.id)).toHaveLength(0);
    }
  });

  test("the creator, and an administrator who may post, are accepted and shown as the verified approver", async () => {
    const cookie = await account();
    const creator = await registered("Creator");
    const own = stack.telegram!.addChannel({ username: unique("own"), owner: creator.id });
    const a = await project(cookie, creator.handle);
    expect((await connectAllowed(a, own, cookie, creator.id)).status).toBe(201);
    expect((await channelsOf(a, cookie))[0].approver).toEqual({ handle: creator.handle, name: "Creator" });

    const editor = await registered("Editor");
    const theirs = stack.telegram!.addChannel({ username: unique("theirs") });
    stack.telegram!.setMemberRights(theirs.id, editor.id, { can_post_messages: true, can_change_info: false });
    const b = await project(cookie, editor.handle);
    const res = await connectAllowed(b, theirs, cookie, editor.id);
    expect(res.status, res.text).toBe(201);
    expect(res.json.config.adminChatId).toBe(editor.id);
    expect((await channelsOf(b, cookie))[0]).toMatchObject({ status: "connected", approver: { handle: editor.handle, name: "Editor" } });
  });

  test("Telegram failing a member check: 503, nothing stored, the same add works later", async () => {
    const olga = await registered("Olga");
    const channel = stack.telegram!.addChannel({ username: unique("flaky"), owner: olga.id });
    const cookie = await account();
    const pid = await project(cookie, olga.handle);
    stack.telegram!.failNext("getChatMember", { code: 502 }, 1);
    const first = await connect(pid, channel, cookie);
    expect(first.status).toBe(503);
    expect(first.json.code).toBe("telegram.unreachable");
    expect(await storedFor(channel.id)).toHaveLength(0);
    expect((await connect(pid, channel, cookie)).status).toBe(201);
  });
});

describe("one chat, one project", () => {
  test("a co-admin in another account is refused: already connected; the first connection stays", async () => {
    const olga = await registered("Olga");
    const ivan = await registered("Ivan");
    const channel = stack.telegram!.addChannel({ username: unique("shared"), owner: olga.id });
    stack.telegram!.setMemberRights(channel.id, ivan.id, "administrator");
    const olgas = await account();
    const first = await project(olgas, olga.handle);
    expect((await connectAllowed(first, channel, olgas, olga.id)).status).toBe(201);

    const ivans = await account();
    const second = await project(ivans, ivan.handle);
    const res = await connect(second, channel, ivans);
    expect(res.status).toBe(409);
    expect(res.json.code).toBe("channels.alreadyConnected");
    expect(res.json.message).toMatch(/already connected in another project or account/);
    expect(res.json.message).toMatch(/disconnected there first/);
    expect(await channelsOf(second, ivans)).toEqual([]);
    // the same owner's second project is refused the same way
    const again = await project(olgas, olga.handle);
    expect((await connect(again, channel, olgas)).json.code).toBe("channels.alreadyConnected");
    expect((await storedFor(channel.id)).map((r) => r.projectId)).toEqual([first]);

    // once disconnected there, it can be connected here
    const [row] = await stack.sql`select id from app_public.channels where chat_id = ${channel.id}`;
    expect((await stack.call("DELETE", `/api/projects/${first}/channels/${row.id}`, undefined, olgas)).status).toBe(200);
    expect((await connect(second, channel, ivans)).status).toBe(201);
  });

  test("two accounts asking for the same channel at once: both wait; the first Allow connects one, the other is dropped", async () => {
    const olga = await registered("Olga");
    const ivan = await registered("Ivan");
    const channel = stack.telegram!.addChannel({ username: unique("race"), owner: olga.id });
    stack.telegram!.setMemberRights(channel.id, ivan.id, "administrator");
    const [olgas, ivans] = [await account(), await account()];
    const [a, b] = [await project(olgas, olga.handle), await project(ivans, ivan.handle)];
    const results = await Promise.all([connect(a, channel, olgas), connect(b, channel, ivans)]);
    // a pending request holds nothing, so neither blocks the other
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const ivansQuestion = await approverQuestion(stack, ivan.id);
    await approverAnswers(stack, olga.id, "allow");
    expect((await channelsOf(a, olgas))[0]).toMatchObject({ status: "connected" });
    expect(await channelsOf(b, ivans)).toEqual([]);
    // Ivan's Allow now comes too late: the chat is Olga's project's
    const late = await press(stack, ivan.id, ivan.id, ivansQuestion.message_id, buttonsOf(ivansQuestion)[0]!);
    expect(late.text).toMatch(/устарело/);
    expect((await storedFor(channel.id)).map((r) => r.projectId)).toEqual([a]);
  });

  test("the database refuses a second connected row for a chat whatever the caller (channels_connected_chat_key)", async () => {
    const olga = await registered("Olga");
    const cookie = await account();
    const [a, b] = [await project(cookie, olga.handle), await project(cookie, olga.handle)];
    for (const pid of [a, b]) {
      await stack.sql`insert into app_public.channels (project_id, type, link, status, chat_id)
        values (${pid}, 'telegram', '@direct_one', 'pending', -100999)`;
    }
    await stack.sql`update app_public.channels set status = 'connected' where project_id = ${a}`;
    const err = await stack.sql`update app_public.channels set status = 'connected' where project_id = ${b}`.catch((e) => e);
    expect(err.constraint_name ?? err.constraintName).toBe("channels_connected_chat_key");
    expect((await stack.sql`select project_id from app_public.channels where chat_id = -100999 and status = 'connected'`)
      .map((r) => r.projectId)).toEqual([a]);
  });
});

describe("changing the admin handle of a connected project", () => {
  async function connected() {
    const olga = await registered("Olga");
    const channel = stack.telegram!.addChannel({ username: unique("handles"), owner: olga.id });
    const cookie = await account();
    const pid = await project(cookie, olga.handle);
    expect((await connectAllowed(pid, channel, cookie, olga.id)).status).toBe(201);
    return { olga, channel, cookie, pid };
  }
  const patch = (pid: number, adminHandle: string, cookie: string) =>
    stack.call("PATCH", `/api/projects/${pid}`, { adminHandle, name: "Renamed" }, cookie);
  const approverOf = async (pid: number) =>
    (await stack.sql`select approver_user_id from app_public.channels where project_id = ${pid}`)[0].approverUserId;

  test("to someone who does not administer the channel: refused, nothing changes (the old approver stays)", async () => {
    const { olga, cookie, pid, channel } = await connected();
    const stranger = await registered("Stranger");
    const res = await patch(pid, `@${stranger.handle}`, cookie);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe("channels.approverNotAdmin");
    expect(res.json.message).toContain(`@${stranger.handle}`);
    expect(res.json.message).toContain(`@${channel.username}`);
    const after = (await stack.call("GET", `/api/projects/${pid}`, undefined, cookie)).json;
    expect(after).toMatchObject({ adminHandle: olga.handle, name: "Trust" });
    expect(await approverOf(pid)).toBe(olga.id);
  });

  test("to a handle that never wrote to the bot: refused naming it, nothing changes", async () => {
    const { olga, cookie, pid } = await connected();
    const res = await patch(pid, "nobody_wrote_here", cookie);
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("channels.adminNotRegistered");
    expect(res.json.message).toContain("@nobody_wrote_here");
    expect(await approverOf(pid)).toBe(olga.id);
  });

  test("to another administrator of the channel: the old approver stays until the new one allows in Telegram", async () => {
    const { olga, channel, cookie, pid } = await connected();
    const ivan = await registered("Ivan");
    stack.telegram!.setMemberRights(channel.id, ivan.id, "administrator");
    const res = await patch(pid, ivan.handle, cookie);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ adminHandle: olga.handle, name: "Renamed" });
    expect(await approverOf(pid)).toBe(olga.id);
    expect((await channelsOf(pid, cookie))[0]).toMatchObject({
      status: "connected",
      approver: { handle: olga.handle },
      awaiting: { handle: ivan.handle },
    });
    const question = await approverQuestion(stack, ivan.id);
    expect(question.text).toContain(`@${channel.username}`);
    // Ivan denies: nothing moves
    expect((await approverAnswers(stack, ivan.id, "deny")).text).toMatch(/Отказано/);
    expect(await approverOf(pid)).toBe(olga.id);
    expect((await channelsOf(pid, cookie))[0].awaiting).toBeNull();
    // asked again, Ivan allows: he approves from now on
    expect((await patch(pid, ivan.handle, cookie)).status).toBe(200);
    await approverAnswers(stack, ivan.id, "allow");
    expect(await approverOf(pid)).toBe(ivan.id);
    expect((await stack.call("GET", `/api/projects/${pid}`, undefined, cookie)).json.adminHandle).toBe(ivan.handle);
    expect((await channelsOf(pid, cookie))[0]).toMatchObject({ approver: { handle: ivan.handle, name: "Ivan" }, awaiting: null });
  });

  test("a handle changed without a channel is not checked (the check comes at connect)", async () => {
    const cookie = await account();
    const pid = await project(cookie, "first_admin");
    const res = await patch(pid, "second_admin", cookie);
    expect(res.status).toBe(200);
    expect(res.json.adminHandle).toBe("second_admin");
  });

  test("the SQL refuses a new handle that comes without Telegram's confirmation for this chat (APRNV)", async () => {
    const { olga, pid } = await connected();
    const [row] = await stack.sql`select user_id from app_public.projects where id = ${pid}`;
    const err = await stack.sql`select app_public.update_project(${row.userId}, ${pid}, '{"adminHandle": "someone_else"}', null)`
      .catch((e) => e);
    expect(err.code).toBe("APRNV");
    const forOtherChat = await stack.sql`select app_public.update_project(${row.userId}, ${pid}, '{"adminHandle": "someone_else"}',
      ${stack.sql.json({ userId: 1, handle: "someone_else", name: "X", chatId: -1 })})`.catch((e) => e);
    expect(forOtherChat.code).toBe("APRNV");
    expect(await approverOf(pid)).toBe(olga.id);
  });
});
