import { Button, Group, Modal, NumberInput, Stack, Text, TextInput } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/NumberInput.layer.css";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { Draft } from "../../../../contract/drafts.ts";
import { GENERATED_POST_LENGTH, PHOTO_CAPTION_MAX, POST_CONTENT_MAX } from "../../../../contract/limits.ts";
import { createDraft, updateDraft } from "../../api/drafts.ts";
import { useProject } from "../../api/projects.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { errorText, failureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconArrowBackUp, IconSparkles } from "../Icons/Icons.tsx";
import { useDraftGeneration } from "./useDraftGeneration.ts";
import { ImageField } from "../ImageField/ImageField.tsx";
import { LazyPostEditor } from "../PostEditor/LazyPostEditor.tsx";
import { labelLength, previewAd } from "../../lib/adForm.ts";
import { draftInput, type Generated, validate, type Values, valuesOf, withGenerated } from "../../lib/draftForm.ts";
import { AdFields } from "../AdFields/AdFields.tsx";
import { PostOptionsFields } from "../PostOptionsFields/PostOptionsFields.tsx";
import { PostPreview } from "../PostPreview/PostPreview.tsx";
import classes from "./DraftDialog.module.css";

type DraftDialogProps = {
  projectId: number;
  /** The draft being edited; without one the dialog creates a new draft. */
  draft?: Draft;
  opened: boolean;
  onClose: () => void;
  onSaved?: (draft: Draft) => void;
  /** Modal width; the schedule page's dialogs are narrower (spec §2 Schedule). */
  size?: number | string;
};

/** Wide enough for the text and its preview side by side; narrower dialogs stack them. */
const DRAFT_DIALOG_WIDTH = 1000;

/**
 * Create or edit a draft (spec §2): title, text and image, with AI help for the title and
 * for the text (which needs a title, spec §5) at a chosen target length.
 */
export function DraftDialog({ projectId, draft, opened, onClose, onSaved, size = DRAFT_DIALOG_WIDTH }: DraftDialogProps) {
  const t = useT();
  const isPhone = useIsPhone();
  const [values, setValues] = useState<Values>(() => valuesOf(draft));
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [optionsOpened, setOptionsOpened] = useState(false);
  const [adOpened, setAdOpened] = useState(false);
  const previewLabelId = useId();
  const titleInput = useRef<HTMLInputElement>(null);
  const { project } = useProject(projectId);
  const isEdit = draft !== undefined;

  // Each opening starts from the draft as stored (or empty for a new one). Only a new
  // opening or another draft resets the form, not a refetch of the same draft.
  const draftId = draft?.id;
  useEffect(() => {
    if (!opened) return;
    setValues(valuesOf(draft));
    setAttempted(false);
    setUploading(false);
    setOptionsOpened(false);
    // an ad opens on its section: what it sells is what the owner checks first
    setAdOpened(Boolean(draft?.ad));
  }, [opened, draftId]);

  const errors = attempted ? validate(values) : {};
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((current) => ({ ...current, [key]: value }));
  const apply = (generated: Generated) => setValues((current) => withGenerated(current, generated));
  const { generating, postLength, setPostLength, replacedContent, setReplacedContent, handleGenerateTitle, handleGeneratePost } =
    useDraftGeneration({ projectId, opened, draftId, values, apply, titleInput });

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    const problems = validate(values);
    if (problems.options) setOptionsOpened(true);
    if (problems.ad) setAdOpened(true);
    if (Object.values(problems).some(Boolean)) return;
    setSaving(true);
    const input = draftInput(values);
    try {
      const saved = isEdit ? await updateDraft(projectId, draft.id, input) : await createDraft(projectId, input);
      toastSuccess(isEdit ? t("drafts.draftUpdated") : t("drafts.draftCreated"), saved.title);
      onSaved?.(saved);
      onClose();
    } catch (error) {
      toastError(
        isEdit ? t("drafts.failedToUpdate") : t("drafts.failedToCreate"),
        failureText(t, error, "common.tryAgainLater"),
      );
    } finally {
      setSaving(false);
    }
  };

  const length = values.body.text.length;
  // An image takes the text as its caption up to 1024; a longer text still goes out, as a
  // message of its own after the photo, so the counter warns but saving is not blocked.
  const hasImage = values.imageUrls.length > 0;
  // The ad's label goes out in the same message, so it takes its share of Telegram's limit.
  const language = project?.language ?? "ru";
  const limit = (hasImage ? PHOTO_CAPTION_MAX : POST_CONTENT_MAX) - labelLength(values.ad, language);
  const busy = saving || uploading || generating !== null;

  return (
    <Modal
      opened={opened}
      onClose={saving ? () => {} : onClose}
      title={isEdit ? t("drafts.editTitle") : t("drafts.createTitle")}
      size={size}
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate data-testid="draft-form" className={classes.form}>
        <div className={classes.layout}>
        <Stack gap="md" className={classes.main}>
          <TextInput
            label={t("drafts.titleLabel")}
            placeholder={t("drafts.titlePlaceholder")}
            withAsterisk
            data-autofocus
            ref={titleInput}
            value={values.title}
            onChange={(event) => set("title", event.currentTarget.value)}
            error={errors.title && errorText(t, errors.title)}
            disabled={saving || generating === "title"}
            data-testid="draft-title"
            classNames={{ wrapper: classes.grow }}
            inputContainer={(input) => (
              <div className={classes.withAction}>
                {input}
                <Button
                  variant="light"
                  leftSection={<IconSparkles size={16} />}
                  onClick={() => void handleGenerateTitle()}
                  loading={generating === "title"}
                  disabled={saving || generating === "post"}
                  aria-label={t("drafts.generateTitleLabel")}
                  data-testid="generate-title"
                >
                  {t("drafts.generateTitle")}
                </Button>
              </div>
            )}
          />
          <div aria-busy={generating === "post"} data-generating={generating === "post" || undefined} className={classes.editor}>
            <LazyPostEditor
              label={t("drafts.contentLabel")}
              placeholder={t("drafts.contentPlaceholder")}
              value={values.body}
              onChange={(body) => {
                set("body", body);
                setReplacedContent(null);
              }}
              limit={limit}
              error={errors.content && errorText(t, errors.content)}
              disabled={saving || generating === "post"}
              testId="draft-content"
            />
            <div className={classes.contentFooter}>
              <div className={classes.generator}>
                <Button
                  variant="light"
                  size="xs"
                  leftSection={<IconSparkles size={15} />}
                  onClick={() => void handleGeneratePost()}
                  loading={generating === "post"}
                  disabled={saving || generating === "title"}
                  data-testid="generate-post"
                >
                  {t("drafts.generatePost")}
                </Button>
                <NumberInput
                  size="xs"
                  w={84}
                  min={GENERATED_POST_LENGTH.min}
                  max={GENERATED_POST_LENGTH.max}
                  step={100}
                  allowDecimal={false}
                  allowNegative={false}
                  clampBehavior="blur"
                  value={postLength}
                  onChange={setPostLength}
                  disabled={saving || generating === "post"}
                  aria-label={t("drafts.postLengthLabel", { min: GENERATED_POST_LENGTH.min, max: GENERATED_POST_LENGTH.max })}
                  data-testid="post-length"
                />
                <Text size="xs" c="dimmed">
                  {t("drafts.postLengthUnit")}
                </Text>
              </div>
              <Group gap={6} wrap="nowrap" ml="auto">
                {replacedContent !== null && (
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    color="gray"
                    leftSection={<IconArrowBackUp size={14} />}
                    onClick={() => {
                      set("body", replacedContent);
                      setReplacedContent(null);
                    }}
                    data-testid="undo-generated-post"
                  >
                    {t("drafts.restoreContent")}
                  </Button>
                )}
                {/* Without an image the editor's counter already says this; with one, it counts against 1024. */}
                {hasImage && length > POST_CONTENT_MAX && (
                  <Text size="xs" c="orange.8" aria-live="polite" style={{ fontVariantNumeric: "tabular-nums" }}>
                    {t("drafts.contentTooLongForPost", { current: length, max: POST_CONTENT_MAX })}
                  </Text>
                )}
              </Group>
            </div>
            {hasImage && length > PHOTO_CAPTION_MAX && length <= POST_CONTENT_MAX && (
              <Text size="xs" mt={6} className={classes.hint} data-testid="caption-separate">
                {t("drafts.captionSeparate", { max: PHOTO_CAPTION_MAX })}
              </Text>
            )}
          </div>
        </Stack>
        {/* Focusable: on a wide dialog it scrolls on its own beside the text. */}
        <section className={classes.previewPane} aria-labelledby={previewLabelId} tabIndex={0} data-testid="draft-preview-pane">
          <Text id={previewLabelId} size="sm" fw={500} mb={6}>
            {t("postPreview.title")}
          </Text>
          <PostPreview
            text={values.body.text}
            entities={values.body.entities}
            imageUrls={values.imageUrls}
            buttons={values.options.buttons}
            silent={values.options.silent}
            pin={values.options.pin}
            ad={previewAd(values.ad)}
            projectLanguage={language}
            channelName={project?.name}
          />
        </section>
        <Stack gap="md" className={classes.rest}>
          <ImageField
            projectId={projectId}
            value={values.imageUrls}
            onChange={(imageUrls) => set("imageUrls", imageUrls)}
            onUploadingChange={setUploading}
            error={errors.imageUrls && errorText(t, errors.imageUrls)}
            disabled={saving}
          />
          <PostOptionsFields
            value={values.options}
            onChange={(options) => set("options", options)}
            opened={optionsOpened}
            onToggle={() => setOptionsOpened((current) => !current)}
            showAllErrors={attempted}
            disabled={saving}
          />
          <AdFields
            value={values.ad}
            onChange={(ad) => set("ad", ad)}
            opened={adOpened}
            onToggle={() => setAdOpened((current) => !current)}
            errors={errors.ad ?? {}}
            disabled={saving}
          />
          <Group justify="flex-end" gap="sm" mt="xs" className={classes.actions}>
            <Button variant="default" onClick={onClose} disabled={saving}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={saving} disabled={busy && !saving} data-testid="draft-save">
              {isEdit ? t("common.save") : t("drafts.create")}
            </Button>
          </Group>
        </Stack>
        </div>
      </form>
    </Modal>
  );
}
