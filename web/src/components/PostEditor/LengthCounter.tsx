import { Text, VisuallyHidden } from "@mantine/core";
import "@mantine/core/styles/VisuallyHidden.layer.css";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { LOCALES } from "../../lib/formatDate.ts";
import classes from "./PostEditor.module.css";

type LengthCounterProps = {
  id?: string;
  /** Telegram's length: UTF-16 code units of the plain text. */
  length: number;
  limit: number;
};

/**
 * "1 234 / 4 096" under the editor; past the limit it turns red and says so in words. Screen
 * readers hear it when the editor is focused (the editor names it in aria-describedby), and
 * once, politely, when the text goes past the limit, not at every keystroke.
 */
export function LengthCounter({ id, length, limit }: LengthCounterProps) {
  const t = useT();
  const { language } = useLanguage();
  const numbers = new Intl.NumberFormat(LOCALES[language]);
  const counts = { current: numbers.format(length), max: numbers.format(limit) };
  const over = length > limit;
  return (
    <>
      <Text id={id} size="xs" className={classes.counter} data-over={over || undefined} data-testid="post-editor-counter">
        {over ? t("postEditor.tooLong", counts) : t("postEditor.length", counts)}
      </Text>
      <VisuallyHidden aria-live="polite">{over ? t("postEditor.tooLongAnnounced", { max: counts.max }) : ""}</VisuallyHidden>
    </>
  );
}
