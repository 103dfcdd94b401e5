import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import { useId, useRef, useState } from "react";
import { BUTTON_ROWS_MAX, BUTTON_TEXT_MAX, BUTTONS_PER_ROW_MAX, type UrlButton } from "../../../../contract/post_options.ts";
import { useT } from "../../i18n/i18n.tsx";
import { errorText } from "../../lib/messages.ts";
import { buttonErrors } from "../../lib/postOptions.ts";
import { IconPlus, IconTrash } from "../Icons/Icons.tsx";
import classes from "./PostOptionsFields.module.css";

type UrlButtonsFieldsProps = {
  value: UrlButton[][];
  onChange: (rows: UrlButton[][]) => void;
  /** Show every button's error, not only those of fields already left. */
  showAllErrors: boolean;
  disabled?: boolean;
};

/**
 * URL buttons under a post (docs/post-format.md): up to 3 rows of 3, each a text and an
 * https:// or tg:// link. The draft dialog's options, the schedule dialog's and the edit of a
 * published post all use this one editor.
 */
export function UrlButtonsFields({ value: rows, onChange, showAllErrors, disabled }: UrlButtonsFieldsProps) {
  const t = useT();
  const labelId = useId();
  const [left, setLeft] = useState<ReadonlySet<string>>(new Set());
  // Two changes can land before the next render (a button's text typed, then at once its
  // address): each builds on the last change, not on the rows this render was given, or
  // the second would bring the first back to what it was.
  const latest = useRef(rows);
  latest.current = rows;
  const setRows = (next: UrlButton[][]) => {
    latest.current = next.filter((row) => row.length > 0);
    onChange(latest.current);
  };
  const setButton = (r: number, b: number, change: Partial<UrlButton>) =>
    setRows(latest.current.map((row, i) => (i === r ? row.map((button, j) => (j === b ? { ...button, ...change } : button)) : row)));

  return (
    <div role="group" aria-labelledby={labelId} className={classes.buttons} data-testid="url-buttons">
      <Text id={labelId} size="sm" fw={500}>
        {t("postOptions.buttons")}
      </Text>
      <Text size="xs" className={classes.hint} mb={6}>
        {t("postOptions.buttonsHint", { rows: BUTTON_ROWS_MAX, perRow: BUTTONS_PER_ROW_MAX })}
      </Text>
      <Stack gap="xs">
        {rows.map((row, r) => (
          <div key={r} className={classes.buttonRow} data-testid="option-button-row">
            <Text size="xs" fw={500} className={classes.hint}>
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
                      onClick={() => setRows(latest.current.map((items, i) => (i === r ? items.filter((_, j) => j !== b) : items)))}
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
                onClick={() => setRows(latest.current.map((items, i) => (i === r ? [...items, { text: "", url: "" }] : items)))}
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
              onClick={() => setRows([...latest.current, [{ text: "", url: "" }]])}
              disabled={disabled}
              data-testid="option-add-row"
            >
              {t("postOptions.addRow")}
            </Button>
          </Group>
        )}
      </Stack>
    </div>
  );
}
