import type { SWRConfiguration } from "swr";
import { fetcher } from "./fetcher.ts";

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
};
