/*
 * Post rules in SQL: the past-time rule, guarded transitions (a stale or repeated step
 * changes nothing), and the recurring rotation driven through a clock we pass in.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects } from "../helpers/sql.ts";
import { ENDING_CASES, ROTATION_CASES, STEPPING_CASES } from "../cases/recurrence_cases.ts";
import { SERIES_END_CASES } from "../cases/series_end_cases.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 2, onnotice: () => {} });
});
afterAll(() => sql.end());

type Tx = postgres.TransactionSql;

async function seed(tx: Tx, timezone = "Europe/Moscow", titles: string[] = ["A", "B", "C"]) {
  const [user] = await tx`insert into app_public.users (email) values (${`u${Math.random()}@example.com`}) returning id`;
  const [project] = await tx`insert into app_public.projects (user_id, name, admin_handle, timezone)
                             values (${user.id}, 'P', 'admin_one', ${timezone}) returning *`;
  await tx`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle)
           values (${project.id}, 'telegram', '@chan', 'connected', '{"chatId": -100123, "adminChatId": 42}', -100123, 42, 'admin_one')`;
  const drafts = await tx`select * from app_public.bulk_create_drafts(${user.id}, ${project.id}, ${titles}::text[])`;
  return { userId: user.id as string, projectId: project.id as string, drafts };
}

async function status(tx: Tx, postId: string) {
  return (await tx`select status from app_public.posts where id = ${postId}`)[0].status;
}

describe("scheduling", () => {
  test("a time that has passed is refused (PASTT), even when its local date is today in the project's zone", async () => {
    await inRollback(sql, async (tx) => {
      // Pacific/Kiritimati-like boundaries: in Asia/Kamchatka (UTC+12) "today" starts long
      // before it does in UTC; a minute ago is still the past wherever the project is.
      const { userId, projectId, drafts } = await seed(tx, "Asia/Kamchatka");
      const [{ local_now }] = await tx`select to_char(now() at time zone 'Asia/Kamchatka', 'YYYY-MM-DD HH24:MI') as local_now`;
      const aMinuteAgoThere = `${local_now.slice(0, 10)} ${local_now.slice(11)}`;
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id},
        (timestamp '${aMinuteAgoThere}' - interval '1 minute') at time zone 'Asia/Kamchatka', 'none', '', '')`,
        "PASTT", "Cannot schedule posts in the past. Please select a future time.");
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id},
        (${aMinuteAgoThere}::timestamp + interval '2 minutes') at time zone 'Asia/Kamchatka', 'none', '', '')`;
      expect(post.status).toBe("draft");
      expect(post.title).toBe("A");
    });
  });

  test("a one-time post needs a draft, and a draft can be planned once", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, null, now() + interval '1 day', 'none', '', '')`, "INVAL", "schedule.selectDraft");
      await tx`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 day', 'none', '', '')`;
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '2 days', 'none', '', '')`, "INVAL", "schedule.draftAlreadyScheduled");
    });
  });

  test("publishing content over 4096 characters is refused with the length and the maximum (CLONG)", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      await tx`update app_public.drafts set content = ${"я".repeat(5000)} where id = ${drafts[0].id}`;
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 day', 'none', '', '')`;
      await rejects(tx, `select app_public.request_post_approval(${userId}, ${projectId}, ${post.id})`, "CLONG", "schedule.captionTooLong: 5000/4096");
      expect(await status(tx, post.id)).toBe("draft");
    });
  });
});

/** The id of the post's one approval request job (the claim asks for it). */
async function approvalJob(tx: postgres.TransactionSql, postId: number): Promise<string> {
  const [row] = await tx`select id::text from graphile_worker._private_jobs where key = ${`post:${postId}:approval`}`;
  return row.id;
}

describe("guarded transitions", () => {
  test("each step happens once; a stale or repeated step changes nothing", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      // nothing can be approved or sent before the approval request went out
      expect((await tx`select app_public.decide_post(${post.id}, 42, 1, true, null) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select (app_public.begin_sending(${post.id}, 'w1')).post_id`)[0].post_id).toBeNull();

      await tx`select app_public.request_post_approval(${userId}, ${projectId}, ${post.id})`;
      expect(await status(tx, post.id)).toBe("scheduled");
      // pressing Publish again (or after the automatic request) changes nothing and is not an error
      expect((await tx`select (app_public.request_post_approval(${userId}, ${projectId}, ${post.id})).status`)[0].status).toBe("scheduled");
      // the post's one request job (keyed); a job that is not it asks nothing
      const job = await approvalJob(tx, post.id);
      expect((await tx`select (app_public.claim_post_for_approval(${post.id}, 'job-0')).post_id`)[0].post_id).toBeNull();
      const [{ admin }] = await tx`select (app_public.claim_post_for_approval(${post.id}, ${job})).approver_user_id as admin`;
      expect(Number(admin)).toBe(42);
      // another approval job (Publish met the automatic request) finds it claimed; the
      // same job, retried after a crash, takes its claim back
      expect((await tx`select (app_public.claim_post_for_approval(${post.id}, 'job-2')).post_id`)[0].post_id).toBeNull();
      expect(Number((await tx`select (app_public.claim_post_for_approval(${post.id}, ${job})).post_id`)[0].post_id)).toBe(Number(post.id));
      expect((await tx`select app_public.record_approval_sent(${post.id}, 42, ${[7, 8]}::bigint[]) as ok`)[0].ok).toBe(true);
      // a second approval job finds the preview already sent
      expect((await tx`select (app_public.claim_post_for_approval(${post.id}, ${job})).post_id`)[0].post_id).toBeNull();

      // only the buttons message in the admin's chat decides, once
      expect((await tx`select app_public.decide_post(${post.id}, 42, 7, true, null) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select app_public.decide_post(${post.id}, 99, 8, true, null) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select (app_public.decide_post(${post.id}, 42, 8, true, null)).status`)[0].status).toBe("approved");
      expect((await tx`select app_public.decide_post(${post.id}, 42, 8, false, null) is null as stale`)[0].stale).toBe(true);
      expect(await status(tx, post.id)).toBe("approved");

      // not before its time
      expect((await tx`select (app_public.begin_sending(${post.id}, 'w1')).post_id`)[0].post_id).toBeNull();
      await tx`update app_public.posts set scheduled_for = now() where id = ${post.id}`;
      expect(Number((await tx`select (app_public.begin_sending(${post.id}, 'w1')).post_id`)[0].post_id)).toBe(Number(post.id));
      // a duplicated publish job stops at the guard: one send at most
      expect((await tx`select (app_public.begin_sending(${post.id}, 'w2')).post_id`)[0].post_id).toBeNull();
      const [done] = await tx`select * from app_public.record_published(${post.id}, -100123, ${[55]}::bigint[], '{"chan": "https://t.me/chan/55"}')`;
      expect(done.status).toBe("published");
      expect(done.published_links).toEqual({ chan: "https://t.me/chan/55" });
      expect((await tx`select app_public.record_send_failed(${post.id}, 'posts.error.telegram', '{}', true) is null as stale`)[0].stale).toBe(true);
      expect(await status(tx, post.id)).toBe("published");
      await rejects(tx, `select app_public.update_post(${userId}, ${projectId}, ${post.id}, ${drafts[0].id}, now() + interval '1 day', 'none', '', '')`, "EDPUB", "cannot edit published");
    });
  });

  test("a request job still running when the post is moved asks nothing: the move's own job asks at its time", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`select app_public.request_post_approval(${userId}, ${projectId}, ${post.id})`;
      const running = await approvalJob(tx, post.id);
      await tx`select app_public.claim_post_for_approval(${post.id}, ${running})`;
      await tx`select app_public.record_approval_sent(${post.id}, 42, ${[7, 8]}::bigint[])`;
      // the job is still running (a worker holds it) when the owner moves the post
      await tx`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'w1' where id = ${running}::bigint`;
      await tx`select app_public.resend_post_approval(${userId}, ${projectId}, ${post.id}, now() + interval '6 hours')`;
      const queued = await approvalJob(tx, post.id);
      expect(queued).not.toBe(running);
      expect((await tx`select (app_public.claim_post_for_approval(${post.id}, ${running})).post_id`)[0].post_id).toBeNull();
      expect((await tx`select approval_preview from app_public.posts where id = ${post.id}`)[0].approval_preview).toEqual({});
      expect(Number((await tx`select (app_public.claim_post_for_approval(${post.id}, ${queued})).post_id`)[0].post_id)).toBe(Number(post.id));
    });
  });

  test("a press before the preview is recorded counts by its round, from the approver alone, once", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`select app_public.request_post_approval(${userId}, ${projectId}, ${post.id})`;
      const [{ preview }] = await tx`select (app_public.claim_post_for_approval(${post.id}, ${await approvalJob(tx, post.id)})).approval_preview as preview`;
      const round = Number(preview.round);
      expect(round).toBeGreaterThan(0);
      // the buttons went out with this round; their message ids are not recorded yet
      expect((await tx`select app_public.decide_post(${post.id}, 42, 9, true, ${round - 1}) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select app_public.decide_post(${post.id}, 99, 9, true, ${round}) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select app_public.decide_post(${post.id}, 42, 9, true, null) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select (app_public.decide_post(${post.id}, 42, 9, true, ${round})).status`)[0].status).toBe("approved");
      expect((await tx`select app_public.decide_post(${post.id}, 42, 9, true, ${round}) is null as stale`)[0].stale).toBe(true);
      // the task then records what it sent: the decision stands, and nothing is asked again
      expect((await tx`select app_public.record_approval_sent(${post.id}, 42, ${[8, 9]}::bigint[]) as ok`)[0].ok).toBeNull();
      expect(await status(tx, post.id)).toBe("approved");
      // once a preview's ids are recorded, only its buttons message decides: an older round's does not
      const [second] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`select app_public.request_post_approval(${userId}, ${projectId}, ${second.id})`;
      const [{ secondPreview }] = await tx`select (app_public.claim_post_for_approval(${second.id}, ${await approvalJob(tx, second.id)})).approval_preview as "secondPreview"`;
      await tx`select app_public.record_approval_sent(${second.id}, 42, ${[20, 21]}::bigint[])`;
      expect((await tx`select app_public.decide_post(${second.id}, 42, 19, true, ${Number(secondPreview.round)}) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select (app_public.decide_post(${second.id}, 42, 21, true, ${Number(secondPreview.round)})).status`)[0].status).toBe("approved");
    });
  });

  test("an approval belongs to its chat: a preview or approval for another chat decides and sends nothing", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`select app_public.request_post_approval(${userId}, ${projectId}, ${post.id})`;
      await tx`select app_public.claim_post_for_approval(${post.id}, ${await approvalJob(tx, post.id)})`;
      expect((await tx`select approval_chat_id from app_public.posts where id = ${post.id}`)[0].approval_chat_id).toBe("-100123");
      // a preview sent to someone who is not the channel's approver records nothing
      expect((await tx`select app_public.record_approval_sent(${post.id}, 77, ${[7, 8]}::bigint[]) as ok`)[0].ok).toBeNull();
      expect((await tx`select app_public.record_approval_sent(${post.id}, 42, ${[7, 8]}::bigint[]) as ok`)[0].ok).toBe(true);

      // the project's channel is now another chat (without the disconnect that would withdraw the approval)
      await tx`update app_public.channels set chat_id = -100777 where project_id = ${projectId}`;
      expect((await tx`select app_public.decide_post(${post.id}, 42, 8, true, null) is null as stale`)[0].stale).toBe(true);
      await tx`update app_public.channels set chat_id = -100123 where project_id = ${projectId}`;
      expect((await tx`select (app_public.decide_post(${post.id}, 42, 8, true, null)).approved_chat_id`)[0].approved_chat_id).toBe("-100123");

      await tx`update app_public.posts set scheduled_for = now() where id = ${post.id}`;
      await tx`update app_public.channels set chat_id = -100777 where project_id = ${projectId}`;
      expect((await tx`select (app_public.begin_sending(${post.id}, 'w1')).post_id`)[0].post_id).toBeNull();
      const [after] = await tx`select status, last_error_code, last_error_params from app_public.posts where id = ${post.id}`;
      expect(after).toEqual({ status: "draft", last_error_code: "posts.error.channelChanged", last_error_params: {} });
    });
  });

  test("a send whose worker died becomes uncertain, never sent again by itself", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`update app_public.posts set status = 'sending', sending_worker_id = 'dead-worker',
               sending_started_at = now() - interval '1 minute' where id = ${post.id}`;
      await tx`select app_public.record_heartbeat(${["live-worker"]}::text[])`;
      expect((await tx`select app_public.recover_from_dead_workers('10 seconds') as n`)[0].n).toBe(1);
      const [after] = await tx`select status, last_error_code from app_public.posts where id = ${post.id}`;
      expect(after).toEqual({ status: "uncertain", last_error_code: "posts.error.workerStopped" });
      const jobs = await tx`select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
                            where t.identifier = 'posts__notify_admin'`;
      expect(jobs.map((j) => j.payload)).toContainEqual({ postId: Number(post.id), kind: "uncertain" });
      // only the admin's decision moves it on
      expect((await tx`select app_public.resolve_uncertain_post(${post.id}, 1234, true) is null as stale`)[0].stale).toBe(true);
      expect((await tx`select (app_public.resolve_uncertain_post(${post.id}, 42, false)).status`)[0].status).toBe("approved");
    });
  });

  test("a live worker's send is left alone", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [post] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, now() + interval '1 hour', 'none', '', '')`;
      await tx`select app_public.record_heartbeat(${["busy-worker"]}::text[])`;
      await tx`update app_public.posts set status = 'sending', sending_worker_id = 'busy-worker',
               sending_started_at = now() - interval '1 minute' where id = ${post.id}`;
      expect((await tx`select app_public.recover_from_dead_workers('10 seconds') as n`)[0].n).toBe(0);
      expect(await status(tx, post.id)).toBe("sending");
    });
  });

  test("what a live worker lost track of in a database outage is released; what it still runs or sends is not", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const posts = [];
      for (const draft of drafts) {
        posts.push((await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${draft.id}, now() + interval '1 hour', 'none', '', '')`)[0]);
      }
      const [lost, stillSending, othersSend] = posts;
      await tx`update app_public.posts set status = 'sending', sending_worker_id = 'live-pool', sending_started_at = now() - interval '1 minute'
               where id in (${lost.id}, ${stillSending.id})`;
      await tx`update app_public.posts set status = 'sending', sending_worker_id = 'other-pool', sending_started_at = now() - interval '1 minute'
               where id = ${othersSend.id}`;
      const job = async (key: string, lockedBy: string, ago: string, queue?: string) => {
        const [row] = await tx`select id from graphile_worker.add_job('sessions__cleanup', '{}'::json, job_key => ${key}, queue_name => ${queue ?? null})`;
        await tx`update graphile_worker._private_jobs set locked_by = ${lockedBy}, locked_at = now() - ${ago}::interval where id = ${row.id}`;
        if (queue) await tx`update graphile_worker._private_job_queues set locked_by = ${lockedBy}, locked_at = now() - ${ago}::interval where queue_name = ${queue}`;
        return row.id as string;
      };
      const ended = await job("ended", "live-pool", "1 minute", "ended-queue"); // its end was never recorded
      const running = await job("running", "live-pool", "1 minute", "running-queue");
      const justTaken = await job("just-taken", "live-pool", "1 second"); // locked, job:start not seen yet
      const othersJob = await job("others", "other-pool", "1 minute");
      const [{ n }] = await tx`select app_public.recover_from_live_workers(${["live-pool"]}::text[], ${[running]}::bigint[],
                                 ${[stillSending.id]}::bigint[], '10 seconds') as n`;
      expect(n).toBe(1);
      expect(await status(tx, lost.id)).toBe("uncertain");
      expect((await tx`select last_error_code from app_public.posts where id = ${lost.id}`)[0].last_error_code).toBe("posts.error.databaseLost");
      expect(await status(tx, stillSending.id)).toBe("sending");
      expect(await status(tx, othersSend.id)).toBe("sending"); // another process's: its own heartbeat decides
      const locks = await tx`select id, locked_by from graphile_worker._private_jobs where id in (${ended}, ${running}, ${justTaken}, ${othersJob}) order by id`;
      expect(Object.fromEntries(locks.map((j) => [j.id, j.locked_by]))).toEqual({
        [ended]: null,
        [running]: "live-pool",
        [justTaken]: "live-pool",
        [othersJob]: "other-pool",
      });
      const queues = await tx`select queue_name, locked_by from graphile_worker._private_job_queues where queue_name in ('ended-queue', 'running-queue') order by queue_name`;
      expect(queues).toEqual([{ queue_name: "ended-queue", locked_by: null }, { queue_name: "running-queue", locked_by: "live-pool" }]);
    });
  });
});

describe("recurring rotation", () => {
  // the same cases drive the calendar's expansion (tests/web/recurrence.test.ts)
  test.each(ROTATION_CASES)("$name", async ({ drafts, posts, takes }) => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts: rows } = await seed(tx, "Europe/Moscow", drafts.map((d) => d.title));
      const idOf = (title: string) => rows.find((row) => row.title === title)!.id;
      for (const { title, order } of drafts) await tx`update app_public.drafts set sort_order = ${order} where id = ${idOf(title)}`;
      for (const { draft, status } of posts) {
        await tx`insert into app_public.posts (project_id, draft_id, title, scheduled_for, status)
                 values (${projectId}, ${idOf(draft)}, ${draft}, now() + interval '10 days', ${status})`;
      }
      const [series] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, null,
        date_trunc('minute', now()) + interval '3 hours', 'daily', 'Daily digest', '')`;
      const start = new Date(series.scheduled_for);
      const taken: (string | null)[] = [];
      for (let day = 0; day < takes.length; day++) {
        const now = new Date(start.getTime() + day * 86_400_000 - 2 * 3_600_000);
        const [occurrence] = await tx`select (o).* from (select app_public.spawn_series_occurrence(${series.id}, ${now}) as o) s`;
        taken.push(occurrence.title);
        if (occurrence.id === null) break;
        expect(new Date(occurrence.scheduled_for).getTime()).toBe(start.getTime() + day * 86_400_000);
        expect(occurrence.series_id).toBe(series.id);
        // a day passes: the occurrence is published
        await tx`update app_public.posts set status = 'published', published_at = now() where id = ${occurrence.id}`;
      }
      expect(taken).toEqual(takes);
      const spawned = takes.filter((title) => title !== null).length;
      expect((await tx`select count(*)::int as n from app_public.posts where series_id = ${series.id}`)[0].n).toBe(spawned);
      const [after] = await tx`select status, last_error_code, recurring_last_post from app_public.posts where id = ${series.id}`;
      expect(new Date(after.recurring_last_post).getTime()).toBe(start.getTime() + (spawned - 1) * 86_400_000);
      if (takes.at(-1) === null) expect(after).toMatchObject({ status: "failed", last_error_code: "schedule.seriesOutOfDrafts" });
    });
  });

  test.each(STEPPING_CASES)("$name", async ({ timeZone, type, occurrences }) => {
    await inRollback(sql, async (tx) => {
      const steps = [occurrences[0]];
      while (steps.length < occurrences.length) {
        const [row] = await tx`select app_private.next_occurrence(${steps.at(-1)!}, ${type}, ${timeZone}) as at`;
        steps.push(new Date(row.at).toISOString());
      }
      expect(steps).toEqual(occurrences);
    });
  });

  test.each(ENDING_CASES)("$name", async (c) => {
    await inRollback(sql, async (tx) => {
      const { projectId } = await seed(tx, c.timeZone);
      const [series] = await tx`insert into app_public.posts (project_id, scheduled_for, is_recurring, recurring_type, recurring_last_post,
          series_ends_after, series_ends_on, series_made, series_skips)
        values (${projectId}, ${c.scheduledFor}, true, ${c.type}, ${c.recurringLastPost}, ${c.endsAfter}, ${c.endsOn}, ${c.occurrencesMade},
          ${c.skipped}::timestamptz[]) returning id`;
      const rows = await tx`select at from app_public.posts s, app_private.series_upcoming(s,
          ((${c.until}::date + 1)::timestamp at time zone ${c.timeZone}) - interval '1 second') at where s.id = ${series.id}`;
      expect(rows.map((r) => new Date(r.at).toISOString())).toEqual(c.upcoming);
    });
  });

  test("a spawn job that runs too early, or twice, creates nothing extra", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      const [series] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, null,
        now() + interval '1 day', 'weekly', '', '')`;
      expect((await tx`select (app_public.spawn_series_occurrence(${series.id})).id`)[0].id).toBeNull();
      const at = new Date(new Date(series.scheduled_for).getTime() - 2 * 3_600_000);
      expect((await tx`select (app_public.spawn_series_occurrence(${series.id}, ${at})).id`)[0].id).not.toBeNull();
      expect((await tx`select (app_public.spawn_series_occurrence(${series.id}, ${at})).id`)[0].id).toBeNull();
      expect((await tx`select count(*)::int as n from app_public.posts where series_id = ${series.id}`)[0].n).toBe(1);
    });
  });
});

describe("editing a series", () => {
  test("an edited series restarts from its new time, and a stopped one runs again", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, "Europe/Moscow", ["One"]);
      const [series] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, null,
        date_trunc('minute', now()) + interval '3 hours', 'daily', '', '')`;
      const at = new Date(new Date(series.scheduled_for).getTime() - 2 * 3_600_000);
      await tx`select app_public.spawn_series_occurrence(${series.id}, ${at})`;
      // the only draft is used: the next spawn stops the series
      await tx`select app_public.spawn_series_occurrence(${series.id}, ${new Date(at.getTime() + 86_400_000)})`;
      expect((await tx`select status from app_public.posts where id = ${series.id}`)[0].status).toBe("failed");
      await tx`select app_public.bulk_create_drafts(${userId}, ${projectId}, ${["Two"]}::text[])`;
      const [edited] = await tx`select * from app_public.update_post(${userId}, ${projectId}, ${series.id}, null,
        date_trunc('minute', now()) + interval '5 days', 'daily', '', '')`;
      expect(edited.status).toBe("draft");
      expect(edited.recurring_last_post).toBeNull();
      const next = new Date(new Date(edited.scheduled_for).getTime() - 2 * 3_600_000);
      const [occurrence] = await tx`select (o).* from (select app_public.spawn_series_occurrence(${series.id}, ${next}) as o) s`;
      expect(occurrence.title).toBe("Two");
      expect(new Date(occurrence.scheduled_for).toISOString()).toBe(new Date(edited.scheduled_for).toISOString());
    });
  });
});

describe("a series' end", () => {
  // The API's schemas refuse the malformed values; SQL holds the rules between the two and the start.
  test.each(SERIES_END_CASES.filter((c) => !c.bySchema))("$name", async (c) => {
    await inRollback(sql, async (tx) => {
      const { projectId } = await seed(tx, c.timeZone);
      const refusal = await tx.savepoint((sp) => sp`select app_private.assert_series_end(p, ${c.firstAt}, ${c.endsAfter}, ${c.endsOn}::date)
          from app_public.projects p where id = ${projectId}`).then(() => null, (err) => ({ code: err.code, hint: err.hint }));
      expect(refusal).toEqual(c.refused === null ? null : { code: "INVAL", hint: c.refused });
    });
  });
});
