/*
 * The HTTP application. main.ts serves it; tests build the same app with their own
 * dependencies and call app.request(...) or serve it on a random port.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { IMAGE_MAX_BYTES } from "../contract/limits.ts";
import type { ApiDeps } from "./deps.ts";
import type { AppEnv } from "./env.ts";
import { ApiError } from "../core/errors.ts";
import { errorHandler, notFound } from "./errors.ts";
import { HTTP_DURATION_BOUNDS, requestLog } from "./middleware/request.ts";
import { sameOrigin } from "./middleware/same_origin.ts";
import { loadSession } from "./middleware/session.ts";
import { accountShare } from "./middleware/account_share.ts";
import { loadApiToken, tokenScope } from "./middleware/api_token.ts";
import { tokenRoutes } from "./routes/tokens.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import { mcpRoutes } from "./routes/mcp.ts";
import { docsRoutes } from "./routes/docs.ts";
import { adminRoutes } from "./routes/admin.ts";
import { aiRoutes } from "./routes/ai.ts";
import { authRoutes } from "./routes/auth.ts";
import { bugReportRoutes } from "./routes/bug_reports.ts";
import { botRoutes, channelRoutes } from "./routes/channels.ts";
import { inviteLinkRoutes, statsRoutes } from "./routes/stats.ts";
import { adRoutes } from "./routes/ads.ts";
import { contentPlanRoutes, queueHealthRoutes } from "./routes/content_plans.ts";
import { notificationRoutes } from "./routes/notifications.ts";
import { draftRoutes } from "./routes/drafts.ts";
import { postRoutes } from "./routes/posts.ts";
import { reviewRoutes } from "./routes/review.ts";
import { commentRoutes } from "./routes/comments.ts";
import { projectUploadRoutes, uploadServingRoutes } from "./routes/uploads.ts";
import { healthRoutes } from "./routes/health.ts";
import { metricsRoutes } from "./routes/metrics.ts";
import { LocalHistogram } from "../core/metrics.ts";
import { projectRoutes } from "./routes/projects.ts";
import { activityRoutes } from "./routes/activity.ts";
import { acceptInvitationRoutes, invitationRoutes, memberRoutes } from "./routes/team.ts";
import { telegramWebhookRoutes } from "./routes/telegram_webhook.ts";
import { sandboxRoutesOf } from "./routes/sandbox.ts";
import { serveSpa } from "./static.ts";
import { openApiDocument } from "./openapi.ts";
import { API_VERSION } from "./version.ts";

/**
 * Every body is cut off while it streams in, so a huge upload is never buffered: JSON
 * bodies are small; a multipart body carries at most one image of ≤ 10 MB (plus room for
 * the multipart envelope).
 */
const JSON_BODY_LIMIT = 1024 * 1024;
const MULTIPART_BODY_LIMIT = IMAGE_MAX_BYTES + 64 * 1024;
const tooLarge = (): never => {
  throw new ApiError("tooLarge");
};
const imageTooBig = (): never => {
  throw new ApiError("drafts.imageTooBig");
};

export function createApp(deps: ApiDeps) {
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(deps.log));
  // HTTP durations are the one per-process series: labelled with this process, as each
  // API instance sees only its own requests
  const httpDurations = new LocalHistogram(HTTP_DURATION_BOUNDS);
  app.use(requestLog(deps.log, { histogram: httpDurations, instance: `${Deno.hostname()}:${Deno.pid}` }));
  app.use(secureHeaders({ crossOriginEmbedderPolicy: false }));

  const api = new Hono<AppEnv>();
  const session = loadSession(deps.sql, deps.config.publicUrl.startsWith("https://"));
  api.use(sameOrigin(deps.config.publicUrl));
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: tooLarge });
  const multipartLimit = bodyLimit({ maxSize: MULTIPART_BODY_LIMIT, onError: imageTooBig });
  api.use((c, next) =>
    c.req.header("content-type")?.startsWith("multipart/form-data") ? multipartLimit(c, next) : jsonLimit(c, next)
  );
  // a bearer token, when a request carries one, is who it is; else the session cookie
  api.use(loadApiToken(deps.sql, deps.config.limits.apiTokenRequestsPerMinute));
  api.use(async (c, next) => c.get("apiToken") ? await next() : await session(c, next));
  api.use(tokenScope);
  // Each MCP tool is a request to this very app, with the caller's token, and that request
  // takes its account's share itself. The MCP exchange around it holds no connection while
  // it waits, so it is mounted before the share: holding a slot there, two exchanges of one
  // account at once would each wait for the other's slot for their tools, for ever.
  api.route("/mcp", mcpRoutes((request, env) => app.fetch(request, env)));
  api.use(accountShare());
  api.route("/health", healthRoutes(deps));
  api.route("/auth", authRoutes(deps));
  api.route("/projects", projectRoutes(deps));
  api.route("/projects/:projectId/drafts", draftRoutes(deps));
  api.route("/projects/:projectId/channels", channelRoutes(deps));
  // before the posts' own routes: `GET …/posts/review` is the queue, not a post's id
  api.route("/projects/:projectId/posts", reviewRoutes(deps));
  api.route("/projects/:projectId/posts/:postId/comments", commentRoutes(deps));
  api.route("/projects/:projectId/posts", postRoutes(deps));
  api.route("/projects/:projectId/content-plans", contentPlanRoutes(deps));
  api.route("/projects/:projectId/queue-health", queueHealthRoutes(deps));
  api.route("/projects/:projectId/stats", statsRoutes(deps));
  api.route("/projects/:projectId/invite-links", inviteLinkRoutes(deps));
  api.route("/projects/:projectId/ads", adRoutes(deps));
  api.route("/projects/:projectId/members", memberRoutes(deps));
  api.route("/projects/:projectId/invitations", invitationRoutes(deps));
  api.route("/projects/:projectId/activity", activityRoutes(deps));
  api.route("/projects/:projectId/webhooks", webhookRoutes(deps));
  api.route("/invitations", acceptInvitationRoutes(deps));
  api.route("/notifications", notificationRoutes(deps));
  api.route("/tokens", tokenRoutes(deps));
  api.route("/docs", docsRoutes());
  api.route("/projects/:projectId", aiRoutes(deps));
  api.route("/telegram/bot", botRoutes(deps));
  api.route("/telegram/webhook", telegramWebhookRoutes(deps));
  api.route("/projects/:projectId/upload-image", projectUploadRoutes(deps));
  api.route("/uploads", uploadServingRoutes(deps));
  api.route("/bug-reports", bugReportRoutes(deps));
  api.route("/admin", adminRoutes(deps));
  const sandbox = sandboxRoutesOf(deps);
  if (sandbox) api.route("/sandbox", sandbox);
  // the document is made from the app's own routes, on first request, once they are all registered
  let openApi: ReturnType<typeof openApiDocument> | undefined;
  api.get("/openapi.json", (c) => c.json(openApi ??= openApiDocument(app.routes, API_VERSION)));
  // a sub-app's notFound is not consulted once it is mounted, and the SPA's catch-all below
  // would answer an unknown /api path with index.html (200): API clients get a JSON 404
  api.all("*", notFound);

  app.route("/api", api);
  // beside /api: a scraper is not a browser (no session, no same-origin check)
  app.route("/metrics", metricsRoutes(deps, httpDurations));
  if (deps.webDist) app.get("*", serveSpa(deps.webDist));
  app.notFound(notFound);
  return app;
}
