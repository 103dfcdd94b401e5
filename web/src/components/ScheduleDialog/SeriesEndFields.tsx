import { NumberInput, SegmentedControl, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/NumberInput.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import { useId } from "react";
import { SERIES_ENDS_AFTER_MAX } from "../../../../contract/limits.ts";
import { useT } from "../../i18n/i18n.tsx";
import type { SeriesEndForm, SeriesEndMode } from "../../lib/seriesEnd.ts";
import classes from "./ScheduleDialog.module.css";

type SeriesEndFieldsProps = {
  value: SeriesEndForm;
  onChange: (value: SeriesEndForm) => void;
  /** The refusal of the chosen way's field, already in the interface's words. */
  error?: string;
  /** The series' first post's day (YYYY-MM-DD): the earliest end day. */
  firstDay: string;
  timeZone: string;
  /** Occurrences an existing series has made, which count towards "after N posts"; null for a new one. */
  made: number | null;
  disabled: boolean;
};

/**
 * A recurring post's "Ends" (docs/autopilot-and-ai.md "Autopilot", "Series end and skip"): never, after a
 * number of posts, or on a day in the project's timezone. Each way keeps what was typed
 * while another is chosen; only the chosen one is sent.
 */
export function SeriesEndFields({ value, onChange, error, firstDay, timeZone, made, disabled }: SeriesEndFieldsProps) {
  const t = useT();
  const labelId = useId();
  const count = typeof value.after === "number" && Number.isInteger(value.after) && value.after >= 1 ? value.after : null;
  // An existing series has made some posts already: they count.
  const madeHint =
    made === null
      ? undefined
      : count === null
        ? t("schedule.form.endsMadeSoFar", { made })
        : count <= made
          ? t("schedule.form.endsReached", { made })
          : t("schedule.form.endsMadeOf", { made, count });

  return (
    <div data-testid="schedule-ends">
      <Text component="label" size="sm" fw={500} display="block" mb={6} id={labelId}>
        {t("schedule.form.ends")}
      </Text>
      <SegmentedControl
        fullWidth
        aria-labelledby={labelId}
        value={value.mode}
        onChange={(mode) => onChange({ ...value, mode: mode as SeriesEndMode })}
        disabled={disabled}
        data={[
          { value: "never", label: t("schedule.form.endsNever") },
          { value: "after", label: t("schedule.form.endsAfter") },
          { value: "on", label: t("schedule.form.endsOn") },
        ]}
        data-testid="schedule-ends-mode"
      />
      {value.mode === "after" && (
        <NumberInput
          mt="sm"
          classNames={{ wrapper: classes.endInput }}
          label={t("schedule.form.endsAfterCount")}
          description={madeHint}
          min={1}
          max={SERIES_ENDS_AFTER_MAX}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          value={value.after}
          onChange={(after) => onChange({ ...value, after })}
          error={error}
          disabled={disabled}
          data-testid="schedule-ends-after"
        />
      )}
      {value.mode === "on" && (
        <TextInput
          mt="sm"
          type="date"
          className={classes.dateField}
          classNames={{ wrapper: classes.endInput }}
          label={t("schedule.form.endsOnDay")}
          description={t("schedule.form.endsOnHint", { timezone: timeZone })}
          min={firstDay || undefined}
          value={value.on}
          onChange={(event) => onChange({ ...value, on: event.currentTarget.value })}
          error={error}
          disabled={disabled}
          data-testid="schedule-ends-on"
        />
      )}
    </div>
  );
}
