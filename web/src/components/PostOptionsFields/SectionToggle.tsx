import { Text, UnstyledButton } from "@mantine/core";
import { IconChevronDown } from "../Icons/Icons.tsx";
import classes from "./PostOptionsFields.module.css";

type SectionToggleProps = {
  title: string;
  /** What is set inside, shown while the section is closed too ("Silent · Buttons: 2"). */
  summary: string;
  opened: boolean;
  onToggle: () => void;
  /** The id of the panel it opens. */
  controls: string;
  testId: string;
};

/** The heading row of a folding section of the post forms ("Post options", "Advertising"). */
export function SectionToggle({ title, summary, opened, onToggle, controls, testId }: SectionToggleProps) {
  return (
    <UnstyledButton className={classes.optionsToggle} aria-expanded={opened} aria-controls={controls} onClick={onToggle} data-testid={testId}>
      <span className={classes.chevron} data-opened={opened || undefined} aria-hidden="true">
        <IconChevronDown size={16} />
      </span>
      <Text span fw={500} size="sm">
        {title}
      </Text>
      {summary && (
        <Text span size="xs" className={classes.optionsSummary} data-testid={`${testId.replace(/-toggle$/, "")}-summary`}>
          {summary}
        </Text>
      )}
    </UnstyledButton>
  );
}
