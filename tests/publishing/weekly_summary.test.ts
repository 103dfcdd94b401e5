/*
 * The weekly summary by e-mail (issue 27), delivered to a real SMTP server by the worker's
 * own tasks: on Monday from 09:00 in the project's timezone the owner gets the week's growth,
 * the top post with its link, the invite link that brought the most joins and a line about
 * the queue (posts waiting for review among what is pending), in the project's language; not before 09:00, not when switched off, not for a
 * project without a channel, and never twice for the same week however often the pass runs.
 * The migration gives accounts made before it the summary off and newer ones on.
 * Home of tasks/weekly_summaries__send.ts (docs/testing.md).
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { InviteLink } from "../../contract/stats.ts";
import { buttonData, postReaches, projectWithChannel, sentForApproval } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";
import { memberUpdates, subscriberHistory } from "../helpers/stats.ts";
import { addMember } from "../helpers/team.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ bot: true });
});
afterAll(() => stack.close());

type Project = Awaited<ReturnType<typeof projectWithChannel>>;

const HOUR = 3600_000;
const MSK = 3 * HOUR; // Europe/Moscow keeps UTC+3 all year
/** Midnight (Moscow) of the Monday after this week: the summary of this week is due from 09:00 then. */
function nextMondayMoscow(): number {
  const local = new Date(Date.now() + MSK);
  const daysToMonday = ((8 - local.getUTCDay()) % 7) || 7;
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + daysToMonday) - MSK;
}
const monday = nextMondayMoscow();

const ownerOf = async (p: { project: { id: number } }) =>
  (await stack.sql`select u.email from app_public.users u join app_public.projects pr on pr.user_id = u.id where pr.id = ${p.project.id}`)[0]
    .email as string;

/** The worker's hourly pass, as of `at` (the crontab runs it with no moment: now). */
const pass = (at: number) =>
  stack.sql`select graphile_worker.add_job('weekly_summaries__queue', json_build_object('at', ${new Date(at).toISOString()}::text))`;

/** Until the passes and the mails they queued have run: a mail that should not come had its chance. */
async function idle() {
  const deadline = Date.now() + 20_000;
  while ((await stack.sql`select 1 from graphile_worker.jobs where task_identifier like 'weekly_summaries__%'`).length) {
    if (Date.now() > deadline) throw new Error("the weekly summary jobs never ran");
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500));
}

/** Schedules a draft a few seconds ahead, the approver approves, the worker publishes it. */
async function published(p: Project, draftId: number) {
  const telegram = stack.telegram!;
  const { postId, preview } = await sentForApproval(stack, p, draftId, 3000);
  const query = telegram.userPressesButton(p.admin.id, p.admin.id, preview.message_id, buttonData(preview, "approve", postId));
  await telegram.waitFor(() => telegram.callbackAnswer(query), 10_000);
  return await postReaches(stack, postId, "published") as { channelMessageIds: number[]; publishedLinks: Record<string, string> };
}

test("Monday 09:00: one summary per project, with its figures, in Russian and in English; never twice", async () => {
  // A Russian project with a week behind it: a sample of 7 days ago, joins (3 through a
  // campaign's link), a leave, a published post with reactions, a post planned next week.
  const ru = await projectWithChannel(stack, { drafts: ["Лучший пост недели", "Следующая неделя", "Запас"] });
  await subscriberHistory(stack, ru.project.id, 180, 200);
  const link = (await stack.call("POST", `${ru.base}/invite-links`, { name: "Весенняя акция" }, ru.cookie)).json as InviteLink;
  const other = (await stack.call("POST", `${ru.base}/invite-links`, { name: "Партнёр" }, ru.cookie)).json as InviteLink;
  await memberUpdates(stack, ru.channel.id, "join", 3, link.url);
  await memberUpdates(stack, ru.channel.id, "join", 1, other.url);
  await memberUpdates(stack, ru.channel.id, "leave", 1);
  const post = await published(ru, ru.drafts[0].id);
  const [messageId] = post.channelMessageIds;
  await stack.sql`select app_public.record_reaction_count(1, ${ru.channel.id}, ${messageId}, now(),
    ${stack.sql.json([{ type: { type: "emoji", emoji: "👍" }, total_count: 5 }, { type: { type: "emoji", emoji: "🔥" }, total_count: 2 }])})`;
  const nextWeek = await stack.call("POST", `${ru.base}/posts`, {
    draftId: ru.drafts[1].id, scheduledFor: new Date(monday + 34 * HOUR).toISOString(),
  }, ru.cookie);
  expect(nextWeek.status, nextWeek.text).toBe(201);

  // An English project of another account: nothing happened yet, the count of a week ago unknown.
  const en = await projectWithChannel(stack, { drafts: ["Spare"], language: "en" });
  const [ruEmail, enEmail] = [await ownerOf(ru), await ownerOf(en)];
  const before = { ru: stack.smtp.mailsTo(ruEmail).length, en: stack.smtp.mailsTo(enEmail).length };

  // 08:30 on Monday: too early. Sunday 09:00: not the day.
  await pass(monday + 8.5 * HOUR);
  await pass(monday - 15 * HOUR);
  await idle();
  expect(stack.smtp.mailsTo(ruEmail)).toHaveLength(before.ru);
  expect(stack.smtp.mailsTo(enEmail)).toHaveLength(before.en);

  // 09:30, and the pass runs twice (a retry, a second worker): one mail each.
  await pass(monday + 9.5 * HOUR);
  await pass(monday + 9.5 * HOUR);
  const ruMail = await stack.smtp.waitForMail(ruEmail, before.ru + 1, 20_000);
  const enMail = await stack.smtp.waitForMail(enEmail, before.en + 1, 20_000);
  // later the same Monday: the week is marked, nothing more
  await pass(monday + 14 * HOUR);
  await idle();
  expect(stack.smtp.mailsTo(ruEmail)).toHaveLength(before.ru + 1);
  expect(stack.smtp.mailsTo(enEmail)).toHaveLength(before.en + 1);

  const url = Object.values(post.publishedLinks)[0];
  expect(url).toMatch(/^https:\/\/t\.me\/.+\/\d+$/);
  expect(ruMail.subject).toBe("Pressa: итоги недели проекта «Publishing», подписчики +23");
  expect(ruMail.text).toContain("Подписчики: 203 (+23 за неделю).");
  expect(ruMail.text).toContain("Пришли: 4, ушли: 1.");
  expect(ruMail.text).toContain(`Лучший пост: «Лучший пост недели», реакций: 7. ${url}`);
  expect(ruMail.text).toContain("Больше всего подписчиков привела ссылка «Весенняя акция»: 3.");
  expect(ruMail.text).toContain("Очередь: свободных черновиков 1, на следующую неделю запланировано постов: 1.");
  expect(ruMail.text).toContain(`/project/${ru.project.id}`);
  expect(ruMail.text).toContain("Настройки → Уведомления");
  expect(ruMail.text).not.toMatch(/undefined|null|NaN/);

  expect(enMail.subject).toBe("Pressa: the week of “Publishing”");
  expect(enMail.text).toContain("Subscribers: 2 (the count of a week ago is not known).");
  expect(enMail.text).toContain("Joined: 0, left: 0.");
  expect(enMail.text).toContain("No post went out this week.");
  expect(enMail.text).not.toContain("The link that brought");
  expect(enMail.text).toContain("Queue: 1 draft(s) left, 0 post(s) planned for the next week.");
  expect(enMail.text).toContain("Settings → Notifications");
  expect(enMail.text).not.toMatch(/undefined|null|NaN/);
}, 120_000);

test("posts an author sent for review count as waiting for review, and as planned for their week; in Russian and in English", async () => {
  const week = monday + 14 * 24 * HOUR; // a week of its own, no other test's pass marked it
  const lines: Record<string, string> = {};
  for (const language of ["ru", "en"] as const) {
    const p = await projectWithChannel(stack, { drafts: ["Next week", "The week after"], language });
    const author = await addMember(stack, p.project.id, p.cookie, "author");
    for (const [draft, at] of [[p.drafts[0], week + 34 * HOUR], [p.drafts[1], week + 8 * 24 * HOUR]] as const) {
      const res = await stack.call("POST", `${p.base}/posts`, { draftId: draft.id, scheduledFor: new Date(at).toISOString() }, author.cookie);
      expect(res.json, res.text).toMatchObject({ status: "in_review" });
    }
    const email = await ownerOf(p);
    await pass(week + 9.25 * HOUR);
    // the owner is also told of each post to review: the summary is the mail about the week
    const summary = () => stack.smtp.mailsTo(email).find((m) => /итоги недели|the week of/.test(m.subject));
    await expect.poll(summary, { timeout: 20_000 }).toBeDefined();
    lines[language] = summary()!.text;
  }
  expect(lines.ru).toContain("Очередь: свободных черновиков 0, на следующую неделю запланировано постов: 1. Ждут проверки: 2.");
  expect(lines.en).toContain("Queue: 0 draft(s) left, 1 post(s) planned for the next week. Waiting for review: 2.");
  await idle();
}, 90_000);

test("switched off, or no channel: no summary; switched back on, it comes", async () => {
  const off = await projectWithChannel(stack, { drafts: ["Anything"] });
  const offEmail = await ownerOf(off);
  expect((await stack.call("GET", "/api/notifications", undefined, off.cookie)).json).toMatchObject({ weeklySummary: true });
  const patched = await stack.call("PATCH", "/api/notifications", { weeklySummary: false }, off.cookie);
  expect(patched.status, patched.text).toBe(200);
  expect(patched.json).toMatchObject({ weeklySummary: false, postFailed: true });

  const { cookie } = await stack.signIn(uniqueEmail("no-channel"));
  const bare = (await stack.call("POST", "/api/projects", { name: "No channel", adminHandle: "bare_admin" }, cookie)).json;
  const bareEmail = await ownerOf({ project: bare });
  const before = { off: stack.smtp.mailsTo(offEmail).length, bare: stack.smtp.mailsTo(bareEmail).length };

  const week = monday + 7 * 24 * HOUR; // a week of its own, no earlier pass marked it
  await pass(week + 9.25 * HOUR);
  await idle();
  expect(stack.smtp.mailsTo(offEmail)).toHaveLength(before.off);
  expect(stack.smtp.mailsTo(bareEmail)).toHaveLength(before.bare);

  // on again the same Monday: the next hourly pass sends it
  await stack.call("PATCH", "/api/notifications", { weeklySummary: true }, off.cookie);
  await pass(week + 10.25 * HOUR);
  const mail = await stack.smtp.waitForMail(offEmail, before.off + 1, 20_000);
  expect(mail.subject).toContain("итоги недели");
  await idle();
  expect(stack.smtp.mailsTo(bareEmail)).toHaveLength(before.bare);
}, 90_000);

test("bad switches are refused and change nothing", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("bad-switch"));
  for (const body of [{ weeklySummary: "yes" }, { weeklySummary: null }, { weeklySummery: true }]) {
    const res = await stack.call("PATCH", "/api/notifications", body, cookie);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(res.json).toMatchObject({ code: "notifications.invalid" });
  }
  expect((await stack.call("GET", "/api/notifications", undefined, cookie)).json).toMatchObject({ weeklySummary: true });
});

test("migration 46: accounts older than it get the summary off, newer ones on; run again, it keeps every choice", async () => {
  const committed = new URL("../../sql/migrations/committed/", import.meta.url);
  const file = [...Deno.readDirSync(committed)].find((entry) => entry.name.startsWith("000046-"))!.name;
  // its data part: the functions it made then have been replaced since (some with other return types)
  const migration = (await Deno.readTextFile(new URL(file, committed))).split(/^--! split: \d+-sql-functions\.sql$/m)[0];
  const { user: older } = await stack.signIn(uniqueEmail("older"));
  const { user: chose, cookie } = await stack.signIn(uniqueEmail("chose"));
  await stack.call("PATCH", "/api/notifications", { weeklySummary: false }, cookie);

  // Run again over a database that has it: nothing changes.
  await stack.sql.unsafe(migration);
  const after = await stack.sql`select id, weekly_summary from app_public.users where id in (${older.id}, ${chose.id}) order by id`;
  expect(after.map((r) => r.weeklySummary)).toEqual([true, false]);

  // As it first ran, over accounts that were there before it: all off; an account made after: on.
  await stack.sql.begin(async (tx) => {
    await tx`alter table app_public.users drop column weekly_summary`;
    await tx.unsafe(migration);
    const [{ on }] = await tx`select count(*) filter (where weekly_summary)::int as on from app_public.users`;
    expect(on).toBe(0);
    const [fresh] = await tx`insert into app_public.users (email) values (${uniqueEmail("fresh")}) returning weekly_summary`;
    expect(fresh.weeklySummary).toBe(true);
    throw new Error("rollback");
  }).catch((error) => {
    if ((error as Error).message !== "rollback") throw error;
  });
  expect((await stack.sql`select weekly_summary from app_public.users where id = ${chose.id}`)[0].weeklySummary).toBe(false);
});
