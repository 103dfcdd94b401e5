/*
 * Least privilege, played as an attacker who took over an app process (an injection, a
 * hostile dependency) and connects with its DATABASE_URL: the app role. Every other test
 * that runs the API, the worker or the bot runs them as this role (tests/helpers/stack.ts),
 * so the suite proves the grants suffice; here, that they stop there.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { APP_ROLE, ensureAppRole } from "../../sql/app_role.ts";
import { createDevelopmentDatabases, migrateDatabase, migrationsOnly } from "../../sql/migrate.ts";
import { asAppRole, freshDatabase } from "../helpers/db.ts";

let url: string;
let owner: postgres.Sql;
let app: postgres.Sql;
beforeAll(async () => {
  url = await freshDatabase();
  owner = postgres(url, { max: 2, onnotice: () => {} });
  app = postgres(asAppRole(url), { max: 2, onnotice: () => {} });
});
afterAll(async () => {
  await app.end();
  await owner.end();
});

/** The statement, run as the app role, answers PostgreSQL's "insufficient privilege". */
async function refused(statement: string) {
  const error = await app.unsafe(statement).then(() => null, (e) => e);
  expect(error, statement).not.toBeNull();
  expect({ statement, code: error.code }).toEqual({ statement, code: "42501" });
  return error.message as string;
}

describe("the app role cannot change the rules", () => {
  test("cannot drop a table, truncate it or alter it (a column, a constraint, its triggers)", async () => {
    expect(await refused("drop table app_public.posts")).toMatch(/must be owner/);
    await refused("truncate app_public.posts");
    await refused("alter table app_public.posts add column backdoor text");
    await refused("alter table app_public.channels drop constraint channels_chat_id_key");
    await refused("alter table app_public.posts disable trigger all");
    const [{ n }] = await owner`select count(*)::int as n from information_schema.columns
      where table_schema = 'app_public' and table_name = 'posts' and column_name = 'backdoor'`;
    expect(n).toBe(0);
  });

  test("cannot replace or alter a rule function", async () => {
    const [{ before }] = await owner`
      select md5(prosrc) as before from pg_proc where oid = 'app_public.claim_post_for_approval(bigint, text)'::regprocedure`;
    await refused(`create or replace function app_public.claim_post_for_approval(p_post_id bigint, p_job_id text)
      returns app_public.post_deliveries language sql as $$ select null::app_public.post_deliveries $$`);
    await refused("alter function app_public.claim_post_for_approval(bigint, text) security definer");
    await refused("alter function app_public.claim_post_for_approval(bigint, text) rename to claim_post_for_approval_old");
    await refused("drop function app_public.claim_post_for_approval(bigint, text)");
    const [{ after }] = await owner`
      select md5(prosrc) as after from pg_proc where oid = 'app_public.claim_post_for_approval(bigint, text)'::regprocedure`;
    expect(after).toBe(before);
  });

  test("cannot create a table, a function or a schema, nor shadow one in public", async () => {
    expect(await refused("create table app_public.shadow_posts (id int)")).toMatch(/permission denied for schema app_public/);
    await refused("create table app_private.shadow (id int)");
    await refused("create function app_public.backdoor() returns int language sql as $$ select 1 $$");
    await refused("create schema backdoor");
    await refused("create table public.posts (id int)");
  });

  test("is refused by deno task migrate, which names what to set instead", async () => {
    await expect(migrateDatabase(asAppRole(url))).rejects.toThrow(/pressa_app may not change the schema: set DATABASE_OWNER_URL/);
  });

  test("cannot become someone else or gain rights", async () => {
    await refused("set role postgres");
    await refused(`alter role ${APP_ROLE} superuser`);
    await refused("create role backdoor login password 'x'");
    await refused(`grant pg_read_server_files to ${APP_ROLE}`);
  });

  test("owns nothing in the database", async () => {
    const owned = await owner`
      select 'table ' || c.oid::regclass::text as what from pg_class c where c.relowner = ${APP_ROLE}::regrole
      union all select 'function ' || p.oid::regprocedure::text from pg_proc p where p.proowner = ${APP_ROLE}::regrole
      union all select 'schema ' || n.nspname::text from pg_namespace n where n.nspowner = ${APP_ROLE}::regrole
      union all select 'type ' || t.oid::regtype::text from pg_type t where t.typowner = ${APP_ROLE}::regrole`;
    expect(owned).toEqual([]);
    const [role] = await owner`select rolsuper, rolcreaterole, rolcreatedb, rolbypassrls from pg_roles where rolname = ${APP_ROLE}`;
    expect(role).toEqual({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false });
  });
});

describe("the app role reads only what it needs", () => {
  test("session and sign-in code hashes are out of reach; the sign-in functions still work", async () => {
    const email = `victim.${Date.now()}@example.com`;
    const [{ alreadySent }] = await app`select app_public.request_sign_in_code(${email}, '123456') as "alreadySent"`;
    expect(alreadySent).toBe(false);
    await refused(`select code_hash from app_private.sign_in_codes`);
    await refused(`select id, user_id from app_private.sessions`);
    await refused(`select * from app_private.sign_in_attempts`);
    await refused(`update app_private.sign_in_codes set failed_attempts = 0`);
    const [{ n }] = await owner`select count(*)::int as n from app_private.sign_in_codes where email = ${email}`;
    expect(n).toBe(1);
  });

  test("the server's files and programs, and the migrations' bookkeeping, are out of reach", async () => {
    await refused("select pg_read_file('postgresql.conf')");
    await refused("select pg_ls_dir('.')");
    await refused("copy (select 1) to program 'id'");
    await refused("select * from graphile_migrate.migrations");
    await refused("insert into graphile_worker.migrations (id) values (999999)");
  });

  test("it still does its job: rows of its tables, its functions and the job queue", async () => {
    const [user] = await app`insert into app_public.users (email) values (${`owner.${Date.now()}@example.com`}) returning id`;
    const [job] = await app`select id from graphile_worker.add_job('sessions__cleanup', '{}'::json, job_key := ${`t${user.id}`})`;
    const [queued] = await app`select task_identifier from graphile_worker.jobs where id = ${job.id}`;
    expect(queued.task_identifier).toBe("sessions__cleanup");
    await app`select graphile_worker.remove_job(${`t${user.id}`})`;
    const [health] = await app`select * from app_public.health()`;
    expect(health.worker_alive).toBe(false);
  });
});

describe("a managed PostgreSQL: the owner is no superuser and may not create roles", () => {
  test("its migrations grant pressa_app what the processes use, and the app role works there", async () => {
    const admin = postgres(inject("pgAdminUrl"), { max: 1, onnotice: () => {} });
    const ownerName = `owner_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const name = `managed_${ownerName.slice(6)}`;
    let result: { url: string } | undefined;
    try {
      // what a managed service gives its admin user: its own databases, no superuser, no CREATEROLE
      await admin.unsafe(`create role ${ownerName} login password 'owner-pass' createdb nosuperuser nocreaterole`);
      const ownerAdminUrl = new URL(inject("pgAdminUrl"));
      ownerAdminUrl.username = ownerName;
      ownerAdminUrl.password = "owner-pass";
      result = await createDevelopmentDatabases(ownerAdminUrl.toString(), name);
      // the app role exists (an administrator made it); the owner may not change its password
      await ensureAppRole(result.url, { password: "not-taken" });

      const app = postgres(asAppRole(result.url), { max: 1, onnotice: () => {} });
      try {
        const [user] = await app`insert into app_public.users (email) values ('managed@example.com') returning id`;
        await app`select graphile_worker.add_job('sessions__cleanup', '{}'::json, job_key := ${`m${user.id}`})`;
        const [{ n }] = await app`select count(*)::int as n from graphile_worker.jobs where key = ${`m${user.id}`}`;
        expect(n).toBe(1);
        // the sign-in functions run as this owner, and still reach the secrets the app cannot
        const [{ alreadySent }] = await app`select app_public.request_sign_in_code('managed@example.com', '654321') as "alreadySent"`;
        expect(alreadySent).toBe(false);
        expect((await app`select 1 from app_private.sessions`.catch((e) => e)).code).toBe("42501");
        expect((await app`drop table app_public.drafts`.catch((e) => e)).code).toBe("42501");
      } finally {
        await app.end();
      }
    } finally {
      for (const db of [name, migrationsOnly(name)]) await admin.unsafe(`drop database if exists ${db} with (force)`);
      await admin.unsafe(`drop owned by ${ownerName}`).catch(() => {});
      await admin.unsafe(`drop role if exists ${ownerName}`);
      await admin.end();
    }
  }, 120_000);
});
