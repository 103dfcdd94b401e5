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
 * One pool per process. Column names arrive camelCased (created_at → createdAt) so rows
 * are already in the API's shape; int8 ids become numbers (they stay far below 2^53);
 * timestamptz values arrive as ISO strings (see isoTimestamp). The API's pool has a
 * statement_timeout (API_STATEMENT_TIMEOUT_MS): a query that runs, or waits on a lock,
 * longer is cancelled and answered 503 server.busy, so no request holds a backend for long.
 */
export function connect(
  url: string,
  options: { max?: number; onQuery?: (text: string) => void; statementTimeoutMs?: number } = {},
): Sql {
  const { onQuery, statementTimeoutMs } = options;
  return postgres(url, {
    max: options.max ?? 10,
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
