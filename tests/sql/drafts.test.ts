/* The drafts rules that live in SQL: the delete guard, reorder, bulk add, the list. */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects, seedProject } from "../helpers/sql.ts";

let sql: postgres.Sql;
beforeAll(async () => {
  sql = postgres(await freshDatabase(), { max: 2, onnotice: () => {} });
});
afterAll(() => sql.end());

async function titlesOf(tx: postgres.TransactionSql, userId: string, projectId: string) {
  return (await tx`select title from app_public.project_drafts(${userId}, ${projectId})`).map((r) => r.title);
}

describe("delete_draft", () => {
  test("refuses a draft whose linked post is in status draft (DRSCH drafts.cannotDeleteScheduled)", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const [draft] = await tx`select * from app_public.create_draft(${userId}, ${project.id}, 'Planned', '', null, 0)`;
      await tx`insert into app_public.posts (project_id, draft_id, title, scheduled_for) values (${project.id}, ${draft.id}, 'Planned', now())`;
      await rejects(tx, `select app_public.delete_draft(${userId}, ${project.id}, ${draft.id})`, "DRSCH", "drafts.cannotDeleteScheduled");
      expect(await titlesOf(tx, userId, project.id)).toEqual(["Planned"]);
    });
  });

  test("allows it once the post has moved on (scheduled, rejected); the post keeps its copy", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const [draft] = await tx`select * from app_public.create_draft(${userId}, ${project.id}, 'Sent', 'Body', null, 0)`;
      const [post] = await tx`insert into app_public.posts (project_id, draft_id, title, content, scheduled_for, status)
                              values (${project.id}, ${draft.id}, 'Sent', 'Body', now(), 'scheduled') returning id`;
      await tx`select app_public.delete_draft(${userId}, ${project.id}, ${draft.id})`;
      const [kept] = await tx`select draft_id, title, content from app_public.posts where id = ${post.id}`;
      expect(kept).toEqual({ draft_id: null, title: "Sent", content: "Body" });
    });
  });

  test("another user's draft is NTFND", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const { userId: other } = await seedProject(tx, "other@example.com");
      const [draft] = await tx`select * from app_public.create_draft(${userId}, ${project.id}, 'Mine', '', null, 0)`;
      await rejects(tx, `select app_public.delete_draft(${other}, ${project.id}, ${draft.id})`, "NTFND");
    });
  });
});

describe("reorder_drafts", () => {
  test("sets the whole order in one call", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const made = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${["A", "B", "C", "D"]}::text[])`;
      const order = [made[3], made[1], made[0], made[2]].map((d, i) => ({ id: Number(d.id), order: i }));
      await tx`select app_public.reorder_drafts(${userId}, ${project.id}, ${tx.json(order)})`;
      expect(await titlesOf(tx, userId, project.id)).toEqual(["D", "B", "A", "C"]);
    });
  });

  test("refuses ids of another project, unknown ids and duplicates, changing nothing (INVAL)", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const [other] = await tx`insert into app_public.projects (user_id, name, admin_handle) values (${userId}, 'Other', 'admin_two') returning id`;
      const [a, b] = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${["A", "B"]}::text[])`;
      const [foreign] = await tx`select * from app_public.create_draft(${userId}, ${other.id}, 'Elsewhere', '', null, 0)`;
      for (const items of [
        [{ id: b.id, order: 0 }, { id: foreign.id, order: 1 }],
        [{ id: b.id, order: 0 }, { id: 999999, order: 1 }],
        [{ id: b.id, order: 0 }, { id: b.id, order: 1 }],
      ]) {
        await rejects(tx, `select app_public.reorder_drafts(${userId}, ${project.id}, '${JSON.stringify(items)}')`, "INVAL", "drafts.reorderFailed");
      }
      expect(await titlesOf(tx, userId, project.id)).toEqual(["A", "B"]);
      expect(a.title).toBe("A");
    });
  });
});

describe("bulk_create_drafts", () => {
  test("trims, skips blanks, appends after existing drafts, refuses over 30 or none", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      await tx`select app_public.create_draft(${userId}, ${project.id}, 'Existing', '', null, 5)`;
      await tx`select app_public.bulk_create_drafts(${userId}, ${project.id}, ${[" X ", "", "Y"]}::text[])`;
      expect(await titlesOf(tx, userId, project.id)).toEqual(["Existing", "X", "Y"]);
      const many = Array.from({ length: 31 }, (_, i) => `t${i}`);
      await rejects(tx, `select app_public.bulk_create_drafts(${userId}, ${project.id}, array[${many.map((t) => `'${t}'`).join(",")}])`, "INVAL", "drafts.bulkAddMaxLinesError");
      await rejects(tx, `select app_public.bulk_create_drafts(${userId}, ${project.id}, array['  ', ''])`, "INVAL", "drafts.bulkAddFailed");
    });
  });
});
