/*
 * The publish act's record by name (docs/publishing.md "Names along the publish act"): the
 * fields the tasks and the bot read (core/delivery.ts) are the columns of
 * app_public.post_deliveries, in order, so a column renamed or added on one side only fails
 * here rather than reading null in the middle of a send.
 */
import { expect, test } from "vitest";
import { DELIVERY_FIELDS } from "../../core/delivery.ts";
import { connect } from "../../core/db.ts";
import { freshDatabase } from "../helpers/db.ts";

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

test("the record's fields are the view's columns, by name and in order", async () => {
  const sql = connect(await freshDatabase(), { max: 1 });
  try {
    const columns = await sql<{ attname: string }[]>`
      select attname from pg_attribute
      where attrelid = 'app_public.post_deliveries'::regclass and attnum > 0 and not attisdropped
      order by attnum`;
    expect(columns.map((c) => camel(c.attname))).toEqual([...DELIVERY_FIELDS]);
    // the functions the tasks call answer that very row type
    const returns = await sql<{ proname: string }[]>`
      select proname from pg_proc
      where prorettype = 'app_public.post_deliveries'::regtype order by proname`;
    expect(returns.map((r) => r.proname)).toEqual(["begin_sending", "claim_approval_reminder", "claim_post_for_approval", "post_delivery_info"]);
  } finally {
    await sql.end();
  }
});
