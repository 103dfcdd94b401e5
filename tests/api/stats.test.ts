/*
 * GET …/stats and the invite links as an API client and as an attacker sees them: the exact
 * shape, bad ranges and names refused with {message, code}, another account's project and
 * links not found (404) on every route, the bot without "Invite users via link", and the
 * per-project limit on links (each one costs Telegram calls), which disconnecting the channel
 * does not reset: its links are revoked in Telegram and stay listed.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ChannelStats, InviteLink } from "../../contract/stats.ts";
import { approverQuestion, buttonsOf, press, projectWithChannel } from "../helpers/publishing.ts";
import { channelIdOf, memberUpdates } from "../helpers/stats.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

const LINKS_PER_PROJECT = 3;
let stack: Stack;
let p: Awaited<ReturnType<typeof projectWithChannel>>;
let mallory: string;

beforeAll(async () => {
  stack = await startStack({ telegram: true, env: { INVITE_LINKS_PER_PROJECT: String(LINKS_PER_PROJECT) } });
  p = await projectWithChannel(stack);
  mallory = (await stack.signIn(uniqueEmail("mallory"))).cookie;
});

afterAll(async () => {
  await stack?.close();
});

const linkCalls = () => stack.telegram!.requests.filter((r) => /ChatInviteLink$/i.test(r.method)).length;

test("the statistics of a fresh channel: the count at connection, nothing else yet, in the contract's shape", async () => {
  // the worker samples the count once the approver allowed the channel
  const deadline = Date.now() + 15_000;
  let stats: ChannelStats;
  do {
    const res = await stack.call("GET", `${p.base}/stats`, undefined, p.cookie);
    expect(res.status, res.text).toBe(200);
    stats = res.json as ChannelStats;
    if (stats.subscribers.current !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  expect(Object.keys(stats!).sort()).toEqual(["bestTimes", "days", "posts", "subscribers"]);
  expect(stats!).toEqual({
    subscribers: { current: 2, points: [{ at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), count: 2 }] },
    days: [],
    posts: [],
    bestTimes: [],
  });
});

test("a range outside the last 30 days leaves out the samples taken now", async () => {
  const res = await stack.call("GET", `${p.base}/stats?from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z`, undefined, p.cookie);
  expect(res.status).toBe(200);
  expect((res.json as ChannelStats).subscribers.points).toEqual([]);
  // `from` alone reads up to now
  const since = await stack.call("GET", `${p.base}/stats?from=${new Date(Date.now() - 3_600_000).toISOString()}`, undefined, p.cookie);
  expect((since.json as ChannelStats).subscribers.points).toHaveLength(1);
});

test("bad ranges are refused with 400 and a code", async () => {
  const cases: [string, string][] = [
    ["?from=yesterday", "stats.rangeNotIso"],
    ["?from=2026-13-01T00:00:00Z&to=2026-12-01T00:00:00Z", "stats.rangeNotIso"],
    ["?to=1700000000", "stats.rangeNotIso"],
    ["?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "stats.rangeReversed"],
    ["?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z", "stats.rangeReversed"],
    ["?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "stats.rangeTooLong"],
  ];
  for (const [query, code] of cases) {
    const res = await stack.call("GET", `${p.base}/stats${query}`, undefined, p.cookie);
    expect(res.status, query).toBe(400);
    expect(res.json, query).toMatchObject({ code, message: expect.any(String) });
  }
});

test("invite links: made in Telegram with their name, listed newest first, revoked and still listed", async () => {
  const a = await stack.call("POST", `${p.base}/invite-links`, { name: "  Spring sale  " }, p.cookie);
  expect(a.status, a.text).toBe(201);
  expect(a.json).toEqual({
    id: expect.any(Number),
    name: "Spring sale",
    url: expect.stringMatching(/^https:\/\/t\.me\/\+/),
    joins: 0,
    leaves: 0,
    createdAt: expect.stringMatching(/Z$/),
    revoked: false,
  });
  const made = stack.telegram!.inviteLinks(p.channel.id).find((l) => l.invite_link === (a.json as InviteLink).url);
  expect(made).toMatchObject({ name: "Spring sale", is_revoked: false });
  // a name of exactly 32 characters
  const b = await stack.call("POST", `${p.base}/invite-links`, { name: "x".repeat(32) }, p.cookie);
  expect(b.status, b.text).toBe(201);

  const listed = await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie);
  expect((listed.json as InviteLink[]).map((l) => l.id)).toEqual([(b.json as InviteLink).id, (a.json as InviteLink).id]);

  const revoked = await stack.call("DELETE", `${p.base}/invite-links/${(a.json as InviteLink).id}`, undefined, p.cookie);
  expect(revoked.status, revoked.text).toBe(200);
  expect(revoked.json).toMatchObject({ id: (a.json as InviteLink).id, revoked: true, name: "Spring sale" });
  expect(stack.telegram!.inviteLinks(p.channel.id).find((l) => l.invite_link === made!.invite_link)?.is_revoked).toBe(true);
  // revoking again changes nothing and asks Telegram nothing
  const calls = linkCalls();
  const again = await stack.call("DELETE", `${p.base}/invite-links/${(a.json as InviteLink).id}`, undefined, p.cookie);
  expect(again.status).toBe(200);
  expect(linkCalls()).toBe(calls);
  expect(((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[]).find((l) => l.id === (a.json as InviteLink).id))
    .toMatchObject({ revoked: true });
});

test("bad names are refused with 400 before Telegram is asked", async () => {
  const calls = linkCalls();
  const cases: [unknown, string][] = [
    [{ name: "" }, "inviteLinks.nameRequired"],
    [{ name: "   " }, "inviteLinks.nameRequired"],
    [{}, "inviteLinks.nameRequired"],
    [{ name: 42 }, "inviteLinks.nameRequired"],
    [{ name: "y".repeat(33) }, "inviteLinks.nameTooLong"],
    // U+0000 cannot be stored: refused before Telegram makes a link nobody could list
    [{ name: "Spring\u0000sale" }, "text.controlCharacter"],
    [{ name: "\u001b[1mBold" }, "text.controlCharacter"],
    [["name"], "request.notJsonObject"],
  ];
  for (const [body, code] of cases) {
    const res = await stack.call("POST", `${p.base}/invite-links`, body, p.cookie);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.json).toMatchObject({ code });
  }
  expect(linkCalls()).toBe(calls);
});

test("another account gets 404 on every route, and nothing changes", async () => {
  const [link] = (await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[];
  const calls = linkCalls();
  const attempts: [string, string, unknown?][] = [
    ["GET", `${p.base}/stats`],
    ["GET", `${p.base}/stats?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`],
    ["GET", `${p.base}/invite-links`],
    ["POST", `${p.base}/invite-links`, { name: "Stolen" }],
    ["DELETE", `${p.base}/invite-links/${link.id}`],
  ];
  for (const [method, path, body] of attempts) {
    const res = await stack.call(method, path, body, mallory);
    expect(res.status, `${method} ${path}`).toBe(404);
    expect(res.json).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }
  // their own project, our link's id: still not found
  const own = (await stack.call("POST", "/api/projects", { name: "Mine", adminHandle: "mallory_admin" }, mallory)).json as { id: number };
  const cross = await stack.call("DELETE", `/api/projects/${own.id}/invite-links/${link.id}`, undefined, mallory);
  expect(cross.status).toBe(404);
  expect(cross.json).toMatchObject({ code: "inviteLinks.notFound" });
  expect(linkCalls()).toBe(calls);
  const after = (await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[];
  expect(after.find((l) => l.id === link.id)).toEqual(link);
  // signed out
  expect((await stack.call("GET", `${p.base}/stats`)).status).toBe(401);
  expect((await stack.call("GET", `${p.base}/invite-links`)).status).toBe(401);
});

test("a project without a channel cannot make links but reads empty statistics", async () => {
  const own = (await stack.call("POST", "/api/projects", { name: "No channel", adminHandle: "nobody_here" }, mallory)).json as { id: number };
  const res = await stack.call("POST", `/api/projects/${own.id}/invite-links`, { name: "Launch" }, mallory);
  expect(res.status).toBe(400);
  expect(res.json).toMatchObject({ code: "inviteLinks.noChannel" });
  const stats = await stack.call("GET", `/api/projects/${own.id}/stats`, undefined, mallory);
  expect(stats.json).toEqual({ subscribers: { current: null, points: [] }, days: [], posts: [], bestTimes: [] });
  expect((await stack.call("GET", `/api/projects/${own.id}/invite-links`, undefined, mallory)).json).toEqual([]);
});

test("without the right to invite, making a link says which right to grant; everything else still works", async () => {
  stack.telegram!.setBotRights(p.channel.id, { can_invite_users: false });
  try {
    const before = ((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[]).length;
    const res = await stack.call("POST", `${p.base}/invite-links`, { name: "Blocked" }, p.cookie);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "stats.botCannotInvite" });
    expect((res.json as { message: string }).message).toContain(`@${p.channel.username}`);
    expect((res.json as { message: string }).message).toContain("Invite users via link");
    // Telegram refused with its own words
    expect(stack.telegram!.requests.filter((r) => r.method === "createChatInviteLink").at(-1)?.status).toBe(400);
    expect(((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[])).toHaveLength(before);
    expect((await stack.call("GET", `${p.base}/stats`, undefined, p.cookie)).status).toBe(200);
    const [live] = ((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[]).filter((l) => !l.revoked);
    const revoke = await stack.call("DELETE", `${p.base}/invite-links/${live.id}`, undefined, p.cookie);
    expect(revoke.status).toBe(400);
    expect(revoke.json).toMatchObject({ code: "stats.botCannotInvite" });
  } finally {
    stack.telegram!.setBotRights(p.channel.id, "administrator");
  }
});

test("a project holds at most INVITE_LINKS_PER_PROJECT links, revoked ones too", async () => {
  // two made above (one revoked): one more fits
  const third = await stack.call("POST", `${p.base}/invite-links`, { name: "Third" }, p.cookie);
  expect(third.status, third.text).toBe(201);
  const calls = linkCalls();
  const fourth = await stack.call("POST", `${p.base}/invite-links`, { name: "Fourth" }, p.cookie);
  expect(fourth.status).toBe(409);
  expect(fourth.json).toMatchObject({ code: "inviteLinks.quotaReached", message: `A project can have at most ${LINKS_PER_PROJECT} invite links` });
  expect(linkCalls()).toBe(calls);
  expect(((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[])).toHaveLength(LINKS_PER_PROJECT);
});

/** The successful revokeChatInviteLink calls Telegram answered for `url`. */
const revokes = (url: string) =>
  stack.telegram!.requests.filter((r) => /^revokeChatInviteLink$/i.test(r.method) && r.params.invite_link === url && r.status === 200).length;

test("disconnecting the channel revokes its links in Telegram once each; they stay listed, with their figures, and counted", async () => {
  const q = await projectWithChannel(stack);
  const made: InviteLink[] = [];
  for (const name of ["Ads", "Partners", "Old"]) made.push((await stack.call("POST", `${q.base}/invite-links`, { name }, q.cookie)).json as InviteLink);
  const [ads, partners, old] = made;
  expect((await stack.call("DELETE", `${q.base}/invite-links/${old.id}`, undefined, q.cookie)).status).toBe(200);
  await memberUpdates(stack, q.channel.id, "join", 2, ads.url);
  // Telegram stumbles once (a 5xx): the revoke is tried again, not given up
  stack.telegram!.failNext("revokeChatInviteLink", { code: 502 });

  const channelId = await channelIdOf(stack, q.project.id);
  expect((await stack.call("DELETE", `${q.base}/channels/${channelId}`, undefined, q.cookie)).status).toBe(200);
  const listed = (await stack.call("GET", `${q.base}/invite-links`, undefined, q.cookie)).json as InviteLink[];
  expect(listed.map((l) => [l.name, l.revoked, l.joins])).toEqual([["Old", true, 0], ["Partners", true, 0], ["Ads", true, 2]]);

  const inTelegram = (url: string) => stack.telegram!.inviteLinks(q.channel.id).find((l) => l.invite_link === url);
  await stack.telegram!.waitFor(() => revokes(ads.url) && revokes(partners.url), 20_000);
  expect([inTelegram(ads.url)?.is_revoked, inTelegram(partners.url)?.is_revoked]).toEqual([true, true]);
  expect(() => stack.telegram!.userJoins(q.channel.id, 9_100_001, { inviteLink: ads.url })).toThrow(/revoked/);
  expect([revokes(ads.url), revokes(partners.url), revokes(old.url)]).toEqual([1, 1, 1]); // "Old" by hand, before
  // a revoked link of the old channel is revoked already: revoking it again asks Telegram nothing
  const calls = linkCalls();
  expect((await stack.call("DELETE", `${q.base}/invite-links/${ads.id}`, undefined, q.cookie)).json).toMatchObject({ id: ads.id, revoked: true });
  expect(linkCalls()).toBe(calls);

  // connected again, the project has not got its places back
  expect((await stack.call("POST", `${q.base}/channels`, { type: "telegram", link: `@${q.channel.username}` }, q.cookie)).status).toBe(201);
  const question = await approverQuestion(stack, q.admin.id);
  await press(stack, q.admin.id, q.admin.id, question.message_id, buttonsOf(question)[0]!);
  const more = await stack.call("POST", `${q.base}/invite-links`, { name: "Fresh" }, q.cookie);
  expect(more.status, more.text).toBe(409);
  expect(more.json).toMatchObject({ code: "inviteLinks.quotaReached" });
  expect(linkCalls()).toBe(calls);
});

test("deleting a project revokes its links; a refusal for good (the right to invite taken away) ends the job", async () => {
  const q = await projectWithChannel(stack);
  const link = (await stack.call("POST", `${q.base}/invite-links`, { name: "Gone" }, q.cookie)).json as InviteLink;
  stack.telegram!.setBotRights(q.channel.id, { can_invite_users: false });
  expect((await stack.call("DELETE", q.base, undefined, q.cookie)).status).toBe(200);
  await stack.telegram!.waitFor(() =>
    stack.telegram!.requests.find((r) => /^revokeChatInviteLink$/i.test(r.method) && r.params.invite_link === link.url && r.status === 400), 20_000);
  const deadline = Date.now() + 10_000;
  while ((await stack.sql`select 1 from graphile_worker.jobs where task_identifier = 'invite_links__revoke'`).length) {
    if (Date.now() > deadline) throw new Error("the refused revoke was retried");
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(stack.telegram!.requests.filter((r) => /^revokeChatInviteLink$/i.test(r.method) && r.params.invite_link === link.url)).toHaveLength(1);
});
