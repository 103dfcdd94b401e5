import { Text, TextInput } from "@mantine/core";
import { useT } from "../../i18n/i18n.tsx";
import { dateBounds, normalizeTime, type ScheduleErrors } from "../../lib/scheduleForm.ts";
import { IconAlert, IconClock } from "../Icons/Icons.tsx";
import classes from "./ScheduleDialog.module.css";

type WhenFieldsProps = {
  date: string;
  time: string;
  errors: Pick<ScheduleErrors, "time" | "form">;
  timeZone: string;
  /** A series may not start beyond the horizon; a one-time post has no latest day. */
  recurring: boolean;
  readOnly: boolean;
  disabled: boolean;
  onChange: (key: "date" | "time", value: string) => void;
};

/**
 * When the post goes out: a day and a time (HH:mm, tidied on leaving the field) in the
 * project's timezone, with the form's own refusal (a time already past) under them.
 */
export function WhenFields({ date, time, errors, timeZone, recurring, readOnly, disabled, onChange }: WhenFieldsProps) {
  const t = useT();
  const bounds = dateBounds(timeZone);
  return (
    <div>
      <div className={classes.when}>
        <TextInput
          type="date"
          label={t("schedule.form.date")}
          value={date}
          min={readOnly ? undefined : bounds.min}
          max={readOnly || !recurring ? undefined : bounds.maxSeries}
          onChange={(event) => onChange("date", event.currentTarget.value)}
          disabled={readOnly || disabled}
          className={classes.dateField}
          data-testid="schedule-date"
        />
        <TextInput
          label={t("schedule.form.time")}
          placeholder={t("schedule.form.timePlaceholder")}
          value={time}
          onChange={(event) => onChange("time", event.currentTarget.value)}
          onBlur={(event) => onChange("time", normalizeTime(event.currentTarget.value))}
          error={errors.time}
          inputMode="numeric"
          maxLength={5}
          autoComplete="off"
          leftSection={<IconClock size={16} />}
          disabled={readOnly || disabled}
          className={classes.timeField}
          data-autofocus
          data-testid="schedule-time"
        />
      </div>
      <Text size="xs" c="dimmed" mt={6}>
        {t("schedule.form.timeZoneHint", { timezone: timeZone })}
      </Text>
      {errors.form && (
        <Text size="sm" c="red.7" mt={8} className={classes.formError} role="alert" data-testid="schedule-form-error">
          <IconAlert size={16} style={{ flex: "none", marginTop: 2 }} />
          {errors.form}
        </Text>
      )}
    </div>
  );
}
