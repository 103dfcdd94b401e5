/*
 * The role the API, the worker and the bot run as (docs/trust-model.md "Least privilege"). It owns
 * nothing: the migrations run as the database's owner and grant it what the processes use
 * (sql/migrations: usage on our schemas, rows of the tables, the functions), and default
 * privileges give it the tables and functions later migrations make. So it cannot drop,
 * alter or replace a rule, and an injection in the app can do no more than the app does.
 *
 * Roles belong to the whole PostgreSQL server, not to one database, so the role is made
 * here before the migrations name it, not in a migration.
 */
import postgres from "postgres";

export const APP_ROLE = "pressa_app";

const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/**
 * Makes the app role when it is missing: with `password` a role that can log in, else a
 * group role that an operator's login role joins. An owner that may not create roles
 * (no CREATEROLE) gets a message naming the one statement an administrator runs. With
 * `password`, an existing role gets it too when the owner may change the role; otherwise
 * its password is the administrator's business and stays as it is.
 */
export async function ensureAppRole(ownerUrl: string, options: { password?: string } = {}) {
  const sql = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  const { password } = options;
  const login = password === undefined ? "nologin" : `login password ${quoteLiteral(password)}`;
  try {
    const [present] = await sql`select 1 as present from pg_roles where rolname = ${APP_ROLE}`;
    if (present && password === undefined) return;
    try {
      await sql.unsafe(`${present ? "alter" : "create"} role ${APP_ROLE} ${login}`);
    } catch (error) {
      if ((error as { code?: string }).code !== "42501") throw error;
      if (present) return; // an administrator's role: its password is theirs
      const [{ user }] = await sql<{ user: string }[]>`select current_user as user`;
      throw new Error(
        `The PostgreSQL role ${APP_ROLE} does not exist and ${user} may not create roles. ` +
          `Ask the server's administrator to run: create role ${APP_ROLE} login password '…'; ` +
          `then migrate again (docs/trust-model.md "Least privilege").`,
      );
    }
  } finally {
    await sql.end();
  }
}

/**
 * The password to give the app role: DATABASE_URL's, when it logs in as the app role itself
 * (an operator's own login role that joins the app role keeps the password they gave it).
 */
export function appRolePassword(appUrl: string | undefined): string | undefined {
  if (!appUrl) return undefined;
  const url = new URL(appUrl);
  return decodeURIComponent(url.username) === APP_ROLE && url.password ? decodeURIComponent(url.password) : undefined;
}

/**
 * graphile-worker turns row-level security on for its tables with no policy, so only their
 * owner sees a row; the app role's worker claims and completes jobs, and the API and the
 * bot queue them. Each such table gets a policy letting the app role use every row. This
 * runs after graphile-worker's own migrations, every time: one that rebuilds a table would
 * drop the policy with it (its grants come back by the default privileges of migration 6).
 */
export async function allowAppRoleJobRows(ownerUrl: string) {
  const sql = postgres(ownerUrl, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`
      do $$
      declare t regclass;
      begin
        for t in
          select c.oid::regclass from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'graphile_worker' and c.relkind = 'r' and c.relrowsecurity
            and not exists (select 1 from pg_policy p where p.polrelid = c.oid and p.polname = '${APP_ROLE}')
        loop
          execute format('create policy ${APP_ROLE} on %s to ${APP_ROLE} using (true) with check (true)', t);
        end loop;
      end $$`);
  } finally {
    await sql.end();
  }
}

/** The database of `ownerUrl` reached as the app role with `password`. */
export function appRoleUrl(ownerUrl: string, password: string) {
  const url = new URL(ownerUrl);
  url.username = APP_ROLE;
  url.password = password;
  return url.toString();
}
