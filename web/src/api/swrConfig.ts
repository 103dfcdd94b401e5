import { mutate, type SWRConfiguration } from "swr";
import { USER_KEY } from "./auth.ts";
import { fetcher, hasStatus } from "./fetcher.ts";

/**
 * Spec §7: cached data never goes stale, no refetch on focus or reconnect, no polling and
 * no retries unless a hook asks for them. Mutations refresh what they change.
 */
export const swrConfig: SWRConfiguration = {
  fetcher,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  revalidateIfStale: false,
  shouldRetryOnError: false,
  refreshInterval: 0,
  // A read refused with 401 means the session ended meanwhile: re-check it, and the route
  // guard takes the person to /auth.
  onError: (error, key) => {
    if (key !== USER_KEY && hasStatus(error, 401)) void mutate(USER_KEY);
  },
};

/**
 * SWR skips a poll that comes within its 2 s de-duplication window of the last read, which
 * would halve a 1 s poll; a polled key uses a window shorter than its interval.
 */
export const pollingDedupe = (intervalMs: number) => (intervalMs > 0 ? { dedupingInterval: intervalMs / 2 } : {});