/* Helpers for tests that talk to PostgreSQL directly, each inside a rolled-back transaction. */
import postgres from "postgres";
import { expect } from "vitest";

class Rollback extends Error {}

/** Runs `body` in a transaction that is always rolled back. */
export async function inRollback(sql: postgres.Sql, body: (tx: postgres.TransactionSql) => Promise<void>) {
  await sql.begin(async (tx) => {
    await body(tx);
    throw new Rollback();
  }).catch((err) => {
    if (!(err instanceof Rollback)) throw err;
  });
}

/** Asserts the statement fails with SQLSTATE `code` (inside a savepoint, so the test goes on). */
export async function rejects(tx: postgres.TransactionSql, statement: string, code: string, message?: string) {
  const err = await tx.savepoint((sp) => sp.unsafe(statement)).then(() => null, (e) => e);
  expect(err, statement).not.toBeNull();
  expect(err.code, `${statement}: ${err.message}`).toBe(code);
  if (message !== undefined) expect(err.message).toBe(message);
}

/** A user with one project, for tests that need an owner. */
export async function seedProject(tx: postgres.TransactionSql, email = "owner@example.com") {
  const [user] = await tx`insert into app_public.users (email) values (${email}) returning id`;
  const [project] = await tx`
    insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, 'P', 'admin_one') returning *`;
  return { userId: user.id as string, project };
}
