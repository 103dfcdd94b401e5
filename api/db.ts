import postgres from "postgres";

export type Sql = postgres.Sql<{ bigint: number }>;

/**
 * One pool per process. Column names arrive camelCased (created_at → createdAt) so rows
 * are already in the API's shape; int8 ids become numbers (they stay far below 2^53).
 */
export function connect(url: string, options: { max?: number } = {}): Sql {
  return postgres(url, {
    max: options.max ?? 10,
    // Column names only: JSON values keep their keys (publishedLinks is keyed by channel name).
    transform: { column: { from: postgres.toCamel } },
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    onnotice: () => {},
    connection: { application_name: "pressa" },
  }) as unknown as Sql;
}
