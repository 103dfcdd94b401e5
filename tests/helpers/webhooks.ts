/*
 * A webhook receiver for tests, and Standard Webhooks' own reference library (the
 * `standardwebhooks` package, independent of contract/webhooks.ts) to verify what arrives.
 */
import { Webhook } from "standardwebhooks";

export type Received = { path: string; headers: Headers; body: string; at: number };

/** A receiver on a random local port: records every request; `answer` decides each reply. */
export function startReceiver() {
  const received: Received[] = [];
  let answer: (r: Received) => Response | Promise<Response> = () => new Response("ok");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const r = { path: new URL(req.url).pathname, headers: req.headers, body: await req.text(), at: Date.now() };
    received.push(r);
    return await answer(r);
  });
  return {
    url: (path = "/hook") => `http://127.0.0.1:${server.addr.port}${path}`,
    port: server.addr.port,
    received,
    reply(fn: typeof answer) {
      answer = fn;
    },
    close: () => server.shutdown(),
  };
}

/** What arrived, verified (signature and timestamp window) under `secret`: its parsed payload, or a throw. */
export function verified(secret: string, r: Received): unknown {
  const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, r.headers.get(h) ?? ""]));
  return new Webhook(secret).verify(r.body, headers);
}
