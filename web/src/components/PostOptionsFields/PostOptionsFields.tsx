import { Collapse, NumberInput, SegmentedControl, Stack, Switch, Text } from "@mantine/core";
import "@mantine/core/styles/NumberInput.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Switch.layer.css";
import { type ReactNode, useId } from "react";
import { type LinkPreview, type PostOptions, UNPIN_AFTER_HOURS_MAX } from "../../../../contract/post_options.ts";
import { useT } from "../../i18n/i18n.tsx";
import { SectionToggle } from "./SectionToggle.tsx";
import { UrlButtonsFields } from "./UrlButtonsFields.tsx";
import classes from "./PostOptionsFields.module.css";

type PostOptionsFieldsProps = {
  value: PostOptions;
  onChange: (value: PostOptions) => void;
  opened: boolean;
  onToggle: () => void;
  /** Show every button's error, not only those of fields already left. */
  showAllErrors: boolean;
  disabled?: boolean;
  /** A line under the fields' heading: where the options came from, what they apply to. */
  hint?: ReactNode;
};

/**
 * "Post options" (issue 16 §5): silent, pin and unpin, link preview, URL buttons; collapsed at
 * first, the heading summing up what is on. The draft dialog and the schedule dialog use it.
 */
export function PostOptionsFields({ value, onChange, opened, onToggle, showAllErrors, disabled, hint }: PostOptionsFieldsProps) {
  const t = useT();
  const panelId = useId();
  const previewLabelId = useId();
  const set = <K extends keyof PostOptions>(key: K, next: PostOptions[K]) => onChange({ ...value, [key]: next });
  const buttonCount = (value.buttons ?? []).flat().length;
  const summary = [
    value.silent && t("postOptions.silent"),
    value.pin && t("postOptions.pin"),
    buttonCount > 0 && t("postOptions.buttonsCount", { count: buttonCount }),
  ].filter(Boolean).join(" · ");

  return (
    <div className={classes.options}>
      <SectionToggle
        title={t("postOptions.title")}
        summary={summary}
        opened={opened}
        onToggle={onToggle}
        controls={panelId}
        testId="post-options-toggle"
      />
      <Collapse expanded={opened} id={panelId}>
        <Stack gap="sm" className={classes.optionsPanel} data-testid="post-options">
          {hint && (
            <Text size="xs" className={classes.hint}>
              {hint}
            </Text>
          )}
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
          <UrlButtonsFields value={value.buttons ?? []} onChange={(rows) => set("buttons", rows)} showAllErrors={showAllErrors} disabled={disabled} />
        </Stack>
      </Collapse>
    </div>
  );
}
