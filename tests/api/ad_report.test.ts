/*
 * The ad report, GET …/ads (api/routes/ads.ts, docs/ads.md, "Ad report"), as an owner, a viewer and
 * an attacker see it: the ads whose format runs from inside the period (by their real send, or
 * their planned time until then), rejected and failed ones left out, the exact shape, totals
 * per currency, reactions counted as the Statistics page counts them, the Statistics page's
 * period rules and codes, another account's project not found; and the home card's income of
 * the month (GET /api/projects/overview).
 */
import * as v from "valibot";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Ad, AdReport } from "../../contract/ads.ts";
import { AdReportAnswer } from "../../contract/answers.ts";
import type { ChannelStats, ProjectOverview } from "../../contract/stats.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { addMember } from "../helpers/team.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const AD: Ad = { advertiser: "ООО «Ромашка»", erid: "2VtzqvXyZ1", topMinutes: 60, feedMinutes: 1440, price: { amount: 15000, currency: "RUB" } };

let stack: Stack;
let p: Awaited<ReturnType<typeof projectWithChannel>>;
let nextMessage = 1000;
let nextUpdate = 7_000_000;

beforeAll(async () => {
  stack = await startStack({ telegram: true });
  p = await projectWithChannel(stack);
});
afterAll(() => stack.close());

type Seed = { title: string; ad?: Ad | null; status?: string; scheduledFor: Date; publishedAt?: Date; messages?: number; removedAt?: Date; projectId?: number };

/** A post row as scheduling and posts__publish leave it (a published one has its channel messages). */
async function post(seed: Seed): Promise<{ id: number; messageIds: number[] }> {
  const published = seed.publishedAt !== undefined;
  const messageIds = published ? Array.from({ length: seed.messages ?? 1 }, () => nextMessage++) : [];
  const [{ id }] = await stack.sql<{ id: string }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids, ad, ad_removed_at)
    values (${seed.projectId ?? p.project.id}, ${seed.title}, 'text', ${seed.status ?? (published ? "published" : "draft")}, ${seed.scheduledFor},
      ${seed.publishedAt ?? null}, ${published ? p.channel.id : null}, ${stack.sql.json(messageIds)},
      ${seed.ad === null ? null : stack.sql.json(seed.ad ?? AD)}, ${seed.removedAt ?? null})
    returning id`;
  return { id: Number(id), messageIds };
}

/** A message_reaction_count update as the bot hands it to SQL: the message's whole list now. */
async function reactions(messageId: number, counts: Record<string, number>) {
  nextUpdate += 1;
  await stack.sql`select app_public.record_reaction_count(${nextUpdate}, ${p.channel.id}, ${messageId}, now(),
    ${stack.sql.json(Object.entries(counts).map(([emoji, n]) => ({ type: { type: "emoji", emoji }, total_count: n })))})`;
}

const iso = (at: Date) => at.toISOString();
const report = async (query: string, cookie = p.cookie) => {
  const res = await stack.call("GET", `${p.base}/ads${query}`, undefined, cookie);
  expect(res.status, res.text).toBe(200);
  return res.json as AdReport;
};
const period = (from: Date, to: Date) => `?from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;

test("a period holds the ads whose format runs from inside it, by the real send or the planned time; rejected and failed are left out", async () => {
  const from = new Date(Date.UTC(2026, 5, 1, 0, 0));
  const to = new Date(Date.UTC(2026, 5, 8, 0, 0));
  const atStart = await post({ title: "At the start", scheduledFor: from, publishedAt: from, removedAt: new Date(from.getTime() + 24 * HOUR) });
  await post({ title: "At the end", scheduledFor: to, publishedAt: to });
  // planned before the period, sent late inside it: its format runs from the send
  const late = await post({ title: "Sent late", scheduledFor: new Date(from.getTime() - 30 * MINUTE), publishedAt: new Date(from.getTime() + 2 * HOUR) });
  // planned inside, sent after it: it belongs to the period it went out in
  await post({ title: "Sent after", scheduledFor: new Date(to.getTime() - MINUTE), publishedAt: new Date(to.getTime() + 5 * MINUTE) });
  const kept = await post({ title: "Kept for good", ad: { ...AD, feedMinutes: 0, price: undefined }, scheduledFor: new Date(from.getTime() + 50 * HOUR), publishedAt: new Date(from.getTime() + 50 * HOUR) });
  await post({ title: "Rejected", status: "rejected", scheduledFor: new Date(from.getTime() + 3 * HOUR) });
  await post({ title: "Failed", status: "failed", scheduledFor: new Date(from.getTime() + 4 * HOUR) });
  await post({ title: "Our own post", ad: null, scheduledFor: new Date(from.getTime() + 5 * HOUR), publishedAt: new Date(from.getTime() + 5 * HOUR) });

  const answer = await report(period(from, to));
  expect(Object.keys(answer).sort()).toEqual(["items", "totals"]);
  // newest first, as the Statistics page lists posts
  expect(answer.items.map((item) => item.title)).toEqual(["Kept for good", "Sent late", "At the start"]);
  expect(answer.items[2]).toEqual({
    postId: atStart.id, title: "At the start", advertiser: AD.advertiser, erid: AD.erid,
    scheduledFor: iso(from), publishedAt: iso(from),
    topUntil: iso(new Date(from.getTime() + HOUR)), removeAt: iso(new Date(from.getTime() + 24 * HOUR)),
    removedAt: iso(new Date(from.getTime() + 24 * HOUR)), price: { amount: 15000, currency: "RUB" }, reactions: 0,
  });
  expect(answer.items[1]).toMatchObject({
    postId: late.id, scheduledFor: iso(new Date(from.getTime() - 30 * MINUTE)), publishedAt: iso(new Date(from.getTime() + 2 * HOUR)),
    topUntil: iso(new Date(from.getTime() + 3 * HOUR)), removeAt: iso(new Date(from.getTime() + 26 * HOUR)), removedAt: null,
  });
  expect(answer.items[0]).toMatchObject({ postId: kept.id, removeAt: null, removedAt: null, price: null });
  expect(answer.totals).toEqual([{ currency: "RUB", amount: 30000 }]);
  // what the OpenAPI document says it answers
  expect(v.safeParse(AdReportAnswer, answer).issues).toBeUndefined();

  // the next week starts with the ad that ended this one
  expect((await report(period(to, new Date(to.getTime() + 7 * 24 * HOUR)))).items.map((item) => item.title)).toEqual(["Sent after", "At the end"]);

  // an ad still planned is listed by its planned time, not sent yet
  const soon = new Date(Math.ceil((Date.now() + 3 * 24 * HOUR) / MINUTE) * MINUTE);
  const planned = await post({ title: "Planned", status: "scheduled", scheduledFor: soon });
  const ahead = await report(period(new Date(), new Date(Date.now() + 7 * 24 * HOUR)));
  expect(ahead.items).toEqual([expect.objectContaining({ postId: planned.id, scheduledFor: iso(soon), publishedAt: null, topUntil: iso(new Date(soon.getTime() + HOUR)) })]);
});

test("totals: one sum per currency, exact to the kopeck, over the ads with a price", async () => {
  const from = new Date(Date.UTC(2026, 6, 1));
  const at = (hours: number) => new Date(from.getTime() + hours * HOUR);
  const priced = (amount: number, currency: "RUB" | "USD" | "EUR" | "XTR") => ({ ...AD, price: { amount, currency } });
  await post({ title: "r1", ad: priced(0.1, "RUB"), scheduledFor: at(1), publishedAt: at(1) });
  await post({ title: "r2", ad: priced(0.2, "RUB"), scheduledFor: at(3), publishedAt: at(3) });
  await post({ title: "r3", ad: priced(12500.5, "RUB"), scheduledFor: at(5), publishedAt: at(5) });
  await post({ title: "u1", ad: priced(99.99, "USD"), scheduledFor: at(7), publishedAt: at(7) });
  await post({ title: "u2", ad: priced(0.01, "USD"), scheduledFor: at(9) });
  await post({ title: "x1", ad: priced(500, "XTR"), scheduledFor: at(11), publishedAt: at(11) });
  await post({ title: "free", ad: { ...AD, price: undefined }, scheduledFor: at(13), publishedAt: at(13) });
  await post({ title: "refused", ad: priced(1000, "EUR"), status: "rejected", scheduledFor: at(15) });

  const answer = await report(period(from, at(24)));
  expect(answer.items).toHaveLength(7);
  expect(answer.totals).toEqual([
    { currency: "RUB", amount: 12500.8 },
    { currency: "USD", amount: 100 },
    { currency: "XTR", amount: 500 },
  ]);
  // a period without ads: nothing listed, no totals
  expect(await report(period(new Date(Date.UTC(2025, 0, 1)), new Date(Date.UTC(2025, 0, 2))))).toEqual({ items: [], totals: [] });
});

test("reactions are the Statistics page's: each message's latest count, summed over the album", async () => {
  const at = new Date(Date.now() - 3 * HOUR);
  const album = await post({ title: "Album ad", scheduledFor: at, publishedAt: at, messages: 2 });
  await reactions(album.messageIds[0], { "👍": 5, "🔥": 2 });
  await reactions(album.messageIds[1], { "❤": 3 });
  // the next update replaces the message's counts, never adds to them
  await reactions(album.messageIds[0], { "👍": 6 });
  const range = period(new Date(at.getTime() - HOUR), new Date(at.getTime() + HOUR));
  const ads = await report(range);
  expect(ads.items.map((item) => [item.postId, item.reactions])).toEqual([[album.id, 9]]);
  const stats = (await stack.call("GET", `${p.base}/stats${range}`, undefined, p.cookie)).json as ChannelStats;
  expect(stats.posts.find((s) => s.postId === album.id)?.reactions.total).toBe(9);
});

test("a viewer reads it; another account's project answers 404 and reveals nothing", async () => {
  const at = new Date(Date.now() - 2 * HOUR);
  await post({ title: "Secret deal", ad: { ...AD, advertiser: "Тайный рекламодатель" }, scheduledFor: at, publishedAt: at });
  const range = period(new Date(at.getTime() - MINUTE), new Date(at.getTime() + MINUTE));
  const own = await report(range);
  expect(own.items.map((item) => item.advertiser)).toEqual(["Тайный рекламодатель"]);

  const viewer = await addMember(stack, p.project.id, p.cookie, "viewer");
  expect(await report(range, viewer.cookie)).toEqual(own);

  const mallory = await stack.signIn(uniqueEmail("mallory"));
  const stranger = await stack.call("GET", `${p.base}/ads${range}`, undefined, mallory.cookie);
  const missing = await stack.call("GET", `/api/projects/999999999/ads${range}`, undefined, mallory.cookie);
  expect(stranger.status).toBe(404);
  expect(stranger.json).toEqual(missing.json);
  expect(stranger.json.code).toBe("projects.notFound");
  expect(stranger.text).not.toContain("Тайный");
  // and without a session, nothing at all
  expect((await stack.call("GET", `${p.base}/ads`, undefined)).status).toBe(401);
});

test("the period is the Statistics page's: bad from/to answer 400 with its codes; none reads the last 30 days", async () => {
  const cases: [string, string][] = [
    ["?from=yesterday", "stats.rangeNotIso"],
    ["?from=2026-13-01T00:00:00Z&to=2026-12-01T00:00:00Z", "stats.rangeNotIso"],
    ["?to=1700000000", "stats.rangeNotIso"],
    ["?from=0000-01-01T00:00:00Z", "time.yearOutOfRange"],
    ["?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "stats.rangeReversed"],
    ["?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z", "stats.rangeReversed"],
    ["?from=2024-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", "stats.rangeTooLong"],
  ];
  for (const [query, code] of cases) {
    const res = await stack.call("GET", `${p.base}/ads${query}`, undefined, p.cookie);
    expect(res.status, query).toBe(400);
    expect(res.json, query).toMatchObject({ code, message: expect.any(String) });
  }
  const recent = await post({ title: "Twenty days ago", scheduledFor: new Date(Date.now() - 20 * 24 * HOUR), publishedAt: new Date(Date.now() - 20 * 24 * HOUR) });
  const old = await post({ title: "Forty days ago", scheduledFor: new Date(Date.now() - 40 * 24 * HOUR), publishedAt: new Date(Date.now() - 40 * 24 * HOUR) });
  const ids = (await report("")).items.map((item) => item.postId);
  expect(ids).toContain(recent.id);
  expect(ids).not.toContain(old.id);
});

test("the home card shows what the ads published this month earned, per currency, and nothing without any", async () => {
  const q = await projectWithChannel(stack, { timezone: "Asia/Tokyo" });
  const card = async () =>
    ((await stack.call("GET", "/api/projects/overview", undefined, q.cookie)).json as ProjectOverview[]).find((c) => c.projectId === q.project.id)!;
  expect((await card()).adIncome).toEqual([]);
  // the first of this month in Tokyo, as an instant
  const [row] = await stack.sql<{ monthStart: string }[]>`
    select date_trunc('month', now() at time zone 'Asia/Tokyo') at time zone 'Asia/Tokyo' as month_start`;
  const monthStart = new Date(row.monthStart);
  const seed = (title: string, ad: Ad, at: Date, status?: string) =>
    post({ projectId: q.project.id, title, ad, scheduledFor: at, publishedAt: status ? undefined : at, status });
  await seed("first minute", { ...AD, price: { amount: 1000.25, currency: "RUB" } }, monthStart);
  await seed("last month", { ...AD, price: { amount: 7000, currency: "RUB" } }, new Date(monthStart.getTime() - MINUTE));
  await seed("in dollars", { ...AD, price: { amount: 50, currency: "USD" } }, new Date(Date.now() - MINUTE));
  await seed("planned", { ...AD, price: { amount: 300, currency: "RUB" } }, new Date(Date.now() + 24 * HOUR), "scheduled");
  await seed("no price", { ...AD, price: undefined }, new Date(Date.now() - 2 * MINUTE));
  expect((await card()).adIncome).toEqual([{ currency: "RUB", amount: 1000.25 }, { currency: "USD", amount: 50 }]);
  // another project's income is its own
  expect(((await stack.call("GET", "/api/projects/overview", undefined, p.cookie)).json as ProjectOverview[])
    .find((c) => c.projectId === p.project.id)?.adIncome.find((t) => t.currency === "USD")).toBeUndefined();
});

test("the month's income and the report read through the posts' indexes, never a scan of the project's history", async () => {
  // the tables here are tiny, where a scan is cheapest; forbidding scans shows whether an index serves each read
  const bodyOf = async (name: string) => {
    const [{ prosrc }] = await stack.sql`select prosrc from pg_proc where proname = ${name}`;
    return (prosrc as string).replace(/\/\*[\s\S]*?\*\//g, "");
  };
  const income = (await bodyOf("month_ad_income")).replaceAll("p_project_id", String(p.project.id)).replaceAll("p_timezone", "'Europe/Moscow'");
  const report = (await bodyOf("project_ads")).match(/with ads as \(([\s\S]*?)\n  \), reacted/)![1]
    .replaceAll("p_project_id", String(p.project.id)).replaceAll("p_from", "now() - interval '30 days'").replaceAll("p_to", "now()");
  for (const query of [income, report]) {
    const plan = await stack.sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      return (await tx.unsafe(`explain ${query}`)).map((r) => String(Object.values(r)[0])).join("\n");
    });
    expect(plan).toMatch(/Index/);
    expect(plan).not.toMatch(/Seq Scan on posts/);
  }
});
