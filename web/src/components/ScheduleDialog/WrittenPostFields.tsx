import { Anchor, Stack, TextInput } from "@mantine/core";
import { POST_CONTENT_MAX } from "../../../../contract/limits.ts";
import { useT } from "../../i18n/i18n.tsx";
import type { WrittenPost } from "../../lib/scheduleForm.ts";
import { LazyPostEditor } from "../PostEditor/LazyPostEditor.tsx";

type WrittenPostFieldsProps = {
  value: WrittenPost;
  /** The title's error (none given), and the text's (too long, formatting that does not fit). */
  error?: string;
  contentError?: string;
  disabled: boolean;
  /** Back to picking a draft; absent when there is no free draft to pick. */
  onPick?: () => void;
  onChange: (value: WrittenPost) => void;
};

/**
 * Write, then schedule: the post's title and its text typed here, in the same editor as a
 * draft's (Telegram's formatting, the counter at a text message's limit: a written post has no
 * picture); its draft is made as it is scheduled.
 */
export function WrittenPostFields({ value, error, contentError, disabled, onPick, onChange }: WrittenPostFieldsProps) {
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
        // shown by a click that removed what had focus (the draft list's button): the typing goes on here
        autoFocus
        data-testid="schedule-written-title"
      />
      <LazyPostEditor
        label={t("schedule.form.writtenContent")}
        value={value.body}
        onChange={(body) => onChange({ ...value, body })}
        limit={POST_CONTENT_MAX}
        error={contentError}
        disabled={disabled}
        testId="schedule-written-content"
      />
      {onPick && (
        <Anchor component="button" type="button" size="sm" onClick={onPick} disabled={disabled} data-testid="schedule-pick-draft" style={{ alignSelf: "flex-start" }}>
          {t("schedule.form.pickDraftInstead")}
        </Anchor>
      )}
    </Stack>
  );
}
