/*
 * The statistics' rules in SQL, each in a rolled-back transaction: which member changes are
 * joins or leaves, the count moved only by changes after its sample, a day in the project's
 * timezone, an older reaction update changing nothing, the invite link limit, and the times
 * the content plan suggests from the best-times grid.
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { pastWeekAt, publishedWithReactions } from "../helpers/reactions.ts";
import { inRollback, rejects } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 2, onnotice: () => {} });
});
afterAll(() => sql.end());

type Tx = postgres.TransactionSql;
const CHAT = -1001234567890;

async function seed(tx: Tx, timezone = "Asia/Tokyo") {
  const [user] = await tx`insert into app_public.users (email) values (${`u${Math.random()}@example.com`}) returning id`;
  const [project] = await tx`insert into app_public.projects (user_id, name, admin_handle, timezone)
                             values (${user.id}, 'P', 'admin_one', ${timezone}) returning *`;
  const [channel] = await tx`insert into app_public.channels (project_id, type, link, status, config, chat_id, approver_user_id, approver_handle)
           values (${project.id}, 'telegram', '@chan', 'connected', '{}', ${CHAT}, 42, 'admin_one') returning id`;
  return { userId: user.id as string, projectId: project.id as string, channelId: channel.id as string };
}

let updateId = 1;
async function member(tx: Tx, user: number, from: [string, boolean | null], to: [string, boolean | null], at = "2026-11-20T12:00:00Z", link: string | null = null) {
  const [{ r }] = await tx`select app_public.record_member_update(${updateId++}, ${CHAT}, ${user}, ${at}::timestamptz,
    ${from[0]}, ${from[1]}, ${to[0]}, ${to[1]}, ${link}) as r`;
  return r as string;
}

test("which changes are joins and leaves (restricted counts by is_member); a promotion is nothing", async () => {
  await inRollback(sql, async (tx) => {
    await seed(tx);
    const cases: [[string, boolean | null], [string, boolean | null], string][] = [
      [["left", null], ["member", null], "join"],
      [["kicked", null], ["member", null], "join"],
      [["left", null], ["administrator", null], "join"],
      [["restricted", false], ["restricted", true], "join"],
      [["left", null], ["restricted", false], "ignored"],
      [["member", null], ["left", null], "leave"],
      [["member", null], ["kicked", null], "leave"],
      [["restricted", true], ["left", null], "leave"],
      [["creator", null], ["left", null], "leave"],
      [["member", null], ["administrator", null], "ignored"],
      [["administrator", null], ["member", null], "ignored"],
      [["left", null], ["kicked", null], "ignored"],
    ];
    let user = 1000;
    for (const [from, to, expected] of cases) {
      expect(await member(tx, user++, from, to), `${from[0]} → ${to[0]}`).toBe(expected);
    }
  });
});

test("the count moves only for changes after its sample; days are the project's timezone's", async () => {
  await inRollback(sql, async (tx) => {
    const { userId, projectId, channelId } = await seed(tx, "Asia/Tokyo");
    await tx`select app_public.record_subscriber_sample(${channelId}, 500)`;
    // a join dated before the sample is in Telegram's count already
    expect(await member(tx, 1, ["left", null], ["member", null], "2020-01-01T00:00:00Z")).toBe("join");
    expect(await member(tx, 2, ["left", null], ["member", null], new Date(Date.now() + 60_000).toISOString())).toBe("join");
    const [{ subscribers }] = await tx`select subscribers from app_private.channel_stats where channel_id = ${channelId}`;
    expect(subscribers).toBe(501);
    // 23:30 UTC on the 20th is the 21st in Tokyo
    await member(tx, 3, ["left", null], ["member", null], "2026-11-20T23:30:00Z");
    await member(tx, 3, ["member", null], ["left", null], "2026-11-20T23:45:00Z");
    const [{ stats }] = await tx`select app_public.project_stats(${userId}, ${projectId}, '2026-11-19T00:00:00Z', '2026-11-23T00:00:00Z') as stats`;
    expect(stats.days).toEqual([{ day: "2026-11-21", joins: 1, leaves: 1 }]);
  });
});

test("an older reaction update changes nothing; a newer one replaces the counts", async () => {
  await inRollback(sql, async (tx) => {
    const { channelId } = await seed(tx);
    const react = async (id: number, at: string, counts: [string, number][]) => {
      const [{ r }] = await tx`select app_public.record_reaction_count(${id}, ${CHAT}, 7, ${at}::timestamptz,
        ${tx.json(counts.map(([emoji, n]) => ({ type: { type: "emoji", emoji }, total_count: n })))}) as r`;
      return r as string;
    };
    expect(await react(10, "2026-11-20T12:05:00Z", [["👍", 6]])).toBe("recorded");
    expect(await react(9, "2026-11-20T12:00:00Z", [["👍", 5], ["🔥", 2]])).toBe("stale");
    expect(await react(10, "2026-11-20T12:05:00Z", [["👍", 6]])).toBe("stale");
    expect(await react(11, "2026-11-20T12:06:00Z", [])).toBe("recorded");
    const [row] = await tx`select reactions, total from app_private.message_reactions where channel_id = ${channelId} and message_id = 7`;
    expect(row).toEqual({ reactions: {}, total: 0 });
    const [{ r }] = await tx`select app_public.record_reaction_count(12, -100999, 7, now(), '[]') as r`;
    expect(r).toBe("ignored");
  });
});

test("a project holds at most p_max invite links (QUOTA), and another account's project is not found (NTFND)", async () => {
  await inRollback(sql, async (tx) => {
    const { userId, projectId } = await seed(tx);
    await tx`select * from app_public.add_invite_link(${userId}, ${projectId}, ${CHAT}, 'One', 'https://t.me/+one', 2)`;
    await tx`select * from app_public.add_invite_link(${userId}, ${projectId}, ${CHAT}, 'Two', 'https://t.me/+two', 2)`;
    await rejects(tx, `select * from app_public.add_invite_link(${userId}, ${projectId}, ${CHAT}, 'Three', 'https://t.me/+three', 2)`, "QUOTA",
      "A project can have at most 2 invite links");
    await rejects(tx, `select * from app_public.invite_link_prerequisites(${userId}, ${projectId}, 2)`, "QUOTA");
    const [other] = await tx`insert into app_public.users (email) values ('other@example.com') returning id`;
    await rejects(tx, `select * from app_public.invite_link_prerequisites(${other.id}, ${projectId}, 50)`, "NTFND");
    await rejects(tx, `select app_public.project_stats(${other.id}, ${projectId}, now() - interval '1 day', now())`, "NTFND");
  });
});

/** A weekday (1 = Monday) and hour in Tokyo (UTC+9, the seed's timezone), `weeksBack` weeks before last week. */
const tokyo = (weekday: number, hour: number, weeksBack = 0) => pastWeekAt(9, weekday, hour, weeksBack);
const suggested = async (tx: Tx, userId: string, projectId: string) =>
  (await tx`select app_public.project_suggested_times(${userId}, ${projectId}) as s`)[0].s;

test("suggested times wait for 10 posts with reactions at 3 different hours, and say how many more that takes", async () => {
  await inRollback(sql, async (tx) => {
    const { userId, projectId } = await seed(tx);
    expect(await suggested(tx, userId, projectId)).toEqual({ ready: false, postsNeeded: 10, timesNeeded: 3 });
    // 12 posts with reactions, but at two hours only: one more post at a third hour is what is missing
    for (let week = 0; week < 6; week++) {
      await publishedWithReactions(tx, projectId, CHAT, tokyo(2, 18, week), 5);
      await publishedWithReactions(tx, projectId, CHAT, tokyo(4, 9, week), 3);
    }
    expect(await suggested(tx, userId, projectId)).toEqual({ ready: false, postsNeeded: 1, timesNeeded: 1 });
    // neither a post nobody reacted to, nor one older than 90 days, nor one in another chat counts
    await publishedWithReactions(tx, projectId, CHAT, tokyo(6, 12), 0);
    await publishedWithReactions(tx, projectId, CHAT, new Date(Date.now() - 95 * 86_400_000), 40);
    await publishedWithReactions(tx, projectId, -100777, tokyo(7, 20), 40);
    expect(await suggested(tx, userId, projectId)).toEqual({ ready: false, postsNeeded: 1, timesNeeded: 1 });
    await publishedWithReactions(tx, projectId, CHAT, tokyo(7, 20), 1);
    expect((await suggested(tx, userId, projectId)).ready).toBe(true);
  });
});

test("suggested times: the 3 hours of the highest average reactions, ties to more posts, each saying whether the plan has it", async () => {
  await inRollback(sql, async (tx) => {
    const { userId, projectId } = await seed(tx, "Asia/Tokyo");
    const posts: [weekday: number, hour: number, reactions: number[]][] = [
      [1, 9, [8]], // average 8 from one post
      [2, 18, [10, 6]], // average 8 from two: before Monday
      [5, 20, [20, 0, 1]], // average 7: a post without reactions counts as 0
      [3, 12, [1, 1, 1, 1, 1]], // fourth: not suggested
      [7, 23, [0, 0]], // never: nothing here got a reaction
    ];
    for (const [weekday, hour, counts] of posts) {
      for (const [week, count] of counts.entries()) await publishedWithReactions(tx, projectId, CHAT, tokyo(weekday, hour, week), count);
    }
    // Tuesday 18:45 in the project's timezone is that hour; Monday 09:00 Moscow time is another
    await tx`insert into app_public.content_plans (project_id, day_of_week, time, timezone, post_length)
             values (${projectId}, 2, '18:45', 'Asia/Tokyo', 500), (${projectId}, 1, '09:00', 'Europe/Moscow', 500)`;
    expect(await suggested(tx, userId, projectId)).toEqual({
      ready: true,
      times: [
        { weekday: 2, hour: 18, avgReactions: 8, posts: 2, inPlan: true },
        { weekday: 1, hour: 9, avgReactions: 8, posts: 1, inPlan: false },
        { weekday: 5, hour: 20, avgReactions: 7, posts: 3, inPlan: false },
      ],
    });
    const [other] = await tx`insert into app_public.users (email) values ('stranger@example.com') returning id`;
    await rejects(tx, `select app_public.project_suggested_times(${other.id}, ${projectId})`, "NTFND");
  });
});
