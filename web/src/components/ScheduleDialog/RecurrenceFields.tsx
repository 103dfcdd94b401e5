import { SegmentedControl, Text } from "@mantine/core";
import "@mantine/core/styles/FloatingIndicator.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import type { Post } from "../../../../contract/posts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { type RecurringType, repeatChoices } from "../../lib/scheduleForm.ts";
import type { SeriesEndForm } from "../../lib/seriesEnd.ts";
import { IconRepeat } from "../Icons/Icons.tsx";
import { NoDrafts, Note } from "./ScheduleNotes.tsx";
import { SeriesEndFields } from "./SeriesEndFields.tsx";

const REPEAT_LABELS = { none: "schedule.repeat.none", daily: "schedule.repeat.daily", weekly: "schedule.repeat.weekly" } as const;

type RepeatFieldProps = {
  value: RecurringType;
  /** The post being edited: it keeps its kind (one-time or series). */
  editing: Post | null;
  readOnly: boolean;
  disabled: boolean;
  onChange: (type: RecurringType) => void;
};

/** Repeat: none, daily or weekly, counted from the chosen date and time. */
export function RepeatField({ value, editing, readOnly, disabled, onChange }: RepeatFieldProps) {
  const t = useT();
  return (
    <div>
      <Text component="label" size="sm" fw={500} display="block" mb={6} id="schedule-repeat-label">
        {t("schedule.form.repeat")}
      </Text>
      <SegmentedControl
        fullWidth
        aria-labelledby="schedule-repeat-label"
        value={value}
        onChange={(next) => onChange(next as RecurringType)}
        disabled={readOnly || disabled}
        data={repeatChoices(editing).map((choice) => ({ ...choice, label: t(REPEAT_LABELS[choice.value]) }))}
        data-testid="schedule-repeat"
      />
      {editing && !readOnly && (
        <Text size="xs" c="dimmed" mt={6}>
          {t("schedule.form.repeatLocked")}
        </Text>
      )}
    </div>
  );
}

type SeriesFieldsProps = {
  /** Free drafts the series will take in turn; none means it cannot be scheduled yet. */
  draftCount: number;
  end: SeriesEndForm;
  endError?: string;
  firstDay: string;
  timeZone: string;
  editing: Post | null;
  readOnly: boolean;
  disabled: boolean;
  onEndChange: (end: SeriesEndForm) => void;
  onCreateDraft: () => void;
};

/** A series' own part: how it takes drafts (or that there are none yet), and when it ends. */
export function SeriesFields({ draftCount, end, endError, firstDay, timeZone, editing, readOnly, disabled, onEndChange, onCreateDraft }: SeriesFieldsProps) {
  const t = useT();
  return (
    <>
      {draftCount > 0 ? (
        <Note icon={<IconRepeat size={16} />}>{t("schedule.form.recurringInfo", { count: draftCount })}</Note>
      ) : (
        <NoDrafts text={t("schedule.noDraftsForRecurring")} onCreate={onCreateDraft} disabled={readOnly || disabled} />
      )}
      <SeriesEndFields
        value={end}
        onChange={onEndChange}
        error={endError}
        firstDay={firstDay}
        timeZone={timeZone}
        made={editing?.isRecurring ? (editing.occurrencesMade ?? 0) : null}
        disabled={readOnly || disabled}
      />
    </>
  );
}
