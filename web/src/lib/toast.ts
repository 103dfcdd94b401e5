import { notifications } from "@mantine/notifications";

/** A failed action: red, with the server's message when there is one. */
export function toastError(title: string, message?: string) {
  notifications.show({ color: "red", title, message: message ?? "" });
}

export function toastSuccess(title: string, message?: string) {
  notifications.show({ color: "teal", title, message: message ?? "" });
}

/** Partly done, or nothing done for a reason the person should know (e.g. skipped items). */
export function toastWarning(title: string, message?: string) {
  notifications.show({ color: "yellow", title, message: message ?? "" });
}
