/*
 * The code type-checks: the server's entry points, the scripts, the benchmarks and these
 * tests with `deno check`, and the web app with `tsc` (its own tsconfig). A type error
 * fails `npm test` like any other broken promise.
 */
import { expect, test } from "vitest";

const root = new URL("..", import.meta.url).pathname;

async function run(command: string, args: string[]) {
  const output = await new Deno.Command(command, { args, cwd: root, stdin: "null" }).output();
  const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
  return { ok: output.success, text: text.replace(/\x1b\[[0-9;]*m/g, "") };
}

async function sources(): Promise<string[]> {
  const listed = await run("git", ["ls-files", "--", "tests/*.ts", "bench/*.ts", "scripts/*.ts", "sandbox/*.ts"]);
  if (listed.ok && listed.text.trim()) return listed.text.trim().split("\n");
  // not a git checkout (an unpacked release): walk the folders instead
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  };
  for (const dir of ["tests", "bench", "scripts", "sandbox"]) await walk(dir);
  return files;
}

test("the server, scripts, benchmarks and tests type-check (deno check)", async () => {
  const files = ["main/api.ts", "main/worker.ts", "main/bot.ts", "sql/migrate.ts", ...(await sources())];
  const result = await run(Deno.execPath(), ["check", ...files]);
  expect(result.ok, result.text.split("\n").filter((line) => !line.startsWith("Check ")).join("\n")).toBe(true);
}, 240_000);

test("the web app type-checks (tsc)", async () => {
  const result = await run("node", ["node_modules/typescript/bin/tsc", "-p", "tsconfig.json"]);
  expect(result.ok, result.text).toBe(true);
}, 120_000);
