/*
 * Autopilot's slot filling in SQL (app_public.autopilot_fill), driven through the clock it
 * takes: which slot times get a post, from which draft, across DST nights, exactly once even
 * when two runs race, and what switching a slot off takes back.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 4, onnotice: () => {} });
});
afterAll(() => sql.end());

type Db = postgres.Sql | postgres.TransactionSql;

async function seed(db: Db, titles: string[] = ["A", "B", "C"], content = "Text") {
  const [user] = await db`insert into app_public.users (email) values (${`u${crypto.randomUUID()}@example.com`}) returning id`;
  const [project] = await db`insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, 'P', 'admin_one') returning *`;
  await db`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle)
           values (${project.id}, 'telegram', '@chan', 'connected', '{"chatId": -100123, "adminChatId": 42}', -100123, 42, 'admin_one')`;
  const drafts = await db`select * from app_public.bulk_create_drafts(${user.id}, ${project.id}, ${titles}::text[])`;
  if (content) await db`update app_public.drafts set content = ${content} where project_id = ${project.id}`;
  return { userId: user.id as string, projectId: project.id as string, drafts };
}

async function slot(db: Db, userId: string, projectId: string, day: number, time: string, timezone: string, postLength = 300) {
  const [plan] = await db`select * from app_public.create_content_plan(${userId}, ${projectId}, ${day}, ${time}, ${timezone}, ${postLength}, true)`;
  return plan;
}

/** Fills as if the clock read `now`; answers the new posts' instants (ISO, UTC) and titles. */
async function fill(db: Db, projectId: string, now: string) {
  const rows = await db`select scheduled_for, title from app_public.autopilot_fill(${projectId}, ${now}::timestamptz)`;
  return rows.map((r) => [new Date(r.scheduled_for).toISOString(), r.title]);
}

async function planPosts(db: Db, projectId: string) {
  const rows = await db`select scheduled_for, title, status from app_public.posts where project_id = ${projectId} and plan_id is not null order by scheduled_for`;
  return rows.map((r) => [new Date(r.scheduled_for).toISOString(), r.title, r.status]);
}

describe("which slot times get a post", () => {
  test("each slot time in the next 7 days gets the top unused draft, in time order", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["First", "Second", "Third", "Fourth"]);
      // Monday 2027-01-04 08:00 Moscow; slots Tuesday 10:00 and Monday 09:00 (UTC+3)
      await slot(tx, userId, projectId, 2, "10:00", "Europe/Moscow");
      await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      expect(await fill(tx, projectId, "2027-01-04T05:00:00Z")).toEqual([
        ["2027-01-04T06:00:00.000Z", "First"], // today 09:00, still ahead
        ["2027-01-05T07:00:00.000Z", "Second"],
      ]);
      // an hour later next Monday's 09:00 is exactly 7 days ahead: inside the horizon
      expect(await fill(tx, projectId, "2027-01-04T06:00:00Z")).toEqual([["2027-01-11T06:00:00.000Z", "Third"]]);
      // a run with nothing new to fill creates nothing
      expect(await fill(tx, projectId, "2027-01-04T06:30:00Z")).toEqual([]);
      // a day later the horizon reaches next Tuesday
      expect(await fill(tx, projectId, "2027-01-05T08:00:00Z")).toEqual([["2027-01-12T07:00:00.000Z", "Fourth"]]);
    });
  });

  test("nothing is filled for a project without a channel, nor for a switched-off slot", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      const plan = await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${plan.id}, '{"active": false}')`;
      expect(await fill(tx, projectId, "2027-01-04T05:00:00Z")).toEqual([]);
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${plan.id}, '{"active": true}')`;
      await tx`delete from app_public.channels where project_id = ${projectId}`;
      expect(await fill(tx, projectId, "2027-01-04T05:00:00Z")).toEqual([]);
    });
  });
});

describe("DST", () => {
  test("America/New_York: a skipped wall time runs at the next valid minute, a repeated one runs once", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      await slot(tx, userId, projectId, 0, "02:30", "America/New_York");
      // 2027-03-14 is the spring-forward Sunday: 02:00 EST becomes 03:00 EDT
      expect(await fill(tx, projectId, "2027-03-10T12:00:00Z")).toEqual([["2027-03-14T07:00:00.000Z", "A"]]); // 03:00 EDT
      expect(await fill(tx, projectId, "2027-03-17T12:00:00Z")).toEqual([["2027-03-21T06:30:00.000Z", "B"]]); // 02:30 EDT
    });
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      await slot(tx, userId, projectId, 0, "01:30", "America/New_York");
      // 2027-11-07 is the fall-back Sunday: 01:30 happens twice; the slot runs once, at the later (EST) one
      expect(await fill(tx, projectId, "2027-11-03T12:00:00Z")).toEqual([["2027-11-07T06:30:00.000Z", "A"]]);
      expect(await fill(tx, projectId, "2027-11-07T05:45:00Z")).toEqual([]); // between the two 01:30s: still once
    });
  });

  test("a week across New York's spring-forward keeps the wall time, not the interval", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      await slot(tx, userId, projectId, 1, "09:00", "America/New_York"); // Mondays
      expect(await fill(tx, projectId, "2027-03-08T15:00:00Z")).toEqual([["2027-03-15T13:00:00.000Z", "A"]]); // 09:00 EDT
      expect(await fill(tx, projectId, "2027-03-01T15:00:00Z")).toEqual([["2027-03-08T14:00:00.000Z", "B"]]); // 09:00 EST
    });
  });

  test("Europe/Moscow keeps UTC+3 on the nights Europe changes its clocks", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      await slot(tx, userId, projectId, 0, "02:30", "Europe/Moscow");
      expect(await fill(tx, projectId, "2027-03-25T12:00:00Z")).toEqual([["2027-03-27T23:30:00.000Z", "A"]]); // 28 Mar, EU spring-forward
      expect(await fill(tx, projectId, "2027-10-28T12:00:00Z")).toEqual([["2027-10-30T23:30:00.000Z", "B"]]); // 31 Oct, EU fall-back
    });
  });
});

describe("the queue", () => {
  test("a queue that runs out leaves slot times empty; new drafts fill them on the next run", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["A"]);
      await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await slot(tx, userId, projectId, 3, "09:00", "Europe/Moscow");
      expect(await fill(tx, projectId, "2027-01-03T12:00:00Z")).toEqual([["2027-01-04T06:00:00.000Z", "A"]]);
      await tx`select app_public.bulk_create_drafts(${userId}, ${projectId}, ${["B", "C"]}::text[])`;
      await tx`update app_public.drafts set content = 'Text' where project_id = ${projectId}`;
      expect(await fill(tx, projectId, "2027-01-03T13:00:00Z")).toEqual([["2027-01-06T06:00:00.000Z", "B"]]);
      // a rejected post lets its draft go back to the queue
      await tx`update app_public.posts set status = 'rejected' where project_id = ${projectId} and title = 'A'`;
      expect(await fill(tx, projectId, "2027-01-05T12:00:00Z")).toEqual([["2027-01-11T06:00:00.000Z", "A"]]);
    });
  });

  test("a post the owner deletes skips its slot time: no run puts it back", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      const [post] = await tx`select id from app_public.posts where project_id = ${projectId} and plan_id is not null`;
      await tx`select id from app_public.delete_post(${userId}, ${projectId}, ${post.id}, false)`;
      expect(await fill(tx, projectId, "2027-01-03T13:00:00Z")).toEqual([]);
      expect(await planPosts(tx, projectId)).toEqual([]);
    });
  });

  test("a draft with text asks for approval 2 h before; one without text first waits for its AI text", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["Empty"], "");
      await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow", 700);
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      const [post] = await tx`select id from app_public.posts where project_id = ${projectId} and plan_id is not null`;
      const jobs = async () =>
        (await tx`select t.identifier as task, j.payload from graphile_worker._private_jobs j
                   join graphile_worker._private_tasks t on t.id = j.task_id where j.key like ${`post:${post.id}:%`} order by t.identifier`)
          .map((j) => [j.task, j.payload]);
      expect(await jobs()).toEqual([["posts__autopilot_content", { postId: Number(post.id), postLength: 700 }]]);
      // the account's AI writing is one queue: its posts are written one at a time
      const [queue] = await tx`select q.queue_name from graphile_worker._private_jobs j
        join graphile_worker._private_job_queues q on q.id = j.job_queue_id where j.key = ${`post:${post.id}:content`}`;
      expect(queue.queue_name).toBe(`ai:user:${userId}`);
      const [writing] = await tx`select * from app_public.autopilot_post_to_write(${post.id})`;
      expect(writing.title).toBe("Empty");
      // the AI was unavailable: the post goes to approval as it is, with the reason
      await tx`select app_public.record_autopilot_content(${post.id}, null, null, 'ai.unreachable')`;
      const [after] = await tx`select content, last_error_code, last_error_params from app_public.posts where id = ${post.id}`;
      expect(after).toEqual({ content: "", last_error_code: "posts.error.autopilotNoAi", last_error_params: { reason: "ai.unreachable" } });
      const [approval] = await tx`select run_at from graphile_worker.jobs where key = ${`post:${post.id}:approval`}`;
      expect(new Date(approval.run_at).toISOString()).toBe("2027-01-04T04:00:00.000Z");
      // nothing is left to write now
      expect(await tx`select * from app_public.autopilot_post_to_write(${post.id})`).toHaveLength(0);
    });
  });
});

describe("switching a slot off", () => {
  test("takes back its future unsent posts and withdraws their previews; history and other slots stay", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["A", "B", "C", "D"]);
      const monday = await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await slot(tx, userId, projectId, 3, "09:00", "Europe/Moscow");
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      // Monday's post was already asked about in the admin's chat
      await tx`update app_public.posts set status = 'scheduled', approval_preview = '{"chatId": 42, "buttonsMessageId": 7}'
               where project_id = ${projectId} and title = 'A'`;
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${monday.id}, '{"active": false}')`;
      expect(await planPosts(tx, projectId)).toEqual([["2027-01-06T06:00:00.000Z", "B", "draft"]]);
      const [retract] = await tx`select j.payload from graphile_worker._private_jobs j
        join graphile_worker._private_tasks t on t.id = j.task_id where t.identifier = 'posts__retract_approval'`;
      expect(retract.payload).toMatchObject({ chatId: 42, messageId: 7, reason: "deleted" });
      // its draft is free again: switched back on, the slot takes the top draft
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${monday.id}, '{"active": true}')`;
      expect(await fill(tx, projectId, "2027-01-03T12:00:00Z")).toEqual([["2027-01-04T06:00:00.000Z", "A"]]);
    });
  });

  test("a post of the slot waiting for an editor's review is taken back too: it never reaches the approver afterwards", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["A", "B"]);
      const monday = await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      // an author changed it, so it waits for review
      await tx`update app_public.posts set status = 'in_review' where project_id = ${projectId} and title = 'A'`;
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${monday.id}, '{"active": false}')`;
      expect(await planPosts(tx, projectId)).toEqual([]);
    });
  });

  test("moving a slot to another time takes back its posts at the old time; deleting it does the same", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx);
      const plan = await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${plan.id}, '{"time": "18:30"}')`;
      expect(await planPosts(tx, projectId)).toEqual([]);
      expect(await fill(tx, projectId, "2027-01-03T12:00:00Z")).toEqual([["2027-01-04T15:30:00.000Z", "A"]]);
      await tx`select app_public.update_content_plan(${userId}, ${projectId}, ${plan.id}, '{"postLength": 900}')`;
      expect(await planPosts(tx, projectId)).toHaveLength(1); // a new length does not move anything
      await tx`select app_public.delete_content_plan(${userId}, ${projectId}, ${plan.id})`;
      expect(await planPosts(tx, projectId)).toEqual([]);
    });
  });
});

describe("queue health", () => {
  const health = async (db: Db, userId: string, projectId: string, now: string) => {
    const [row] = await db`select * from app_public.queue_health(${userId}, ${projectId}, ${now}::timestamptz)`;
    return { ...row, runs_dry_at: row.runs_dry_at && new Date(row.runs_dry_at).toISOString() };
  };

  test("the queue runs dry at the first slot time or series occurrence left without a draft", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId } = await seed(tx, ["A", "B"]);
      expect(await health(tx, userId, projectId, "2027-01-03T12:00:00Z"))
        .toEqual({ drafts_left: 2, runs_dry_at: null, low: false, posts_per_week: 0 }); // nothing takes drafts
      await slot(tx, userId, projectId, 1, "09:00", "Europe/Moscow");
      await slot(tx, userId, projectId, 3, "09:00", "Europe/Moscow");
      // Monday 4th and Wednesday 6th take A and B; Monday 11th finds none
      expect(await health(tx, userId, projectId, "2027-01-03T12:00:00Z"))
        .toEqual({ drafts_left: 2, runs_dry_at: "2027-01-11T06:00:00.000Z", low: false, posts_per_week: 2 });
      // filled, the answer is the same: the drafts are on the calendar now
      await fill(tx, projectId, "2027-01-03T12:00:00Z");
      expect(await health(tx, userId, projectId, "2027-01-03T12:00:00Z"))
        .toEqual({ drafts_left: 0, runs_dry_at: "2027-01-11T06:00:00.000Z", low: false, posts_per_week: 2 });
      // a daily series starting Tuesday takes drafts too: Tuesday 5th 10:00 is the first without one
      await tx`insert into app_public.posts (project_id, scheduled_for, is_recurring, recurring_type) values (${projectId}, '2027-01-05T07:00:00Z', true, 'daily')`;
      expect(await health(tx, userId, projectId, "2027-01-03T12:00:00Z"))
        .toEqual({ drafts_left: 0, runs_dry_at: "2027-01-05T07:00:00.000Z", low: true, posts_per_week: 9 });
      // a queue lasting beyond the forecast has no date
      await tx`delete from app_public.posts where project_id = ${projectId} and is_recurring`;
      await tx`select app_public.bulk_create_drafts(${userId}, ${projectId}, ${Array.from({ length: 20 }, (_, i) => `More ${i}`)}::text[])`;
      expect(await health(tx, userId, projectId, "2027-01-03T12:00:00Z"))
        .toEqual({ drafts_left: 20, runs_dry_at: null, low: false, posts_per_week: 2 });
    });
  });

  test("another account's project is not found", async () => {
    await inRollback(sql, async (tx) => {
      const { projectId } = await seed(tx);
      const [other] = await tx`insert into app_public.users (email) values ('other@example.com') returning id`;
      await rejects(tx, `select * from app_public.queue_health(${other.id}, ${projectId})`, "NTFND", "Project not found");
    });
  });
});

describe("two runs at once", () => {
  test("two concurrent fills of one project create one post per slot time", async () => {
    // committed data: the two runs are two transactions on two connections
    const { userId, projectId } = await seed(sql, ["A", "B", "C", "D", "E", "F"]);
    for (const day of [1, 2, 3, 4, 5]) await slot(sql, userId, projectId, day, "09:00", "Europe/Moscow");
    const run = () => sql.begin(async (tx) => (await fill(tx, projectId, "2027-01-03T12:00:00Z")).length);
    const counts = await Promise.all([run(), run(), run()]);
    expect(counts.sort()).toEqual([0, 0, 5]);
    const posts = await planPosts(sql, projectId);
    expect(posts.map(([, title]) => title)).toEqual(["A", "B", "C", "D", "E"]);
    expect(new Set(posts.map(([at]) => at)).size).toBe(5);
  });
});
