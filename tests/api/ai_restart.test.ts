/*
 * A content-generation job survives a worker restart: the real worker process is killed
 * (SIGKILL) mid-job and started again; drafts finished before the kill are not generated
 * again, and the job still completes every draft.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { promptOf } from "../doubles/openai/server.ts";
import { type Stack, startStack, uniqueEmail } from "../helpers/stack.ts";

let stack: Stack;
let worker: Deno.ChildProcess | undefined;

function startWorkerProcess() {
  worker = stack.spawnWorkerProcess();
}

beforeAll(async () => {
  stack = await startStack({ openai: true, worker: false });
  startWorkerProcess();
});
afterAll(async () => {
  worker?.kill("SIGKILL");
  await worker?.status;
  await stack.close();
});

test("a worker killed mid-job resumes without regenerating finished drafts", async () => {
  const { cookie } = await stack.signIn(uniqueEmail("restart"));
  const project = (await stack.call("POST", "/api/projects", { name: "Restart", adminHandle: "restart_admin" }, cookie)).json;
  const base = `/api/projects/${project.id}`;
  const drafts = (await stack.call("POST", `${base}/drafts/bulk`, { titles: Array.from({ length: 12 }, (_, i) => `Draft ${i + 1}`) }, cookie)).json as { id: number; title: string }[];
  stack.openai!.reply(async (r) => {
    await new Promise((resolve) => setTimeout(resolve, 250));
    return `Content of ${promptOf(r).user.match(/titled "(.*)"/)![1]}`;
  });
  const { jobId } = (await stack.call("POST", `${base}/drafts/generate-content`, { draftIds: drafts.map((d) => d.id) }, cookie)).json;
  const progress = async () => (await stack.call("GET", `${base}/jobs/${jobId}`, undefined, cookie)).json;
  await expect.poll(async () => (await progress()).result.progress.completed, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(4);

  worker!.kill("SIGKILL");
  await worker!.status;
  const [row] = await stack.sql`select result from app_public.generation_jobs where id = ${jobId}`;
  const finished = Object.entries(row.result.drafts).filter(([, v]) => v === "done").map(([id]) => Number(id));
  expect(finished.length).toBeGreaterThanOrEqual(4);
  expect(finished.length).toBeLessThan(12);
  const killedAt = stack.openai!.journal.length;
  startWorkerProcess();

  await expect.poll(async () => (await progress()).status, { timeout: 60_000, interval: 200 }).toBe("completed");
  const job = await progress();
  expect(job.result.progress).toEqual({ completed: 12, total: 12 });
  const titlesAfterRestart = stack.openai!.journal.slice(killedAt).map((e) => promptOf(e.body).user.match(/titled "(.*)"/)![1]);
  for (const id of finished) {
    expect(titlesAfterRestart).not.toContain(drafts.find((d) => d.id === id)!.title);
  }
  const list = (await stack.call("GET", `${base}/drafts`, undefined, cookie)).json as { title: string; content: string }[];
  expect(list.every((d) => d.content === `Content of ${d.title}`)).toBe(true);
}, 120_000);
