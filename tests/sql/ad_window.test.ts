/*
 * The top window of an advertising post, in SQL (docs/ads.md "The top window"): the shared case table
 * (tests/cases/ad_window_cases.ts, also run against web/src/lib/adWindows.ts) through the acts
 * that weigh it (a one-off post or an ad scheduled: refused with ads.topConflict naming the ad;
 * a post falling due: held with ads.heldForTop until the window ends), then what the table does
 * not say: planned posts in an ad's way, the guards on pins, silence and the ad's own options,
 * the other acts that set a time, the release of a held post and two requests at once.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects } from "../helpers/sql.ts";
import { AD_WINDOW_CASES, type AdRow } from "../cases/ad_window_cases.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 4, onnotice: () => {} });
});
afterAll(() => sql.end());

type Tx = postgres.TransactionSql | postgres.Sql;
const CHAT = -100123;

const ad = (topMinutes: number, feedMinutes = 0) => ({ advertiser: "Acme", erid: "abc123", topMinutes, feedMinutes });

async function seed(tx: Tx) {
  const [user] = await tx`insert into app_public.users (email) values (${`u${Math.random()}@example.com`}) returning id`;
  const [project] = await tx`insert into app_public.projects (user_id, name, admin_handle, timezone)
                             values (${user.id}, 'P', 'admin_one', 'UTC') returning *`;
  await tx`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle)
           values (${project.id}, 'telegram', '@chan', 'connected', ${sql.json({ chatId: CHAT, adminChatId: 42 })}, ${CHAT}, 42, 'admin_one')`;
  const drafts = await tx`select * from app_public.bulk_create_drafts(${user.id}, ${project.id}, ${["One", "Two", "Three", "Four"]}::text[])`;
  return { userId: user.id as string, projectId: project.id as string, drafts };
}

/** An ad as the case table has it, `base` being minute 0. */
async function insertAd(tx: Tx, projectId: string, base: Date, row: AdRow, defaultStatus: string) {
  const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
  const status = row.status ?? (row.sentAt !== undefined ? "published" : defaultStatus);
  await tx`insert into app_public.posts (project_id, title, content, scheduled_for, status, ad, published_at, approved_chat_id, channel_chat_id)
           values (${projectId}, ${row.title}, 'Buy', ${at(row.plannedAt)}, ${status}, ${sql.json(ad(row.topMinutes))},
                   ${row.sentAt === undefined ? null : at(row.sentAt)}, ${CHAT}, ${row.sentAt === undefined ? null : CHAT})`;
}

/** A post approved for the channel and due at `at`, of the kind the case weighs. */
async function duePost(tx: Tx, projectId: string, kind: string, at: Date) {
  let seriesId = null;
  let planId = null;
  if (kind === "occurrence") {
    [{ id: seriesId }] = await tx`insert into app_public.posts (project_id, title, scheduled_for, is_recurring, recurring_type)
                                  values (${projectId}, 'Daily', ${at}, true, 'daily') returning id`;
  }
  if (kind === "planSlot") {
    [{ id: planId }] = await tx`insert into app_public.content_plans (project_id, day_of_week, time, post_length)
                                values (${projectId}, 1, '10:00', 300) returning id`;
  }
  const [post] = await tx`insert into app_public.posts (project_id, title, content, scheduled_for, status, approved_chat_id, series_id, plan_id, ad)
                          values (${projectId}, 'Mine', 'Text', ${at}, 'approved', ${CHAT}, ${seriesId}, ${planId},
                                  ${kind === "ad" ? sql.json(ad(60)) : null}) returning *`;
  return post;
}

const utc = (date: Date) => date.toISOString().slice(0, 16).replace("T", " ");
const publishJob = async (tx: Tx, postId: string) =>
  (await tx`select run_at from graphile_worker.jobs where key = ${`post:${postId}:publish`}`)[0]?.run_at as Date | undefined;

describe("the window rule, case by case (shared with the schedule form)", () => {
  test.each(AD_WINDOW_CASES)("$name", async ({ ads, post, expected }) => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      if (post.act === "schedule") {
        const [{ base }] = await tx`select date_trunc('minute', now()) + interval '1 day' as base`;
        for (const row of ads) await insertAd(tx, projectId, base, row, "draft");
        const statement = `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, '${base.toISOString()}', 'none', null, null,
          p_ad => ${post.kind === "ad" ? `'${JSON.stringify(ad(post.topMinutes ?? 0))}'` : "null"})`;
        if (expected) {
          await rejects(tx, statement, "ADTOP", `Nothing else goes out while an ad is on top: the time meets "${expected.title}"`);
          expect((await tx`select count(*)::int as n from app_public.posts where draft_id = ${drafts[0].id}`)[0].n).toBe(0);
        } else {
          await tx.unsafe(statement);
          expect((await tx`select count(*)::int as n from app_public.posts where draft_id = ${drafts[0].id}`)[0].n).toBe(1);
        }
        return;
      }
      const [{ base }] = await tx`select now() as base`;
      for (const row of ads) await insertAd(tx, projectId, base, row, "approved");
      const due = await duePost(tx, projectId, post.kind, base);
      const [{ started }] = await tx`select (app_public.begin_sending(${due.id}, 'w1')).post_id as started`;
      const [after] = await tx`select status, last_error_code, last_error_params from app_public.posts where id = ${due.id}`;
      if (expected) {
        const until = new Date(base.getTime() + expected.until * 60_000);
        expect(started).toBeNull();
        expect(after).toEqual({ status: "approved", last_error_code: "ads.heldForTop", last_error_params: { title: expected.title, until: utc(until) } });
        // weighed again at the window's end, or in 5 minutes when that is further
        expect((await publishJob(tx, due.id))?.getTime()).toBe(Math.min(until.getTime(), base.getTime() + 5 * 60_000));
      } else {
        expect(Number(started)).toBe(Number(due.id));
        expect(after.status).toBe("sending");
        expect(after.last_error_code).toBeNull();
      }
    });
  });
});

describe("what stands in an ad's way", () => {
  test("an ad whose window would hold a planned one-off post (a draft, one in review) is refused naming it; series and content-plan posts are held instead", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [{ base }] = await tx`select date_trunc('minute', now()) + interval '1 day' as base`;
      const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000).toISOString();
      const [planned] = await tx`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, ${at(30)}, 'none', null, null)`;
      const scheduleAd = `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, '${at(0)}', 'none', null, null,
        p_ad => '${JSON.stringify(ad(60))}')`;
      await rejects(tx, scheduleAd, "ADTOP", `Nothing else goes out while an ad is on top: the time meets "Two"`);
      await tx`update app_public.posts set status = 'in_review' where id = ${planned.id}`;
      await rejects(tx, scheduleAd, "ADTOP", `Nothing else goes out while an ad is on top: the time meets "Two"`);
      // a published post or one that will not go out is not in the way
      await tx`update app_public.posts set status = 'rejected' where id = ${planned.id}`;
      // a series occurrence and a content-plan post inside the window do not refuse the ad
      await duePost(tx, projectId, "occurrence", new Date(at(10)));
      await duePost(tx, projectId, "planSlot", new Date(at(20)));
      const [placed] = await tx.unsafe(scheduleAd);
      expect(placed.schedule_post).toBeTruthy();
      // and a one-off post can no longer take the ad's hour
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[2].id}, '${at(59)}', 'none', null, null)`,
        "ADTOP", `Nothing else goes out while an ad is on top: the time meets "One"`);
    });
  });

  test("a silent post is no exception to the window; an ad cannot be silent, nor stay pinned after it leaves the feed", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [{ base }] = await tx`select date_trunc('minute', now()) + interval '1 day' as base`;
      await insertAd(tx, projectId, base, { title: "Coffee 1/24", plannedAt: 0, topMinutes: 60 }, "draft");
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, '${base.toISOString()}'::timestamptz + interval '10 minutes',
        'none', null, null, p_options => '{"silent": true}')`, "ADTOP", `Nothing else goes out while an ad is on top: the time meets "Coffee 1/24"`);
      const later = `'${base.toISOString()}'::timestamptz + interval '5 hours'`;
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${later}, 'none', null, null,
        p_options => '{"silent": true}', p_ad => '${JSON.stringify(ad(60, 1440))}')`, "INVAL", "An ad goes out with its notification: it cannot be silent");
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${later}, 'none', null, null,
        p_options => '{"pin": true, "unpinAfterHours": 25}', p_ad => '${JSON.stringify(ad(60, 1440))}')`, "INVAL",
        "The ad is unpinned after 25 hours but leaves the feed after 1440 minutes");
      // pinned for its day in the feed, or an ad that is kept, is within its format
      await tx.unsafe(`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${later}, 'none', null, null,
        p_options => '{"pin": true, "unpinAfterHours": 24}', p_ad => '${JSON.stringify(ad(60, 1440))}')`);
    });
  });

  test("a pin cannot stay over another ad's window, either way round", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [{ base }] = await tx`select date_trunc('minute', now()) + interval '1 day' as base`;
      const at = (minutes: number) => `'${new Date(base.getTime() + minutes * 60_000).toISOString()}'`;
      await insertAd(tx, projectId, base, { title: "Coffee 1/24", plannedAt: 180, topMinutes: 60 }, "draft");
      // pinned for 2 hours from minute 0: off before the ad's window; for 4 hours, or for good: over it
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${at(0)}, 'none', null, null,
        p_options => '{"pin": true, "unpinAfterHours": 4}')`, "ADTOP", `A pinned post would stay over an ad on top: "Coffee 1/24"`);
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${at(0)}, 'none', null, null,
        p_options => '{"pin": true}')`, "ADTOP", `A pinned post would stay over an ad on top: "Coffee 1/24"`);
      await tx.unsafe(`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${at(0)}, 'none', null, null,
        p_options => '{"pin": true, "unpinAfterHours": 2}')`);
      // the other way round: an ad planned under that pin
      await rejects(tx, `select app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, ${at(60)}, 'none', null, null,
        p_ad => '${JSON.stringify(ad(30))}')`, "ADTOP", `A pinned post would stay over an ad on top: "One"`);
      await tx.unsafe(`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, ${at(120)}, 'none', null, null,
        p_ad => '${JSON.stringify(ad(30))}')`);
    });
  });

  test("moving a post, by an edit or from its late approval, is weighed like scheduling it", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, projectId, drafts } = await seed(tx);
      const [{ base }] = await tx`select date_trunc('minute', now()) + interval '1 day' as base`;
      const at = (minutes: number) => `'${new Date(base.getTime() + minutes * 60_000).toISOString()}'`;
      await insertAd(tx, projectId, base, { title: "Coffee 1/24", plannedAt: 0, topMinutes: 60 }, "draft");
      const [post] = await tx.unsafe(`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${at(120)}, 'none', null, null)`);
      const conflict = `Nothing else goes out while an ad is on top: the time meets "Coffee 1/24"`;
      await rejects(tx, `select app_public.update_post(${userId}, ${projectId}, ${post.id}, ${drafts[0].id}, ${at(30)}, 'none', null, null)`, "ADTOP", conflict);
      await tx`update app_public.posts set status = 'scheduled' where id = ${post.id}`;
      await rejects(tx, `select app_public.resend_post_approval(${userId}, ${projectId}, ${post.id}, ${at(30)})`, "ADTOP", conflict);
      const [moved] = await tx.unsafe(`select * from app_public.resend_post_approval(${userId}, ${projectId}, ${post.id}, ${at(60)})`);
      expect(new Date(moved.scheduled_for).getTime()).toBe(base.getTime() + 60 * 60_000);
      // an edit that keeps a post where it was does not find itself in its own way
      const [own] = await tx.unsafe(`select * from app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, ${at(300)}, 'none', null, null,
        p_ad => '${JSON.stringify(ad(60))}')`);
      await tx.unsafe(`select app_public.update_post(${userId}, ${projectId}, ${own.id}, ${drafts[1].id}, ${at(310)}, 'none', null, null)`);
    });
  });
});

describe("a held post", () => {
  test("goes out once the window is over, its reason cleared; two workers at the hold queue one publication and send nothing", async () => {
    const { projectId } = await seed(sql);
    try {
      const [{ base }] = await sql`select now() as base`;
      await insertAd(sql, projectId, base, { title: "Coffee 1/24", plannedAt: -10, sentAt: -10, topMinutes: 60 }, "approved");
      const held = await duePost(sql, projectId, "occurrence", base);
      // two workers take the post's job at once (a stale copy, a retry): both stop at the hold
      const both = await Promise.all([1, 2].map((n) => sql`select (app_public.begin_sending(${held.id}, ${`w${n}`})).post_id as started`));
      expect(both.map(([row]) => row.started)).toEqual([null, null]);
      expect((await sql`select count(*)::int as n from graphile_worker.jobs where key = ${`post:${held.id}:publish`}`)[0].n).toBe(1);
      const [{ status, last_error_code }] = await sql`select status, last_error_code from app_public.posts where id = ${held.id}`;
      expect({ status, last_error_code }).toEqual({ status: "approved", last_error_code: "ads.heldForTop" });
      // the hour passes: the ad went out 70 minutes ago
      await sql`update app_public.posts set published_at = now() - interval '70 minutes' where project_id = ${projectId} and ad is not null`;
      const [{ started }] = await sql`select (app_public.begin_sending(${held.id}, 'w1')).post_id as started`;
      expect(Number(started)).toBe(Number(held.id));
      const [done] = await sql`select * from app_public.record_published(${held.id}, ${CHAT}, ${[9]}::bigint[], '{"chan": "https://t.me/chan/9"}')`;
      expect(done.status).toBe("published");
      expect(done.last_error_code).toBeNull();
      expect(done.last_error_params).toEqual({});
    } finally {
      await sql`delete from app_public.projects where id = ${projectId}`;
    }
  });
});

describe("two requests at once", () => {
  test("an ad and a one-off post planned into its hour at the same moment: the second waits for the first and is refused", async () => {
    const { userId, projectId, drafts } = await seed(sql);
    try {
      const [{ base }] = await sql`select date_trunc('minute', now()) + interval '1 day' as base`;
      const inTen = new Date(base.getTime() + 10 * 60_000);
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let adPlanned!: () => void;
      const planned = new Promise<void>((resolve) => (adPlanned = resolve));
      const first = sql.begin(async (tx) => {
        await tx`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[0].id}, ${base}, 'none', null, null, p_ad => ${sql.json(ad(60))})`;
        adPlanned();
        await held;
      });
      await planned;
      let secondDone = false;
      const second = sql`select app_public.schedule_post(${userId}, ${projectId}, ${drafts[1].id}, ${inTen}, 'none', null, null)`
        .then(() => "planned", (err) => err.code as string).finally(() => (secondDone = true));
      // the second request waits on the first's lock instead of reading around it
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(secondDone).toBe(false);
      release();
      await first;
      expect(await second).toBe("ADTOP");
      const rows = await sql`select title from app_public.posts where project_id = ${projectId} order by id`;
      expect(rows.map((row) => row.title)).toEqual(["One"]);
    } finally {
      await sql`delete from app_public.projects where id = ${projectId}`;
    }
  });
});
