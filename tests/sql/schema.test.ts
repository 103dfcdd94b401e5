/*
 * The schema's own rules, checked straight against PostgreSQL. Each test runs in a
 * transaction that is rolled back, so tests share one database without traces.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback as inRollbackOn, rejects, seedProject as seed } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 4, onnotice: () => {} });
});
afterAll(() => sql.end());

const inRollback = (body: (tx: postgres.TransactionSql) => Promise<void>) => inRollbackOn(sql, body);


describe("schema rules", () => {
  test("a project gets the spec's defaults", async () => {
    await inRollback(async (tx) => {
      const { project } = await seed(tx);
      expect(project.timezone).toBe("Europe/Moscow");
      expect(project.language).toBe("ru");
      expect(project.writing_style).toEqual({ formality: 2, seriousness: 2, emojiUsage: 1 });
    });
  });

  test("refuses a second channel for a project (23505, channels_one_per_project)", async () => {
    await inRollback(async (tx) => {
      const { project } = await seed(tx);
      await tx`insert into app_public.channels (project_id, type, link) values (${project.id}, 'telegram', '@one')`;
      const err = await tx.savepoint((sp) =>
        sp`insert into app_public.channels (project_id, type, link) values (${project.id}, 'telegram', '@two')`
      ).then(() => null, (e) => e);
      expect(err?.code).toBe("23505");
      expect(err?.constraint_name).toBe("channels_one_per_project");
    });
  });

  test("two concurrent channel adds: exactly one wins", async () => {
    const [user] = await sql`insert into app_public.users (email) values ('race@example.com') returning id`;
    const [project] = await sql`
      insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, 'Race', 'admin_race') returning id`;
    const attempts = await Promise.allSettled(["@a", "@b"].map((link) =>
      sql`insert into app_public.channels (project_id, type, link) values (${project.id}, 'telegram', ${link})`
    ));
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    expect(await sql`select * from app_public.channels where project_id = ${project.id}`).toHaveLength(1);
    await sql`delete from app_public.users where id = ${user.id}`;
  });

  test("enumerations of spec §3 are enforced (23514)", async () => {
    await inRollback(async (tx) => {
      const { project } = await seed(tx);
      const p = project.id;
      await rejects(tx, `insert into app_public.channels (project_id, type, link) values (${p}, 'facebook', '@x')`, "23514");
      await rejects(tx, `insert into app_public.channels (project_id, type, link, status) values (${p}, 'telegram', '@x', 'broken')`, "23514");
      await rejects(tx, `insert into app_public.posts (project_id, title, scheduled_for, status) values (${p}, 't', now(), 'lost')`, "23514");
      await rejects(tx, `insert into app_public.posts (project_id, title, scheduled_for, is_recurring, recurring_type) values (${p}, 't', now(), false, 'daily')`, "23514");
      await rejects(tx, `insert into app_public.posts (project_id, title, scheduled_for, is_recurring, recurring_type) values (${p}, 't', now(), true, 'monthly')`, "23514");
      await rejects(tx, `insert into app_public.bug_reports (description, status) values ('x', 'wontfix')`, "23514");
      await rejects(tx, `insert into app_public.chat_messages (project_id, user_id, role, content) values (${p}, ${project.user_id}, 'system', 'x')`, "23514");
      await rejects(tx, `insert into app_public.generation_jobs (project_id, type, status) values (${p}, 'generate_content', 'stuck')`, "23514");
      await rejects(tx, `update app_public.projects set language = 'de' where id = ${p}`, "23514");
      await rejects(tx, `update app_public.projects set timezone = 'Mars/Olympus' where id = ${p}`, "23514");
    });
  });

  test("ranges are enforced: writing style, content plans (23514)", async () => {
    await inRollback(async (tx) => {
      const { project } = await seed(tx);
      const p = project.id;
      await rejects(tx, `update app_public.projects set writing_style = '{"formality":5,"seriousness":2,"emojiUsage":1}' where id = ${p}`, "23514");
      await rejects(tx, `update app_public.projects set writing_style = '{"formality":2,"seriousness":2,"emojiUsage":3}' where id = ${p}`, "23514");
      await rejects(tx, `update app_public.projects set writing_style = '{"formality":2,"seriousness":2}' where id = ${p}`, "23514");
      await rejects(tx, `insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 7, '10:00', 500)`, "23514");
      await rejects(tx, `insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 1, '24:00', 500)`, "23514");
      await rejects(tx, `insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 1, '9:00', 500)`, "23514");
      await rejects(tx, `insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 1, '10:00', 49)`, "23514");
      await rejects(tx, `insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 1, '10:00', 5001)`, "23514");
      const [plan] = await tx`
        insert into app_public.content_plans (project_id, day_of_week, time, post_length) values (${p}, 0, '23:59', 50) returning *`;
      expect(plan.timezone).toBe("Europe/Moscow");
      expect(plan.active).toBe(true);
    });
  });

  test("text rules: non-blank names and titles, lower-case e-mails, handle format (23514)", async () => {
    await inRollback(async (tx) => {
      const { project, userId } = await seed(tx);
      await rejects(tx, `insert into app_public.users (email) values ('Mixed@Example.com')`, "23514");
      await rejects(tx, `insert into app_public.projects (user_id, name, admin_handle) values (${userId}, '  ', 'admin_one')`, "23514");
      await rejects(tx, `insert into app_public.projects (user_id, name, admin_handle) values (${userId}, 'n', '@admin_one')`, "23514");
      await rejects(tx, `insert into app_public.drafts (project_id, title) values (${project.id}, '')`, "23514");
      await rejects(tx, `insert into app_public.posts (project_id, title, scheduled_for) values (${project.id}, ' ', now())`, "23514");
      await rejects(tx, `insert into app_public.bug_reports (description) values ('   ')`, "23514");
      // a recurring post may have an empty title (its drafts supply them)
      await tx`insert into app_public.posts (project_id, title, scheduled_for, is_recurring, recurring_type)
               values (${project.id}, '', now(), true, 'daily')`;
    });
  });

  test("deleting a project removes its channel, drafts, posts and chat", async () => {
    await inRollback(async (tx) => {
      const { project, userId } = await seed(tx);
      await tx`insert into app_public.channels (project_id, type, link) values (${project.id}, 'telegram', '@c')`;
      const [draft] = await tx`insert into app_public.drafts (project_id, title) values (${project.id}, 'd') returning id`;
      await tx`insert into app_public.posts (project_id, draft_id, title, scheduled_for) values (${project.id}, ${draft.id}, 't', now())`;
      await tx`insert into app_public.chat_messages (project_id, user_id, role, content) values (${project.id}, ${userId}, 'user', 'hi')`;
      await tx`select app_public.delete_project(${userId}, ${project.id})`;
      for (const table of ["channels", "drafts", "posts", "chat_messages"]) {
        const [row] = await tx.unsafe(`select count(*)::int as n from app_public.${table} where project_id = ${project.id}`);
        expect(row.n, table).toBe(0);
      }
    });
  });

  test("project functions answer NTFND for another user's project", async () => {
    await inRollback(async (tx) => {
      const { project } = await seed(tx);
      const [stranger] = await tx`insert into app_public.users (email) values ('stranger@example.com') returning id`;
      await rejects(tx, `select app_public.get_project(${stranger.id}, ${project.id})`, "NTFND");
      await rejects(tx, `select app_public.update_project(${stranger.id}, ${project.id}, '{"name":"x"}', null)`, "NTFND");
      await rejects(tx, `select app_public.delete_project(${stranger.id}, ${project.id})`, "NTFND");
    });
  });

  test("record_admin_chat keys handles case-insensitively without the @", async () => {
    await inRollback(async (tx) => {
      await tx`select app_public.record_admin_chat('@Channel_Admin', 111)`;
      await tx`select app_public.record_admin_chat('channel_admin', 222)`;
      const rows = await tx`select admin_handle, chat_id from app_public.admin_chat_ids where admin_handle = 'channel_admin'`;
      expect(rows).toEqual([{ admin_handle: "channel_admin", chat_id: "222" }]);
    });
  });

  test("sign-in codes: a 4th code within 10 minutes raises RATEL", async () => {
    await inRollback(async (tx) => {
      const email = "limit@example.com";
      for (let i = 0; i < 3; i++) {
        const [row] = await tx`select app_public.request_sign_in_code(${email}, '123456') as sent`;
        expect(row.sent).toBe(false);
        await tx`update app_private.sign_in_codes set used_at = now() where email = ${email} and used_at is null`;
      }
      await rejects(tx, `select app_public.request_sign_in_code('${email}', '123456')`, "RATEL");
    });
  });
});
