import { Button, NativeSelect, Text } from "@mantine/core";
import type { Draft } from "../../../../contract/drafts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { IconPlus } from "../Icons/Icons.tsx";
import { NoDrafts } from "./ScheduleNotes.tsx";
import classes from "./ScheduleDialog.module.css";

type DraftPickerProps = {
  /** The drafts offered (lib/scheduleForm.ts draftChoices), in publishing order. */
  choices: { value: string; label: string }[];
  draftId: number | null;
  /** The chosen draft once loaded whole: its text is previewed under the list. */
  chosenDraft: Draft | undefined;
  error?: string;
  readOnly: boolean;
  disabled: boolean;
  onChange: (draftId: number | null) => void;
  /** Back from writing the post here: focus goes to the list (the link that had it is gone). */
  focusList?: boolean;
  /** Write a new post here instead (write, then schedule). */
  onWrite: () => void;
};

/** The free draft a one-time post publishes, with a glimpse of its text; or a way to write the post here. */
export function DraftPicker({ choices, draftId, chosenDraft, error, readOnly, disabled, onChange, focusList = false, onWrite }: DraftPickerProps) {
  const t = useT();
  if (choices.length === 0) {
    return (
      <NoDrafts
        text={t("schedule.form.noDrafts")}
        error={error}
        onCreate={onWrite}
        disabled={readOnly || disabled}
        actionLabel={t("schedule.form.writePost")}
      />
    );
  }
  return (
    <div>
      <NativeSelect
        label={t("schedule.form.draft")}
        withAsterisk={!readOnly}
        value={draftId === null ? "" : String(draftId)}
        onChange={(event) => onChange(event.currentTarget.value ? Number(event.currentTarget.value) : null)}
        data={[{ value: "", label: t("schedule.form.draftPlaceholder"), disabled: true }, ...choices]}
        error={error}
        disabled={readOnly || disabled}
        autoFocus={focusList}
        data-testid="schedule-draft"
      />
      {chosenDraft && (
        <Text size="xs" c="dimmed" mt={6} lineClamp={2} className={classes.preview}>
          {chosenDraft.content.trim() || t("drafts.noContent")}
        </Text>
      )}
      {!readOnly && (
        <Button
          variant="subtle"
          size="compact-xs"
          mt={6}
          leftSection={<IconPlus size={12} />}
          onClick={onWrite}
          disabled={disabled}
          data-testid="schedule-write-post"
        >
          {t("schedule.form.writePost")}
        </Button>
      )}
    </div>
  );
}
