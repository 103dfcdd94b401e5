import type { SessionUser } from "../contract/auth.ts";

/** Values middleware puts on the Hono context. */
export type AppEnv = {
  Variables: {
    requestId: string;
    user?: SessionUser;
    sessionId?: string;
    /** The request's transaction, when a middleware opened one around the handler (api/middleware/idempotency.ts). */
    db?: unknown;
    /** The bearer token a request came with (docs/api.md): what it narrows its account to. */
    apiToken?: { id: number; projectId: number | null; scopes: readonly string[] };
    /** An AI reservation this request made and has not used (api/routes/ai.ts): settled when it ends. */
    unusedAiReservation?: () => Promise<void>;
  };
};

/** The signed-in user; only call behind requireUser. */
// deno-lint-ignore no-explicit-any
export function currentUser(c: { get(key: "user"): SessionUser | undefined }): SessionUser {
  const user = c.get("user");
  if (!user) throw new Error("currentUser called on a route without requireUser");
  return user;
}
