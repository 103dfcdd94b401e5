import postgres from "postgres";

export type Sql = postgres.Sql<{ bigint: number }>;

/**
 * A timestamptz as the API shows it: "2026-11-26 03:05:07.506782+00" (the session runs in
 * UTC) becomes "2026-11-26T03:05:07.506Z", what Date#toJSON would print. Rows keep this
 * string instead of a Date: parsing and re-printing six dates per post row was a third of
 * the time of the posts list in bench:api. Code that does arithmetic uses Date.parse.
 */
export function isoTimestamp(text: string): string {
  if (text.length >= 22 && text[4] === "-" && text[10] === " " && text.endsWith("+00")) {
    const fraction = text.length > 22 ? text.slice(19, -3) : ".";
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${fraction.padEnd(4, "0").slice(0, 4)}Z`;
  }
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/**
 * The server cannot be reached or dropped the connection: PostgreSQL restarting or failing
 * over (SQLSTATE class 08, admin/crash shutdown, "starting up"), nothing listening, the
 * network. Nothing the query began is kept, so it may be tried again once the server is
 * back; every other error is an answer from a working server.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string") return code.startsWith("08") || UNREACHABLE_CODES.has(code);
  // node-postgres (graphile-worker's client) says these without a code
  return typeof message === "string" && PG_CONNECTION_LOST.test(message);
}
const PG_CONNECTION_LOST = /^Connection terminated|encountered a connection error and is not queryable|timeout exceeded when trying to connect/;
const UNREACHABLE_CODES = new Set([
  "57P01", // admin_shutdown: the server is stopping ("terminating connection due to administrator command")
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  // postgres.js's own (not CONNECTION_ENDED: that is our sql.end())
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // the socket's
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * The API's wait for a new connection: past it a request answers 503
 * server.databaseUnavailable rather than hold the client (a refused connection fails at once).
 */
export const API_CONNECT_TIMEOUT_SECONDS = 3;

/**
 * One pool per process. Column names arrive camelCased (created_at → createdAt) so rows
 * are already in the API's shape; int8 ids become numbers (they stay far below 2^53);
 * timestamptz values arrive as ISO strings (see isoTimestamp). The API's pool has a
 * statement_timeout (API_STATEMENT_TIMEOUT_MS): a query that runs, or waits on a lock,
 * longer is cancelled and answered 503 server.busy, so no request holds a backend for long.
 *
 * When the server goes away (restart, failover) postgres.js fails the queries in flight and
 * those that need a new connection while it is gone, each with an error the caller gets
 * (isDatabaseUnreachable), and opens connections again on the next query once it is back:
 * the pool itself needs no repair.
 */
export function connect(
  url: string,
  options: { max?: number; onQuery?: (text: string) => void; statementTimeoutMs?: number; connectTimeoutSeconds?: number } = {},
): Sql {
  const { onQuery, statementTimeoutMs } = options;
  return postgres(url, {
    max: options.max ?? 10,
    // postgres.js waits 30 s by default for a connection that neither opens nor is refused
    // (a failover's vanished address); the API waits less and answers 503 instead
    connect_timeout: options.connectTimeoutSeconds ?? 30,
    // tests count the round trips a request costs
    debug: onQuery ? (_connection, text) => onQuery(text) : false,
    // Column names only: JSON values keep their keys (publishedLinks is keyed by channel name).
    transform: { column: { from: postgres.toCamel } },
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
      timestamptz: {
        to: 1184,
        from: [1184],
        serialize: (value: Date | string) => (value instanceof Date ? value.toISOString() : value),
        parse: isoTimestamp,
      },
    },
    onnotice: () => {},
    // statement_timeout goes in the startup message, so every connection of the pool has it
    // from its first query (PostgreSQL cancels a statement past it with SQLSTATE 57014)
    connection: {
      application_name: "pressa",
      TimeZone: "UTC",
      ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    },
  }) as unknown as Sql;
}
