/*
 * The Telegram sandbox seen from the SPA (docs/sandbox.md): the simulated approver's chat
 * with the bot and the simulated channel, read from the sandbox's control server and acted
 * on as its admin would in a Telegram client. Mounted only while `npm run demo` runs the
 * sandbox (PRESSA_SANDBOX_URL); otherwise every /api/sandbox path is the API's 404.
 * Anyone signed in may act as the sandbox's admin: that is why it never runs on a public
 * address (core/startup_checks.ts sandboxProblem).
 */
import { Hono } from "hono";
import { SandboxPressSchema } from "../../contract/sandbox.ts";
import type { ApiDeps } from "../deps.ts";
import type { AppEnv } from "../env.ts";
import { ApiError } from "../../core/errors.ts";
import { requireUser } from "../middleware/session.ts";
import { body } from "../validate.ts";

export function sandboxRoutes(sandboxUrl: string) {
  const control = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${sandboxUrl}${path}`, init).catch((cause) => {
      throw new ApiError("internal", { cause });
    });
    if (res.status === 404) {
      await res.body?.cancel();
      throw new ApiError("notFound");
    }
    if (!res.ok) throw new ApiError("internal", { cause: `sandbox ${path}: ${res.status} ${await res.text()}` });
    return res;
  };
  return new Hono<AppEnv>()
    .use(requireUser)
    .get("/", async (c) => c.json(await (await control("/view")).json()))
    .post("/start", async (c) => c.json(await (await control("/start", { method: "POST" })).json()))
    .post("/press", body(SandboxPressSchema), async (c) => {
      const pressed = await control("/press", { method: "POST", body: JSON.stringify(c.req.valid("json")) });
      return c.json(await pressed.json());
    })
    .get("/files/:fileId{[\\w-]+}", async (c) => {
      const file = await control(`/files/${c.req.param("fileId")}`);
      return c.body(await file.arrayBuffer(), 200, {
        "content-type": file.headers.get("content-type") ?? "application/octet-stream",
        "cache-control": "private, max-age=3600",
      });
    });
}

/** The routes while the sandbox runs; none (the API's 404) otherwise. */
export function sandboxRoutesOf({ config }: Pick<ApiDeps, "config">) {
  return config.sandboxUrl ? sandboxRoutes(config.sandboxUrl) : undefined;
}
