/*
 * Timestamps leave the database as the API shows them (ISO 8601, UTC, milliseconds), the
 * same text Date#toJSON printed before rows kept strings, whatever the server's time zone.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { connect, type Sql } from "../../core/db.ts";
import { freshDatabase } from "../helpers/db.ts";

let sql: Sql;
beforeAll(async () => {
  const url = await freshDatabase();
  // a server configured for another zone: our connections still read UTC
  const admin = connect(url, { max: 1 });
  await admin.unsafe(`alter database "${new URL(url).pathname.slice(1)}" set timezone to 'Asia/Tokyo'`);
  await admin.end();
  sql = connect(url, { max: 2 });
});
afterAll(() => sql.end());

test("fractions, whole seconds and other zones come back as ISO UTC with milliseconds", async () => {
  const [row] = await sql<{ micro: string; whole: string; half: string; tokyo: string; missing: null }[]>`
    select '2026-11-26 03:05:07.506782+00'::timestamptz as micro,
           '2026-11-26 03:05:07+00'::timestamptz as whole,
           '2026-11-26 03:05:07.5+00'::timestamptz as half,
           '2026-11-26 09:00:00+09'::timestamptz as tokyo,
           null::timestamptz as missing`;
  expect(row).toEqual({
    micro: "2026-11-26T03:05:07.506Z",
    whole: "2026-11-26T03:05:07.000Z",
    half: "2026-11-26T03:05:07.500Z",
    tokyo: "2026-11-26T00:00:00.000Z",
    missing: null,
  });
});

test("a Date or an ISO string given as a parameter is stored as that instant", async () => {
  const at = new Date("2026-12-31T21:30:00.250Z");
  const [row] = await sql<{ fromDate: string; fromString: string }[]>`
    select ${at}::timestamptz as from_date, ${"2026-12-31T21:30:00.250Z"}::timestamptz as from_string`;
  expect(row).toEqual({ fromDate: at.toISOString(), fromString: at.toISOString() });
});
