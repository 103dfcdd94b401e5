import { Notifications } from "@mantine/notifications";
import "@mantine/core/styles/Notification.layer.css";
import "@mantine/notifications/styles.layer.css";
import { TOAST_LIMIT } from "../../lib/toast.ts";
import { SwipeableToast } from "./SwipeableToast.tsx";

/**
 * The toasts themselves, with their transitions and styles: a chunk of its own, loaded once the
 * first screen is up. Toasts raised before it arrives wait in the store and show then.
 */
export default function ToastQueue() {
  return (
    <Notifications
      withinPortal={false}
      position="bottom-right"
      limit={TOAST_LIMIT}
      autoClose={5000}
      containerWidth={420}
      allowDragDismiss={false}
      allowScrollDismiss={false}
      renderNotification={(data) => <SwipeableToast data={data} />}
    />
  );
}
