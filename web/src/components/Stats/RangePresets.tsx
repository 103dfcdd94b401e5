import { SegmentedControl } from "@mantine/core";
import "@mantine/core/styles/SegmentedControl.layer.css";
import { useState } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { RANGE_PRESETS, type RangePreset, rangeOfDays } from "./statsRange.ts";
import classes from "./Stats.module.css";

/** The period a page reads (the last 30 days at first), and how a preset replaces it. */
export function useRangePreset() {
  const [preset, setPreset] = useState<RangePreset>(30);
  const [range, setRange] = useState(() => rangeOfDays(30));
  const choose = (days: RangePreset) => {
    setPreset(days);
    setRange(rangeOfDays(days));
  };
  return { preset, range, choose };
}

/** The periods the Statistics page and the ad report offer: a week, a month, a quarter, a year. */
export function RangePresets({ preset, onChoose, testId }: { preset: RangePreset; onChoose: (days: RangePreset) => void; testId: string }) {
  const t = useT();
  return (
    <SegmentedControl
      className={classes.ranges}
      value={String(preset)}
      onChange={(value) => onChoose(Number(value) as RangePreset)}
      aria-label={t("statistics.range")}
      data={RANGE_PRESETS.map((days) => ({ value: String(days), label: t(`statistics.range.${days}`) }))}
      data-testid={testId}
    />
  );
}
