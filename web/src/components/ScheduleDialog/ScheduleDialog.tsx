import { Button, Group, Modal, Stack } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { dialogTitleKey, EMPTY_WRITTEN, type ScheduleTarget } from "../../lib/scheduleForm.ts";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";
import { IconInfo } from "../Icons/Icons.tsx";
import { PostOptionsFields } from "../PostOptionsFields/PostOptionsFields.tsx";
import { DraftPicker } from "./DraftPicker.tsx";
import { RepeatField, SeriesFields } from "./RecurrenceFields.tsx";
import { AdWindowNote, Note } from "./ScheduleNotes.tsx";
import { type ScheduleFormSource, useScheduleForm } from "./useScheduleForm.ts";
import { WhenFields } from "./WhenFields.tsx";
import { WrittenPostFields } from "./WrittenPostFields.tsx";

export type { ScheduleTarget };

type ScheduleDialogProps = ScheduleFormSource & { onCreateDraft: () => void };

/**
 * Spec §2/§3/§5 schedule or edit dialog: date and time in the project's timezone
 * (WhenFields), repeat (RepeatField) and then either a series' drafts and end (SeriesFields)
 * or a one-time post's free draft (DraftPicker) or its text written here (WrittenPostFields:
 * write, then schedule, its draft made in the same request) and options. A published post (or one being sent)
 * opens read-only, with no submit. A time inside an ad's top window is warned of under the
 * time (AdWindowNote). State in useScheduleForm; rules in lib/scheduleForm.ts.
 */
export function ScheduleDialog({ projectId, timeZone, target, opened, drafts, createdDraft, adRows, onCreateDraft, onClose }: ScheduleDialogProps) {
  const t = useT();
  const isPhone = useIsPhone();
  const form = useScheduleForm({ projectId, timeZone, target, opened, drafts, createdDraft, adRows, onClose });
  const { values, errors, saving, editing, status, readOnly, recurring } = form;

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => {} : onClose}
      title={t(dialogTitleKey(editing, readOnly))}
      size={SCHEDULE_DIALOG_WIDTH}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void form.handleSubmit(event)} noValidate data-testid="schedule-form">
        <Stack gap="md">
          {readOnly && (
            <Note icon={<IconInfo size={16} />}>
              {status === "published" ? t("schedule.form.readOnlyPublished") : t("schedule.form.readOnlySending")}
            </Note>
          )}
          {!readOnly && (status === "scheduled" || status === "approved") && (
            <Note icon={<IconInfo size={16} />}>{t("schedule.form.reapproval")}</Note>
          )}

          <WhenFields
            date={values.date}
            time={values.time}
            errors={errors}
            timeZone={timeZone}
            recurring={recurring}
            readOnly={readOnly}
            disabled={saving}
            onChange={form.set}
          />
          {form.adWindow && <AdWindowNote window={form.adWindow} recurring={recurring} timeZone={timeZone} />}

          <RepeatField value={values.recurringType} editing={editing} readOnly={readOnly} disabled={saving} onChange={form.setRepeat} />

          {recurring ? (
            <SeriesFields
              draftCount={form.seriesDraftCount}
              end={values.end}
              endError={errors.end}
              firstDay={values.date}
              timeZone={timeZone}
              editing={editing}
              readOnly={readOnly}
              disabled={saving}
              onEndChange={(end) => form.set("end", end)}
              onCreateDraft={onCreateDraft}
            />
          ) : form.written ? (
            <WrittenPostFields
              value={form.written}
              error={errors.draftId}
              contentError={errors.content}
              disabled={saving}
              onPick={form.choices.length > 0 ? form.pickDraft : undefined}
              onChange={form.setWritten}
            />
          ) : (
            <DraftPicker
              choices={form.choices}
              draftId={values.draftId}
              chosenDraft={form.chosenDraft}
              error={errors.draftId}
              readOnly={readOnly}
              disabled={saving}
              onChange={(draftId) => form.set("draftId", draftId)}
              focusList={form.backFromWriting}
              onWrite={() => form.setWritten(EMPTY_WRITTEN)}
            />
          )}

          {!recurring && (form.choices.length > 0 || form.written) && (
            <PostOptionsFields
              value={form.postOptions}
              onChange={form.setOwnOptions}
              opened={form.optionsOpened}
              onToggle={form.toggleOptions}
              showAllErrors={Boolean(errors.options)}
              disabled={readOnly || saving}
              hint={readOnly ? undefined : t("schedule.form.optionsHint")}
            />
          )}

          <Group justify="flex-end" gap="sm" mt="xs">
            {readOnly ? (
              <Button variant="default" onClick={onClose}>
                {t("common.close")}
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={onClose} disabled={saving}>
                  {t("common.cancel")}
                </Button>
                <Button type="submit" loading={saving} disabled={form.recurringBlocked || form.draftLoading} data-testid="schedule-submit">
                  {editing ? t("common.save") : t("schedule.form.submit")}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
