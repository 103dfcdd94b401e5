import useSWR, { mutate } from "swr";
import type { NotificationSettings, NotificationSwitch } from "../../../contract/notifications.ts";
import { apiFetch } from "./fetcher.ts";

/** The account's e-mail notifications: one switch per kind (GET/PATCH answer them all). */
export const NOTIFICATIONS_KEY = "/api/notifications";

export function useNotificationSettings() {
  const { data, error, isLoading, mutate } = useSWR<NotificationSettings>(NOTIFICATIONS_KEY);
  return { settings: data, isLoading, error: error as unknown, mutate };
}

/**
 * Switches one kind on or off: the switch moves at once and moves back if the save fails.
 * The optimistic value builds on what is shown, so a second switch flipped while the first is
 * saving keeps the first; after a failure the settings are read again, because SWR's rollback
 * returns to the last saved value, which may predate another switch's save that went through.
 */
export async function updateNotificationSetting(kind: NotificationSwitch, on: boolean): Promise<void> {
  const change: Partial<NotificationSettings> = { [kind]: on };
  try {
    await mutate<NotificationSettings>(
      NOTIFICATIONS_KEY,
      apiFetch<NotificationSettings>(NOTIFICATIONS_KEY, { method: "PATCH", body: change }),
      {
        optimisticData: (saved, shown) => ({ ...(shown ?? saved), ...change }) as NotificationSettings,
        rollbackOnError: true,
        populateCache: true,
        revalidate: false,
      },
    );
  } catch (failure) {
    void mutate(NOTIFICATIONS_KEY);
    throw failure;
  }
}
