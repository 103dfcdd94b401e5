import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatMessage } from "../../../contract/ai.ts";
import { CHAT_CONTEXT_MESSAGES, CHAT_HISTORY_PAGE_SIZE } from "../../../contract/limits.ts";
import { type ChatMode, fetchChatHistory, streamChatMessage } from "../api/chat.ts";

/** One message on screen: stored (with its id), being streamed, or the local error reply. */
export type ChatEntry = {
  key: string;
  /** The stored message's id; a question sent from this screen has none (the API does not answer it). */
  id?: number;
  role: ChatMessage["role"];
  content: string;
  timestamp?: string;
  state?: "streaming" | "error";
};

type HistoryState = "loading" | "ready" | "failed";

const fromStored = (message: ChatMessage): ChatEntry => ({
  key: `m${message.id}`,
  id: message.id,
  role: message.role,
  content: message.content,
  timestamp: message.timestamp,
});

/** The history's order (spec: newest first by time, then by id), for stored messages. */
function isOlder(a: { id?: number; timestamp?: string }, b: { id?: number; timestamp?: string }): boolean {
  const timeA = Date.parse(a.timestamp ?? "");
  const timeB = Date.parse(b.timestamp ?? "");
  if (timeA !== timeB && !Number.isNaN(timeA) && !Number.isNaN(timeB)) return timeA < timeB;
  return (a.id ?? 0) < (b.id ?? 0);
}

// Pages of older history are asked for one after another; this many at most per "load earlier".
const MAX_PAGES_PER_LOAD = 20;

let localKeys = 0;
const localKey = () => `l${++localKeys}`;

/**
 * The assistant conversation of a project (spec §2, §4): the newest page of history first,
 * older pages on request, and one question at a time with its reply streamed in.
 */
export function useChat(projectId: number | null, onSendFailed: (error: unknown) => void) {
  const [entries, setEntries] = useState<ChatEntry[]>([]);
  const [historyState, setHistoryState] = useState<HistoryState>("loading");
  /** Spec §2: the greeting shows only when the project had no stored history. */
  const [startedEmpty, setStartedEmpty] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [pending, setPending] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // The latest values for callbacks that outlive a render.
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const pendingRef = useRef(false);
  const loadingEarlierRef = useRef(false);
  const onSendFailedRef = useRef(onSendFailed);
  onSendFailedRef.current = onSendFailed;
  const sendAbort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (projectId === null) return;
    const controller = new AbortController();
    setEntries([]);
    setHistoryState("loading");
    setHasMore(false);
    fetchChatHistory(projectId, 1, controller.signal).then(
      (page) => {
        setEntries(page.messages.map(fromStored));
        setStartedEmpty(page.messages.length === 0);
        setHasMore(page.hasMore);
        setHistoryState("ready");
      },
      () => {
        if (!controller.signal.aborted) setHistoryState("failed");
      },
    );
    return () => controller.abort();
  }, [projectId, attempt]);

  // Leaving the screen stops a reply being streamed.
  useEffect(() => () => sendAbort.current?.abort(), []);

  const retryHistory = useCallback(() => setAttempt((n) => n + 1), []);

  /**
   * Older messages than the oldest shown. Pages are numbered from the newest, and messages
   * sent meanwhile shift them, so a page may repeat what is shown: only messages older than
   * the oldest shown are added, and the next page is asked for until some are. The page to
   * start from counts only messages known to be stored, so it never skips past older ones.
   */
  const loadEarlier = useCallback(async () => {
    if (projectId === null || loadingEarlierRef.current) return;
    const stored = entriesRef.current.filter((entry) => entry.id !== undefined);
    if (stored.length === 0) return;
    const oldest = stored.reduce((first, entry) => (isOlder(entry, first) ? entry : first));
    loadingEarlierRef.current = true;
    setLoadingEarlier(true);
    try {
      let page = Math.floor(stored.length / CHAT_HISTORY_PAGE_SIZE) + 1;
      for (let asked = 0; asked < MAX_PAGES_PER_LOAD; asked++, page++) {
        const result = await fetchChatHistory(projectId, page);
        const older = result.messages.filter((message) => isOlder(message, oldest));
        if (older.length > 0 || !result.hasMore) {
          setEntries((current) => [...older.map(fromStored), ...current]);
          setHasMore(result.hasMore);
          return;
        }
      }
    } catch {
      // The control stays; the next scroll or click asks again.
    } finally {
      loadingEarlierRef.current = false;
      setLoadingEarlier(false);
    }
  }, [projectId]);

  /** Sends a question; false when it was not sent (blank, or a reply is still pending). */
  const send = useCallback(
    (text: string, mode: ChatMode, currentContent: string): boolean => {
      const message = text.trim();
      if (projectId === null || message === "" || pendingRef.current) return false;
      // Spec §7: the last 10 messages of the conversation go along as its context.
      const history = entriesRef.current
        .filter((entry) => entry.state === undefined)
        .slice(-CHAT_CONTEXT_MESSAGES)
        .map(({ role, content }) => ({ role, content }));
      const replyKey = localKey();
      const now = new Date().toISOString();
      setEntries((current) => [
        ...current,
        { key: localKey(), role: "user", content: message, timestamp: now },
        { key: replyKey, role: "assistant", content: "", state: "streaming" },
      ]);
      const updateReply = (change: (entry: ChatEntry) => ChatEntry) =>
        setEntries((current) => current.map((entry) => (entry.key === replyKey ? change(entry) : entry)));

      pendingRef.current = true;
      setPending(true);
      const controller = new AbortController();
      sendAbort.current = controller;
      streamChatMessage(
        projectId,
        { message, mode, currentContent, history },
        {
          signal: controller.signal,
          onDelta: (piece) => updateReply((entry) => ({ ...entry, content: entry.content + piece })),
        },
      )
        .then(
          (reply) =>
            updateReply((entry) => ({
              ...entry,
              id: reply.id,
              content: reply.message,
              timestamp: reply.timestamp,
              state: undefined,
            })),
          (error: unknown) => {
            if (controller.signal.aborted) return;
            // Spec §4: the failure shows as the assistant's error message in the conversation.
            updateReply((entry) => ({ ...entry, content: "", timestamp: new Date().toISOString(), state: "error" }));
            onSendFailedRef.current(error);
          },
        )
        .finally(() => {
          pendingRef.current = false;
          setPending(false);
        });
      return true;
    },
    [projectId],
  );

  return { entries, historyState, startedEmpty, hasMore, loadingEarlier, pending, send, loadEarlier, retryHistory };
}
