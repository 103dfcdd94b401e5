import { notifications, notificationsStore, type NotificationData } from "@mantine/notifications";

/** Spec §2/§9: one toast at a time, the rest wait in the queue. */
export const TOAST_LIMIT = 1;

// The toast renderer (components/Toaster) loads after the first screen; the store gets its
// limit now, so toasts raised before it arrives already queue one at a time.
notificationsStore.updateState((state) => ({ ...state, limit: TOAST_LIMIT }));

let toastRaised = false;
let onToastRaised: (() => void) | undefined;

/**
 * The toast renderer (components/Toaster) asks to hear of the first toast, to load at once
 * rather than when the browser is idle. It subscribes here, so this module imports no component.
 * Answers whether a toast was already raised; the returned function unsubscribes.
 */
export function whenToastRaised(listener: () => void): { raised: boolean; stop: () => void } {
  onToastRaised = listener;
  return { raised: toastRaised, stop: () => { if (onToastRaised === listener) onToastRaised = undefined; } };
}

function show(notification: NotificationData) {
  toastRaised = true;
  onToastRaised?.();
  // The toast region (components/Toaster) is the live region that announces it; Mantine's own
  // role="alert" on each toast would have it read twice.
  notifications.show({ role: "presentation", ...notification });
}

/** A failed action: red, with the server's message when there is one. */
export function toastError(title: string, message?: string) {
  show({ color: "red", title, message: message ?? "" });
}

export function toastSuccess(title: string, message?: string) {
  show({ color: "teal", title, message: message ?? "" });
}

/** Partly done, or nothing done for a reason the person should know (e.g. skipped items). */
export function toastWarning(title: string, message?: string) {
  show({ color: "yellow", title, message: message ?? "" });
}
