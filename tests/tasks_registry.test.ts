/*
 * One naming rule for tasks: every identifier queued (SQL add_job in sql/functions/, the
 * migrations being worked on in sql/migrations/current/, addJob/quickAddJob in TypeScript,
 * the worker's crontab) is a registered task, and every registered task is queued by
 * something; each task is tasks/<identifier>.ts, and a task file holds one task. Committed
 * migrations are history (a function they queued from is restated in sql/functions/).
 */
import { expect, test } from "vitest";
import { CRONTAB, taskLists } from "../tasks/worker.ts";

const ROOT = new URL("../", import.meta.url);

async function files(dir: string, ending: string): Promise<{ path: string; text: string }[]> {
  const found: { path: string; text: string }[] = [];
  for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) found.push(...await files(path, ending));
    else if (entry.name.endsWith(ending)) found.push({ path, text: await Deno.readTextFile(new URL(path, ROOT)) });
  }
  return found;
}

/** Identifiers queued, each with where; a call whose identifier is not a literal fails (it could not be paired). */
async function queued(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const { path, text } of [...await files("sql/functions", ".sql"), ...await files("sql/migrations/current", ".sql")]) {
    for (const m of text.matchAll(/graphile_worker\.add_jobs?\(\s*('?)(\w*)/g)) {
      expect(m[1], `${path}: add_job's identifier is a literal`).toBe("'");
      found.set(m[2], path);
    }
  }
  const ts = (await Promise.all(["api", "core", "tasks", "bot", "scripts"].map((dir) => files(dir, ".ts")))).flat();
  for (const { path, text } of ts) {
    for (const m of text.matchAll(/\b(?:quickAddJob|addJob)\(\s*(?:[\w.]+,\s*)?(["'`]?)(\w*)/g)) {
      expect(m[1], `${path}: addJob's identifier is a literal`).not.toBe("");
      found.set(m[2], path);
    }
  }
  for (const line of CRONTAB) found.set(line.trim().split(/\s+/).at(-1)!, "tasks/worker.ts (crontab)");
  return found;
}

// The factories only close over their dependencies: nothing is called while the lists are built.
const { tasks, aiTasks, signInTasks, webhookTasks } = taskLists({} as never, {} as never,
  { publicUrl: "http://localhost", limits: {} as never, webhooksAllowPrivate: false }, { storage: {} as never });
const registered = [...Object.keys(tasks), ...Object.keys(aiTasks), ...Object.keys(signInTasks), ...Object.keys(webhookTasks)];

test("every identifier queued is a registered task, and every registered task is queued", async () => {
  const queuedIds = await queued();
  expect(queuedIds.size).toBeGreaterThan(15);
  for (const [id, where] of queuedIds) {
    expect(registered, `${where} queues "${id}", which no task in tasks/worker.ts (taskLists) handles`).toContain(id);
  }
  for (const id of registered) {
    expect([...queuedIds.keys()], `task "${id}" is registered in tasks/worker.ts but nothing queues it (add_job, addJob or CRONTAB)`).toContain(id);
  }
  expect(new Set(registered).size).toBe(registered.length);
});

test("each task is the one task of tasks/<identifier>.ts, and every such file is a registered task", async () => {
  const worker = await Deno.readTextFile(new URL("tasks/worker.ts", ROOT));
  const moduleOf = new Map<string, string>();
  for (const m of worker.matchAll(/import \{([^}]+)\} from "\.\/(\w+)\.ts"/g)) {
    for (const name of m[1].split(",")) moduleOf.set(name.replace(/\btype\b/, "").trim(), m[2]);
  }
  for (const id of registered) {
    const factory = new RegExp(String.raw`\b${id}: (\w+)\(`).exec(worker)?.[1];
    expect(factory, `tasks/worker.ts registers "${id}" as a call of a task factory`).toBeDefined();
    expect(moduleOf.get(factory!), `"${id}" comes from tasks/${id}.ts`).toBe(id);
  }
  const taskFiles = (await files("tasks", ".ts")).filter(({ path }) => path.includes("__"));
  for (const { path, text } of taskFiles) {
    const id = path.replace(/^tasks\/|\.ts$/g, "");
    expect(registered, `${path} is named as a task but is not registered`).toContain(id);
    // a file of one task defines one function answering a graphile-worker Task
    expect(text.match(/\)\s*:\s*Task\b/g) ?? [], `${path} holds one task`).toHaveLength(1);
  }
  expect(taskFiles).toHaveLength(registered.length);
});
