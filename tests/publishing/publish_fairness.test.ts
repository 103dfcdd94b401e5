/*
 * One account's burst of due posts never makes another account's post late. Played as a
 * hostile account would: eleven projects (more than the worker's slots), each with more
 * approved posts due at once than its channel takes in a minute. Each channel's 20th post
 * must wait about a minute for Telegram's budget; it used to wait inside a worker slot, so
 * every slot slept while another account's post fell due. Now a post that would wait comes
 * back when its channel has room, and the other account's post goes out on time.
 *
 * Run against the worker process, which counts Telegram's limits in the database as in
 * production (the in-process worker of other tests counts in its own memory).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { CHANNEL_MESSAGES_PER_MINUTE } from "../../core/telegram/send_budget.ts";
import { CONCURRENCY } from "../../tasks/worker.ts";
import { type Stack, startStack } from "../helpers/stack.ts";

let stack: Stack;
let worker: Deno.ChildProcess;

beforeAll(async () => {
  stack = await startStack({ telegram: true, worker: false });
  worker = stack.spawnWorkerProcess();
});
afterAll(async () => {
  worker.kill("SIGKILL");
  await worker.status;
  await stack.close();
});

let channels = 0;
/** A project of the account with a connected channel, its approver confirmed by Telegram. */
async function projectWithChannel(userId: number) {
  channels += 1;
  const telegram = stack.telegram!;
  const admin = telegram.addUser({ username: `fair_admin_${channels}`, first_name: "Admin", startedBot: true });
  const channel = telegram.addChannel({ username: `fair_channel_${channels}`, title: `Channel ${channels}`, owner: admin.id });
  const [project] = await stack.sql<{ id: number }[]>`
    insert into app_public.projects (user_id, name, admin_handle) values (${userId}, ${`Project ${channels}`}, ${admin.username!}) returning id`;
  await stack.sql`
    insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle, rights_checked_at)
    values (${project.id}, 'telegram', ${`@${channel.username}`}, 'connected', ${stack.sql.json({ chatId: channel.id })},
            ${channel.id}, ${admin.id}, ${admin.username!}, now())`;
  return { projectId: project.id, chatId: channel.id };
}

/** Approved posts due at `at`, queued as an approval queues them. */
async function approvedPosts(p: { projectId: number; chatId: number }, count: number, at: Date, label: string) {
  const rows = Array.from({ length: count }, (_, i) => ({
    project_id: p.projectId, title: `${label} ${i}`, content: `${label} ${i}`, scheduled_for: at, status: "approved", approved_chat_id: p.chatId,
  }));
  const inserted = await stack.sql<{ id: number }[]>`insert into app_public.posts ${stack.sql(rows)} returning id`;
  await stack.sql`select app_private.queue_publication(id, ${at}) from unnest(${inserted.map((r) => r.id)}::bigint[]) as id`;
}

test("another account's post goes out on time while one account's channels wait for Telegram's per-channel budget", async () => {
  const [burstUser, victimUser] = await stack.sql<{ id: number }[]>`
    insert into app_public.users (email) values ('burst@example.com'), ('victim@example.com') returning id`;
  const hostile = await Promise.all(Array.from({ length: CONCURRENCY + 1 }, () => projectWithChannel(burstUser.id)));
  const victim = await projectWithChannel(victimUser.id);
  const now = Date.now();
  // one more than each channel takes in a minute: the last of each must wait about a minute
  for (const [i, p] of hostile.entries()) await approvedPosts(p, CHANNEL_MESSAGES_PER_MINUTE + 1, new Date(now), `burst ${i}`);
  // due once every channel of the burst has used its minute's budget
  await approvedPosts(victim, 1, new Date(now + 12_000), "on time");

  const telegram = stack.telegram!;
  await telegram.waitFor(() => telegram.messages(victim.chatId).find((m) => m.text === "on time 0"), 40_000);
  // it went out before any channel of the burst got past its minute's budget
  for (const p of hostile) expect(telegram.messages(p.chatId).length).toBeLessThan(CHANNEL_MESSAGES_PER_MINUTE);
  // the burst is not lost: its last posts are approved and queued for when their channels have room
  const [{ waiting }] = await stack.sql<{ waiting: number }[]>`
    select count(*)::int as waiting from app_public.posts p join graphile_worker.jobs j on j.key = 'post:' || p.id || ':publish'
    where p.status = 'approved' and p.title like 'burst %'`;
  expect(waiting).toBeGreaterThanOrEqual(hostile.length);
}, 90_000);
