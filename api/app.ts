/*
 * The HTTP application. main.ts serves it; tests build the same app with their own
 * dependencies and call app.request(...) or serve it on a random port.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { ApiDeps } from "./deps.ts";
import type { AppEnv } from "./env.ts";
import { ApiError, errorHandler, notFound } from "./errors.ts";
import { requestLog } from "./middleware/request.ts";
import { sameOrigin } from "./middleware/same_origin.ts";
import { loadSession } from "./middleware/session.ts";
import { authRoutes } from "./routes/auth.ts";
import { healthRoutes } from "./routes/health.ts";
import { projectRoutes } from "./routes/projects.ts";
import { serveSpa } from "./static.ts";

/** JSON bodies are small; uploads (multipart) get their own, larger limit on their route. */
const JSON_BODY_LIMIT = 1024 * 1024;

export function createApp(deps: ApiDeps) {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(deps.log));
  app.use(requestLog(deps.log));
  app.use(secureHeaders({ crossOriginEmbedderPolicy: false }));

  const api = new Hono<AppEnv>();
  api.use(sameOrigin(deps.config.publicUrl));
  api.use(async (c, next) => {
    if (c.req.header("content-type")?.startsWith("multipart/form-data")) return next();
    return bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new ApiError(413, "tooLarge", "The request body is too large");
      },
    })(c, next);
  });
  api.use(loadSession(deps.sql, deps.config.publicUrl.startsWith("https://")));
  api.route("/health", healthRoutes(deps));
  api.route("/auth", authRoutes(deps));
  api.route("/projects", projectRoutes(deps));
  api.notFound(notFound);

  app.route("/api", api);
  if (deps.webDist) app.get("*", serveSpa(deps.webDist));
  app.notFound(notFound);
  return app;
}
