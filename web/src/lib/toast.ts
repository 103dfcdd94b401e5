import { notifications, notificationsStore, type NotificationData } from "@mantine/notifications";

/** Spec §2/§9: one toast at a time, the rest wait in the queue. */
export const TOAST_LIMIT = 1;

// The toast renderer (components/Toaster) loads after the first screen; the store gets its
// limit now, so toasts raised before it arrives already queue one at a time.
notificationsStore.updateState((state) => ({ ...state, limit: TOAST_LIMIT }));

let queueRequested = false;
let queueListener: (() => void) | undefined;

/**
 * The toast region (components/Toaster) loads its renderer at once when asked here. The signal
 * lives in lib so that lib never imports a component: the Toaster listens, toasts only ask.
 */
export function onToastQueueRequested(listener: () => void): () => void {
  queueListener = listener;
  if (queueRequested) listener();
  return () => {
    if (queueListener === listener) queueListener = undefined;
  };
}

/** Whether a toast has asked for the renderer already (the region's first render reads it). */
export function toastQueueRequested(): boolean {
  return queueRequested;
}

function requestToastQueue() {
  queueRequested = true;
  queueListener?.();
}

function show(notification: NotificationData) {
  requestToastQueue();
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
