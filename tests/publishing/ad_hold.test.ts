/*
 * Nothing else goes out while an ad is on top (docs/ads.md "The top window"): a post approved and due
 * inside another ad's top window is held by the publish act itself (begin_sending), says why,
 * survives a worker killed meanwhile, and goes out once, when the window ends, its reason
 * cleared. Two worker processes run it, as several machines on one database do.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { buttonData, postReaches, press, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack } from "../helpers/stack.ts";
import { until } from "../helpers/until.ts";

let stack: Stack;
const workers: Deno.ChildProcess[] = [];
beforeAll(async () => {
  stack = await startStack({ bot: true, worker: false });
  workers.push(stack.spawnWorkerProcess(), stack.spawnWorkerProcess());
});
afterAll(async () => {
  for (const worker of workers) {
    try {
      worker.kill("SIGKILL");
    } catch { /* killed by the test */ }
    await worker.status;
  }
  await stack.close();
});

/**
 * An approved post of its own, due in 6 s, and an ad of the project that went out `sentAgo`
 * (an SQL interval) before now and stays on top 60 minutes from then; answers both, and the
 * window's end. The post is held once its time comes.
 */
async function postDuringAd(title: string, adTitle: string, sentAgo: string) {
  const p = await projectWithChannel(stack, { drafts: [title], language: "en", timezone: "UTC" });
  const { postId, preview } = await sentForApproval(stack, p, p.drafts[0].id, 6_000);
  await press(stack, p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await postReaches(stack, postId, "approved");
  const [ad] = await stack.sql`
    insert into app_public.posts (project_id, title, content, scheduled_for, status, published_at, channel_chat_id, approved_chat_id, channel_message_ids, ad)
    values (${p.project.id}, ${adTitle}, 'Buy', now() - ${sentAgo}::interval, 'published', now() - ${sentAgo}::interval,
            ${p.channel.id}, ${p.channel.id}, '[1]', ${stack.sql.json({ advertiser: "Acme", erid: "abc123", topMinutes: 60, feedMinutes: 0 })})
    returning id, published_at + interval '60 minutes' as top_until`;
  await until(async () => (await stack.sql`select last_error_code from app_public.posts where id = ${postId}`)[0].lastErrorCode, (code) => code === "ads.heldForTop", 20_000);
  return { p, postId, adId: ad.id as number, topUntil: new Date(ad.topUntil).getTime() };
}

test("a post due while an ad is on top waits for the window's end, then goes out once, even with a worker killed meanwhile", async () => {
  const telegram = stack.telegram!;
  // an ad of the project went out just before and stays on top for 14 more seconds
  const { p, postId, topUntil } = await postDuringAd("Our own news", "Coffee 1/24", "59 minutes 46 seconds");

  // due at its time, it is held, and the owner reads why
  const held = await stack.call("GET", `${p.base}/posts/${postId}`, undefined, p.cookie);
  expect(held.json).toMatchObject({ status: "approved", lastErrorCode: "ads.heldForTop", lastErrorParams: { title: "Coffee 1/24" } });
  expect(telegram.messages(p.channel.id).filter((m) => m.text === "Our own news")).toHaveLength(0);

  // one worker dies while the post waits: the other sends it when the window ends
  workers[0].kill("SIGKILL");
  const published = await postReaches(stack, postId, "published", 40_000);
  expect(new Date(published.publishedAt).getTime()).toBeGreaterThanOrEqual(topUntil);
  expect(published.lastErrorCode).toBeNull();
  await new Promise((r) => setTimeout(r, 2_000));
  expect(telegram.messages(p.channel.id).filter((m) => m.text === "Our own news")).toHaveLength(1);
}, 120_000);

test("a post held for an ad that is then deleted goes out within minutes, not at the old window's end", async () => {
  const telegram = stack.telegram!;
  // an ad went out a minute ago and stays on top for 59 more minutes
  const { p, postId, adId } = await postDuringAd("After the ad", "Tea 1/24", "1 minute");
  const publishJobDue = async () =>
    (await stack.sql<{ due: number }[]>`select (extract(epoch from run_at - now()) * 1000)::int as due
      from graphile_worker._private_jobs where key = ${`post:${postId}:publish`}`)[0]?.due;
  // weighed again in 5 minutes at most, not at the window's end an hour away
  const due = await until(publishJobDue, (ms) => ms !== undefined && ms > 60_000, 10_000);
  expect(due).toBeLessThanOrEqual(5 * 60_000);
  expect(due).toBeGreaterThan(4 * 60_000);

  // weighed again while the ad is still on top: held on, its version untouched (open calendars stay as they are)
  const version = async () => (await stack.sql`select updated_at::text as v from app_public.posts where id = ${postId}`)[0].v;
  const before = await version();
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:publish`}`;
  await until(publishJobDue, (ms) => ms !== undefined && ms > 60_000, 10_000);
  expect(await version()).toBe(before);
  expect((await stack.sql`select status, last_error_code from app_public.posts where id = ${postId}`)[0])
    .toEqual({ status: "approved", lastErrorCode: "ads.heldForTop" });

  // the owner deletes the ad; when the post is weighed again (its 5 minutes come now), it goes
  expect((await stack.call("DELETE", `${p.base}/posts/${adId}`, undefined, p.cookie)).status).toBe(200);
  await stack.sql`update graphile_worker._private_jobs set run_at = now() where key = ${`post:${postId}:publish`}`;
  const published = await postReaches(stack, postId, "published", 20_000);
  expect(published.lastErrorCode).toBeNull();
  expect(telegram.messages(p.channel.id).filter((m) => m.text === "After the ad")).toHaveLength(1);
}, 120_000);
