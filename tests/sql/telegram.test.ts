/*
 * The update inbox's prune (sql/functions/telegram.sql, docs/architecture.md): every process
 * claims updates every 2 s, and each claim prunes handled updates older than a day. The bot
 * answering presses must not slow down as a busy day's handled updates pile up, so the prune
 * reads only the old end of handled_at (a partial index), and it never drops an update that is
 * still to be handled or was handled within the day.
 */
import { expect, test } from "vitest";
import { connect } from "../../core/db.ts";
import { freshDatabase } from "../helpers/db.ts";

test("a claim prunes handled updates older than a day by the handled_at index, and keeps the day's and the waiting ones", async () => {
  const sql = connect(await freshDatabase(), { max: 1 });
  try {
    // a busy day: 20,000 updates handled within the day, 150 handled two days ago, 3 waiting
    await sql`
      insert into app_private.telegram_updates (update_id, body, received_at, handled_at)
      select n, jsonb_build_object('update_id', n), now() - interval '2 days', now() - interval '2 days'
      from generate_series(1, 150) n`;
    await sql`
      insert into app_private.telegram_updates (update_id, body, handled_at)
      select n, jsonb_build_object('update_id', n), now() - (n % 1000) * interval '1 minute'
      from generate_series(1001, 21000) n`;
    await sql`
      insert into app_private.telegram_updates (update_id, body)
      select n, jsonb_build_object('update_id', n) from generate_series(30001, 30003) n`;
    await sql`analyze app_private.telegram_updates`;

    // the prune's read goes by the index, so it does not grow with the day's handled updates
    const plan = await sql<{ "QUERY PLAN": string }[]>`
      explain select d.update_id from app_private.telegram_updates d
      where d.handled_at < now() - interval '1 day' limit 100`;
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("telegram_updates_handled");
    expect(text).not.toContain("Seq Scan");

    const claimed = await sql<{ updateId: string }[]>`select update_id from app_public.claim_telegram_updates('test', 10)`;
    expect(claimed.map((r) => Number(r.updateId)).sort()).toEqual([30001, 30002, 30003]);
    await sql`select app_public.claim_telegram_updates('test', 10)`;

    const [left] = await sql<{ old: number; day: number; waiting: number }[]>`
      select count(*) filter (where handled_at < now() - interval '1 day')::int as old,
             count(*) filter (where handled_at >= now() - interval '1 day')::int as day,
             count(*) filter (where handled_at is null)::int as waiting
      from app_private.telegram_updates`;
    // a hundred at most per claim: two claims removed all 150
    expect(left).toEqual({ old: 0, day: 20000, waiting: 3 });
  } finally {
    await sql.end();
  }
});
