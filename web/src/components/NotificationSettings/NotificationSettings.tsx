import { Card, Loader, Switch, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/InlineInput.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import { useId } from "react";
import { NOTIFICATION_SWITCHES, type NotificationSwitch } from "../../../../contract/notifications.ts";
import { useUser } from "../../api/auth.ts";
import { updateNotificationSetting, useNotificationSettings } from "../../api/notifications.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import { toastError } from "../../lib/toast.ts";
import { LoadError } from "../LoadError/LoadError.tsx";
import classes from "./NotificationSettings.module.css";

const ADDRESS = "\u0000";

/**
 * The e-mails the account gets about its projects (issue 17), one switch per kind, each saved
 * as it is flipped. They belong to the account, unlike the interface settings of this browser.
 */
export function NotificationSettings() {
  const t = useT();
  const titleId = useId();
  const { user } = useUser();
  const { settings, isLoading, error, mutate } = useNotificationSettings();

  // The address stands out from the sentence, wherever the language places it.
  const [hintBefore, hintAfter = ""] = t("settings.notifications.hint", { email: ADDRESS }).split(ADDRESS);

  const toggle = async (kind: NotificationSwitch, on: boolean) => {
    try {
      await updateNotificationSetting(kind, on);
    } catch (failure) {
      toastError(t("settings.notifications.saveFailed"), failureText(t, failure, "common.tryAgainLater"));
    }
  };

  if (error && !settings) {
    return (
      <LoadError message={t("settings.notifications.loadFailed")} retryLabel={t("common.retry")} onRetry={() => void mutate()} />
    );
  }

  return (
    <Card component="section" padding="lg" aria-labelledby={titleId} data-testid="notification-settings">
      <Text component="h2" fw={600} m={0} id={titleId}>
        {t("settings.notifications")}
      </Text>
      <Text size="sm" c="dimmed" mb="xs" className={classes.hint} data-testid="notification-settings-hint">
        {hintBefore}
        <Text span inherit fw={500} c="var(--mantine-color-text)" data-testid="notification-settings-email">
          {user?.email}
        </Text>
        {hintAfter}
      </Text>
      {isLoading || !settings ? (
        <div className={classes.loading} role="status">
          <Loader size="sm" role="img" aria-label={t("common.loading")} />
        </div>
      ) : (
        <ul className={classes.list}>
          {NOTIFICATION_SWITCHES.map((kind) => (
            <li key={kind} className={classes.item}>
              <Switch
                checked={settings[kind]}
                onChange={(event) => void toggle(kind, event.currentTarget.checked)}
                label={t(`settings.notifications.${kind}`)}
                description={t(`settings.notifications.${kind}.description`)}
                labelPosition="left"
                classNames={{ body: classes.body, labelWrapper: classes.labelWrapper, label: classes.label }}
                data-testid={`notification-switch-${kind}`}
              />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
