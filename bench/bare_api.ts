/*
 * The bare baseline of `npm run bench:api`: Hono and postgres.js (the product's driver
 * settings, core/db.ts, and its pool of 5) answering the hot reads with the very SQL the API
 * sends (the routes' column lists, the same functions and version column) and the same JSON,
 * with none of the product around it: no session, no validation, no error mapping, no log,
 * no security headers. The distance between this and the API is what the product's layers
 * cost. Run by bench/api.ts: `deno run -A bench/bare_api.ts <port> <DATABASE_URL> <userId>`.
 */
import { Hono } from "hono";
import { connect } from "../core/db.ts";
import { CALENDAR_COLUMNS } from "../api/routes/posts.ts";
import { POST_COLUMNS } from "../api/post_columns.ts";
import { DRAFT_COLUMNS, SUMMARY_COLUMNS } from "../api/routes/drafts.ts";

const [port, url, user] = Deno.args;
const userId = Number(user);
const sql = connect(url, { max: 5 });

type Versioned = { listVersion: string | number | null };

/** The version read alone for a 304, or the rows beside it: the API's two statements. */
async function answer(ifNoneMatch: string | undefined, version: () => ReturnType<typeof sql>, rows: (v: ReturnType<typeof sql>) => Promise<Versioned[]>) {
  if (ifNoneMatch) {
    const [{ listVersion }] = await sql<Versioned[]>`select ${version()} as list_version`;
    if (ifNoneMatch === `"v${listVersion}"`) return new Response(null, { status: 304, headers: { ETag: ifNoneMatch } });
  }
  const listed = await rows(sql`(select ${version()}) as list_version`);
  const tag = `"v${listed[0]?.listVersion}"`;
  return new Response(JSON.stringify(listed.map(({ listVersion: _, ...row }) => row)), {
    headers: { ETag: tag, "Content-Type": "application/json" },
  });
}

const app = new Hono()
  .get("/posts/:projectId", (c) => {
    const projectId = Number(c.req.param("projectId"));
    const { from, to, view } = c.req.query();
    const columns = sql.unsafe(view === "calendar" ? CALENDAR_COLUMNS : POST_COLUMNS);
    return answer(
      c.req.header("if-none-match"),
      () => sql`app_public.posts_version(${userId}, ${projectId})`,
      (version) => sql<Versioned[]>`select ${version}, ${columns} from app_public.project_posts_between(${userId}, ${projectId}, ${from}, ${to})`,
    );
  })
  .get("/drafts/:projectId", (c) => {
    const projectId = Number(c.req.param("projectId"));
    const columns = sql.unsafe(c.req.query("view") === "list" ? SUMMARY_COLUMNS : DRAFT_COLUMNS);
    return answer(
      c.req.header("if-none-match"),
      () => sql`app_public.drafts_version(${userId}, ${projectId})`,
      (version) => sql<Versioned[]>`select ${version}, ${columns} from app_public.project_drafts(${userId}, ${projectId})`,
    );
  });

Deno.serve({ port: Number(port), hostname: "127.0.0.1", onListen() {} }, app.fetch);
