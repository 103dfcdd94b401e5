import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from "@mantine/core";
import "@mantine/core/styles/Modal.layer.css";
import "@mantine/core/styles/NumberInput.layer.css";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { bulkTitles } from "../../../../contract/drafts.ts";
import { BULK_ADD_MAX_LINES, GENERATED_TITLES } from "../../../../contract/limits.ts";
import { generateTitles } from "../../api/ai.ts";
import { bulkAddDrafts } from "../../api/drafts.ts";
import { useIsPhone } from "../../hooks/useIsPhone.ts";
import { useT } from "../../i18n/i18n.tsx";
import { clampInput } from "../../lib/clampInput.ts";
import { failureText, generationFailureText } from "../../lib/messages.ts";
import { toastError, toastSuccess } from "../../lib/toast.ts";
import { IconSparkles } from "../Icons/Icons.tsx";
import classes from "./BulkAddDialog.module.css";

type BulkAddDialogProps = {
  projectId: number;
  opened: boolean;
  onClose: () => void;
  /**
   * Opened to top up the queue (QueueHealth): the AI is asked for this many titles at once,
   * and the person keeps the lines they want.
   */
  generateOnOpen?: number;
};

/**
 * Many drafts at once, one title per line (spec §2/§5): blank lines do not count, more than
 * 30 titles is refused while typing. The AI fills the list with a chosen number of titles.
 */
export function BulkAddDialog({ projectId, opened, onClose, generateOnOpen }: BulkAddDialogProps) {
  const t = useT();
  const isPhone = useIsPhone();
  const [text, setText] = useState("");
  const [creating, setCreating] = useState(false);
  const [count, setCount] = useState<number | string>(GENERATED_TITLES.default);
  const [generating, setGenerating] = useState(false);
  const generation = useRef<AbortController | null>(null);
  const list = useRef<HTMLTextAreaElement>(null);
  // Opened generating, the list is disabled when the dialog would focus it: it takes the focus once filled.
  const focusListWhenReady = useRef<"no" | "asked" | "running">("no");

  const handleGenerate = async (asked: number | string) => {
    // Spec §5: 1–30 titles, 20 when left empty.
    const wanted = clampInput(asked, GENERATED_TITLES);
    setCount(wanted);
    const controller = new AbortController();
    generation.current = controller;
    setGenerating(true);
    try {
      const generated = await generateTitles(projectId, wanted, { signal: controller.signal });
      if (!controller.signal.aborted) setText(generated.join("\n"));
    } catch (error) {
      if (!controller.signal.aborted) {
        const detail = generationFailureText(t, error, "drafts.bulkAddFailed");
        toastError(t("drafts.bulkAddFailed"), detail === t("drafts.bulkAddFailed") ? undefined : detail);
      }
    } finally {
      if (generation.current === controller) {
        generation.current = null;
        setGenerating(false);
      }
    }
  };

  // Read when the dialog opens, not as a reason to generate again.
  const latestGenerate = useRef({ handleGenerate, generateOnOpen });
  latestGenerate.current = { handleGenerate, generateOnOpen };
  useEffect(() => {
    if (opened) setText("");
    // Closing drops a generation still running.
    generation.current?.abort();
    generation.current = null;
    setGenerating(false);
    const { handleGenerate, generateOnOpen } = latestGenerate.current;
    focusListWhenReady.current = "no";
    if (opened && generateOnOpen !== undefined) {
      focusListWhenReady.current = "asked";
      void handleGenerate(generateOnOpen);
    }
  }, [opened]);
  useEffect(() => {
    if (generating && focusListWhenReady.current === "asked") focusListWhenReady.current = "running";
    if (generating || focusListWhenReady.current !== "running") return;
    focusListWhenReady.current = "no";
    list.current?.focus();
  }, [generating]);

  const titles = bulkTitles(text);
  const tooMany = titles.length > BULK_ADD_MAX_LINES;
  // Spec §5: Create is off while the text is empty or has too many lines; text of only
  // blank lines leaves no titles, which is said on Create (drafts.bulkAddFailed).
  const canCreate = text !== "" && !tooMany;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canCreate) return;
    if (titles.length === 0) {
      toastError(t("drafts.bulkAddFailed"));
      return;
    }
    setCreating(true);
    try {
      const drafts = await bulkAddDrafts(projectId, titles);
      toastSuccess(
        drafts.length === 1 ? t("drafts.bulkAddedOne") : t("drafts.bulkAddedMany", { count: drafts.length }),
      );
      onClose();
    } catch (error) {
      toastError(failureText(t, error, "drafts.bulkAddFailed"));
    } finally {
      setCreating(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={creating ? () => {} : onClose}
      title={t("drafts.bulkAddTitle")}
      size="lg"
      fullScreen={isPhone}
      closeButtonProps={{ "aria-label": t("common.close") }}
    >
      <form onSubmit={(event) => void handleSubmit(event)} noValidate>
        <Stack gap="md">
          <div className={classes.generator}>
            <div className={classes.generatorText}>
              <Text size="sm" fw={600}>
                {t("drafts.generateTitlesHeading")}
              </Text>
              <Text size="xs" c="dimmed">
                {t("drafts.generateTitlesHint")}
              </Text>
            </div>
            <div className={classes.generatorControls}>
              <NumberInput
                size="sm"
                w={76}
                min={GENERATED_TITLES.min}
                max={GENERATED_TITLES.max}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="blur"
                value={count}
                onChange={setCount}
                disabled={creating || generating}
                aria-label={t("drafts.generateTitlesCount", { min: GENERATED_TITLES.min, max: GENERATED_TITLES.max })}
                data-testid="titles-count"
              />
              <Button
                variant="light"
                leftSection={<IconSparkles size={16} />}
                onClick={() => void handleGenerate(count)}
                loading={generating}
                disabled={creating}
                data-testid="generate-titles"
              >
                {t("drafts.generateTitles")}
              </Button>
            </div>
          </div>
          <div>
            <Textarea
              ref={list}
              label={t("drafts.bulkAddLabel")}
              description={t("drafts.bulkAddHint", { max: BULK_ADD_MAX_LINES })}
              placeholder={t("drafts.bulkAddPlaceholder")}
              autosize
              minRows={8}
              maxRows={16}
              data-autofocus
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              error={tooMany ? t("drafts.bulkAddMaxLinesError") : undefined}
              disabled={creating || generating}
              data-testid="bulk-titles"
            />
            <Text
              size="xs"
              ta="end"
              mt={4}
              c={tooMany ? "red.7" : "dimmed"}
              aria-live="polite"
              style={{ fontVariantNumeric: "tabular-nums" }}
              data-testid="bulk-count"
            >
              {t("drafts.bulkAddCount", { count: titles.length, max: BULK_ADD_MAX_LINES })}
            </Text>
          </div>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={creating}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={creating} disabled={!canCreate || generating} data-testid="bulk-create">
              {t("drafts.bulkAddCreate")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
