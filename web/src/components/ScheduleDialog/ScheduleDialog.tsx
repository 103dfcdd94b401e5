import { Button, Group, Modal, NativeSelect, SegmentedControl, Stack, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/FloatingIndicator.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import { type CalendarDate, now, parseDate, toCalendarDate } from "@internationalized/date";
import { useEffect, useState, type FormEvent, type ReactNode } from "react";
import * as v from "valibot";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";
import type { Draft, DraftSummary } from "../../../../contract/drafts.ts";
import { SERIES_HORIZON_DAYS } from "../../../../contract/limits.ts";
import type { PostOptions } from "../../../../contract/post_options.ts";
import { type Post, ScheduleFormSchema } from "../../../../contract/posts.ts";
import { useDraft } from "../../api/drafts.ts";
import { type PostWriteInput, schedulePost, updatePost } from "../../api/posts.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { errorText, failureText, hasCode } from "../../lib/messages.ts";
import { instantOn } from "../../lib/projectTime.ts";
import { availableDrafts } from "../../lib/recurrence.ts";
import { type SeriesEndForm, seriesEndForm, seriesEndOf, seriesEndProblem } from "../../lib/seriesEnd.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconAlert, IconClock, IconFileText, IconInfo, IconPlus, IconRepeat } from "../Icons/Icons.tsx";
import { cleanOptions, hasOptionErrors, PostOptionsFields, sameOptions } from "../PostOptionsFields/PostOptionsFields.tsx";
import classes from "./ScheduleDialog.module.css";
import { SeriesEndFields } from "./SeriesEndFields.tsx";

type RecurringType = Post["recurringType"];

/** What the dialog opens on: a new post on a day, or an existing post (a series for its occurrences). */
export type ScheduleTarget =
  | { mode: "create"; date: CalendarDate }
  | { mode: "edit"; post: Post; date: CalendarDate; time: string };

type ScheduleDialogProps = {
  projectId: number;
  timeZone: string;
  target: ScheduleTarget | null;
  opened: boolean;
  /** Unpublished drafts in publishing order, each saying which post holds it. */
  drafts: DraftSummary[];
  /** A draft just created from this dialog: a one-time post takes it. */
  createdDraft: Draft | null;
  onCreateDraft: () => void;
  onClose: () => void;
};

type Values = { date: string; time: string; recurringType: RecurringType; draftId: number | null; end: SeriesEndForm };
/** `options`: a button is not right; every button's error shows until the next attempt. `end`: the series' end. */
type Errors = { time?: string; draftId?: string; form?: string; options?: boolean; end?: string };

/** A friendly first time: on today a few minutes ahead (rounded to 5), otherwise 10:00. */
function defaultTime(date: CalendarDate, timeZone: string): string {
  const current = now(timeZone);
  if (toCalendarDate(current).compare(date) !== 0) return "10:00";
  const minutes = Math.min(current.hour * 60 + current.minute + 15, 23 * 60 + 55);
  const rounded = Math.ceil(minutes / 5) * 5;
  return `${String(Math.floor(rounded / 60)).padStart(2, "0")}:${String(rounded % 60).padStart(2, "0")}`;
}

function initialValues(target: ScheduleTarget, timeZone: string): Values {
  if (target.mode === "create") {
    return { date: target.date.toString(), time: defaultTime(target.date, timeZone), recurringType: "none", draftId: null, end: seriesEndForm(null) };
  }
  const { post } = target;
  return { date: target.date.toString(), time: target.time, recurringType: post.recurringType, draftId: post.draftId, end: seriesEndForm(post) };
}

/** "9:30" or "0930" typed in a hurry becomes "09:30"; anything else stays for the validator. */
function normalizeTime(text: string): string {
  const match = /^\s*(\d{1,2})[:.\s]?(\d{2})\s*$/.exec(text);
  return match ? `${match[1].padStart(2, "0")}:${match[2]}` : text.trim();
}

/**
 * Spec §2/§3/§5 schedule or edit dialog: date, time (HH:mm in the project's timezone),
 * repeat (none, daily, weekly) and, for a one-time post, the draft it publishes. A
 * published post (or one being sent) opens read-only, with no submit.
 */
export function ScheduleDialog({
  projectId,
  timeZone,
  target,
  opened,
  drafts,
  createdDraft,
  onCreateDraft,
  onClose,
}: ScheduleDialogProps) {
  const t = useT();
  const isPhone = useIsPhone();
  const [values, setValues] = useState<Values>({ date: "", time: "", recurringType: "none", draftId: null, end: seriesEndForm(null) });
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  /** The options as the person changed them; null while untouched (they follow the draft). */
  const [ownOptions, setOwnOptions] = useState<PostOptions | null>(null);
  const [optionsOpened, setOptionsOpened] = useState(false);

  // Each target starts from its own values; reopening after the create-draft dialog keeps them.
  useEffect(() => {
    if (!target) return;
    setValues(initialValues(target, timeZone));
    setErrors({});
    setOwnOptions(null);
    setOptionsOpened(false);
  }, [target, timeZone]);

  // Spec §2: with no draft to pick, the person creates one here; a one-time post then uses it.
  useEffect(() => {
    if (createdDraft) setValues((current) => (current.recurringType === "none" ? { ...current, draftId: createdDraft.id } : current));
  }, [createdDraft]);

  const editing = target?.mode === "edit" ? target.post : null;
  const status = editing?.status;
  const readOnly = status === "published" || status === "sending" || status === "uncertain";
  const recurring = values.recurringType !== "none";

  // Drafts another live post has taken are not offered; the edited post keeps its own.
  const free = availableDrafts(drafts, editing?.id);
  const options = free.map((draft) => ({ value: String(draft.id), label: draft.title }));
  if (editing?.draftId && !free.some((draft) => draft.id === editing.draftId)) {
    options.unshift({ value: String(editing.draftId), label: editing.title });
  }
  const chosenSummary = drafts.find((draft) => draft.id === values.draftId);
  // The list has the drafts' titles; the chosen one's text and options are read whole.
  const { draft: loadedDraft } = useDraft(opened && !recurring ? projectId : null, values.draftId);
  const chosenDraft: Draft | undefined = loadedDraft?.id === values.draftId ? loadedDraft : undefined;
  const draftLoading = !recurring && values.draftId !== null && chosenDraft === undefined;
  // A one-time post's options (issue 16 §5): the chosen draft's until the person changes
  // them; an existing post shows its own while it keeps its draft.
  const draftOptions = chosenDraft?.options ?? {};
  const postOptions = ownOptions ?? (editing && values.draftId === editing.draftId ? (editing.options ?? {}) : draftOptions);
  const seriesDraftCount = availableDrafts(drafts).length;
  const recurringBlocked = recurring && seriesDraftCount === 0;

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    // Editing a field clears what was said about it (date and time together make the past-time error).
    setErrors((current) => ({
      ...current,
      form: undefined,
      ...(key === "time" ? { time: undefined } : {}),
      ...(key === "draftId" ? { draftId: undefined } : {}),
      // the end day is refused against the date, so a new date clears that too
      ...(key === "end" || key === "date" ? { end: undefined } : {}),
    }));
  };

  /** The request body, or the errors to show instead (spec §5). */
  function validate(): { input?: PostWriteInput; errors: Errors } {
    const draftTitle = chosenSummary?.title ?? chosenDraft?.title ?? (values.draftId === editing?.draftId ? editing?.title : undefined) ?? "";
    const parsed = v.safeParse(ScheduleFormSchema, {
      title: recurring ? "" : draftTitle,
      scheduledTime: values.time,
      recurringType: values.recurringType,
      draftId: recurring ? null : values.draftId,
    });
    const found: Errors = {};
    if (!parsed.success) {
      const nested = v.flatten<typeof ScheduleFormSchema>(parsed.issues).nested ?? {};
      if (nested.scheduledTime) found.time = errorText(t, nested.scheduledTime[0]);
      if (nested.title) found.draftId = values.draftId === null ? t("schedule.selectDraft") : errorText(t, nested.title[0]);
    }
    if (!recurring && values.draftId === null) found.draftId = t("schedule.selectDraft");
    if (!recurring && hasOptionErrors(postOptions)) found.options = true;
    const end = seriesEndOf(values.end);
    const endProblem = recurring ? seriesEndProblem(end, values.date) : null;
    if (endProblem) found.end = errorText(t, endProblem);
    let date: CalendarDate | null = null;
    try {
      date = parseDate(values.date);
    } catch {
      found.form = t("schedule.form.invalidDate");
    }
    const at = date && !found.time ? instantOn(date, values.time, timeZone) : null;
    if (date && !found.time && !at) found.time = t("schedule.invalidTime");
    // Spec §5: a time that has passed (e.g. earlier today) is refused before asking the server.
    if (at && at.compare(now(timeZone)) <= 0) found.form = t("schedule.pastTime");
    if (Object.values(found).some(Boolean) || !at) return { errors: found };

    const scheduledFor = at.toAbsoluteString();
    if (recurring) {
      const type = values.recurringType === "weekly" ? "weekly" : "daily";
      const title = editing?.title || t("schedule.recurringPlaceholderTitle");
      const content = editing?.content || t("schedule.recurringPlaceholderContent");
      return { input: { isRecurring: true, recurringType: type, scheduledFor, title, content, ...end }, errors: {} };
    }
    return {
      input: {
        isRecurring: false,
        draftId: values.draftId!,
        scheduledFor,
        title: draftTitle,
        content: chosenDraft?.content ?? editing?.content ?? "",
        // Sent only when they differ from the draft's: otherwise the server copies the draft's
        // own at that moment (README "Post format"), so a post nobody customised follows its
        // draft, a change saved to the draft in another tab meanwhile included, and the request
        // stays what it was for everyone who never opens the options. An existing post with
        // options of its own sends them every time: the server would put the draft's back.
        options: sameOptions(postOptions, draftOptions) ? undefined : cleanOptions(postOptions),
      },
      errors: {},
    };
  }

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || recurringBlocked || draftLoading) return;
    const { input, errors: found } = validate();
    setErrors(found);
    if (found.options) setOptionsOpened(true);
    if (!input) return;
    setSaving(true);
    try {
      if (editing) await updatePost(projectId, editing.id, input);
      else await schedulePost(projectId, input);
      toastSuccess(editing ? t("schedule.postScheduleUpdated") : t("schedule.postScheduled"));
      onClose();
    } catch (error) {
      const text = failureText(t, error, "common.tryAgainLater");
      if (hasCode(error, "schedule.pastTime")) setErrors({ form: text });
      else if (hasCode(error, "schedule.selectDraft", "schedule.draftAlreadyScheduled")) setErrors({ draftId: text });
      else if (hasCode(error, "schedule.seriesEndsAfterInvalid", "schedule.seriesEndsOnInvalid", "schedule.seriesEndsTwice", "schedule.seriesEndsBeforeStart")) {
        setErrors({ end: text });
      }
      toastError(t("schedule.scheduleFailed"), text);
    } finally {
      setSaving(false);
    }
  };

  const title = readOnly
    ? t("schedule.form.viewTitle")
    : editing?.isRecurring
      ? t("schedule.form.editSeriesTitle")
      : editing
        ? t("schedule.form.editTitle")
        : t("schedule.form.createTitle");
  const minDate = toCalendarDate(now(timeZone)).toString();
  // the server refuses a series starting later (schedule.seriesStartsBeyondHorizon)
  const maxSeriesDate = toCalendarDate(now(timeZone)).add({ days: SERIES_HORIZON_DAYS - 1 }).toString();

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => {} : onClose}
      title={title}
      size={SCHEDULE_DIALOG_WIDTH}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="schedule-form">
        <Stack gap="md">
          {readOnly && (
            <Note icon={<IconInfo size={16} />}>
              {status === "published" ? t("schedule.form.readOnlyPublished") : t("schedule.form.readOnlySending")}
            </Note>
          )}
          {!readOnly && (status === "scheduled" || status === "approved") && (
            <Note icon={<IconInfo size={16} />}>{t("schedule.form.reapproval")}</Note>
          )}

          <div>
            <div className={classes.when}>
              <TextInput
                type="date"
                label={t("schedule.form.date")}
                value={values.date}
                min={readOnly ? undefined : minDate}
                max={readOnly || !recurring ? undefined : maxSeriesDate}
                onChange={(event) => set("date", event.currentTarget.value)}
                disabled={readOnly || saving}
                className={classes.dateField}
                data-testid="schedule-date"
              />
              <TextInput
                label={t("schedule.form.time")}
                placeholder={t("schedule.form.timePlaceholder")}
                value={values.time}
                onChange={(event) => set("time", event.currentTarget.value)}
                onBlur={(event) => set("time", normalizeTime(event.currentTarget.value))}
                error={errors.time}
                inputMode="numeric"
                maxLength={5}
                autoComplete="off"
                leftSection={<IconClock size={16} />}
                disabled={readOnly || saving}
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

          <div>
            <Text component="label" size="sm" fw={500} display="block" mb={6} id="schedule-repeat-label">
              {t("schedule.form.repeat")}
            </Text>
            <SegmentedControl
              fullWidth
              aria-labelledby="schedule-repeat-label"
              value={values.recurringType}
              onChange={(value) => {
                // Spec §4: choosing a repetition clears the chosen draft; drafts are taken in turn.
                const type = value as RecurringType;
                setValues((current) => ({ ...current, recurringType: type, draftId: type === "none" ? current.draftId : null }));
                setErrors({});
              }}
              disabled={readOnly || saving}
              data={[
                { value: "none", label: t("schedule.repeat.none"), disabled: Boolean(editing?.isRecurring) },
                { value: "daily", label: t("schedule.repeat.daily"), disabled: Boolean(editing && !editing.isRecurring) },
                { value: "weekly", label: t("schedule.repeat.weekly"), disabled: Boolean(editing && !editing.isRecurring) },
              ]}
              data-testid="schedule-repeat"
            />
            {editing && !readOnly && (
              <Text size="xs" c="dimmed" mt={6}>
                {t("schedule.form.repeatLocked")}
              </Text>
            )}
          </div>

          {recurring ? (
            seriesDraftCount > 0 ? (
              <Note icon={<IconRepeat size={16} />}>{t("schedule.form.recurringInfo", { count: seriesDraftCount })}</Note>
            ) : (
              <NoDrafts text={t("schedule.noDraftsForRecurring")} onCreate={onCreateDraft} disabled={readOnly || saving} />
            )
          ) : options.length > 0 ? (
            <div>
              <NativeSelect
                label={t("schedule.form.draft")}
                withAsterisk={!readOnly}
                value={values.draftId === null ? "" : String(values.draftId)}
                onChange={(event) => set("draftId", event.currentTarget.value ? Number(event.currentTarget.value) : null)}
                data={[{ value: "", label: t("schedule.form.draftPlaceholder"), disabled: true }, ...options]}
                error={errors.draftId}
                disabled={readOnly || saving}
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
                  onClick={onCreateDraft}
                  disabled={saving}
                  data-testid="schedule-create-draft"
                >
                  {t("schedule.form.newDraft")}
                </Button>
              )}
            </div>
          ) : (
            <NoDrafts text={t("schedule.form.noDrafts")} error={errors.draftId} onCreate={onCreateDraft} disabled={readOnly || saving} />
          )}

          {recurring && (
            <SeriesEndFields
              value={values.end}
              onChange={(end) => set("end", end)}
              error={errors.end}
              firstDay={values.date}
              timeZone={timeZone}
              made={editing?.isRecurring ? (editing.occurrencesMade ?? 0) : null}
              disabled={readOnly || saving}
            />
          )}

          {!recurring && options.length > 0 && (
            <PostOptionsFields
              value={postOptions}
              onChange={setOwnOptions}
              opened={optionsOpened}
              onToggle={() => setOptionsOpened((current) => !current)}
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
                <Button type="submit" loading={saving} disabled={recurringBlocked || draftLoading} data-testid="schedule-submit">
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

function Note({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Text size="sm" className={classes.note}>
      <span className={classes.noteIcon}>{icon}</span>
      <span>{children}</span>
    </Text>
  );
}

/** No draft to publish: say so and offer to write one (spec §2 create-draft dialog). */
function NoDrafts({ text, error, onCreate, disabled }: { text: string; error?: string; onCreate: () => void; disabled: boolean }) {
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
          {t("drafts.create")}
        </Button>
      )}
    </div>
  );
}
