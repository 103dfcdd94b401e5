import { Button, Menu, Text, Textarea, UnstyledButton } from "@mantine/core";
import "@mantine/core/styles/Menu.layer.css";
import "@mantine/core/styles/Popover.layer.css";
import { useState } from "react";
import type { DraftSummary } from "../../../../contract/drafts.ts";
import { fetchDraft } from "../../api/drafts.ts";
import { useT } from "../../i18n/i18n.tsx";
import { toastError } from "../../lib/toast.ts";
import { IconChevronDown, IconFileText } from "../Icons/Icons.tsx";
import classes from "./ChatWorkingText.module.css";

type ChatWorkingTextProps = {
  value: string;
  onChange: (value: string) => void;
  projectId: number;
  /** The drafts list's lean view: a picked draft's whole text is read when it is picked. */
  drafts: DraftSummary[];
};

/**
 * The text the editor, title and improver modes work on (the chat's `currentContent`):
 * pasted, typed, or taken from one of the project's drafts. It folds away to leave room
 * for the conversation.
 */
export function ChatWorkingText({ value, onChange, projectId, drafts }: ChatWorkingTextProps) {
  const t = useT();
  const [expanded, setExpanded] = useState(true);
  const withText = drafts.filter((draft) => draft.excerpt !== "");
  const length = value.length;

  return (
    <div className={classes.panel} data-expanded={expanded || undefined}>
      <div className={classes.header}>
        <UnstyledButton
          className={classes.toggle}
          onClick={() => setExpanded((open) => !open)}
          aria-expanded={expanded}
          aria-controls="chat-working-text"
          data-testid="working-text-toggle"
        >
          <IconChevronDown size={16} className={classes.chevron} />
          <Text size="sm" fw={600} component="span" className={classes.title}>
            {t("chat.workingText")}
          </Text>
          <Text size="xs" c="dimmed" component="span" className={classes.summary}>
            {length > 0 ? t("chat.workingTextLength", { count: length }) : t("chat.workingTextEmpty")}
          </Text>
        </UnstyledButton>
        <Menu position="bottom-end" width={300} shadow="md" withinPortal>
          <Menu.Target>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconFileText size={15} />}
              className={classes.fromDraft}
              disabled={withText.length === 0}
              title={withText.length === 0 ? t("chat.noDraftsWithText") : undefined}
              data-testid="working-text-from-draft"
            >
              {t("chat.fromDraft")}
            </Button>
          </Menu.Target>
          <Menu.Dropdown className={classes.menu}>
            <Menu.Label>{t("chat.fromDraftHint")}</Menu.Label>
            {withText.map((draft) => (
              <Menu.Item
                key={draft.id}
                onClick={() => {
                  void fetchDraft(projectId, draft.id).then((whole) => {
                    onChange(whole.content);
                    setExpanded(true);
                  }).catch(() => toastError(t("drafts.loadFailed")));
                }}
              >
                <Text size="sm" fw={500} lineClamp={1}>
                  {draft.title}
                </Text>
                <Text size="xs" c="dimmed" lineClamp={2}>
                  {draft.excerpt}
                </Text>
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </div>
      {expanded && (
        <Textarea
          id="chat-working-text"
          autosize
          minRows={3}
          maxRows={7}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          placeholder={t("chat.workingTextPlaceholder")}
          aria-label={t("chat.workingText")}
          className={classes.textarea}
          data-testid="working-text"
        />
      )}
    </div>
  );
}
