import * as v from "valibot";
import { withoutControlCharacters } from "./text.ts";
import { isoInstant } from "./time.ts";

/**
 * Paging of the admin lists (users, bug reports). A call without parameters answers the
 * first ADMIN_PAGE_SIZE rows as before; the SPA asks for one row more than it shows, so the
 * extra row tells it that another page exists.
 */
export const ADMIN_PAGE_SIZE = 50;
export const ADMIN_PAGE_MAX = 100;
/** The users table's e-mail search: at most as long as an e-mail may be. */
export const ADMIN_USER_SEARCH_MAX = 254;
/** How long the users table waits after the last keystroke before it searches, in ms. */
export const ADMIN_USER_SEARCH_DEBOUNCE_MS = 300;

/*
 * The lists come a page at a time (first page without parameters, so the spec's client
 * still gets a plain array). The next page starts after the last row shown, never at an
 * offset, so rows added meanwhile neither shift nor repeat rows. The SPA asks for one row
 * more than it shows to learn whether another page exists.
 */
const Limit = v.optional(
  v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/), v.toNumber(), v.maxValue(ADMIN_PAGE_MAX)),
  String(ADMIN_PAGE_SIZE),
);
const RowId = v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/), v.toNumber());
export const UsersQuery = v.object({
  limit: Limit,
  after: v.optional(RowId),
  q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(ADMIN_USER_SEARCH_MAX), withoutControlCharacters())),
});
export const BugReportsQuery = v.object({ limit: Limit, before: v.optional(isoInstant("admin.bugReportsQueryInvalid")), beforeId: v.optional(RowId) });
