import { Button, Group, Modal, NativeSelect, NumberInput, SegmentedControl, Stack, Switch, Text, TextInput, VisuallyHidden } from "@mantine/core";
import "@mantine/core/styles/FloatingIndicator.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/NumberInput.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import * as v from "valibot";
import { type ContentPlan, ContentPlanCreateSchema } from "../../../../contract/content_plans.ts";
import type { ErrorCode } from "../../../../contract/error_codes.ts";
import { CONTENT_PLAN_POST_LENGTH, GENERATED_POST_LENGTH } from "../../../../contract/limits.ts";
import { type ContentPlanInput, createContentPlan, updateContentPlan } from "../../api/contentPlans.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { errorText, failureText, hasCode } from "../../lib/messages.ts";
import { timezoneOptions } from "../../lib/timezones.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { SCHEDULE_DIALOG_WIDTH } from "../../lib/ui.ts";
import { IconAlert, IconClock, IconTrash } from "../Icons/Icons.tsx";
import classes from "./ContentPlan.module.css";
import { dayNames, WEEK_DAYS } from "./days.ts";

/** A new slot on a day (0 is Sunday), or an existing one. */
export type SlotTarget = { mode: "create"; day: number } | { mode: "edit"; plan: ContentPlan };

type Values = { day: number; time: string; timezone: string; postLength: number | string; active: boolean };
type Field = "day" | "time" | "timezone" | "postLength";
type Errors = Partial<Record<Field | "form", string>>;

/** Lengths a person picks most, one click each: a short note, a usual post, a long read. */
const LENGTH_PRESETS = [500, GENERATED_POST_LENGTH.default, 3000];

/** Which field a refusal of the API is about (its codes are those of the shared schema). */
const FIELD_OF_CODE: Partial<Record<ErrorCode, Field>> = {
  "contentPlans.dayInvalid": "day",
  "contentPlans.timeInvalid": "time",
  "contentPlans.timezoneInvalid": "timezone",
  "contentPlans.postLengthInvalid": "postLength",
};

function initialValues(target: SlotTarget, projectTimeZone: string): Values {
  if (target.mode === "edit") {
    const { dayOfWeek, time, timezone, postLength, active } = target.plan;
    return { day: dayOfWeek, time, timezone, postLength, active };
  }
  return { day: target.day, time: "10:00", timezone: projectTimeZone, postLength: GENERATED_POST_LENGTH.default, active: true };
}

/** "9:30" typed in a hurry is "09:30"; anything else stays as typed for the check to name. */
function padHour(text: string): string {
  const trimmed = text.trim();
  return /^\d:\d\d$/.test(trimmed) ? `0${trimmed}` : trimmed;
}

type SlotDialogProps = {
  projectId: number;
  projectTimeZone: string;
  target: SlotTarget | null;
  opened: boolean;
  onClose: () => void;
  /** Remove asked for: the section confirms it. */
  onDelete: (plan: ContentPlan) => void;
};

/**
 * Adds or changes a slot of the content plan: day, time (HH:MM, 24 h), timezone, post length
 * (spec §5: 50-5000) and whether it is active. The form checks with the API's own schema, so
 * both name the same codes and the person reads the same words.
 */
export function SlotDialog({ projectId, projectTimeZone, target, opened, onClose, onDelete }: SlotDialogProps) {
  const t = useT();
  const { language } = useLanguage();
  const namesOf = dayNames(LOCALES[language]);
  const isPhone = useIsPhone();
  const timezones = useMemo(() => timezoneOptions(), []);
  const [values, setValues] = useState<Values>(() => initialValues({ mode: "create", day: 1 }, projectTimeZone));
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!target) return;
    setValues(initialValues(target, projectTimeZone));
    setErrors({});
  }, [target, projectTimeZone]);

  const editing = target?.mode === "edit" ? target.plan : null;

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, form: undefined, [key]: undefined }));
  };

  function validate(): { input?: ContentPlanInput; errors: Errors } {
    const parsed = v.safeParse(ContentPlanCreateSchema, {
      dayOfWeek: values.day,
      time: padHour(values.time),
      timezone: values.timezone,
      postLength: values.postLength,
      active: values.active,
    });
    if (parsed.success) return { input: parsed.output, errors: {} };
    const nested = v.flatten<typeof ContentPlanCreateSchema>(parsed.issues).nested ?? {};
    const message = (codes: string[] | undefined) => (codes ? errorText(t, codes[0]) : undefined);
    return {
      errors: {
        day: message(nested.dayOfWeek),
        time: message(nested.time),
        timezone: message(nested.timezone),
        postLength: message(nested.postLength),
      },
    };
  }

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const { input, errors: found } = validate();
    setErrors(found);
    if (!input) return;
    setSaving(true);
    try {
      if (editing) await updateContentPlan(projectId, editing.id, input);
      else await createContentPlan(projectId, input);
      toastSuccess(editing ? t("schedule.plan.saved") : t("schedule.plan.added"));
      onClose();
    } catch (error) {
      const text = failureText(t, error, "common.tryAgainLater");
      const field = Object.entries(FIELD_OF_CODE).find(([code]) => hasCode(error, code as ErrorCode))?.[1];
      setErrors(field ? { [field]: text } : { form: text });
      toastError(t("schedule.plan.saveFailed"), text);
    } finally {
      setSaving(false);
    }
  };

  const numberFormat = new Intl.NumberFormat(LOCALES[language]);

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => {} : onClose}
      title={editing ? t("schedule.plan.form.editTitle") : t("schedule.plan.form.createTitle")}
      size={SCHEDULE_DIALOG_WIDTH}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="slot-form">
        <Stack gap="md">
          <div>
            <Text size="sm" fw={500} mb={6} id="slot-day-label">
              {t("schedule.plan.form.day")}
            </Text>
            <SegmentedControl
              fullWidth
              size="sm"
              aria-labelledby="slot-day-label"
              value={String(values.day)}
              onChange={(value) => set("day", Number(value))}
              disabled={saving}
              data={WEEK_DAYS.map((day) => {
                const names = namesOf(day);
                return {
                  value: String(day),
                  label: (
                    <>
                      <span aria-hidden="true">{names.short}</span>
                      <VisuallyHidden>{names.long}</VisuallyHidden>
                    </>
                  ),
                };
              })}
              data-testid="slot-day"
            />
            {errors.day && (
              <Text size="xs" c="var(--mantine-color-error)" mt={6} role="alert">
                {errors.day}
              </Text>
            )}
          </div>

          <div className={classes.formRow}>
            <TextInput
              label={t("schedule.plan.form.time")}
              placeholder={t("schedule.plan.form.timePlaceholder")}
              value={values.time}
              onChange={(event) => set("time", event.currentTarget.value)}
              onBlur={(event) => set("time", padHour(event.currentTarget.value))}
              error={errors.time}
              inputMode="numeric"
              maxLength={5}
              autoComplete="off"
              leftSection={<IconClock size={16} />}
              disabled={saving}
              className={classes.timeField}
              data-autofocus
              data-testid="slot-time"
            />
            <NativeSelect
              label={t("schedule.plan.form.timezone")}
              data={timezones}
              value={values.timezone}
              onChange={(event) => set("timezone", event.currentTarget.value)}
              error={errors.timezone}
              disabled={saving}
              className={classes.zoneField}
              data-testid="slot-timezone"
            />
          </div>
          {values.timezone !== projectTimeZone && (
            <Text size="xs" c="dimmed" mt={-8}>
              {t("schedule.plan.form.timezoneHint", { timezone: projectTimeZone })}
            </Text>
          )}

          <div>
            <NumberInput
              label={t("schedule.plan.form.length")}
              description={t("schedule.plan.form.lengthHint", CONTENT_PLAN_POST_LENGTH)}
              min={CONTENT_PLAN_POST_LENGTH.min}
              max={CONTENT_PLAN_POST_LENGTH.max}
              step={100}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              value={values.postLength}
              onChange={(value) => set("postLength", value)}
              error={errors.postLength}
              rightSection={<span className={classes.unit}>{t("schedule.plan.form.lengthUnit")}</span>}
              rightSectionWidth={56}
              rightSectionPointerEvents="none"
              hideControls
              disabled={saving}
              data-testid="slot-length"
            />
            <Group gap={6} mt={8} role="group" aria-label={t("schedule.plan.form.presets")}>
              {LENGTH_PRESETS.map((length) => (
                <Button
                  key={length}
                  size="compact-xs"
                  variant={values.postLength === length ? "light" : "default"}
                  aria-pressed={values.postLength === length}
                  onClick={() => set("postLength", length)}
                  disabled={saving}
                  className={classes.preset}
                  data-testid="slot-length-preset"
                >
                  {numberFormat.format(length)}
                </Button>
              ))}
            </Group>
          </div>

          <Switch
            label={t("schedule.plan.form.active")}
            description={t("schedule.plan.form.activeHint")}
            checked={values.active}
            onChange={(event) => set("active", event.currentTarget.checked)}
            disabled={saving}
            data-testid="slot-active"
          />

          {errors.form && (
            <Text size="sm" c="var(--mantine-color-error)" className={classes.formError} role="alert" data-testid="slot-form-error">
              <IconAlert size={16} style={{ flex: "none", marginTop: 2 }} />
              {errors.form}
            </Text>
          )}

          <div className={classes.actions}>
            {editing && (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => onDelete(editing)}
                disabled={saving}
                className={classes.deleteButton}
                data-testid="slot-delete"
              >
                {t("common.delete")}
              </Button>
            )}
            <Group gap="sm" ml="auto" wrap="nowrap">
              <Button variant="default" onClick={onClose} disabled={saving}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" loading={saving} data-testid="slot-submit">
                {editing ? t("common.save") : t("schedule.plan.add")}
              </Button>
            </Group>
          </div>
        </Stack>
      </form>
    </Modal>
  );
}
