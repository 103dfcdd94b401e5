import { Button, Card, Loader, SegmentedControl, Skeleton, Text } from "@mantine/core";
import "@mantine/core/styles/Card.layer.css";
import "@mantine/core/styles/FloatingIndicator.layer.css";
import "@mantine/core/styles/SegmentedControl.layer.css";
import "@mantine/core/styles/Skeleton.layer.css";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { CHAT_MODES } from "../../../contract/ai.ts";
import type { ChatMode } from "../api/chat.ts";
import { createDraft, useDrafts } from "../api/drafts.ts";
import { BackLink } from "../components/BackLink/BackLink.tsx";
import { ChatComposer } from "../components/ChatComposer/ChatComposer.tsx";
import { ChatMessage } from "../components/ChatMessage/ChatMessage.tsx";
import { ChatReply } from "../components/ChatReply/ChatReply.tsx";
import { ChatWorkingText } from "../components/ChatWorkingText/ChatWorkingText.tsx";
import { FullPageLoader } from "../components/FullPageLoader/FullPageLoader.tsx";
import { IconAlert, IconInfo, IconSparkles } from "../components/Icons/Icons.tsx";
import { ProjectLoadError } from "../components/ProjectLoadError/ProjectLoadError.tsx";
import { type ChatEntry, useChat } from "../hooks/useChat.ts";
import { useIsPhone } from "../hooks/useIsPhone.ts";
import { useProjectRole } from "../hooks/useProjectRole.ts";
import { useRouteProject } from "../hooks/useRouteProject.ts";
import { type TranslationKey, useT } from "../i18n/i18n.tsx";
import { failureText, serverMessage } from "../lib/messages.ts";
import { usePageTitle } from "../lib/pageTitle.ts";
import type { FormattedText } from "../lib/postDocument.ts";
import { projectPath } from "../lib/projectSections.ts";
import { toastError, toastSuccess } from "../lib/toast.ts";
import classes from "./AiAssistant.module.css";

const SUGGESTIONS = [
  "chat.suggestion.ideas",
  "chat.suggestion.post",
  "chat.suggestion.plan",
  "chat.suggestion.engagement",
] as const satisfies readonly TranslationKey[];

/** Modes that work on a text of the author's (the chat's `currentContent`). */
const withWorkingText = (mode: ChatMode) => mode !== "general";

// Closer than this to the bottom counts as reading the newest messages: new text keeps them in view.
const STICK_TO_BOTTOM_PX = 96;
// Scrolling this close to the top asks for older messages.
const LOAD_EARLIER_PX = 48;

/** A draft title from a reply: its first non-empty line, cut to a title's length. */
export function titleFromReply(text: string): string {
  const line = text.split("\n").map((part) => part.trim()).find((part) => part !== "") ?? "";
  const characters = Array.from(line);
  return characters.length > 200 ? `${characters.slice(0, 199).join("").trimEnd()}…` : line;
}

/**
 * Spec §2 AI assistant: a full-height chat. A greeting opens a conversation with no stored
 * history, with suggested questions until the first one is asked; older history loads in
 * pages at the top; the reply streams in; a failed send shows the error as the reply.
 */
export default function AiAssistantPage() {
  const t = useT();
  usePageTitle(t("section.aiAssistant"));
  const isPhone = useIsPhone();
  const { projectId, project, failed } = useRouteProject();
  const [mode, setMode] = useState<ChatMode>("general");
  const [workingText, setWorkingText] = useState("");
  const [input, setInput] = useState("");
  const { drafts } = useDrafts(withWorkingText(mode) ? projectId : null);

  const onSendFailed = useCallback(
    (error: unknown) => {
      // The error reply says that it failed; a toast adds the server's reason when it gave one
      // (e.g. "AI is not configured on this server: set OPENAI_API_KEY …").
      const detail = serverMessage(t, error);
      if (detail) toastError(t("chat.errorTitle"), detail);
    },
    [t],
  );
  const chat = useChat(projectId, onSendFailed);
  // a viewer reads the project's conversation; asking the AI is for the roles that write
  const { role, can } = useProjectRole(projectId);
  const talks = can("ai.use");

  const scroller = useRef<HTMLDivElement>(null);
  const composer = useRef<HTMLTextAreaElement>(null);
  const nearBottom = useRef(true);
  const settled = useRef(false);
  const layout = useRef({ firstKey: "", lastKey: "", height: 0 });

  useEffect(() => {
    if (failed) toastError(t("toast.error"), t("project.loadFailed"));
  }, [failed, t]);

  const showGreeting = chat.historyState === "ready" && chat.startedEmpty;
  const showSuggestions = showGreeting && chat.entries.length === 0 && talks;

  // Keep the view where the person is reading: older messages added on top leave it in
  // place; new text at the bottom follows when they were at the bottom already.
  const shown = project !== undefined;
  useLayoutEffect(() => {
    const element = scroller.current;
    if (chat.historyState !== "ready") settled.current = false;
    if (!element || chat.historyState !== "ready") return;
    const firstKey = chat.entries[0]?.key ?? "";
    const lastKey = chat.entries.at(-1)?.key ?? "";
    const previous = layout.current;
    if (!settled.current) {
      // A new conversation opens at the greeting's first line, a stored one at its newest message.
      element.scrollTop = showGreeting ? 0 : element.scrollHeight;
      settled.current = true;
    } else if (firstKey !== previous.firstKey && lastKey === previous.lastKey && previous.firstKey !== "") {
      element.scrollTop += element.scrollHeight - previous.height;
    } else if (nearBottom.current) {
      element.scrollTop = element.scrollHeight;
    }
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    layout.current = { firstKey, lastKey, height: element.scrollHeight };
  }, [chat.entries, chat.historyState, showGreeting, shown]);

  // The thread shrinks when the working text opens or the window changes: the newest
  // message stays in view for someone reading at the bottom.
  useEffect(() => {
    const element = scroller.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (nearBottom.current && settled.current) element.scrollTop = element.scrollHeight;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown]);

  const { hasMore, loadingEarlier, loadEarlier } = chat;
  const handleScroll = () => {
    const element = scroller.current;
    if (!element) return;
    nearBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    if (settled.current && element.scrollTop < LOAD_EARLIER_PX && hasMore && !loadingEarlier) void loadEarlier();
  };

  if (failed) return <ProjectLoadError />;
  if (!project || projectId === null) return <FullPageLoader fullHeight={false} />;

  const send = (text: string) => {
    if (!chat.send(text, mode, withWorkingText(mode) ? workingText : "")) return false;
    nearBottom.current = true;
    return true;
  };
  const handleSend = () => {
    if (send(input)) setInput("");
    composer.current?.focus();
  };

  // The reply's text and formatting, as the draft editor would save them (issue 16: copies keep formatting).
  const saveAsDraft = async ({ text, entities }: FormattedText) => {
    const title = titleFromReply(text);
    try {
      await createDraft(projectId, { title, content: text, entities, imageUrl: null });
      toastSuccess(t("chat.savedAsDraft"), title);
      return true;
    } catch (error) {
      toastError(t("drafts.failedToCreate"), failureText(t, error, "common.tryAgainLater"));
      return false;
    }
  };

  const renderEntry = (entry: ChatEntry) =>
    entry.role === "assistant" && entry.state !== "error"
      ? (
        <ChatReply
          key={entry.key}
          entry={entry}
          onSaveAsDraft={can("drafts.write") ? saveAsDraft : undefined}
          onUseAsText={withWorkingText(mode) ? setWorkingText : undefined}
        />
      )
      : (
        <ChatMessage
          key={entry.key}
          role={entry.role}
          state={entry.state}
          timestamp={entry.timestamp}
          content={entry.state === "error" ? t("chat.error") : entry.content}
        />
      );

  const modeOptions = CHAT_MODES.map((value) => ({ value, label: t(`chat.mode.${value}`) }));

  return (
    <div className={classes.page}>
      <div className={classes.header}>
        <div className={classes.heading}>
          <BackLink to={projectPath(project.id)} label={project.name} />
          <h1 className={classes.title}>{t("section.aiAssistant")}</h1>
        </div>
      </div>

      <Card padding={0} className={classes.chat}>
        {talks && <div className={classes.modeBar}>
          <SegmentedControl
            value={mode}
            onChange={(value) => setMode(value as ChatMode)}
            data={modeOptions}
            size={isPhone ? "xs" : "sm"}
            fullWidth={isPhone}
            radius="xl"
            aria-label={t("chat.modeLabel")}
            data-testid="chat-mode"
          />
          <Text size="xs" c="dimmed" className={classes.modeHint}>
            {t(`chat.modeHint.${mode}`)}
          </Text>
        </div>}
        {talks && withWorkingText(mode) && <ChatWorkingText value={workingText} onChange={setWorkingText} projectId={projectId!} drafts={drafts} />}

        <div
          ref={scroller}
          className={classes.thread}
          onScroll={handleScroll}
          role="log"
          aria-label={t("chat.conversation")}
          aria-busy={chat.historyState === "loading"}
          data-testid="chat-thread"
        >
          {chat.historyState === "loading" ? (
            <div className={classes.skeleton} aria-label={t("common.loading")}>
              <Skeleton height={56} width="55%" radius="lg" />
              <Skeleton height={40} width="35%" radius="lg" ml="auto" />
              <Skeleton height={84} width="65%" radius="lg" />
            </div>
          ) : chat.historyState === "failed" ? (
            <div className={classes.loadFailed} role="alert" data-testid="chat-history-failed">
              <IconAlert size={22} />
              <Text size="sm">{t("chat.historyFailed")}</Text>
              <Button variant="default" size="xs" onClick={chat.retryHistory}>
                {t("common.retry")}
              </Button>
            </div>
          ) : (
            <div className={classes.messages}>
              {chat.hasMore && (
                <div className={classes.earlier}>
                  {chat.loadingEarlier ? (
                    <Loader size="sm" role="img" aria-label={t("chat.loadingEarlier")} />
                  ) : (
                    <Button variant="default" size="compact-sm" radius="xl" onClick={() => void chat.loadEarlier()} data-testid="chat-load-earlier">
                      {t("chat.loadEarlier")}
                    </Button>
                  )}
                </div>
              )}
              {showGreeting && (
                <ChatMessage role="assistant" content={t("chat.greeting", { project: project.name })} testId="chat-greeting" />
              )}
              {showSuggestions && (
                <div className={classes.suggestions} data-testid="chat-suggestions">
                  {SUGGESTIONS.map((key) => (
                    <button
                      key={key}
                      type="button"
                      className={classes.suggestion}
                      onClick={() => send(t(key))}
                      disabled={chat.pending}
                      data-testid="chat-suggestion"
                    >
                      <IconSparkles size={14} />
                      {t(key)}
                    </button>
                  ))}
                </div>
              )}
              {chat.entries.map(renderEntry)}
            </div>
          )}
        </div>

        {talks ? (
          <ChatComposer
            ref={composer}
            value={input}
            onChange={setInput}
            onSend={handleSend}
            blocked={chat.pending}
            disabled={chat.historyState !== "ready"}
            placeholder={t(`chat.placeholder.${mode}`)}
          />
        ) : (
          role !== undefined && (
            <Text size="sm" c="dimmed" px="md" py="sm" className={classes.readOnly} data-testid="chat-read-only">
              <IconInfo size={16} />
              {t("chat.readOnly")}
            </Text>
          )
        )}
      </Card>
    </div>
  );
}
