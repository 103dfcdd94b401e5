import { ActionIcon, Text, Textarea, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import { forwardRef, type KeyboardEvent } from "react";
import { useT } from "../../i18n/i18n.tsx";
import { IconArrowUp } from "../Icons/Icons.tsx";
import classes from "./ChatComposer.module.css";

type ChatComposerProps = {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
  /** A reply is pending: typing goes on, sending waits (spec §4). */
  blocked: boolean;
  disabled?: boolean;
  placeholder: string;
};

/**
 * The message box (spec §2, §5): grows with the text up to 120px, then scrolls. Enter sends,
 * Shift+Enter starts a new line; a blank message is not sent.
 */
export const ChatComposer = forwardRef<HTMLTextAreaElement, ChatComposerProps>(function ChatComposer(
  { value, onChange, onSend, blocked, disabled = false, placeholder },
  ref,
) {
  const t = useT();
  const canSend = !blocked && !disabled && value.trim() !== "";

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter while an input method composes a word confirms the word, not the message.
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (canSend) onSend();
  };

  return (
    <div className={classes.composer}>
      <div className={classes.box} data-disabled={disabled || undefined}>
        <Textarea
          ref={ref}
          variant="unstyled"
          autosize
          minRows={1}
          maxRows={6}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
          onKeyDown={handleKeyDown}
          placeholder={placeholder}
          disabled={disabled}
          aria-label={t("chat.inputLabel")}
          classNames={{ root: classes.inputRoot, input: classes.input }}
          data-testid="chat-input"
        />
        <Tooltip label={blocked ? t("chat.waitForReply") : t("chat.send")}>
          <ActionIcon
            size={36}
            radius="xl"
            variant="filled"
            className={classes.send}
            onClick={onSend}
            disabled={!canSend}
            loading={blocked}
            aria-label={t("chat.send")}
            data-testid="chat-send"
          >
            <IconArrowUp size={18} strokeWidth={2.2} />
          </ActionIcon>
        </Tooltip>
      </div>
      <Text size="xs" c="dimmed" className={classes.hint}>
        {t("chat.inputHint")}
      </Text>
    </div>
  );
});
