import { Button, Group, NativeSelect, Stack, Textarea, TextInput } from "@mantine/core";
import { useMemo, useRef, useState, type FormEvent } from "react";
import * as v from "valibot";
import { DEFAULT_LANGUAGE, DEFAULT_TIMEZONE, WRITING_STYLE_DEFAULTS } from "../../../../contract/limits.ts";
import { ProjectCreateSchema, type Project, type WritingStyle } from "../../../../contract/projects.ts";
import type { ProjectUpdateInput } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { errorText } from "../../lib/messages.ts";
import { timezoneOptions } from "../../lib/timezones.ts";
import { IconAt } from "../Icons/Icons.tsx";
import { WritingStyleField } from "../WritingStyleField/WritingStyleField.tsx";

type ProjectFormValues = {
  name: string;
  description: string;
  adminHandle: string;
  timezone: string;
  sources: string;
  language: string;
  writingStyle: WritingStyle;
};

type FieldErrors = Partial<Record<keyof ProjectFormValues, string>>;

/** The field shows a fixed "@" already, so a typed or pasted "@name" keeps just "name". */
const withoutAt = (handle: string) => handle.replace(/^\s*@+/, "");

function initialValues(project: Project | undefined): ProjectFormValues {
  return {
    name: project?.name ?? "",
    description: project?.description ?? "",
    adminHandle: withoutAt(project?.adminHandle ?? ""),
    timezone: project?.timezone || DEFAULT_TIMEZONE,
    sources: project?.sources ?? "",
    language: project?.language || DEFAULT_LANGUAGE,
    writingStyle: { ...(project?.writingStyle ?? WRITING_STYLE_DEFAULTS) },
  };
}

/** Validates with the schema the API uses, so both sides give the same messages. */
function validate(values: ProjectFormValues) {
  const result = v.safeParse(ProjectCreateSchema, values);
  if (result.success) return { output: result.output, errors: {} as FieldErrors };
  const nested = v.flatten<typeof ProjectCreateSchema>(result.issues).nested ?? {};
  const errors: FieldErrors = {};
  for (const [path, messages] of Object.entries(nested)) {
    const field = path.split(".")[0] as keyof ProjectFormValues;
    if (messages?.[0] && !errors[field]) errors[field] = messages[0];
  }
  return { output: undefined, errors };
}

type ProjectFormProps = {
  /** Present when editing; the form then also offers the content language. */
  project?: Project;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (input: ProjectUpdateInput) => void;
  onCancel: () => void;
};

export function ProjectForm({ project, submitLabel, submitting, onSubmit, onCancel }: ProjectFormProps) {
  const t = useT();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => initialValues(project));
  const [attempted, setAttempted] = useState(false);
  const timezones = useMemo(() => timezoneOptions(), []);
  const isEdit = project !== undefined;

  // Messages appear after the first submit and then follow every change, in the interface language.
  const errors: FieldErrors = attempted
    ? Object.fromEntries(
        Object.entries(validate(values).errors).map(([field, message]) => [field, message && errorText(t, message)]),
      )
    : {};

  const set = <K extends keyof ProjectFormValues>(key: K, value: ProjectFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const { output } = validate(values);
    if (!output) {
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    onSubmit({
      name: output.name,
      description: output.description,
      adminHandle: output.adminHandle,
      timezone: output.timezone,
      sources: output.sources,
      language: output.language,
      writingStyle: output.writingStyle,
    });
  };

  return (
    <form ref={formRef} onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <TextInput
          label={t("projectForm.name")}
          placeholder={t("projectForm.namePlaceholder")}
          withAsterisk
          data-autofocus
          value={values.name}
          onChange={(event) => set("name", event.currentTarget.value)}
          error={errors.name}
        />
        <Textarea
          label={t("projectForm.description")}
          placeholder={t("projectForm.descriptionPlaceholder")}
          autosize
          minRows={2}
          maxRows={5}
          value={values.description}
          onChange={(event) => set("description", event.currentTarget.value)}
          error={errors.description}
        />
        <TextInput
          label={t("projectForm.adminHandle")}
          description={t("projectForm.adminHandleHint")}
          placeholder="username"
          withAsterisk
          leftSection={<IconAt size={16} />}
          autoComplete="off"
          value={values.adminHandle}
          onChange={(event) => set("adminHandle", withoutAt(event.currentTarget.value))}
          error={errors.adminHandle}
        />
        <NativeSelect
          label={t("projectForm.timezone")}
          description={t("projectForm.timezoneHint")}
          data={timezones}
          value={values.timezone}
          onChange={(event) => set("timezone", event.currentTarget.value)}
          error={errors.timezone}
        />
        {isEdit && (
          <NativeSelect
            label={t("projectForm.language")}
            description={t("projectForm.languageHint")}
            data={[
              { value: "ru", label: t("language.ru") },
              { value: "en", label: t("language.en") },
            ]}
            value={values.language}
            onChange={(event) => set("language", event.currentTarget.value)}
            error={errors.language}
          />
        )}
        <Textarea
          label={t("projectForm.sources")}
          description={t("projectForm.sourcesHint")}
          placeholder={t("projectForm.sourcesPlaceholder")}
          autosize
          minRows={3}
          maxRows={8}
          value={values.sources}
          onChange={(event) => set("sources", event.currentTarget.value)}
          error={errors.sources}
        />
        <WritingStyleField value={values.writingStyle} onChange={(style) => set("writingStyle", style)} />

        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onCancel} disabled={submitting}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" loading={submitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
