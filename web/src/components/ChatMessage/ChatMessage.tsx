import { ActionIcon, Tooltip } from "@mantine/core";
import "@mantine/core/styles/Tooltip.layer.css";
import { useEffect, useState, type ReactNode } from "react";
import { useLanguage, useT } from "../../i18n/i18n.tsx";
import { copyText } from "../../lib/clipboard.ts";
import { LOCALES } from "../../lib/formatDate.ts";
import { IconAlert, IconCheck, IconCopy, IconFilePlus, IconPencil, IconSparkles } from "../Icons/Icons.tsx";
import classes from "./ChatMessage.module.css";

type ChatMessageProps = {
  role: "user" | "assistant";
  content: ReactNode;
  timestamp?: string;
  /** Streaming shows typing dots until the first words, then a caret. */
  state?: "streaming" | "error";
  /** Actions on a finished assistant reply: copy this text, save it as a draft, work on it. */
  copyTextValue?: string;
  onSaveAsDraft?: () => Promise<boolean>;
  onUseAsText?: () => void;
  children?: ReactNode;
  testId?: string;
};

function formatTime(value: string | undefined, locale: string): string {
  if (!value) return "";
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  const sameDay = date.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(locale, sameDay ? { hour: "2-digit", minute: "2-digit" } : {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  }).format(date);
}

/** One message of the assistant conversation: the person's on the right, the assistant's on the left. */
export function ChatMessage(
  { role, content, timestamp, state, copyTextValue, onSaveAsDraft, onUseAsText, children, testId }: ChatMessageProps,
) {
  const t = useT();
  const { language } = useLanguage();
  const [copied, setCopied] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 1500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const empty = state === "streaming" && (content === "" || content === undefined);
  const time = formatTime(timestamp, LOCALES[language]);
  const finished = role === "assistant" && state === undefined;

  return (
    <div className={classes.row} data-role={role} data-state={state} data-testid={testId ?? "chat-message"}>
      {role === "assistant" && (
        <span className={classes.avatar} data-state={state} aria-hidden="true">
          {state === "error" ? <IconAlert size={16} /> : <IconSparkles size={16} />}
        </span>
      )}
      <div className={classes.column}>
        <div className={classes.bubble} aria-busy={state === "streaming" || undefined}>
          {empty ? (
            <span className={classes.typing} aria-label={t("chat.thinking")} role="status">
              <span />
              <span />
              <span />
            </span>
          ) : (
            <div className={classes.text} data-testid="chat-message-text">
              {content}
              {state === "streaming" && <span className={classes.caret} aria-hidden="true" />}
            </div>
          )}
          {children}
        </div>
        {(time || (finished && copyTextValue !== undefined)) && (
          <div className={classes.meta}>
            {time && <time dateTime={timestamp}>{time}</time>}
            {finished && copyTextValue !== undefined && (
              <div className={classes.actions}>
                <Tooltip label={copied ? t("chat.copied") : t("chat.copy")}>
                  <ActionIcon
                    variant="subtle"
                    color={copied ? "teal" : "gray"}
                    size="sm"
                    aria-label={t("chat.copy")}
                    onClick={() => void copyText(copyTextValue).then(setCopied)}
                    data-testid="chat-copy"
                  >
                    {copied ? <IconCheck size={15} /> : <IconCopy size={15} />}
                  </ActionIcon>
                </Tooltip>
                {onSaveAsDraft && (
                  <Tooltip label={saved ? t("chat.savedAsDraft") : t("chat.saveAsDraft")}>
                    <ActionIcon
                      variant="subtle"
                      color={saved ? "teal" : "gray"}
                      size="sm"
                      loading={saving}
                      disabled={saved}
                      aria-label={t("chat.saveAsDraft")}
                      onClick={() => {
                        setSaving(true);
                        void onSaveAsDraft().then((ok) => {
                          setSaving(false);
                          if (ok) setSaved(true);
                        });
                      }}
                      data-testid="chat-save-draft"
                    >
                      {saved ? <IconCheck size={15} /> : <IconFilePlus size={15} />}
                    </ActionIcon>
                  </Tooltip>
                )}
                {onUseAsText && (
                  <Tooltip label={t("chat.useAsText")}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      size="sm"
                      aria-label={t("chat.useAsText")}
                      onClick={onUseAsText}
                      data-testid="chat-use-text"
                    >
                      <IconPencil size={15} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
