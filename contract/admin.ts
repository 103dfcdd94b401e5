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
