/*
 * The per-process commands of docs/operating.md run as written, on a database nobody migrated
 * yet: they are read out of its "Running one process at a time" block (so the test and the text
 * cannot part), run through `npx` as a user without a global Deno would, each up to the
 * line that says it is working. `deno task` once took node_modules/.bin/deno for a script
 * and every one of these failed with "Invalid or unexpected token".
 */
import postgres from "postgres";
import { afterAll, beforeAll, expect, test } from "vitest";
import { inject } from "vitest";
import { appRoleUrl } from "../sql/app_role.ts";
import { freePort } from "../scripts/postgres.ts";
import { startTelegramServer, type TelegramServer } from "../sandbox/telegram/server.ts";
import { outputOf } from "./helpers/instances.ts";

const root = new URL("..", import.meta.url).pathname;
const operating = await Deno.readTextFile(`${root}docs/operating.md`);
const block = operating.split("## Running one process at a time")[1].split("```sh")[1].split("```")[0];
const commands = block.split("\n").map((line) => line.replace(/#.*$/, "").trim()).filter((line) => line.startsWith("deno task"));

let ownerUrl: string;
let appUrl: string;
let telegram: TelegramServer;

beforeAll(async () => {
  const admin = postgres(inject("pgAdminUrl"), { max: 1, onnotice: () => {} });
  const name = `cmd_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  ownerUrl = inject("pgAdminUrl").replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  appUrl = appRoleUrl(ownerUrl, inject("pgAppPassword"));
  telegram = await startTelegramServer();
});
afterAll(() => telegram?.close());

/** Runs `npx <command>` until its output matches `ready` (then stops it and its children) or it exits. */
async function run(command: string, env: Record<string, string>, ready?: RegExp) {
  // in a session of its own: npx starts deno task, which starts deno; stopping means the group
  const child = new Deno.Command("setsid", {
    args: ["npx", ...command.split(" ")],
    cwd: root,
    env: { ...env, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = outputOf(child);
  if (ready) {
    const deadline = Date.now() + 60_000;
    let exited = false;
    child.status.then(() => (exited = true));
    while (!ready.test(output.text) && !exited && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!exited) Deno.kill(-child.pid, "SIGTERM");
  }
  const status = await child.status;
  await output.done;
  return { status, output: output.text };
}

test("docs/operating.md names the four per-process commands", () => {
  expect(commands).toEqual(["deno task migrate", "deno task api", "deno task worker", "deno task bot"]);
});

test("each per-process command of docs/operating.md runs as written on a fresh database", async () => {
  const env = {
    DATABASE_OWNER_URL: ownerUrl,
    DATABASE_URL: appUrl,
    PORT: String(await freePort()),
    TELEGRAM_BOT_TOKEN: telegram.token,
    TELEGRAM_API_ROOT: telegram.apiRoot,
  };
  const ready: Record<string, RegExp | undefined> = {
    "deno task migrate": undefined, // runs to its end
    "deno task api": /listening on/,
    "deno task worker": /worker started/,
    "deno task bot": /bot @\w+ polling/,
  };
  for (const command of commands) {
    const { status, output } = await run(`deno ${command.slice("deno ".length)}`, env, ready[command]);
    if (ready[command]) expect(output, command).toMatch(ready[command]!);
    else expect(status.success, `${command}:\n${output}`).toBe(true);
    expect(output, command).not.toMatch(/Invalid or unexpected token|Uncaught/);
  }
}, 240_000);

test("docs/operating.md's graphile-worker CLI line runs against the migrated database", async () => {
  const line = operating.match(/`npx (deno run -A node_modules\/graphile-worker\/dist\/cli\.js [^`]+)`/);
  expect(line).not.toBeNull();
  const { status, output } = await run(line![1], { DATABASE_URL: appUrl });
  expect(status.success, output).toBe(true);
}, 120_000);
