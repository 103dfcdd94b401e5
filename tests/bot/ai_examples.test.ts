/*
 * The AI learns from what worked (docs/autopilot-and-ai.md "AI"): readers react to published posts in the
 * channel (the local Bot API server, the real bot asking for message_reaction_count), and
 * the prompts of generate-post, of autopilot and of a content-generation job (the worker)
 * then carry the project's best-received recent posts as examples of its voice, as the
 * local OpenAI server received them. Another project's posts never reach them.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { ChannelStats } from "../../contract/stats.ts";
import { promptOf } from "../doubles/openai/server.ts";
import { projectWithChannel } from "../helpers/publishing.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

type Project = Awaited<ReturnType<typeof projectWithChannel>>;

let stack: Stack;
let mine: Project;
let theirs: Project;

// longer than the 600 characters an example keeps: its tail must not reach the prompt
const TOP = "Лучший пост канала: короткие фразы, живой тон. " + "Ещё одна деталь про мост. ".repeat(30) + "ХВОСТ-ЛУЧШЕГО";
const SECOND = "Второй по реакциям пост: про весенний субботник.";
const UNLOVED = "Пост без единой реакции: объявление о ремонте.";
const OLD = "Старый пост с горой реакций: прошлогодний фестиваль.";
const THEIRS = "Пост чужого проекта: секретный анонс конкурента.";

beforeAll(async () => {
  stack = await startStack({ bot: true, openai: true, env: { AI_CALLS_PER_MINUTE: "1000" } });
  mine = await projectWithChannel(stack);
  theirs = await projectWithChannel(stack);
  const day = 86400_000;
  const top = await publishedPost(mine, TOP, new Date(Date.now() - 3 * day), 2);
  const second = await publishedPost(mine, SECOND, new Date(Date.now() - 1 * day), 1);
  await publishedPost(mine, UNLOVED, new Date(Date.now() - 2 * day), 1);
  const old = await publishedPost(mine, OLD, new Date(Date.now() - 100 * day), 1);
  const rival = await publishedPost(theirs, THEIRS, new Date(Date.now() - 1 * day), 1);
  // an album: its reactions are summed over its messages (5 + 4 beat the newer post's 3)
  await react(mine, top, 0, { "👍": 5 });
  await react(mine, top, 1, { "🔥": 4 });
  await react(mine, second, 0, { "👍": 3 });
  await react(mine, old, 0, { "❤": 90 });
  await react(theirs, rival, 0, { "❤": 100 });
  await reactionsRecorded(mine, [[top.id, 9], [second.id, 3]]);
  await reactionsRecorded(theirs, [[rival.id, 100]]);
});

afterAll(async () => {
  await stack?.close();
});

/** A post published in the project's channel at `at`, in `messages` messages (as posts__publish records it). */
async function publishedPost(p: Project, content: string, at: Date, messages: number) {
  const ids = Array.from({ length: messages }, (_, i) => stack.telegram!.channelPost(p.channel.id, i === 0 ? content : "📷").message_id);
  const [{ id }] = await stack.sql<{ id: number }[]>`
    insert into app_public.posts (project_id, title, content, status, scheduled_for, published_at, channel_chat_id, channel_message_ids)
    values (${p.project.id}, 'Published', ${content}, 'published', ${at}, ${at}, ${p.channel.id}, ${stack.sql.json(ids)})
    returning id`;
  return { id: Number(id), ids };
}

async function react(p: Project, post: { ids: number[] }, message: number, counts: Record<string, number>) {
  const update = stack.telegram!.setReactions(p.channel.id, post.ids[message], counts);
  expect(update).toBeDefined();
}

/** Waits until the owner's Statistics page shows these totals: the bot has recorded the reactions. */
async function reactionsRecorded(p: Project, totals: [postId: number, total: number][]) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await stack.call("GET", `${p.base}/stats`, undefined, p.cookie);
    const posts = (res.json as ChannelStats).posts ?? [];
    if (totals.every(([id, total]) => posts.find((x) => x.postId === id)?.reactions.total === total)) return;
    if (Date.now() > deadline) throw new Error(`reactions not recorded: ${res.text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const lastSystem = () => promptOf(stack.openai!.journal[stack.openai!.journal.length - 1].body).system;

function expectMyExamples(system: string) {
  const top = system.indexOf(TOP.slice(0, 200));
  expect(top, "the top-reacted post's text").toBeGreaterThan(-1);
  expect(system.indexOf(SECOND)).toBeGreaterThan(top);
  expect(system).toContain("not their topics or facts");
  // each example is cut short; no post without reactions, none older than 90 days, no one else's
  expect(system).not.toContain("ХВОСТ-ЛУЧШЕГО");
  expect(system).not.toContain(UNLOVED);
  expect(system).not.toContain(OLD);
  expect(system).not.toContain(THEIRS);
}

test("generate-post: the prompt carries the best-received posts, the most reacted first, cut short", async () => {
  stack.openai!.reply(() => "Новый пост.");
  const res = await stack.call("POST", `${mine.base}/generate-post`, { title: "Мост открыли", postLength: 500 }, mine.cookie);
  expect(res.status, res.text).toBe(200);
  const system = lastSystem();
  expectMyExamples(system);
  // the whole examples section stays small: three examples of at most 600 characters
  const section = system.slice(system.indexOf("Recent posts of this channel"));
  expect(section.length).toBeLessThan(2400);
});

test("autopilot: the post the worker writes for a plan slot gets the same examples", async () => {
  stack.openai!.reply(() => "Текст автопилота.");
  await stack.call("POST", `${mine.base}/drafts/bulk`, { titles: ["Ярмарка выходного дня"] }, mine.cookie);
  // a slot two days ahead at noon in Moscow (UTC+3 all year): the fill gives it the draft, whose text the AI writes now
  const moscow = new Date(Date.now() + 2 * 86400_000 + 3 * 3600_000);
  const created = await stack.call("POST", `${mine.base}/content-plans`, {
    dayOfWeek: moscow.getUTCDay(), time: "12:00", timezone: "Europe/Moscow", postLength: 400,
  }, mine.cookie);
  expect(created.status, created.text).toBe(201);
  const asked = () => stack.openai!.journal.find((e) => promptOf(e.body).user.includes('"Ярмарка выходного дня"'));
  await expect.poll(() => asked() !== undefined, { timeout: 30_000 }).toBe(true);
  expectMyExamples(promptOf(asked()!.body).system);
});

test("a content-generation job (the worker) gives each draft the same examples", async () => {
  stack.openai!.reply(() => "Текст черновика.");
  const [draft] = (await stack.call("POST", `${mine.base}/drafts/bulk`, { titles: ["Субботник в мае"] }, mine.cookie)).json as { id: number }[];
  const started = await stack.call("POST", `${mine.base}/drafts/generate-content`, { draftIds: [draft.id] }, mine.cookie);
  expect(started.status, started.text).toBe(201);
  const deadline = Date.now() + 30_000;
  let job;
  do {
    await new Promise((r) => setTimeout(r, 100));
    job = (await stack.call("GET", `${mine.base}/jobs/${started.json.jobId}`, undefined, mine.cookie)).json;
  } while (job.status !== "completed" && job.status !== "failed" && Date.now() < deadline);
  expect(job.status).toBe("completed");
  const request = stack.openai!.journal.find((e) => promptOf(e.body).user.includes('"Субботник в мае"'));
  expect(request).toBeDefined();
  expectMyExamples(promptOf(request!.body).system);
});

test("another project's best post reaches only its own prompts, and its owner cannot read ours", async () => {
  stack.openai!.reply(() => "Их пост.");
  const res = await stack.call("POST", `${theirs.base}/generate-post`, { title: "Анонс", postLength: 300 }, theirs.cookie);
  expect(res.status, res.text).toBe(200);
  const system = lastSystem();
  expect(system).toContain(THEIRS);
  expect(system).not.toContain(TOP.slice(0, 40));
  expect(system).not.toContain(SECOND);

  // the other owner asks for a post in our project: not found, and nothing reaches the AI
  const before = stack.openai!.journal.length;
  const stolen = await stack.call("POST", `${mine.base}/generate-post`, { title: "Дай примеры", postLength: 300 }, theirs.cookie);
  expect(stolen.status).toBe(404);
  expect(stack.openai!.journal.length).toBe(before);
});

test("a project whose posts have no reactions gets no examples section", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("quiet"));
  const project = (await stack.call("POST", "/api/projects", { name: "Тихий канал", adminHandle: "quiet_admin" }, cookie)).json;
  stack.openai!.reply(() => "Пост.");
  const res = await stack.call("POST", `/api/projects/${project.id}/generate-post`, { title: "Первый", postLength: 300 }, cookie);
  expect(res.status, res.text).toBe(200);
  const system = lastSystem();
  expect(system).toContain("Тихий канал");
  expect(system).not.toContain("Recent posts of this channel");
  expect(system).not.toContain("Example 1");
});
