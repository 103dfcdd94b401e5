/*
 * `npm run bench:api` (not part of the tests): the API under load on the real database.
 * Seeds 1,000 users, 5,000 projects and 100,000 drafts and posts, starts the API as its own
 * process (as `npm start` does), signs in, and drives the hot reads and a write mix with
 * autocannon over loopback at 50 connections. For scale, the same load on a bare
 * `Deno.serve` JSON endpoint gives this machine's ceiling.
 * Targets (2 cores): every hot read ≥ 1,500 requests/s, p99 ≤ 50 ms, zero errors.
 * Also prints the cores used by the API, PostgreSQL and this process (the load generator).
 * At scale: one project of user 1 holds 10,000 posts over three years and 5,000 drafts; its
 * month read, the 304 revalidation, the whole list, its drafts list and a draft's move are
 * measured next to the same month read of a project with 10 posts.
 * Reads cost what they show (issue 25): two projects hold the same 126 posts in a month's grid
 * (42 days), one of them also 2,874 planned posts after it, every post holding a draft; the
 * calendar's lean read of both, the month's whole posts, and the 5,000 drafts' lean list and
 * its 304 are each measured beside a bare Hono + postgres.js handler (bench/bare_api.ts) that
 * runs the same SQL and prints the same JSON, in the same run; then the lean views' bytes per item.
 * Knobs: BENCH_SECONDS, BENCH_ONLY (one path, "{id}" for the project; BENCH_REVALIDATE=1 sends
 * its ETag back, the 304 path), BENCH_PROFILE (a
 * folder for the API's CPU profile), BENCH_API_PROCESSES (API processes sharing the port).
 */
import autocannon from "autocannon";
import { connect } from "../core/db.ts";
import { startEmbeddedPostgres, freePort } from "../scripts/postgres.ts";
import { createDevelopmentDatabases } from "../sql/migrate.ts";

const USERS = 1000, PROJECTS = 5000, DRAFTS = 50_000, POSTS = 50_000;
const CONNECTIONS = 50;
const DURATION_S = Number(Deno.env.get("BENCH_SECONDS") ?? 10);

const dir = await Deno.makeTempDir({ prefix: "pressa-bench-api-" });
await Deno.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(dir, () => {});
// the migrations, then the work in progress (current/*.sql, edited sql/functions/) on developers' runs
const { url } = await createDevelopmentDatabases(pg.adminUrl, "bench");
const sql = connect(url, { max: 4 });

console.log("Seeding 1,000 users, 5,000 projects, 50,000 drafts and 50,000 posts…");
await sql`insert into app_public.users (email) select 'user' || i || '@example.com' from generate_series(1, ${USERS}) i`;
await sql`insert into app_public.projects (user_id, name, admin_handle, description)
  select 1 + (i % ${USERS}), 'Project ' || i, 'admin_' || i, 'A channel about topic ' || i from generate_series(1, ${PROJECTS}) i`;
await sql`insert into app_public.drafts (project_id, title, content, sort_order)
  select 1 + (i % ${PROJECTS}), 'Draft ' || i, repeat('Text of the draft. ', 20), i % 10 from generate_series(1, ${DRAFTS}) i`;
await sql`insert into app_public.posts (project_id, title, content, scheduled_for, status)
  select 1 + (i % ${PROJECTS}), 'Post ' || i, repeat('Text of the post. ', 20), now() + (i % 60) * interval '1 day',
         (array['draft','published','scheduled','rejected'])[1 + i % 4] from generate_series(1, ${POSTS}) i`;
// At scale: a channel posting four times a day for three years (half behind, half ahead), 5,000 drafts.
const [big] = await sql<{ id: number }[]>`insert into app_public.projects (user_id, name, admin_handle)
  values (1, 'Long history', 'admin_long') returning id`;
await sql`insert into app_public.posts (project_id, title, content, scheduled_for, status, published_at)
  select ${big.id}, 'Post ' || i, repeat('Text of the post. ', 20), t, case when t < now() then 'published' else 'draft' end,
         case when t < now() then t end
  from generate_series(0, 9999) as i, lateral (select now() - interval '548 days' + i * interval '6 hours' as t) x`;
await sql`insert into app_public.drafts (project_id, title, content, sort_order)
  select ${big.id}, 'Draft ' || i, repeat('Text of the draft. ', 20), i from generate_series(1, 5000) i`;
const [small] = await sql<{ id: number }[]>`insert into app_public.projects (user_id, name, admin_handle)
  values (1, 'Ten posts', 'admin_small') returning id`;
// The calendar's grid of this month (as the app asks for it): 42 days from the 1st.
const monthStart = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
const monthEnd = new Date(monthStart.getTime() + 42 * 86_400_000);
const grid = `from=${monthStart.toISOString()}&to=${monthEnd.toISOString()}`;
/** A project whose 126 posts fill the grid (one every 8 hours) and `after` more are planned past it, 3 hours apart; each holds its own draft. */
async function plannedProject(name: string, after: number) {
  const [p] = await sql<{ id: number }[]>`insert into app_public.projects (user_id, name, admin_handle) values (1, ${name}, 'admin_planned') returning id`;
  await sql`with d as (
      insert into app_public.drafts (project_id, title, content, sort_order)
      select ${p.id}, 'Draft ' || i, repeat('Text of the draft. ', 20), i from generate_series(1, ${126 + after}) i
      returning id, sort_order)
    insert into app_public.posts (project_id, draft_id, title, content, scheduled_for, status)
    select ${p.id}, d.id, 'Post ' || d.sort_order, repeat('Text of the post. ', 20),
      case when d.sort_order <= 126 then ${monthStart}::timestamptz + (d.sort_order - 1) * interval '8 hours'
           else ${monthEnd}::timestamptz + (d.sort_order - 126) * interval '3 hours' end,
      'draft'
    from d`;
  return p.id;
}
const windowOnly = await plannedProject("The window's 126 posts", 0);
const planned = await plannedProject("The same 126 among 3,000 planned", 2874);
await sql`insert into app_public.posts (project_id, title, content, scheduled_for, status)
  select ${small.id}, 'Post ' || i, repeat('Text of the post. ', 20), now() + i * interval '2 days', 'draft'
  from generate_series(1, 10) as i`;
await sql`analyze`;

// a session for user1@example.com, made the way sign-in makes it
const token = "a".repeat(32);
const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
const sessionId = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
await sql`insert into app_private.sessions (id, user_id, expires_at) values (${sessionId}, 1, now() + interval '30 days')`;
const [project] = await sql<{ id: number }[]>`select id from app_public.projects where user_id = 1 order by id limit 1`;

const port = await freePort();
const API_PROCESSES = Number(Deno.env.get("BENCH_API_PROCESSES") ?? 1);
const apis = Array.from({ length: API_PROCESSES }, () => new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", ...(API_PROCESSES > 1 ? ["--unstable-net"] : []), ...(Deno.env.get("BENCH_PROFILE") ? ["--cpu-prof", `--cpu-prof-dir=${Deno.env.get("BENCH_PROFILE")}`] : []), new URL("../main/api.ts", import.meta.url).pathname, ...(API_PROCESSES > 1 ? ["--reuse-port"] : [])],
  env: { DATABASE_URL: url, PORT: String(port), DATA_DIR: dir },
  stdin: "null",
  stdout: "null",
  stderr: "piped",
}).spawn());

// keep the API's warnings, errors and anything not a log line (a crash) to explain any non-2xx
const apiProblems: string[] = [];
for (const api of apis) (async () => {
  const decoder = new TextDecoder();
  let rest = "";
  for await (const chunk of api.stderr) {
    const lines = (rest + decoder.decode(chunk)).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) if ((!line.startsWith("{") && !line.includes("DeprecationWarning")) || /"level":"(warn|error)"|"status":[45]\d\d/.test(line)) apiProblems.push(line);
  }
})();
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/api/health`)).ok) break;
  } catch { /* starting */ }
  await new Promise((r) => setTimeout(r, 100));
}

// The bare baseline: the same SQL and JSON without the product's layers (bench/bare_api.ts).
const barePort = await freePort();
const bareServer = new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("./bare_api.ts", import.meta.url).pathname, String(barePort), url, "1"],
  stdin: "null", stdout: "null", stderr: "inherit",
}).spawn();
const bareBase = `http://127.0.0.1:${barePort}`;

const ceilingPort = await freePort();
const ceiling = new Deno.Command(Deno.execPath(), {
  args: ["eval", `Deno.serve({ port: ${ceilingPort}, hostname: "127.0.0.1", onListen() {} }, () => Response.json({ ok: true, items: [1, 2, 3] }))`],
  stdin: "null", stdout: "null", stderr: "null",
}).spawn();
await new Promise((r) => setTimeout(r, 800));

/** CPU seconds used so far by the API, by PostgreSQL's processes and by this process (the load generator). */
async function cpuSeconds() {
  const ticks = async (pid: string) => {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return { comm: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ticks: Number(fields[11]) + Number(fields[12]) };
    } catch {
      return { comm: "", ticks: 0 }; // exited meanwhile
    }
  };
  let postgres = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const p = await ticks(entry.name);
    if (p.comm === "postgres") postgres += p.ticks;
  }
  const HZ = 100;
  let apiTicks = 0;
  for (const api of apis) apiTicks += (await ticks(String(api.pid))).ticks;
  const bareTicks = (await ticks(String(bareServer.pid))).ticks;
  return { api: apiTicks / HZ, bare: bareTicks / HZ, postgres: postgres / HZ, generator: (await ticks("self")).ticks / HZ };
}

type Row = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; cpu?: { api: number; postgres: number; generator: number } };
const rows: Row[] = [];
async function load(name: string, { bare: isBare = false, ...opts }: autocannon.Options & { bare?: boolean }) {
  const before = await cpuSeconds();
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_S, ...opts });
  const after = await cpuSeconds();
  const share = (key: keyof typeof before) => (after[key] - before[key]) / DURATION_S;
  rows.push({
    // on a bare row, the "API" column is the bare handler's process
    cpu: opts.url.includes(String(ceilingPort)) ? undefined : { api: share(isBare ? "bare" : "api"), postgres: share("postgres"), generator: share("generator") },
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  });
}
const headers = { cookie: `pressa_session=${token}` };
await load("Deno.serve JSON (ceiling)", { url: `http://127.0.0.1:${ceilingPort}/` });
// Reads cost what they show (issue 25): each hot read beside the bare handler, same SQL, same JSON.
const pairs: { name: string; product: string; bare: string; connections?: number; revalidate?: boolean }[] = [
  { name: "month of 126 posts, calendar view", product: `/api/projects/${windowOnly}/posts?${grid}&view=calendar`, bare: `/posts/${windowOnly}?${grid}&view=calendar` },
  { name: "the same 126 among 3,000 planned, calendar", product: `/api/projects/${planned}/posts?${grid}&view=calendar`, bare: `/posts/${planned}?${grid}&view=calendar` },
  { name: "month of 126 posts, whole posts", product: `/api/projects/${windowOnly}/posts?${grid}`, bare: `/posts/${windowOnly}?${grid}` },
  { name: "drafts list of 5,000, lean (?view=list)", product: `/api/projects/${big.id}/drafts?view=list`, bare: `/drafts/${big.id}?view=list`, connections: 10 },
  { name: "drafts list of 5,000, 304", product: `/api/projects/${big.id}/drafts?view=list`, bare: `/drafts/${big.id}?view=list`, revalidate: true },
];
const sameJson: string[] = [];
const only = Deno.env.get("BENCH_ONLY");
if (only) {
  // BENCH_REVALIDATE=1: as a refetch, with the answer's own ETag (the 304 path)
  const url = `${base}${only.replace("{id}", String(project.id))}`;
  const tag = Deno.env.get("BENCH_REVALIDATE") ? (await fetch(url, { headers })).headers.get("etag") : null;
  await load(only, { url, headers: tag ? { ...headers, "if-none-match": tag } : headers });
} else {
await load("GET /api/auth/user", { url: `${base}/api/auth/user`, headers });
await load("GET /api/projects", { url: `${base}/api/projects`, headers });
await load(`GET /api/projects/{id}/drafts`, { url: `${base}/api/projects/${project.id}/drafts`, headers });
await load(`GET /api/projects/{id}/posts`, { url: `${base}/api/projects/${project.id}/posts`, headers });

// At scale: this month's grid (as the calendar asks for it), the 304, the whole list, drafts.
await load("month of 10 posts", { url: `${base}/api/projects/${small.id}/posts?${grid}`, headers });
await load("month of 10,000 posts", { url: `${base}/api/projects/${big.id}/posts?${grid}`, headers });
// the same project, a range holding 10 of its posts (2.5 days): its history costs nothing
const tenStart = new Date(monthStart.getTime() + 10 * 86_400_000);
const ten = `from=${tenStart.toISOString()}&to=${new Date(tenStart.getTime() + 2.5 * 86_400_000 - 60_000).toISOString()}`;
await load("10 of 10,000 posts (2.5 days)", { url: `${base}/api/projects/${big.id}/posts?${ten}`, headers });
const tag = (await fetch(`${base}/api/projects/${big.id}/posts?${grid}`, { headers })).headers.get("etag")!;
await load("month of 10,000 posts, 304", { url: `${base}/api/projects/${big.id}/posts?${grid}`, headers: { ...headers, "if-none-match": tag } });
await load("all 10,000 posts (no range)", { url: `${base}/api/projects/${big.id}/posts`, headers, connections: 10 });
await load("drafts list of 5,000", { url: `${base}/api/projects/${big.id}/drafts`, headers, connections: 10 });
// moves of drafts among the 5,000 (each a different draft after another, as drops are)
const bigDrafts = await sql<{ id: number }[]>`select id from app_public.drafts where project_id = ${big.id} order by id`;
let m = 0;
await load("move a draft among 5,000", {
  url: base,
  headers: { ...headers, "content-type": "application/json" },
  connections: 10,
  requests: [{
    method: "POST",
    setupRequest: (r: autocannon.Request) => {
      const i = (m++ * 7919) % bigDrafts.length;
      const after = bigDrafts[(i * 31 + 17) % bigDrafts.length].id;
      return { ...r, path: `/api/projects/${big.id}/drafts/${bigDrafts[i].id}/move`, body: JSON.stringify({ afterId: after === bigDrafts[i].id ? null : after }) };
    },
  }],
});
/**
 * The pairs run interleaved, product and bare handler in turn in 2-second slices, so that
 * load from outside the benchmark (other work on the machine) falls on both alike; a row's
 * figures are its slices' requests over its whole time, and the mean of their p50 and p99.
 */
async function interleaved(entries: { name: string; opts: autocannon.Options & { bare?: boolean } }[]) {
  const SLICE_S = 2;
  const totals = entries.map(() => ({ requests: 0, p50: 0, p99: 0, errors: 0, non2xx: 0, slices: 0, cpu: { api: 0, postgres: 0, generator: 0 } }));
  for (let round = 0; round < Math.max(1, Math.round(DURATION_S / SLICE_S)); round++) {
    for (const [i, { opts: { bare: isBare = false, ...opts } }] of entries.entries()) {
      const before = await cpuSeconds();
      const result = await autocannon({ connections: CONNECTIONS, ...opts, duration: SLICE_S });
      const after = await cpuSeconds();
      const t = totals[i];
      t.requests += result.requests.total;
      t.p50 += result.latency.p50;
      t.p99 += result.latency.p99;
      t.errors += result.errors + result.timeouts;
      t.non2xx += result.non2xx;
      t.slices += 1;
      t.cpu.api += after[isBare ? "bare" : "api"] - before[isBare ? "bare" : "api"];
      t.cpu.postgres += after.postgres - before.postgres;
      t.cpu.generator += after.generator - before.generator;
    }
  }
  for (const [i, { name }] of entries.entries()) {
    const t = totals[i];
    const seconds = t.slices * SLICE_S;
    rows.push({
      name,
      rps: t.requests / seconds,
      p50: Math.round(t.p50 / t.slices),
      p99: Math.round(t.p99 / t.slices),
      errors: t.errors,
      non2xx: t.non2xx,
      cpu: { api: t.cpu.api / seconds, postgres: t.cpu.postgres / seconds, generator: t.cpu.generator / seconds },
    });
  }
}
// the two calendar reads and their bare twins together: their ratio is the issue's target
const pairEntries = async (pair: (typeof pairs)[number]) => {
  const mine = await fetch(`${base}${pair.product}`, { headers });
  const theirs = await fetch(`${bareBase}${pair.bare}`);
  const [mineBody, theirBody] = [await mine.text(), await theirs.text()];
  if (mineBody !== theirBody) sameJson.push(`${pair.name}: the bare handler's JSON differs (${mineBody.length} against ${theirBody.length} characters)`);
  const revalidate = (tag: string | null) => (pair.revalidate ? { "if-none-match": tag ?? "" } : {});
  const connections = pair.connections ? { connections: pair.connections } : {};
  return [
    { name: pair.name, opts: { url: `${base}${pair.product}`, headers: { ...headers, ...revalidate(mine.headers.get("etag")) }, ...connections } },
    { name: `  bare: ${pair.name}`, opts: { url: `${bareBase}${pair.bare}`, headers: revalidate(theirs.headers.get("etag")), ...connections, bare: true } },
  ];
};
if (!only) {
  await interleaved([...(await pairEntries(pairs[0])), ...(await pairEntries(pairs[1]))]);
  for (const pair of pairs.slice(2)) await interleaved(await pairEntries(pair));
}

let n = 0;
await load("write mix: POST draft + PATCH project", {
  url: base,
  headers: { ...headers, "content-type": "application/json" },
  requests: [
    { method: "POST", path: `/api/projects/${project.id}/drafts`, setupRequest: (r: autocannon.Request) => ({ ...r, body: JSON.stringify({ title: `Load ${n++}` }) }) },
    { method: "PATCH", path: `/api/projects/${project.id}`, body: JSON.stringify({ description: "Updated under load" }) },
  ],
});
}

const ceilingRps = rows[0].rps;
console.log(`\nAPI benchmark (${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ${CONNECTIONS} connections, ${DURATION_S} s each)`);
console.log("endpoint".padEnd(52), "req/s".padStart(8), "p50 ms".padStart(8), "p99 ms".padStart(8), "errors".padStart(7), "non-2xx".padStart(8), "of ceiling".padStart(11), "  cores used: API / PostgreSQL / load generator");
for (const r of rows) {
  const cores = r.cpu ? `  ${r.cpu.api.toFixed(2)} / ${r.cpu.postgres.toFixed(2)} / ${r.cpu.generator.toFixed(2)}` : "";
  console.log(r.name.padEnd(52), r.rps.toFixed(0).padStart(8), String(r.p50).padStart(8), String(r.p99).padStart(8), String(r.errors).padStart(7), String(r.non2xx).padStart(8), `${((r.rps / ceilingRps) * 100).toFixed(1)}%`.padStart(11), cores);
}
console.log("targets: every hot read ≥ 1500 req/s, p99 ≤ 50 ms, 0 errors");
if (!only) {
  const rps = (name: string) => rows.find((r) => r.name === name)!.rps;
  console.log("\nThe product against the bare Hono + postgres.js handler (same SQL, same JSON; 100% = as fast):");
  for (const pair of pairs) {
    console.log(`  ${pair.name.padEnd(44)} ${((rps(pair.name) / rps(`  bare: ${pair.name}`)) * 100).toFixed(0)}%`);
  }
  for (const problem of sameJson) console.log(`  ${problem}`);
  if (sameJson.length === 0) console.log("  every bare answer was byte for byte the product's");
  const ratio = rps(pairs[1].name) / rps(pairs[0].name);
  console.log(`Ranged read of the project with 3,000 planned posts against the one holding only the window's 126: ${ratio.toFixed(2)} (target ≥ 0.8)`);
  // bytes per item of each lean view, beside the whole objects they stand for
  const perItem = async (path: string) => {
    const body = await (await fetch(`${base}${path}`, { headers })).text();
    const items = (JSON.parse(body) as unknown[]).length;
    const bytes = new TextEncoder().encode(body).length;
    return `${(bytes / items).toFixed(0)} B per item (${items} items, ${(bytes / 1024).toFixed(0)} KiB)`;
  };
  console.log("Bytes per item (the bench's texts: a post's ~360 characters, a draft's ~380):");
  console.log(`  posts, ?view=calendar   ${await perItem(`/api/projects/${windowOnly}/posts?${grid}&view=calendar`)}`);
  console.log(`  posts, whole            ${await perItem(`/api/projects/${windowOnly}/posts?${grid}`)}`);
  console.log(`  drafts, ?view=list      ${await perItem(`/api/projects/${big.id}/drafts?view=list`)}`);
  console.log(`  drafts, whole           ${await perItem(`/api/projects/${big.id}/drafts`)}`);
}
if (apiProblems.length) console.log(`\nAPI warnings, errors and non-2xx answers (${apiProblems.length}):\n${apiProblems.slice(0, 10).join("\n")}`);

for (const api of apis) api.kill("SIGTERM");
ceiling.kill("SIGTERM");
bareServer.kill("SIGTERM");
await Promise.all([...apis.map((api) => api.status), ceiling.status, bareServer.status]);
await sql.end();
await pg.stop();
await Deno.remove(dir, { recursive: true });
