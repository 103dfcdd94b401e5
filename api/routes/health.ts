/*
 * Health for load balancers and the Dockerfile's HEALTHCHECK. 200 while the database is
 * reachable; the worker's and the bot's heartbeats are reported alongside (a stopped
 * worker does not make the API unhealthy, but operators see it here).
 */
import { Hono } from "hono";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { answer } from "../errors.ts";

export function healthRoutes({ sql, config }: ApiDeps) {
  return new Hono<AppEnv>().get("/", async (c) => {
    try {
      const [h] = await sql<{ workerAlive: boolean; botAlive: boolean; botSeen: boolean }[]>`select * from app_public.health()`;
      return c.json({
        ok: true,
        database: "ok",
        worker: h.workerAlive ? "ok" : "down",
        bot: !config.telegramBotToken ? "disabled" : h.botAlive ? "ok" : "down",
      });
    } catch {
      return answer(c, new ApiError("health.databaseUnreachable"));
    }
  });
}
