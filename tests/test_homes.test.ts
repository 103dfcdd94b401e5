/*
 * Where a thing's test lives (docs/testing.md "Where a test lives"): a task is tested where
 * its name (`posts__publish`) appears in a test file; a route file api/routes/<name>.ts in
 * tests/api/<name>*.test.ts; a bot feature bot/features/<name>.ts in tests/bot/<name>*.test.ts.
 * A test elsewhere counts when its file names the thing's path (`api/routes/health.ts`), so a
 * reader who greps for the path finds it. This test names every one without such a home.
 */
import { expect, test } from "vitest";

const root = new URL("..", import.meta.url).pathname;

/*
 * Known gaps, found when the rule was written (issue 33): each has no test where the rule
 * looks. The list may only shrink: a new thing without a test fails, and so does a name left
 * here after its test arrives.
 */
const KNOWN_GAPS = new Set([
  "tasks/channels__queue_subscriber_samples.ts",
  "tasks/content_plans__fill.ts",
  "tasks/content_plans__fill_all.ts",
  "tasks/posts__send_edit_approval.ts",
  "tasks/posts__spawn_occurrence.ts",
  "tasks/uploads__delete.ts",
]);

function files(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(`${root}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) out.push(...files(path));
    else out.push(path);
  }
  return out;
}

const testFiles = files("tests").filter((path) => path.endsWith(".test.ts") && path !== "tests/test_homes.test.ts");
const testText = new Map(testFiles.map((path) => [path, Deno.readTextFileSync(`${root}${path}`)]));
const names = (dir: string, keep: (name: string) => boolean) =>
  [...Deno.readDirSync(`${root}${dir}`)].filter((e) => e.isFile && e.name.endsWith(".ts") && keep(e.name)).map((e) => `${dir}/${e.name}`).sort();

/** Whether the rule finds a test of `path`. */
function hasHome(path: string): boolean {
  const base = path.split("/").pop()!.replace(/\.ts$/, "");
  const texts = [...testText.values()];
  if (texts.some((text) => text.includes(path))) return true;
  if (path.startsWith("tasks/")) return texts.some((text) => text.includes(base));
  const area = path.startsWith("api/routes/") ? "tests/api/" : "tests/bot/";
  return testFiles.some((file) => file.startsWith(area) && file.slice(area.length).startsWith(base) && /^[._]/.test(file.slice(area.length + base.length)));
}

const things = [
  ...names("tasks", (name) => name.includes("__")),
  ...names("api/routes", () => true),
  ...names("bot/features", () => true),
];

test("every task, route file and bot feature has a test where docs/testing.md says it lives", () => {
  const missing = things.filter((path) => !hasHome(path) && !KNOWN_GAPS.has(path));
  expect(missing, "no test where the rule looks (docs/testing.md): add one, or name the file's path in its test").toEqual([]);
});

test("the known gaps only shrink: each still exists and still has no test", () => {
  const stale = [...KNOWN_GAPS].filter((path) => !things.includes(path) || hasHome(path));
  expect(stale, "tested or gone now: take it off KNOWN_GAPS").toEqual([]);
});
