/*
 * Channel statistics as the bot collects them (docs/statistics.md): the bot, asking for
 * chat_member and message_reaction_count like main/bot.ts, against the local Bot API server;
 * the worker samples the subscriber count. What the owner reads is GET …/stats and
 * GET …/invite-links.
 * Home of tasks/channels__sample_subscribers.ts (docs/testing.md).
 */
import type { Update } from "grammy/types";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ChannelStats, InviteLink } from "../../contract/stats.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { until } from "../helpers/until.ts";

let stack: Stack;
let p: Awaited<ReturnType<typeof projectWithChannel>>;

beforeAll(async () => {
  stack = await startStack({ bot: true });
  p = await projectWithChannel(stack, { timezone: "Europe/Moscow" });
});

afterAll(async () => {
  await stack?.close();
});

const telegram = () => stack.telegram!;

async function stats(query = ""): Promise<ChannelStats> {
  const res = await stack.call("GET", `${p.base}/stats${query}`, undefined, p.cookie);
  expect(res.status, res.text).toBe(200);
  return res.json as ChannelStats;
}

/** Resolves once the bot has taken the update from Telegram (its offset moved past it) and handled it from its inbox. */
async function handled(update: Update | undefined) {
  expect(update).toBeDefined();
  await telegram().waitFor(() => !telegram().pendingUpdates().some((u) => u.update_id === update!.update_id), 10_000);
  // Telegram's offset moving past it means stored (bot/inbox.ts); handled is marked after
  await expect.poll(async () =>
    (await stack.sql`select 1 from app_private.telegram_updates where update_id = ${update!.update_id} and handled_at is not null`).length,
    { timeout: 10_000, interval: 20 }).toBe(1);
}

const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Moscow" }).format(new Date());
const joinsToday = (s: ChannelStats) => s.days.find((d) => d.day === today()) ?? { joins: 0, leaves: 0 };

test("the subscriber count is sampled when the channel is connected, then moved by each join and leave", async () => {
  // the channel's creator and the bot: what Telegram counts at connection
  const sampled = await until(() => stats(), (s) => s.subscribers.current !== null);
  expect(sampled.subscribers.current).toBe(2);
  expect(sampled.subscribers.points).toHaveLength(1);
  expect(sampled.subscribers.points[0].count).toBe(2);

  const reader = telegram().addUser({ first_name: "Reader" });
  await handled(telegram().userJoins(p.channel.id, reader.id));
  const joined = await until(() => stats(), (s) => s.subscribers.current === 3);
  expect(joinsToday(joined)).toMatchObject({ joins: 1, leaves: 0 });

  await handled(telegram().userLeaves(p.channel.id, reader.id));
  const left = await until(() => stats(), (s) => s.subscribers.current === 2);
  expect(joinsToday(left)).toMatchObject({ joins: 1, leaves: 1 });
  // a sample is Telegram's word, not a new point per join
  expect(left.subscribers.points).toHaveLength(1);
});

test("a repeated update, by update_id or by content, counts once", async () => {
  const before = joinsToday(await stats());
  const reader = telegram().addUser({ first_name: "Twice" });
  const update = telegram().userJoins(p.channel.id, reader.id)!;
  await handled(update);
  await until(() => stats(), (s) => joinsToday(s).joins === before.joins + 1);
  // Telegram hands the same update out again (its delivery was not confirmed) …
  telegram().repeatUpdate(update);
  await handled(update);
  // … or the same change arrives under another update_id
  const copy = { ...structuredClone(update), update_id: update.update_id + 1_000_000 };
  telegram().repeatUpdate(copy);
  await handled(copy);
  const after = await stats();
  expect(joinsToday(after).joins).toBe(before.joins + 1);
  expect(after.subscribers.current).toBe(3);
  const [{ n }] = await stack.sql<{ n: number }[]>`select count(*)::int as n from app_private.member_events where kind = 'join'`;
  expect(n).toBe(before.joins + 1);
});

test("a member update is marked handled only once its join is written: a process killed before the write handles it again from the inbox", async () => {
  const before = joinsToday(await stats());
  const reader = telegram().addUser({ first_name: "Slow write" });
  let update: Update | undefined;
  // the join's write waits behind a lock held here: the handler has returned, the write has not
  await stack.sql.begin(async (tx) => {
    await tx`lock table app_private.member_events in exclusive mode`;
    update = telegram().userJoins(p.channel.id, reader.id);
    await telegram().waitFor(() => !telegram().pendingUpdates().some((u) => u.update_id === update!.update_id), 10_000);
    await new Promise((r) => setTimeout(r, 800));
    const [stored] = await tx`select handled_at from app_private.telegram_updates where update_id = ${update!.update_id}`;
    expect(stored.handledAt).toBeNull();
  });
  await handled(update);
  expect(joinsToday(await stats()).joins).toBe(before.joins + 1);
  await handled(telegram().userLeaves(p.channel.id, reader.id)); // the channel as the next tests expect it
});

test("updates of a chat that is no project's channel are ignored", async () => {
  const [{ events: eventsBefore }] = await stack.sql<{ events: number }[]>`select count(*)::int as events from app_private.member_events`;
  const stranger = telegram().addChannel({ username: `stranger_${Date.now().toString(36)}`, title: "Not ours" });
  const someone = telegram().addUser({ first_name: "Someone" });
  await handled(telegram().userJoins(stranger.id, someone.id));
  const post = telegram().channelPost(stranger.id, "their post");
  await handled(telegram().setReactions(stranger.id, post.message_id, { "👍": 40 }));
  const [{ events }] = await stack.sql<{ events: number }[]>`select count(*)::int as events from app_private.member_events`;
  expect(events).toBe(eventsBefore);
  expect(await stack.sql`select 1 from app_private.message_reactions where message_id = ${post.message_id}
    and channel_id not in (select id from app_public.channels where chat_id = ${p.channel.id})`).toHaveLength(0);
  expect((await stats()).subscribers.current).toBe(3);
});

/** A post published in the channel at `at` with these messages (as posts__publish records them). */
async function publishedPost(title: string, at: string, texts: string[]) {
  const ids = texts.map((text) => telegram().channelPost(p.channel.id, text).message_id);
  const [{ id }] = await stack.sql<{ id: number }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids)
    values (${p.project.id}, ${title}, 'text', 'published', ${at}, ${at}, ${p.channel.id}, ${stack.sql.json(ids)})
    returning id`;
  return { id: Number(id), ids };
}

test("a message's reactions are replaced by each update, never added, and an album's are summed", async () => {
  // Monday 23 November 2026, 10:30 in Moscow
  const single = await publishedPost("Single", "2026-11-23T07:30:00Z", ["one"]);
  // an album of three photos, or a photo then its text: one post, several messages
  const album = await publishedPost("Album", "2026-11-23T07:45:00Z", ["a", "b", "c"]);
  const range = "?from=2026-11-20T00:00:00Z&to=2026-11-27T00:00:00Z";
  const postOf = (s: ChannelStats, id: number) => s.posts.find((post) => post.postId === id)!;

  await handled(telegram().setReactions(p.channel.id, single.ids[0], { "👍": 5, "🔥": 2 }));
  let s = await until(() => stats(range), (s) => postOf(s, single.id)?.reactions.total === 7);
  expect(postOf(s, single.id).reactions.byEmoji).toEqual({ "👍": 5, "🔥": 2 });

  await handled(telegram().setReactions(p.channel.id, single.ids[0], { "👍": 6 }));
  s = await until(() => stats(range), (s) => postOf(s, single.id)?.reactions.total !== 7);
  expect(postOf(s, single.id).reactions).toEqual({ total: 6, byEmoji: { "👍": 6 } });

  await handled(telegram().setReactions(p.channel.id, album.ids[0], { "❤": 3 }));
  await handled(telegram().setReactions(p.channel.id, album.ids[2], { "❤": 1, "👍": 2, "custom:5368324170671202286": 1 }));
  s = await until(() => stats(range), (s) => postOf(s, album.id)?.reactions.total === 7);
  expect(postOf(s, album.id).reactions.byEmoji).toEqual({ "❤": 4, "👍": 2, "custom:5368324170671202286": 1 });
  expect(postOf(s, album.id)).toMatchObject({ title: "Album", publishedAt: "2026-11-23T07:45:00.000Z" });

  // both went out on Monday at 10 in Moscow: (6 + 7) / 2
  expect(s.bestTimes).toEqual([{ weekday: 1, hour: 10, posts: 2, avgReactions: 6.5 }]);
  // the newest first
  expect(s.posts.map((post) => post.postId)).toEqual([album.id, single.id]);
});

test("a join through one of our links counts for it, even when the link was revoked before the update came", async () => {
  const created = await stack.call("POST", `${p.base}/invite-links`, { name: "Partner A" }, p.cookie);
  expect(created.status, created.text).toBe(201);
  const link = created.json as InviteLink;
  expect(link).toMatchObject({ name: "Partner A", joins: 0, leaves: 0, revoked: false });
  expect(link.url).toMatch(/^https:\/\/t\.me\/\+/);
  expect(telegram().inviteLinks(p.channel.id).map((l) => l.invite_link)).toContain(link.url);

  const first = telegram().addUser({ first_name: "Via link" });
  await handled(telegram().userJoins(p.channel.id, first.id, { inviteLink: link.url }));
  const linkNow = async () =>
    ((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json as InviteLink[]).find((l) => l.id === link.id)!;
  await until(linkNow, (l) => l.joins === 1);

  const revoked = await stack.call("DELETE", `${p.base}/invite-links/${link.id}`, undefined, p.cookie);
  expect(revoked.status, revoked.text).toBe(200);
  expect(revoked.json).toMatchObject({ id: link.id, revoked: true, joins: 1 });
  expect(telegram().inviteLinks(p.channel.id).find((l) => l.invite_link === link.url)?.is_revoked).toBe(true);

  // joined just before the revoke; Telegram's update arrives after it
  const late = telegram().addUser({ first_name: "Late" });
  await handled(telegram().userJoins(p.channel.id, late.id, { inviteLink: link.url, lateUpdate: true }));
  await until(linkNow, (l) => l.joins === 2);

  // the one who came through the link leaves: a leave of that link
  await handled(telegram().userLeaves(p.channel.id, first.id));
  const after = await until(linkNow, (l) => l.leaves === 1);
  expect(after).toMatchObject({ joins: 2, leaves: 1, revoked: true, name: "Partner A" });
  // a join without a link is nobody's
  const plain = telegram().addUser({ first_name: "Plain" });
  await handled(telegram().userJoins(p.channel.id, plain.id));
  expect((await linkNow()).joins).toBe(2);
});

test("a promotion to administrator or a demotion is neither a join nor a leave", async () => {
  const before = joinsToday(await stats());
  const editor = telegram().addUser({ first_name: "Editor" });
  await handled(telegram().userJoins(p.channel.id, editor.id));
  await until(() => stats(), (s) => joinsToday(s).joins === before.joins + 1);
  // Telegram sends chat_member for these too; setMemberRights models the standing only, so the update is built here
  const record = telegram().pendingUpdates();
  expect(record).toHaveLength(0);
  const [{ n: eventsBefore }] = await stack.sql<{ n: number }[]>`select count(*)::int as n from app_private.member_events`;
  const [result] = await stack.sql<{ r: string }[]>`
    select app_public.record_member_update(1, ${p.channel.id}, ${editor.id}, now(), 'member', null, 'administrator', null, null) as r`;
  expect(result.r).toBe("ignored");
  const [{ n }] = await stack.sql<{ n: number }[]>`select count(*)::int as n from app_private.member_events`;
  expect(n).toBe(eventsBefore);
});

test("the hourly pass samples each connected channel once (a second pass before it ran adds nothing), and Telegram's count replaces the running one", async () => {
  const others = [1, 2].map((n) => telegram().addChannel({ username: `other_${n}_${Date.now().toString(36)}` }));
  expect(others).toHaveLength(2); // not connected to any project: never sampled
  // what is there before, so the worker's own hourly pass (its crontab, at the top of the
  // real hour) does not count here when the suite runs across it
  const pointsBefore = (await stats()).subscribers.points.length;
  const requestsBefore = telegram().requests.length;
  telegram().setMemberCount(p.channel.id, 5_000);
  // the next hour's pass before this one ran: still one job. One transaction, so the worker
  // cannot take the first job in between (a job already running is not "waiting")
  await stack.sql.begin(async (tx) => {
    await tx`select app_public.queue_subscriber_samples()`;
    await tx`select app_public.queue_subscriber_samples()`;
  });
  const sampled = await until(() => stats(), (s) => s.subscribers.current === 5_000);
  expect(sampled.subscribers.points).toHaveLength(pointsBefore + 1);
  expect(sampled.subscribers.points.at(-1)!.count).toBe(5_000);
  const samples = telegram().requests.slice(requestsBefore).filter((r) => r.method === "getChatMemberCount");
  expect(samples.map((r) => Number(r.params.chat_id))).toEqual([p.channel.id]);
  // a join after the sample moves it
  await handled(telegram().userJoins(p.channel.id, telegram().addUser({ first_name: "After" }).id));
  await until(() => stats(), (s) => s.subscribers.current === 5_001);
});

test("pruning drops raw events after 30 days and keeps the daily figures, the count and the links'", async () => {
  const before = await stats();
  const linksBefore = (await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json;
  await stack.sql`update app_private.member_events set recorded_at = now() - interval '40 days'`;
  const [{ id: jobId }] = await stack.sql<{ id: string }[]>`select id from graphile_worker.add_job('stats__prune')`;
  await until(async () => (await stack.sql`select 1 from graphile_worker.jobs where id = ${jobId}`).length, (n) => n === 0);
  const [{ n }] = await stack.sql<{ n: number }[]>`select count(*)::int as n from app_private.member_events`;
  expect(n).toBe(0);
  const after = await stats();
  expect(after.days).toEqual(before.days);
  expect(after.subscribers.current).toBe(before.subscribers.current);
  expect((await stack.call("GET", `${p.base}/invite-links`, undefined, p.cookie)).json).toEqual(linksBefore);
});
