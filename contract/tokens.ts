/*
 * Personal API tokens (shared contract, DESIGN.md "Public API, webhooks and MCP"; docs/api.md):
 * a token acts as its account, with the account's role in each project, narrowed to one
 * project and to reading when it says so.
 */
import * as v from "valibot";

export const TOKEN_PREFIX = "prs_";
/** prs_ and 43 base64url characters (32 random bytes). */
export const TOKEN_PATTERN = /^prs_[A-Za-z0-9_-]{43}$/;
export const TOKEN_NAME_MAX = 100;

const NameSchema = v.pipe(v.optional(v.string("tokens.nameRequired"), ""), v.trim(), v.nonEmpty("tokens.nameRequired"), v.maxLength(TOKEN_NAME_MAX, "tokens.nameTooLong"));

/** PATCH: a token's name only; its scope and project never change. */
export const TokenRenameSchema = v.object({ name: NameSchema });

export const TokenCreateSchema = v.object({
  name: NameSchema,
  projectId: v.optional(v.nullable(v.pipe(v.number("tokens.projectInvalid"), v.integer("tokens.projectInvalid"), v.minValue(1, "tokens.projectInvalid")))),
  scopes: v.pipe(
    v.array(v.picklist(["read", "write"], "tokens.scopesInvalid"), "tokens.scopesInvalid"),
    v.check((s) => (s.length === 1 && s[0] === "read") || (s.length === 2 && s.includes("read") && s.includes("write")), "tokens.scopesInvalid"),
  ),
});

export type ApiToken = { id: number; name: string; projectId: number | null; scopes: ("read" | "write")[]; createdAt: string; lastUsedAt: string | null };
export type CreatedToken = Omit<ApiToken, "lastUsedAt"> & { token: string };
