import { type FormEvent, useEffect, useState } from "react";
import type { Draft, DraftSummary } from "../../../../contract/drafts.ts";
import type { PostOptions } from "../../../../contract/post_options.ts";
import { useDraft } from "../../api/drafts.ts";
import { schedulePost, updatePost } from "../../api/posts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { failureText } from "../../lib/messages.ts";
import type { AdWindowSource } from "../../lib/adWindows.ts";
import { availableDrafts } from "../../lib/recurrence.ts";
import {
  draftChoices,
  EMPTY_VALUES,
  errorsAfterChange,
  initialValues,
  isReadOnly,
  pickedAdWindow,
  type RecurringType,
  refusalErrors,
  type ScheduleErrors,
  scheduleRequest,
  type ScheduleTarget,
  type ScheduleValues,
  shownOptions,
  withRepeat,
  type WrittenPost,
} from "../../lib/scheduleForm.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";

export type ScheduleFormSource = {
  projectId: number;
  timeZone: string;
  target: ScheduleTarget | null;
  opened: boolean;
  /** Unpublished drafts in publishing order, each saying which post holds it. */
  drafts: DraftSummary[];
  /** A draft just created from this dialog: a one-time post takes it. */
  createdDraft: Draft | null;
  /** The calendar's rows: their ads' top windows are warned of before a time inside one is submitted. */
  adRows?: readonly AdWindowSource[];
  onClose: () => void;
};

/**
 * The schedule form's state: its values and errors, the options the person changed, the
 * chosen draft loaded whole, and the submit. The rules themselves are lib/scheduleForm.ts.
 */
export function useScheduleForm({ projectId, timeZone, target, opened, drafts, createdDraft, adRows = [], onClose }: ScheduleFormSource) {
  const t = useT();
  const [values, setValues] = useState<ScheduleValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<ScheduleErrors>({});
  const [saving, setSaving] = useState(false);
  /** The options as the person changed them; null while untouched (they follow the draft). */
  const [ownOptions, setOwnOptions] = useState<PostOptions | null>(null);
  const [optionsOpened, setOptionsOpened] = useState(false);
  /** A post written here (write, then schedule); null while a draft is picked. */
  const [written, setWritten] = useState<WrittenPost | null>(null);
  /** Writing here was left for the draft list (which then takes the focus, not the time field). */
  const [backFromWriting, setBackFromWriting] = useState(false);

  // Each target starts from its own values; reopening after the create-draft dialog keeps them.
  useEffect(() => {
    if (!target) return;
    setValues(initialValues(target, timeZone));
    setErrors({});
    setOwnOptions(null);
    setOptionsOpened(false);
    setWritten(null);
    setBackFromWriting(false);
  }, [target, timeZone]);

  // Spec §2: with no draft to pick, the person creates one here; a one-time post then uses it.
  useEffect(() => {
    if (createdDraft) setValues((current) => (current.recurringType === "none" ? { ...current, draftId: createdDraft.id } : current));
  }, [createdDraft]);

  const editing = target?.mode === "edit" ? target.post : null;
  const status = editing?.status;
  const readOnly = isReadOnly(status);
  const recurring = values.recurringType !== "none";
  const choices = draftChoices(drafts, editing);
  const chosenSummary = drafts.find((draft) => draft.id === values.draftId);
  // The list has the drafts' titles; the chosen one's text and options are read whole.
  const { draft: loadedDraft } = useDraft(opened && !recurring ? projectId : null, values.draftId);
  const chosenDraft: Draft | undefined = loadedDraft?.id === values.draftId ? loadedDraft : undefined;
  const writing = !recurring && !editing && written !== null;
  const draftLoading = !recurring && !writing && values.draftId !== null && chosenDraft === undefined;
  const draftOptions = writing ? {} : (chosenDraft?.options ?? {});
  const postOptions = shownOptions(ownOptions, editing, values.draftId, draftOptions);
  const seriesDraftCount = availableDrafts(drafts).length;
  const recurringBlocked = recurring && seriesDraftCount === 0;
  const adWindow = readOnly ? null : pickedAdWindow(values, timeZone, adRows, {
    editingId: editing?.isRecurring ? null : editing?.id,
    topMinutes: writing ? null : chosenDraft?.ad?.topMinutes,
  });

  const set = <K extends keyof ScheduleValues>(key: K, value: ScheduleValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => errorsAfterChange(current, key));
  };

  const setRepeat = (type: RecurringType) => {
    setValues((current) => withRepeat(current, type));
    setErrors({});
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || recurringBlocked || draftLoading) return;
    const { input, errors: found } = scheduleRequest(t, {
      values,
      timeZone,
      editing,
      chosenSummary,
      chosenDraft,
      postOptions,
      draftOptions,
      written: writing ? written : undefined,
    });
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
      setErrors(refusalErrors(error, text));
      toastError(t("schedule.scheduleFailed"), text);
    } finally {
      setSaving(false);
    }
  };

  return {
    values,
    errors,
    saving,
    editing,
    status,
    readOnly,
    recurring,
    choices,
    chosenDraft,
    written: writing ? written : null,
    /** The post written here as it is typed; an empty one starts writing. */
    setWritten: (value: WrittenPost) => {
      setWritten(value);
      setErrors((current) => ({ ...errorsAfterChange(current, "draftId"), content: undefined }));
    },
    /** Back from writing here to picking a draft. */
    pickDraft: () => {
      setWritten(null);
      setBackFromWriting(true);
      setErrors((current) => ({ ...errorsAfterChange(current, "draftId"), content: undefined }));
    },
    backFromWriting,
    draftLoading,
    postOptions,
    seriesDraftCount,
    recurringBlocked,
    /** The ad's top window the picked time falls in (or its own would meet), or null. */
    adWindow,
    optionsOpened,
    set,
    setRepeat,
    setOwnOptions,
    toggleOptions: () => setOptionsOpened((current) => !current),
    handleSubmit,
  };
}
