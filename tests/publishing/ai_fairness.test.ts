/*
 * AI fairness, as an account with many projects would try to take the AI for itself: every
 * AI job of an account runs in that account's own queue, so however many generation jobs it
 * queues it holds one of the worker's AI slots, and another account's job is served in the
 * other slot while the first account's jobs still wait. A job queued before the queues were
 * per account (without a queue name) still runs.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ openai: true, env: { AI_CALLS_PER_MINUTE: "1000" } });
});
afterAll(() => stack.close());

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

async function account(name: string) {
  const { cookie } = await stack.signIn(uniqueEmail(name));
  return { cookie };
}

async function projectWithDrafts(cookie: string, name: string, titles: string[]) {
  const project = (await stack.call("POST", "/api/projects", { name, adminHandle: "fair_admin" }, cookie)).json;
  const base = `/api/projects/${project.id}`;
  const drafts = (await stack.call("POST", `${base}/drafts/bulk`, { titles }, cookie)).json as { id: number }[];
  return { base, draftIds: ids(drafts) };
}

async function jobStatus(cookie: string, base: string, jobId: number) {
  return (await stack.call("GET", `${base}/jobs/${jobId}`, undefined, cookie)).json.status as string;
}

test("an account with five projects' generation jobs holds one AI slot; another account's job is served while they still wait", async () => {
  const attacker = await account("hog");
  const bystander = await account("fair");
  // the provider double says who is being served: the attacker's titles start with "Hog"
  const inFlight = { hog: 0, other: 0 };
  let hogMostAtOnce = 0;
  const served: { who: "hog" | "other"; at: number }[] = [];
  stack.openai!.reply(async (request) => {
    const who = request.messages.at(-1)?.content.startsWith('Write a Telegram post titled "Hog') ? "hog" : "other";
    inFlight[who] += 1;
    hogMostAtOnce = Math.max(hogMostAtOnce, inFlight.hog);
    await new Promise((r) => setTimeout(r, 600));
    inFlight[who] -= 1;
    served.push({ who, at: Date.now() });
    return `Written for ${who}`;
  });

  const hogJobs: { base: string; jobId: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const p = await projectWithDrafts(attacker.cookie, `Hog ${i}`, [`Hog ${i}.1`, `Hog ${i}.2`, `Hog ${i}.3`]);
    const job = await stack.call("POST", `${p.base}/drafts/generate-content`, { draftIds: p.draftIds, postLength: 300 }, attacker.cookie);
    expect(job.status, job.text).toBe(201);
    hogJobs.push({ base: p.base, jobId: job.json.jobId });
  }
  // the attacker's jobs have the AI now
  await expect.poll(() => inFlight.hog, { timeout: 10_000 }).toBe(1);

  const fair = await projectWithDrafts(bystander.cookie, "Fair", ["Bystander's post"]);
  const fairJob = (await stack.call("POST", `${fair.base}/drafts/generate-content`, { draftIds: fair.draftIds, postLength: 300 },
    bystander.cookie)).json;
  await expect.poll(() => jobStatus(bystander.cookie, fair.base, fairJob.jobId), { timeout: 5_000 }).toBe("completed");
  // served long before the attacker's 15 drafts (9 s one at a time): most of its jobs have not even started
  const notStarted = (await Promise.all(hogJobs.map((j) => jobStatus(attacker.cookie, j.base, j.jobId))))
    .filter((status) => status === "pending");
  expect(notStarted.length).toBeGreaterThanOrEqual(2);
  expect(served.filter((s) => s.who === "hog").length).toBeLessThan(15);
  const [draft] = (await stack.call("GET", `${fair.base}/drafts`, undefined, bystander.cookie)).json;
  expect(draft.content).toBe("Written for other");

  // the attacker's work is done in the end, never more than one of its requests at a time
  for (const j of hogJobs) {
    await expect.poll(() => jobStatus(attacker.cookie, j.base, j.jobId), { timeout: 20_000 }).toBe("completed");
  }
  expect(served.filter((s) => s.who === "hog")).toHaveLength(15);
  expect(hogMostAtOnce).toBe(1);
  stack.openai!.reset();
}, 60_000);

test("a generation job queued without a queue name (before queues were per account) still runs", async () => {
  const { cookie } = await account("legacy");
  const p = await projectWithDrafts(cookie, "Legacy", ["Old job"]);
  const [{ projectId }] = await stack.sql`select project_id from app_public.drafts where id = ${p.draftIds[0]}`;
  // what create_generation_job queued before: the same rows, the job in no queue
  const [job] = await stack.sql`insert into app_public.generation_jobs (project_id, type, data, result)
    values (${projectId}, 'generate_content', ${stack.sql.json({ draftIds: p.draftIds, postLength: 300 })},
            ${stack.sql.json({ progress: { completed: 0, total: 1 }, drafts: {} })}) returning id`;
  await stack.sql`select graphile_worker.add_job('drafts__generate_content', json_build_object('jobId', ${job.id}::bigint), max_attempts := 3)`;
  await expect.poll(() => jobStatus(cookie, p.base, Number(job.id)), { timeout: 10_000 }).toBe("completed");
  const [draft] = (await stack.call("GET", `${p.base}/drafts`, undefined, cookie)).json;
  expect(draft.content).not.toBe("");
}, 30_000);
