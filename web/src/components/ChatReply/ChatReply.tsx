import { useMemo } from "react";
import type { ChatEntry } from "../../hooks/useChat.ts";
import { assistantReply } from "../../lib/assistantReply.ts";
import type { FormattedText } from "../../lib/postDocument.ts";
import { ChatMessage } from "../ChatMessage/ChatMessage.tsx";
import { FormattedMessage } from "../PostPreview/PostPreview.tsx";

type ChatReplyProps = {
  /** An assistant reply as stored or streamed: the Markdown the model wrote. */
  entry: ChatEntry;
  /** Saves the reply, with its formatting, as a new draft. */
  /** Saves the reply as a draft; none for a role that cannot write drafts. */
  onSaveAsDraft?: (reply: FormattedText) => Promise<boolean>;
  /** Makes the reply's text the working text (a plain textarea: the words without formatting). */
  onUseAsText?: (text: string) => void;
};

/**
 * One assistant reply, formatted as Telegram would show it (the post preview's rendering),
 * while it streams too. Copy, "use as text" and "save as draft" take the converted text,
 * so no Markdown reaches the person or a draft (web/src/lib/assistantReply.ts).
 */
export function ChatReply({ entry, onSaveAsDraft, onUseAsText }: ChatReplyProps) {
  // Converted once per change of the text: a streamed reply grows, the stored ones stay put.
  const reply = useMemo(() => assistantReply(entry.content), [entry.content]);
  return (
    <ChatMessage
      role="assistant"
      state={entry.state}
      timestamp={entry.timestamp}
      content={reply.text === "" ? "" : <FormattedMessage text={reply.text} entities={reply.entities} />}
      copyTextValue={reply.text}
      onSaveAsDraft={onSaveAsDraft && (() => onSaveAsDraft(reply))}
      onUseAsText={onUseAsText ? () => onUseAsText(reply.text) : undefined}
    />
  );
}
