/* The drafts rules that live in SQL: the delete guard, reorder, moving one draft, bulk add, the list. */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freshDatabase } from "../helpers/db.ts";
import { inRollback, rejects, seedProject } from "../helpers/sql.ts";

let sql: postgres.Sql;
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await freshDatabase();
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
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

describe("move_draft", () => {
  const keysOf = async (tx: postgres.TransactionSql, projectId: string) =>
    (await tx`select id, sort_order from app_public.drafts where project_id = ${projectId} order by sort_order, created_at, id`).map(
      (r) => ({ id: Number(r.id), key: r.sort_order as number }),
    );

  test("puts one draft after another, first (afterId null) or last, rewriting only that row once keys have gaps", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const made = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${["A", "B", "C", "D"]}::text[])`;
      const [a, b, c, d] = made.map((r) => r.id);
      // the first move finds the bulk-added keys adjacent (0, 1, 2, 3): the drafts are respaced
      const first = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${d}, ${a})`;
      expect(first).toEqual([
        { draft_id: d, draft_order: 2047 },
        { draft_id: a, draft_order: 1023 },
        { draft_id: b, draft_order: 3071 },
        { draft_id: c, draft_order: 4095 },
      ]);
      expect(await titlesOf(tx, userId, project.id)).toEqual(["A", "D", "B", "C"]);

      // then each move takes the key halfway between its new neighbours, one row
      const top = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${c}, null)`;
      expect(top).toEqual([{ draft_id: c, draft_order: 511 }]);
      expect(await titlesOf(tx, userId, project.id)).toEqual(["C", "A", "D", "B"]);
      const between = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${b}, ${a})`;
      expect(between).toEqual([{ draft_id: b, draft_order: 1535 }]);
      expect(await titlesOf(tx, userId, project.id)).toEqual(["C", "A", "B", "D"]);
      const last = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${a}, ${d})`;
      expect(last).toEqual([{ draft_id: a, draft_order: 2047 + 1024 }]);
      expect(await titlesOf(tx, userId, project.id)).toEqual(["C", "B", "D", "A"]);
      // only the moved drafts' keys changed since the spread
      const now = new Map((await keysOf(tx, project.id)).map((r) => [r.id, r.key]));
      expect(now.get(Number(d))).toBe(2047);
    });
  });

  test("respaces the drafts around the place when its neighbours have no key between them (a tie, a used-up gap), keeping the order and unique keys", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const titles = Array.from({ length: 14 }, (_, i) => `T${i}`);
      const made = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${titles}::text[])`;
      // two drafts from the create form (order -1) tie on their key, ahead of the rest
      const [x] = await tx`select * from app_public.create_draft(${userId}, ${project.id}, 'X', '', null, -1)`;
      const [y] = await tx`select * from app_public.create_draft(${userId}, ${project.id}, 'Y', '', null, -1)`;
      let expected = ["X", "Y", ...titles];
      const titleOf = new Map([[x.id, "X"], [y.id, "Y"], ...made.map((d) => [d.id, d.title] as [string, string])]);
      /** Moves and checks the list; answers how many other drafts got a new key. */
      const move = async (draft: string, after: string | null) => {
        const rows = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${draft}, ${after})`;
        expect(rows[0].draft_id).toBe(draft);
        expected = expected.filter((t) => t !== titleOf.get(draft));
        expected.splice(after === null ? 0 : expected.indexOf(titleOf.get(after)!) + 1, 0, titleOf.get(draft)!);
        expect(await titlesOf(tx, userId, project.id)).toEqual(expected);
        // what the answer says is what is stored
        for (const row of rows) {
          const [stored] = await tx`select sort_order from app_public.drafts where id = ${row.draft_id}`;
          expect(stored.sort_order).toBe(row.draft_order);
        }
        return rows.length - 1;
      };
      // between the two tied drafts no key fits: this small list (keys -1, -1, 0, 1, …) is respaced whole
      expect(await move(made[5].id, x.id)).toBe(15);
      // then the last draft, again and again, right after X: each move halves the gap (1024 → 1),
      // and when it is used up only a few drafts around the place get new keys
      const respaced: number[] = [];
      for (let i = 0; i < 12; i++) respaced.push(await move(made[13 - i].id, x.id));
      expect(respaced.slice(0, 10)).toEqual(Array(10).fill(0));
      expect(respaced[10]).toBeGreaterThan(0);
      expect(respaced[10]).toBeLessThan(4);
      const keys = (await keysOf(tx, project.id)).map((r) => r.key);
      expect(new Set(keys).size).toBe(keys.length);
      expect(Math.min(...keys)).toBeGreaterThanOrEqual(0);
      // a new draft from the create form (order -1) still comes first
      await tx`select app_public.create_draft(${userId}, ${project.id}, 'New', '', null, -1)`;
      expect((await titlesOf(tx, userId, project.id))[0]).toBe("New");
    });
  });

  test("after a whole-list reorder (keys 0, 1, 2, …) a move respaces once, then moves rewrite one row", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const made = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${Array.from({ length: 30 }, (_, i) => `T${i}`)}::text[])`;
      const ids = made.map((d) => d.id as string);
      await tx`select app_public.reorder_drafts(${userId}, ${project.id}, ${tx.json(ids.map((id, order) => ({ id: Number(id), order })))})`;
      const first = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${ids[20]}, ${ids[10]})`;
      expect(first.length).toBeGreaterThan(1);
      const second = await tx`select * from app_public.move_draft(${userId}, ${project.id}, ${ids[21]}, ${ids[10]})`;
      expect(second).toHaveLength(1);
      const titles = await titlesOf(tx, userId, project.id);
      expect(titles.slice(9, 14)).toEqual(["T9", "T10", "T21", "T20", "T11"]);
      const keys = (await keysOf(tx, project.id)).map((r) => r.key);
      expect(new Set(keys).size).toBe(30);
      expect(Math.max(...keys)).toBeLessThanOrEqual(1_000_000);
    });
  });

  test("another account's draft or project, or a place after another project's draft, is NTFND; after itself is INVAL; nothing changes", async () => {
    await inRollback(sql, async (tx) => {
      const { userId, project } = await seedProject(tx);
      const { userId: other, project: otherProject } = await seedProject(tx, "other@example.com");
      const [a, b] = await tx`select * from app_public.bulk_create_drafts(${userId}, ${project.id}, ${["A", "B"]}::text[])`;
      const [foreign] = await tx`select * from app_public.create_draft(${other}, ${otherProject.id}, 'Theirs', '', null, 0)`;
      const before = await keysOf(tx, project.id);
      await rejects(tx, `select app_public.move_draft(${other}, ${project.id}, ${b.id}, null)`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${other}, ${otherProject.id}, ${b.id}, null)`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${userId}, ${project.id}, ${foreign.id}, null)`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${userId}, ${otherProject.id}, ${foreign.id}, null)`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${userId}, ${project.id}, ${b.id}, ${foreign.id})`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${userId}, ${project.id}, ${b.id}, 999999999)`, "NTFND");
      await rejects(tx, `select app_public.move_draft(${userId}, ${project.id}, ${b.id}, ${b.id})`, "INVAL", "drafts.reorderFailed");
      expect(await keysOf(tx, project.id)).toEqual(before);
      expect(a.title).toBe("A");
      const [theirs] = await tx`select sort_order from app_public.drafts where id = ${foreign.id}`;
      expect(theirs.sort_order).toBe(0);
    });
  });

  test("many concurrent moves (several tabs) all apply, one after the other: a permutation with unique keys, equal to replaying them in commit order", async () => {
    const [user] = await sql`insert into app_public.users (email) values ('tabs@example.com') returning id`;
    const [project] = await sql`insert into app_public.projects (user_id, name, admin_handle) values (${user.id}, 'Tabs', 'admin_one') returning id`;
    const count = 300;
    const seeded = await sql`
      insert into app_public.drafts (project_id, title, sort_order)
      select ${project.id}, 'D' || n, n - 1 from generate_series(1, ${count}) n returning id`;
    let order = seeded.map((r) => Number(r.id));
    const ids = [...order];

    // 16 connections, 400 moves: to the top, after a random draft, after the one moved just before
    const tabs = postgres(databaseUrl, { max: 16, onnotice: () => {} });
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    const moves = Array.from({ length: 400 }, (_, i) => {
      const draft = pick();
      let after: number | null = i % 10 === 0 ? null : pick();
      if (after === draft) after = null;
      return { draft, after };
    });
    try {
      const applied = await Promise.all(moves.map((move) =>
        tabs.begin(async (tx) => {
          await tx`select * from app_public.move_draft(${user.id}, ${project.id}, ${move.draft}, ${move.after})`;
          // still holding the order's lock: the next move's transaction reads a later clock
          const [{ at }] = await tx`select to_char(clock_timestamp(), 'YYYY-MM-DD HH24:MI:SS.US') as at`;
          return { ...move, at: at as string };
        })
      ));
      applied.sort((x, y) => (x.at < y.at ? -1 : x.at > y.at ? 1 : 0));
      expect(new Set(applied.map((m) => m.at)).size).toBe(applied.length);
      for (const { draft, after } of applied) {
        order = order.filter((id) => id !== draft);
        order.splice(after === null ? 0 : order.indexOf(after) + 1, 0, draft);
      }
    } finally {
      await tabs.end();
    }
    const stored = await sql`select id, sort_order from app_public.drafts where project_id = ${project.id} order by sort_order, created_at, id`;
    const storedIds = stored.map((r) => Number(r.id));
    expect([...storedIds].sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(stored.map((r) => r.sort_order)).size).toBe(count);
    expect(storedIds).toEqual(order);
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
