import { Button, Slider, Stack, Text } from "@mantine/core";
import "@mantine/core/styles/Slider.layer.css";
import { useId } from "react";
import { WRITING_STYLE_RANGES } from "../../../../contract/limits.ts";
import {
  NAMED_WRITING_STYLES,
  type NamedWritingStyle,
  type WritingStyle,
} from "../../../../contract/projects.ts";
import { useT, type TranslationKey } from "../../i18n/i18n.tsx";
import classes from "./WritingStyleField.module.css";

type Dimension = keyof WritingStyle;

const DIMENSIONS: { key: Dimension; labelKey: TranslationKey; levelKeys: TranslationKey[] }[] = [
  {
    key: "formality",
    labelKey: "writingStyle.formality",
    levelKeys: [
      "writingStyle.formality.0",
      "writingStyle.formality.1",
      "writingStyle.formality.2",
      "writingStyle.formality.3",
      "writingStyle.formality.4",
    ],
  },
  {
    key: "seriousness",
    labelKey: "writingStyle.seriousness",
    levelKeys: [
      "writingStyle.seriousness.0",
      "writingStyle.seriousness.1",
      "writingStyle.seriousness.2",
      "writingStyle.seriousness.3",
      "writingStyle.seriousness.4",
    ],
  },
  {
    key: "emojiUsage",
    labelKey: "writingStyle.emojiUsage",
    levelKeys: ["writingStyle.emojiUsage.0", "writingStyle.emojiUsage.1", "writingStyle.emojiUsage.2"],
  },
];

const PRESET_LABELS: Record<NamedWritingStyle, TranslationKey> = {
  casual: "writingStyle.preset.casual",
  formal: "writingStyle.preset.formal",
  playful: "writingStyle.preset.playful",
  serious: "writingStyle.preset.serious",
  noEmojis: "writingStyle.preset.noEmojis",
  manyEmojis: "writingStyle.preset.manyEmojis",
};
const PRESETS = Object.keys(NAMED_WRITING_STYLES) as NamedWritingStyle[];

function matchesPreset(style: WritingStyle, preset: NamedWritingStyle): boolean {
  const moves: Partial<WritingStyle> = NAMED_WRITING_STYLES[preset];
  return (Object.keys(moves) as Dimension[]).every((key) => style[key] === moves[key]);
}

type WritingStyleFieldProps = { value: WritingStyle; onChange: (value: WritingStyle) => void };

/** Three sliders plus named presets; a preset only moves the slider it is about. */
export function WritingStyleField({ value, onChange }: WritingStyleFieldProps) {
  const t = useT();
  const headingId = useId();

  return (
    <div role="group" aria-labelledby={headingId} className={classes.root}>
      <Text id={headingId} size="sm" fw={500}>
        {t("writingStyle.title")}
      </Text>
      <Text size="xs" c="dimmed">
        {t("writingStyle.hint")}
      </Text>

      <div className={classes.presets} role="group" aria-label={t("writingStyle.presets")}>
        {PRESETS.map((preset) => {
          const active = matchesPreset(value, preset);
          return (
            <Button
              key={preset}
              size="compact-sm"
              radius="xl"
              variant={active ? "light" : "default"}
              aria-pressed={active}
              onClick={() => onChange({ ...value, ...NAMED_WRITING_STYLES[preset] })}
            >
              {t(PRESET_LABELS[preset])}
            </Button>
          );
        })}
      </div>

      <Stack gap="lg">
        {DIMENSIONS.map(({ key, labelKey, levelKeys }) => {
          const range = WRITING_STYLE_RANGES[key];
          const level = t(levelKeys[value[key]] ?? levelKeys[0]);
          return (
            <div key={key}>
              <div className={classes.sliderHead}>
                <Text size="sm">{t(labelKey)}</Text>
                <Text size="sm" c="dimmed">
                  {level}
                </Text>
              </div>
              <Slider
                min={range.min}
                max={range.max}
                step={1}
                value={value[key]}
                onChange={(next) => onChange({ ...value, [key]: next })}
                marks={levelKeys.map((_, index) => ({ value: index }))}
                label={null}
                thumbLabel={t(labelKey)}
                thumbValueText={level}
                restrictToMarks
              />
            </div>
          );
        })}
      </Stack>
    </div>
  );
}
