import { ActionIcon, Button, Collapse, Group, NumberInput, SegmentedControl, Stack, Switch, Text, TextInput, Tooltip, UnstyledButton } from "@mantine/core";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import { useId, useState } from "react";
import { isAllowedLink } from "../../../../api/contract/entities.ts";
import {
  BUTTON_ROWS_MAX,
  BUTTON_TEXT_MAX,
  BUTTONS_PER_ROW_MAX,
  type LinkPreview,
  type PostOptions,
  type UrlButton,
  UNPIN_AFTER_HOURS_MAX,
} from "../../../../api/contract/post_options.ts";
import { useT } from "../../i18n/i18n.tsx";
import { errorText } from "../../lib/messages.ts";
import { IconChevronDown, IconPlus, IconTrash } from "../Icons/Icons.tsx";
import classes from "./DraftDialog.module.css";

/** A button's problems as error codes (api/contract/post_options.ts); a blank button is dropped on save. */
export function buttonErrors(button: UrlButton): { text?: string; url?: string } {
  const text = button.text.trim();
  const url = button.url.trim();
  if (text === "" && url === "") return {};
  return {
    text: text === "" || text.length > BUTTON_TEXT_MAX ? "posts.buttonTextInvalid" : undefined,
    url: isAllowedLink(url) ? undefined : "posts.buttonUrlInvalid",
  };
}

export const hasButtonErrors = (options: PostOptions) =>
  (options.buttons ?? []).some((row) => row.some((button) => Object.values(buttonErrors(button)).some(Boolean)));

/** What is saved: only what differs from a plain post, blank buttons and empty rows left out. */
export function cleanOptions(options: PostOptions): PostOptions {
  const clean: PostOptions = {};
  if (options.silent) clean.silent = true;
  if (options.pin) {
    clean.pin = true;
    if (options.unpinAfterHours) clean.unpinAfterHours = options.unpinAfterHours;
  }
  if (options.linkPreview && options.linkPreview !== "off") clean.linkPreview = options.linkPreview;
  const rows = (options.buttons ?? [])
    .map((row) =>
      row.filter((button) => button.text.trim() !== "" || button.url.trim() !== "").map((button) => ({
        text: button.text.trim(),
        url: button.url.trim(),
      }))
    )
    .filter((row) => row.length > 0);
  if (rows.length > 0) clean.buttons = rows;
  return clean;
}

type PostOptionsFieldsProps = {
  value: PostOptions;
  onChange: (value: PostOptions) => void;
  opened: boolean;
  onToggle: () => void;
  /** Show every button's error, not only those of fields already left. */
  showAllErrors: boolean;
  disabled?: boolean;
};

/** "Post options" (issue 16 §5): silent, pin and unpin, link preview, URL buttons; collapsed at first. */
export function PostOptionsFields({ value, onChange, opened, onToggle, showAllErrors, disabled }: PostOptionsFieldsProps) {
  const t = useT();
  const panelId = useId();
  const previewLabelId = useId();
  const buttonsLabelId = useId();
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  const set = <K extends keyof PostOptions>(key: K, next: PostOptions[K]) => onChange({ ...value, [key]: next });
  const rows = value.buttons ?? [];
  const setRows = (next: UrlButton[][]) => set("buttons", next.filter((row) => row.length > 0));
  const setButton = (r: number, b: number, change: Partial<UrlButton>) =>
    setRows(rows.map((row, i) => (i === r ? row.map((button, j) => (j === b ? { ...button, ...change } : button)) : row)));
  const summary = [
    value.silent && t("postOptions.silent"),
    value.pin && t("postOptions.pin"),
    rows.length > 0 && t("postOptions.buttonsCount", { count: rows.flat().length }),
  ].filter(Boolean).join(" · ");

  return (
    <div className={classes.options}>
      <UnstyledButton
        className={classes.optionsToggle}
        aria-expanded={opened}
        aria-controls={panelId}
        onClick={onToggle}
        data-testid="post-options-toggle"
      >
        <span className={classes.chevron} data-opened={opened || undefined} aria-hidden="true">
          <IconChevronDown size={16} />
        </span>
        <Text span fw={500} size="sm">
          {t("postOptions.title")}
        </Text>
        {summary && (
          <Text span size="xs" className={classes.optionsSummary}>
            {summary}
          </Text>
        )}
      </UnstyledButton>
      <Collapse expanded={opened} id={panelId}>
        <Stack gap="sm" className={classes.optionsPanel} data-testid="post-options">
          <Switch
            label={t("postOptions.silent")}
            description={t("postOptions.silentHint")}
            checked={Boolean(value.silent)}
            onChange={(event) => set("silent", event.currentTarget.checked)}
            disabled={disabled}
            data-testid="option-silent"
          />
          <Switch
            label={t("postOptions.pin")}
            description={t("postOptions.pinHint")}
            checked={Boolean(value.pin)}
            onChange={(event) => onChange({ ...value, pin: event.currentTarget.checked })}
            disabled={disabled}
            data-testid="option-pin"
          />
          {value.pin && (
            <NumberInput
              className={classes.unpin}
              label={t("postOptions.unpinAfter")}
              description={t("postOptions.unpinAfterHint", { max: UNPIN_AFTER_HOURS_MAX })}
              min={1}
              max={UNPIN_AFTER_HOURS_MAX}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="blur"
              value={value.unpinAfterHours ?? ""}
              onChange={(hours) => set("unpinAfterHours", typeof hours === "number" && hours >= 1 ? hours : undefined)}
              disabled={disabled}
              data-testid="option-unpin-after"
            />
          )}
          <div>
            <Text id={previewLabelId} size="sm" fw={500} mb={4}>
              {t("postOptions.linkPreview")}
            </Text>
            <SegmentedControl
              aria-labelledby={previewLabelId}
              value={value.linkPreview ?? "off"}
              onChange={(next) => set("linkPreview", next as LinkPreview)}
              disabled={disabled}
              data={[
                { value: "off", label: t("postOptions.linkPreviewOff") },
                { value: "above", label: t("postOptions.linkPreviewAbove") },
                { value: "below", label: t("postOptions.linkPreviewBelow") },
              ]}
              data-testid="option-link-preview"
            />
          </div>
          <div role="group" aria-labelledby={buttonsLabelId}>
            <Text id={buttonsLabelId} size="sm" fw={500}>
              {t("postOptions.buttons")}
            </Text>
            <Text size="xs" className={classes.optionsHint} mb={6}>
              {t("postOptions.buttonsHint", { rows: BUTTON_ROWS_MAX, perRow: BUTTONS_PER_ROW_MAX })}
            </Text>
            <Stack gap="xs">
              {rows.map((row, r) => (
                <div key={r} className={classes.buttonRow} data-testid="option-button-row">
                  <Text size="xs" fw={500} className={classes.optionsHint}>
                    {t("postOptions.row", { number: r + 1 })}
                  </Text>
                  {row.map((button, b) => {
                    const key = `${r}-${b}`;
                    const errors = buttonErrors(button);
                    const shown = showAllErrors || left.has(key);
                    const leave = () => setLeft((current) => new Set(current).add(key));
                    return (
                      <div key={b} className={classes.buttonFields}>
                        <TextInput
                          size="xs"
                          className={classes.grow}
                          label={t("postOptions.buttonText", { number: b + 1 })}
                          value={button.text}
                          maxLength={BUTTON_TEXT_MAX}
                          onChange={(event) => setButton(r, b, { text: event.currentTarget.value })}
                          onBlur={leave}
                          error={shown && errors.text && errorText(t, errors.text)}
                          disabled={disabled}
                          data-testid="option-button-text"
                        />
                        <TextInput
                          size="xs"
                          className={classes.grow}
                          label={t("postOptions.buttonUrl")}
                          placeholder="https://"
                          inputMode="url"
                          autoComplete="off"
                          value={button.url}
                          onChange={(event) => setButton(r, b, { url: event.currentTarget.value })}
                          onBlur={leave}
                          error={shown && errors.url && errorText(t, errors.url)}
                          disabled={disabled}
                          data-testid="option-button-url"
                        />
                        <Tooltip label={t("postOptions.removeButton")}>
                          <ActionIcon
                            variant="subtle"
                            color="gray"
                            className={classes.removeButton}
                            aria-label={t("postOptions.removeButton")}
                            onClick={() => setRows(rows.map((items, i) => (i === r ? items.filter((_, j) => j !== b) : items)))}
                            disabled={disabled}
                            data-testid="option-button-remove"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </div>
                    );
                  })}
                  {row.length < BUTTONS_PER_ROW_MAX && (
                    <Button
                      variant="subtle"
                      size="compact-xs"
                      leftSection={<IconPlus size={14} />}
                      onClick={() => setRows(rows.map((items, i) => (i === r ? [...items, { text: "", url: "" }] : items)))}
                      disabled={disabled}
                      className={classes.addButton}
                      data-testid="option-add-button"
                    >
                      {t("postOptions.addButton")}
                    </Button>
                  )}
                </div>
              ))}
              {rows.length < BUTTON_ROWS_MAX && (
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => setRows([...rows, [{ text: "", url: "" }]])}
                    disabled={disabled}
                    data-testid="option-add-row"
                  >
                    {t("postOptions.addRow")}
                  </Button>
                </Group>
              )}
            </Stack>
          </div>
        </Stack>
      </Collapse>
    </div>
  );
}
