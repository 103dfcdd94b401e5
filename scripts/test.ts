/*
 * `npm test`: the whole suite (SQL, API, worker, browser) in one vitest run under Deno.
 *   1. Chromium for the browser tests: Debian's /usr/bin/chromium and its headless build
 *      (chromium-headless-shell, which the tests drive: tests/helpers/browser.ts), installed
 *      with apt when missing and we are root; otherwise we say exactly what to install.
 *   2. A fresh build of the SPA (the browser tests drive the built app), made while the
 *      server's tests run (they do not read it) in a whole run, before anything in a subset.
 *   3. vitest; then one plain closing line "N passed, M failed".
 * Extra arguments go to vitest (e.g. `npm test -- tests/api`).
 *
 * `--postgres=<major>` (`npm run test:pg15`): the migrations, tests/sql and tests/publishing
 * on that PostgreSQL major instead of the embedded 18 (scripts/postgres.ts
 * PRESSA_TEST_PG_MAJOR), as pass `pg<major>`; extra arguments replace those two folders.
 * `--totals <pass>…` prints one line "N passed, M failed" over the named passes of earlier
 * runs (.ci/run's closing line); a pass without a summary counts as one failure.
 */
import { join } from "node:path";
import { CHROMIUM, CHROMIUM_HEADLESS } from "./chromium.ts";
import { buildWeb } from "./web_build.ts";

const root = new URL("..", import.meta.url).pathname;
const CHROMIUM_PACKAGES = ["chromium", "chromium-headless-shell", "fonts-dejavu-core"];

async function ensureChromium() {
  const present = await Promise.all([CHROMIUM, CHROMIUM_HEADLESS].map((path) => Deno.stat(path).then(() => true, () => false)));
  if (present.every(Boolean)) return;
  if (Deno.uid() !== 0) {
    console.error(`Browser tests need Debian's Chromium at ${CHROMIUM} and ${CHROMIUM_HEADLESS}. Install them with:\n  sudo apt-get update && sudo apt-get install -y ${CHROMIUM_PACKAGES.join(" ")}`);
    Deno.exit(1);
  }
  console.error("Installing Debian's chromium for the browser tests (apt-get)…");
  for (const args of [["update"], ["install", "-y", "--no-install-recommends", ...CHROMIUM_PACKAGES]]) {
    const status = await new Deno.Command("apt-get", {
      args,
      env: { DEBIAN_FRONTEND: "noninteractive" },
      stdin: "null",
    }).spawn().status;
    if (!status.success) {
      console.error(`apt-get ${args.join(" ")} failed; install them by hand: apt-get install -y ${CHROMIUM_PACKAGES.join(" ")}`);
      Deno.exit(1);
    }
  }
}

const resultsDir = join(root, ".test-results");
/** What one pass counted, kept for `--totals`. */
const summaryFile = (pass: string) => join(resultsDir, `${pass}.summary.json`);

if (Deno.args[0] === "--totals") {
  let passed = 0;
  let failed = 0;
  for (const pass of Deno.args.slice(1)) {
    try {
      const summary = JSON.parse(await Deno.readTextFile(summaryFile(pass)));
      passed += summary.passed;
      failed += summary.failed;
    } catch {
      failed += 1; // the pass did not run to its end
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  Deno.exit(failed === 0 && passed > 0 ? 0 : 1);
}

const postgresMajor = Deno.args[0]?.match(/^--postgres=(\d+)$/)?.[1];
const args = postgresMajor ? Deno.args.slice(1) : Deno.args;
const whole = !postgresMajor && args.length === 0;
// the SQL and publishing suites need neither the browser nor the built SPA
if (!postgresMajor) await ensureChromium();
/** The SPA's build, started now; a pass that reads it waits for it first (false: it failed). */
const built: Promise<boolean> = postgresMajor ? Promise.resolve(true) : buildWeb(root).then(() => true, (err) => {
  console.error(`The web build failed: ${err instanceof Error ? err.message : err}`);
  return false;
});
// a subset may read the build anywhere; a whole run keeps what reads it for the last pass
if (!whole && !(await built)) Deno.exit(1);
await Deno.mkdir(resultsDir, { recursive: true });

/**
 * Files that measure Telegram's pace to the tens of milliseconds, where the local Bot API
 * server stamps each message as it arrives. Beside other files on two cores, a stall of the
 * test process bunched the stamps and one of them saw a 429 that the product had not caused;
 * alone, they hold (docs/test-time.md).
 */
const TIMED = ["tests/telegram_budget.test.ts", "tests/rate_gate.test.ts"];

/**
 * Server files that read the built SPA: `npm start` builds it when it looks stale, and the
 * front-end budget measures it. They run after the build, with the timed files.
 */
const READ_THE_BUILD = ["tests/start.test.ts", "tests/web/budget.test.ts"];
/** Browser tests, and the headers' test that signs in through the built SPA in Chromium. */
const BROWSER = ["tests/browser/", "tests/api/headers.test.ts"];

/**
 * The whole suite runs in three passes, while the SPA is built beside the first:
 *   - server: the server's tests, four files at a time (they mostly wait: worker processes
 *     killed and restarted, a PostgreSQL stopped, a slot's minute; with two at a time the
 *     cores sat 45 % idle);
 *   - alone: the timed files, and the server files that read the build, one at a time;
 *   - browser: the browser tests, two at a time, since Chromium keeps both cores busy.
 * Browser tests measure what a user sees within a few seconds; beside tests that start
 * worker processes, whole migration histories and bursts, on two cores, they missed those
 * seconds now and then (a preview, a focus move, a drag's announcement), so they get the
 * machine to themselves. A run with arguments (`npm test -- tests/api`) is one pass, as asked.
 */
const passes: { name: string; args: string[]; needsBuild?: boolean }[] = postgresMajor
  ? [{ name: `pg${postgresMajor}`, args: args.length > 0 ? args : ["tests/sql/", "tests/publishing/"] }]
  : !whole
  ? [{ name: "vitest", args }]
  : [
    { name: "server", args: ["--maxWorkers=4", ...["tests/browser/**", "tests/api/headers.test.ts", ...TIMED, ...READ_THE_BUILD].flatMap((path) => ["--exclude", path])] },
    { name: "alone", args: ["--maxWorkers=1", ...TIMED, ...READ_THE_BUILD], needsBuild: true },
    { name: "browser", args: BROWSER, needsBuild: true },
  ];

let passed = 0;
let failed = 0;
let allSucceeded = true;
for (const pass of passes) {
  if (pass.needsBuild && !(await built)) {
    // nothing to test against: the pass counts as one failure (as a pass without a report)
    failed += 1;
    allSucceeded = false;
    await Deno.writeTextFile(summaryFile(pass.name), JSON.stringify({ passed: 0, failed: 1 }));
    continue;
  }
  const resultsFile = join(resultsDir, `${pass.name}.json`);
  await Deno.remove(resultsFile).catch(() => {});
  await Deno.remove(summaryFile(pass.name)).catch(() => {});
  const passedBefore = passed;
  const failedBefore = failed;
  const status = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      join(root, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${resultsFile}`,
      ...pass.args,
    ],
    cwd: root,
    env: postgresMajor ? { PRESSA_TEST_PG_MAJOR: postgresMajor } : {},
    stdin: "null",
  }).spawn().status;
  allSucceeded &&= status.success;
  try {
    const results = JSON.parse(await Deno.readTextFile(resultsFile));
    passed += results.numPassedTests;
    // A file that fails before running any test (e.g. an import error) counts as one failure.
    const brokenFiles = results.testResults.filter(
      (file: { status: string; assertionResults: unknown[] }) => file.status === "failed" && file.assertionResults.length === 0,
    ).length;
    failed += results.numFailedTests + brokenFiles;
  } catch {
    failed += 1; // no report: the pass did not run
  }
  const summary = { passed: passed - passedBefore, failed: failed - failedBefore };
  await Deno.writeTextFile(summaryFile(pass.name), JSON.stringify(summary));
}
console.log(`${passed} passed, ${failed} failed`);
Deno.exit(allSucceeded && failed === 0 && passed > 0 ? 0 : 1);
