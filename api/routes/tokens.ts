/*
 * The account's API tokens (docs/api.md): made, listed and revoked with a session only, so a
 * leaked token cannot mint or keep itself. Each handler is one SQL call.
 */
import { Hono } from "hono";
import { TOKEN_PREFIX, TokenCreateSchema, TokenRenameSchema, type ApiToken, type CreatedToken } from "../../contract/tokens.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam } from "../validate.ts";
import { ApiError } from "../../core/errors.ts";
import { randomToken } from "../random_token.ts";

export function tokenRoutes({ sql, config }: ApiDeps) {
  return new Hono<AppEnv>()
    // a token never reaches these routes (SESSION_ONLY in api/middleware/api_token.ts)
    .use(requireUser)
    .get("/", async (c) => {
      const rows = await sql<ApiToken[]>`select * from app_public.user_api_tokens(${currentUser(c).id})`;
      return c.json(rows);
    })
    .post("/", body(TokenCreateSchema), async (c) => {
      const { name, projectId, scopes } = c.req.valid("json");
      const token = TOKEN_PREFIX + randomToken();
      const [row] = await sql<Omit<CreatedToken, "token">[]>`
        select * from app_public.create_api_token(${currentUser(c).id}, ${name}, ${projectId ?? null}, ${scopes}::text[], ${token},
          ${config.limits.apiTokensPerAccount})`;
      // the one time the token is shown: only its hash is kept
      return c.json({ ...row, token } satisfies CreatedToken, 201);
    })
    .patch("/:tokenId", body(TokenRenameSchema), async (c) => {
      const [row] = await sql<ApiToken[]>`
        select * from app_public.rename_api_token(${currentUser(c).id}, ${idParam(c.req.param("tokenId"))}, ${c.req.valid("json").name})`;
      return c.json(row);
    })
    .delete("/:tokenId", async (c) => {
      await sql`select app_public.revoke_api_token(${currentUser(c).id}, ${idParam(c.req.param("tokenId"))})`;
      return c.json({ ok: true });
    });
}
