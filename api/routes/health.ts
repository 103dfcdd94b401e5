/* Liveness for load balancers and the Dockerfile's HEALTHCHECK: is the database reachable? */
import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";

export function healthRoutes({ sql }: ApiDeps) {
  return new Hono<AppEnv>().get("/", async (c) => {
    try {
      await sql`select 1`;
      return c.json({ ok: true, database: "ok" });
    } catch {
      return c.json({ message: "The database is not reachable", code: "unavailable" }, 503);
    }
  });
}
