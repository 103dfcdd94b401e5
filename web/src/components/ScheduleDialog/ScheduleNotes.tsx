import { Button, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import type { AdWindow } from "../../lib/adWindows.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { formatDayMonth } from "../../lib/projectTime.ts";
import { IconAlert, IconFileText, IconPlus } from "../Icons/Icons.tsx";
import classes from "./ScheduleDialog.module.css";

/** A line of explanation with its icon: read-only, re-approval, how a series takes drafts; or a warning. */
export function Note({ icon, children, tone }: { icon: ReactNode; children: ReactNode; tone?: "warning" }) {
  return (
    <Text size="sm" className={classes.note} data-tone={tone}>
      <span className={classes.noteIcon}>{icon}</span>
      <span>{children}</span>
    </Text>
  );
}

/** No free draft to publish: say so and offer to write the post (or, for a series, a draft). */
export function NoDrafts({ text, error, onCreate, disabled, actionLabel }: {
  text: string;
  error?: string;
  onCreate: () => void;
  disabled: boolean;
  /** The action's words (default: create a draft). */
  actionLabel?: string;
}) {
  const t = useT();
  return (
    <div className={classes.noDrafts} data-error={error ? true : undefined} data-testid="schedule-no-drafts">
      <div className={classes.noDraftsText}>
        <IconFileText size={18} style={{ flex: "none", marginTop: 1 }} />
        <Text size="sm">{text}</Text>
      </div>
      {error && (
        <Text size="sm" c="red.7" role="alert">
          {error}
        </Text>
      )}
      {!disabled && (
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={onCreate} data-testid="schedule-create-draft">
          {actionLabel ?? t("drafts.create")}
        </Button>
      )}
    </div>
  );
}

/**
 * The picked time is inside an ad's top window (lib/scheduleForm.ts pickedAdWindow): said
 * before submitting, naming the ad and when its window ends in the project's time. A one-off
 * post there is refused by the server; a series' post waits until the window ends.
 */
export function AdWindowNote({ window, recurring, timeZone }: { window: AdWindow; recurring: boolean; timeZone: string }) {
  const t = useT();
  const { language } = useLanguage();
  const params = { title: window.title, until: formatDayMonth(window.until.toISOString(), LOCALES[language], timeZone, { withTime: true }) };
  return (
    <div role="status" data-testid="schedule-ad-window">
      <Note icon={<IconAlert size={16} />} tone="warning">
        {recurring ? t("schedule.form.adWindowSeries", params) : t("schedule.form.adWindow", params)}
      </Note>
    </div>
  );
}
