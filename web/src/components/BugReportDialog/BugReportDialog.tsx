import { ActionIcon, Button, Group, Loader, Modal, Stack, Text, Textarea } from "@mantine/core";
import "@mantine/core/styles/ModalBase.layer.css";
import "@mantine/core/styles/Overlay.layer.css";
import "@mantine/core/styles/Modal.layer.css";
import { type ClipboardEvent, type FormEvent, useEffect, useState } from "react";
import { BUG_REPORT_DESCRIPTION_MAX } from "../../../../contract/bug_reports.ts";
import { IMAGE_MAX_BYTES } from "../../../../contract/limits.ts";
import { submitBugReport } from "../../api/bugReports.ts";
import { type Language, useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconPlus, IconSend, IconTrash } from "../Icons/Icons.tsx";
import { ImageDropzone } from "../ImageDropzone/ImageDropzone.tsx";
import classes from "./BugReportDialog.module.css";

type BugReportDialogProps = { opened: boolean; onClose: () => void };

const SCREENSHOT_INPUT_ID = "bug-report-screenshot";

function formatSize(bytes: number, language: Language) {
  const megabytes = bytes >= 1024 * 1024;
  return new Intl.NumberFormat(LOCALES[language], {
    style: "unit",
    unit: megabytes ? "megabyte" : "kilobyte",
    maximumFractionDigits: megabytes ? 1 : 0,
  }).format(megabytes ? bytes / 1024 / 1024 : Math.max(1, bytes / 1024));
}

/** An object URL for a picked file's preview, released when the file changes or goes. */
function useObjectUrl(file: File | null) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

/**
 * Spec §2/§4/§5/§8: description (required) and an optional screenshot (images only). While
 * sending, both buttons are disabled and the label reads 'Отправка...'; success closes the
 * dialog and clears it, failure keeps it open with what was typed.
 */
export default function BugReportDialog({ opened, onClose }: BugReportDialogProps) {
  const t = useT();
  const { language } = useLanguage();
  const [description, setDescription] = useState("");
  const [screenshot, setScreenshot] = useState<File | null>(null);
  const [screenshotProblem, setScreenshotProblem] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const previewUrl = useObjectUrl(screenshot);

  // The server checks the bytes again; this catches the obvious mistakes before sending.
  const attach = (file: File | undefined) => {
    if (!file || submitting) return;
    if (!file.type.startsWith("image/")) return setScreenshotProblem(t("bugReport.screenshotNotImage"));
    if (file.size > IMAGE_MAX_BYTES) return setScreenshotProblem(t("bugReport.screenshotTooBig"));
    setScreenshotProblem(null);
    setScreenshot(file);
  };

  const removeScreenshot = () => {
    setScreenshot(null);
    setScreenshotProblem(null);
  };

  const onPaste = (event: ClipboardEvent) => {
    const image = Array.from(event.clipboardData.files).find((file) => file.type.startsWith("image/"));
    if (!image || submitting) return;
    event.preventDefault();
    attach(image);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    if (description.trim() === "") {
      toastError(t("bugReport.errorTitle"), t("bugReport.describeProblem"));
      return;
    }
    setSubmitting(true);
    try {
      await submitBugReport({ description, screenshot, pageUrl: window.location.href });
      toastSuccess(t("bugReport.thanksTitle"), t("bugReport.thanksText"));
      setDescription("");
      removeScreenshot();
      onClose();
    } catch (error) {
      console.error("Sending the bug report failed", error);
      toastError(t("bugReport.errorTitle"), t("bugReport.sendFailed"));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={submitting ? () => {} : onClose}
      title={t("bugReport.title")}
      size="md"
      closeOnClickOutside={!submitting}
      closeOnEscape={!submitting}
      closeButtonProps={{ "aria-label": t("common.close"), disabled: submitting }}
    >
      <form
        onSubmit={(event) => void submit(event)}
        onPaste={onPaste}
        noValidate
        data-testid="bug-report-form"
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {t("bugReport.intro")}
          </Text>
          <Textarea
            label={t("bugReport.description")}
            placeholder={t("bugReport.descriptionPlaceholder")}
            withAsterisk
            aria-required="true"
            autosize
            minRows={4}
            maxRows={10}
            maxLength={BUG_REPORT_DESCRIPTION_MAX}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            readOnly={submitting}
            data-autofocus
            data-testid="bug-report-description"
          />

          <div>
            <Text component="label" htmlFor={SCREENSHOT_INPUT_ID} size="sm" fw={500} display="block" mb={4}>
              {t("bugReport.screenshot")}{" "}
              <Text span size="sm" c="dimmed" fw={400}>
                ({t("bugReport.screenshotOptional")})
              </Text>
            </Text>
            {screenshot && previewUrl
              ? (
                <div className={classes.preview} data-testid="bug-report-screenshot-preview">
                  <img src={previewUrl} alt="" className={classes.thumbnail} />
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Text size="sm" fw={500} truncate="end" title={screenshot.name}>
                      {screenshot.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatSize(screenshot.size, language)}
                    </Text>
                  </div>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    onClick={removeScreenshot}
                    disabled={submitting}
                    aria-label={t("bugReport.removeScreenshot")}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </div>
              )
              : (
                <ImageDropzone
                  onFile={attach}
                  title={t("bugReport.chooseScreenshot")}
                  hint={t("bugReport.screenshotHint")}
                  icon={<IconPlus size={18} />}
                  disabled={submitting}
                  inputId={SCREENSHOT_INPUT_ID}
                  inputTestId="bug-report-screenshot-input"
                />
              )}
            {screenshotProblem && (
              <Text size="xs" c="red.7" mt={6} role="alert">
                {screenshotProblem}
              </Text>
            )}
          </div>

          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose} disabled={submitting}>
              {t("common.cancel")}
            </Button>
            <Button
              type="submit"
              disabled={submitting}
              leftSection={submitting ? <Loader size={14} color="gray" /> : <IconSend size={16} />}
              data-testid="bug-report-submit"
            >
              {submitting ? t("bugReport.submitting") : t("bugReport.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
