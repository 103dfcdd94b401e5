/*
 * A fair share of the API's database per account (api/middleware/account_share.ts): one
 * account's slow requests in flight never take every connection. The middleware is the
 * product's, on a Hono app whose routes stand for a slow read (held until the test lets it
 * go) and a quick one.
 */
import { Hono } from "hono";
import { expect, test } from "vitest";
import { accountShare } from "../../api/middleware/account_share.ts";
import type { AppEnv } from "../../api/env.ts";
import { errorHandler } from "../../api/errors.ts";
import { silentLog } from "../../core/log.ts";

function appWithShare(inFlight: number, waiting: number) {
  const held: (() => void)[] = [];
  let running = 0;
  let mostRunning = 0;
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(silentLog));
  // the account as the session middleware sets it
  app.use((c, next) => {
    c.set("user", { id: Number(c.req.header("x-user")), email: "x@example.com", isAdmin: false } as never);
    return next();
  });
  app.use(accountShare(inFlight, waiting));
  app.get("/slow", async (c) => {
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    await new Promise<void>((resolve) => held.push(resolve));
    running -= 1;
    return c.json({ ok: true });
  });
  app.get("/quick", (c) => c.json({ ok: true }));
  const call = async (user: number, path: string): Promise<Response> => await app.request(path, { headers: { "x-user": String(user) } });
  return { call, held, mostRunning: () => mostRunning, running: () => running };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

test("an account's requests run two at a time; another account is served at once meanwhile", async () => {
  const share = appWithShare(2, 100);
  const heavy = Array.from({ length: 8 }, () => share.call(1, "/slow"));
  await tick();
  expect(share.running()).toBe(2);
  // account 2's quick read does not wait behind account 1's eight
  const started = performance.now();
  const quick = await share.call(2, "/quick");
  expect(quick.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(1_000);
  // account 1's own quick read waits its turn behind its slow ones
  let ownDone = false;
  const own = share.call(1, "/quick").then((res) => (ownDone = true, res));
  await tick();
  expect(ownDone).toBe(false);
  // as each slow read ends, the next of the account's starts; all are answered
  while (share.held.length > 0 || share.running() > 0) {
    share.held.shift()?.();
    await tick();
  }
  expect((await Promise.all(heavy)).map((res) => res.status)).toEqual(Array(8).fill(200));
  expect((await own).status).toBe(200);
  expect(share.mostRunning()).toBe(2);
});

test("past its waiting room an account is told to come back, with Retry-After, and nothing runs", async () => {
  const share = appWithShare(1, 2);
  const kept = [share.call(1, "/slow"), share.call(1, "/slow"), share.call(1, "/slow")];
  await tick();
  const refused = await share.call(1, "/slow");
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("2");
  expect(await refused.json()).toMatchObject({ code: "server.accountBusy" });
  expect(share.running()).toBe(1);
  while (share.held.length > 0 || share.running() > 0) {
    share.held.shift()?.();
    await tick();
  }
  expect((await Promise.all(kept)).map((res) => res.status)).toEqual([200, 200, 200]);
});
