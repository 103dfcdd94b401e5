import { Anchor, Stack, Textarea, TextInput } from "@mantine/core";
import type { WrittenPost } from "../../lib/scheduleForm.ts";
import { useT } from "../../i18n/i18n.tsx";

type WrittenPostFieldsProps = {
  value: WrittenPost;
  error?: string;
  disabled: boolean;
  /** Back to picking a draft; absent when there is no free draft to pick. */
  onPick?: () => void;
  onChange: (value: WrittenPost) => void;
};

/** Write, then schedule: the post's title and text typed here; its draft is made as it is scheduled. */
export function WrittenPostFields({ value, error, disabled, onPick, onChange }: WrittenPostFieldsProps) {
  const t = useT();
  return (
    <Stack gap="xs" data-testid="schedule-written">
      <TextInput
        label={t("schedule.form.writtenTitle")}
        withAsterisk
        value={value.title}
        onChange={(event) => onChange({ ...value, title: event.currentTarget.value })}
        error={error}
        disabled={disabled}
        maxLength={500}
        data-autofocus
        data-testid="schedule-written-title"
      />
      <Textarea
        label={t("schedule.form.writtenContent")}
        value={value.content}
        onChange={(event) => onChange({ ...value, content: event.currentTarget.value })}
        disabled={disabled}
        autosize
        minRows={3}
        maxRows={8}
        data-testid="schedule-written-content"
      />
      {onPick && (
        <Anchor component="button" type="button" size="sm" onClick={onPick} disabled={disabled} data-testid="schedule-pick-draft" style={{ alignSelf: "flex-start" }}>
          {t("schedule.form.pickDraftInstead")}
        </Anchor>
      )}
    </Stack>
  );
}
