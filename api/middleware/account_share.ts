/*
 * A fair share of the API's database per account. A process has a handful of database
 * connections (main/api.ts POOL_SIZE); eight of one account's home-card reads in flight (50
 * projects of 50 series, each 0.3–0.6 s) held them all, and another account's project list
 * took 0.83 s at the median and 4.3 s at worst (4 ms alone). So an account runs at most
 * ACCOUNT_REQUESTS_IN_FLIGHT requests at a time in a process; its further requests wait their
 * turn without holding a connection, in the order they came, and past ACCOUNT_REQUESTS_WAITING
 * waiting it is answered 429 (server.accountBusy, Retry-After) rather than queued without end.
 * Per process, as the connections are: N instances give an account N shares of N pools.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../core/errors.ts";
import type { AppEnv } from "../env.ts";

/** Fewer than the pool's connections, so others always find some free. */
export const ACCOUNT_REQUESTS_IN_FLIGHT = 2;
export const ACCOUNT_REQUESTS_WAITING = 100;
const RETRY_AFTER_SECONDS = 2;

type Share = { running: number; waiting: (() => void)[] };

export function accountShare(inFlight = ACCOUNT_REQUESTS_IN_FLIGHT, waitingMax = ACCOUNT_REQUESTS_WAITING): MiddlewareHandler<AppEnv> {
  const shares = new Map<number, Share>();
  return async (c, next) => {
    const user = c.get("user");
    if (!user) return await next();
    let share = shares.get(user.id);
    if (!share) shares.set(user.id, share = { running: 0, waiting: [] });
    if (share.running >= inFlight) {
      if (share.waiting.length >= waitingMax) throw new ApiError("server.accountBusy", { retryAfter: RETRY_AFTER_SECONDS });
      await new Promise<void>((resolve) => share!.waiting.push(resolve));
    } else {
      share.running += 1;
    }
    try {
      await next();
    } finally {
      // hand the slot straight to the next waiting request of the account, or free it
      const following = share.waiting.shift();
      if (following) following();
      else if (--share.running === 0) shares.delete(user.id);
    }
  };
}
