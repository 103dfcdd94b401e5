/*
 * Safe retries (docs/api.md, DESIGN.md "Idempotency" and "Preconditions").
 *
 * `idempotent`: a creating POST with `Idempotency-Key` runs its SQL in one transaction with
 * the key's claim and its stored answer, so a crash between the creation and the record of
 * its answer cannot leave a copy behind. The same key again answers the first answer (same
 * status and body, `Idempotent-Replayed: true`) and creates nothing; another body under the
 * key is 422; a request while the first runs waits for it. A failed first attempt keeps
 * nothing, so its retry runs.
 *
 * `ifMatch`: an update with `If-Match` compares it with the draft's or post's current
 * version while holding the row, in the update's transaction: a stale one is 412 and
 * nothing changes.
 *
 * Both take the route's `outside` work: what must run before any transaction opens, because it
 * waits on something other than PostgreSQL (a question to Telegram may take seconds under its
 * rate limits, and inside the transaction it would hold one of the pool's few connections, the
 * key's claim and, with If-Match, the row's lock all that time). It runs with or without the
 * headers, so the route does not run it itself; a replay does not run it (it answers what the
 * first request answered, whatever Telegram would say now).
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Sql } from "../../core/db.ts";
import { ApiError } from "../../core/errors.ts";
import type { AppEnv } from "../env.ts";
import { currentUser } from "../env.ts";
import { idParam } from "../validate.ts";

/** The database a handler talks to: the request's transaction when a middleware opened one. */
export const dbOf = (c: Context<AppEnv>, sql: Sql): Sql => (c.get("db") as Sql | undefined) ?? sql;

/** Thrown inside the transaction to undo it while the handler's own answer still goes out. */
class Undo extends Error {}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Work a route does before its transaction, outside it (see above). */
// deno-lint-ignore no-explicit-any -- any route's validated input: the route reads its own
export type Outside = (c: Context<AppEnv, any, any>) => Promise<void>;

type Stored = { status: number | null; answer: string | null; mismatch: boolean };

function replayOf(prior: Stored): Response {
  if (prior.mismatch) throw new ApiError("idempotency.mismatch");
  return new Response(prior.answer, {
    status: prior.status ?? 409,
    headers: { "content-type": "application/json", "idempotent-replayed": "true" },
  });
}

export function idempotent(sql: Sql, outside?: Outside): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header("idempotency-key");
    if (key === undefined) {
      await outside?.(c);
      return await next();
    }
    if (key.length < 1 || key.length > 255) throw new ApiError("idempotency.keyInvalid");
    const userId = currentUser(c).id;
    const fingerprint = await sha256(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
    if (outside) {
      // an answer already stored replays at once, without the outside work or a transaction
      const [stored] = await sql<Stored[]>`select * from app_public.idempotent_answer(${userId}, ${key}, ${fingerprint})`;
      if (stored) return replayOf(stored);
      await outside(c);
    }
    let replay: Response | undefined;
    try {
      await sql.begin(async (tx) => {
        const [prior] = await tx<Stored[]>`select * from app_public.begin_idempotent(${userId}, ${key}, ${fingerprint})`;
        if (prior) {
          replay = replayOf(prior);
          return;
        }
        c.set("db", tx);
        await next();
        c.set("db", undefined);
        if (c.res.status >= 300) throw new Undo();
        const answer = await c.res.clone().text();
        await tx`select app_public.finish_idempotent(${userId}, ${key}, ${c.res.status}, ${answer})`;
      });
    } catch (err) {
      if (!(err instanceof Undo)) throw err;
    }
    if (replay) return replay;
  };
}

export function ifMatch(sql: Sql, kind: "draft" | "post", idName: string, outside?: Outside): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.req.header("if-match");
    await outside?.(c);
    if (expected === undefined) return await next();
    const userId = currentUser(c).id;
    const projectId = idParam(c.req.param("projectId"));
    const id = idParam(c.req.param(idName));
    try {
      await sql.begin(async (tx) => {
        const [{ etag }] = await tx<{ etag: string }[]>`select app_public.lock_current_etag(${userId}, ${projectId}, ${kind}, ${id}) as etag`;
        const wanted = expected.split(",").map((tag) => tag.trim());
        if (!wanted.includes(etag) && !wanted.includes("*")) throw new ApiError("precondition.failed");
        c.set("db", tx);
        await next();
        c.set("db", undefined);
        if (c.res.status >= 300) throw new Undo();
      });
    } catch (err) {
      if (!(err instanceof Undo)) throw err;
    }
  };
}
