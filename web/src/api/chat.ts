import type { CHAT_MODES, ChatMessage } from "../../../contract/ai.ts";
import { CHAT_HISTORY_PAGE_SIZE } from "../../../contract/limits.ts";
import { readServerSentEvents } from "../lib/sse.ts";
import { ApiRequestError, apiFetch, parseErrorBody } from "./fetcher.ts";

export type ChatMode = (typeof CHAT_MODES)[number];

export type ChatHistoryPage = { messages: ChatMessage[]; hasMore: boolean; nextPage: number | null };

/** What a chat request carries (spec §7): the context is the last 10 messages. */
export type ChatRequest = {
  message: string;
  mode: ChatMode;
  currentContent: string;
  history: { role: ChatMessage["role"]; content: string }[];
};

/** The stored assistant reply. */
export type ChatReply = { id: number; message: string; timestamp: string };

const chatPath = (projectId: number) => `/api/projects/${projectId}/chat`;

/** Page 1 holds the newest messages; each page is oldest first. */
export async function fetchChatHistory(projectId: number, page: number, signal?: AbortSignal): Promise<ChatHistoryPage> {
  return await apiFetch<ChatHistoryPage>(`${chatPath(projectId)}/history?page=${page}&limit=${CHAT_HISTORY_PAGE_SIZE}`, {
    signal,
  });
}

/** The spec's plain call: the whole reply at once. */
export async function sendChatMessage(projectId: number, request: ChatRequest, signal?: AbortSignal): Promise<ChatReply> {
  return await apiFetch<ChatReply>(chatPath(projectId), { method: "POST", body: request, signal });
}

type StreamOptions = { signal?: AbortSignal; onDelta: (text: string) => void };

const parseJson = <T>(text: string): T | undefined => {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
};

/**
 * The reply streamed piece by piece (POST /chat/stream, server-sent events read from the
 * fetch body, since EventSource cannot POST). When streaming itself is unavailable before a
 * single piece arrived (no connection, a proxy that refuses or buffers the route, a body
 * that is not an event stream) it falls back to the plain call. A refusal from the API
 * (503 not configured, 400) or an `error` event from the AI is a failure, not a reason to
 * ask again: the API has stored the question by then and would store it twice.
 */
export async function streamChatMessage(projectId: number, request: ChatRequest, options: StreamOptions): Promise<ChatReply> {
  const { signal, onDelta } = options;
  const fallback = () => sendChatMessage(projectId, request, signal);

  let response: Response;
  try {
    response = await fetch(`${chatPath(projectId)}/stream`, {
      method: "POST",
      credentials: "include",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(request),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    return await fallback();
  }

  if (!response.ok) {
    const text = await response.text().catch(() => "");
    const body = parseErrorBody(text);
    if (body) throw new ApiRequestError(response.status, text, body, response.statusText);
    return await fallback();
  }
  if (!response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    await response.body?.cancel().catch(() => {});
    return await fallback();
  }

  let received = false;
  try {
    for await (const { event, data } of readServerSentEvents(response.body)) {
      if (event === "delta") {
        const piece = parseJson<{ text?: unknown }>(data)?.text;
        if (typeof piece === "string" && piece !== "") {
          received = true;
          onDelta(piece);
        }
      } else if (event === "done") {
        const reply = parseJson<ChatReply>(data);
        if (reply && typeof reply.message === "string") return reply;
        throw new ApiRequestError(502, data, undefined, "Bad Gateway");
      } else if (event === "error") {
        throw new ApiRequestError(502, data, parseErrorBody(data), "Bad Gateway");
      }
    }
  } catch (error) {
    if (error instanceof ApiRequestError || signal?.aborted || received) throw error;
    return await fallback();
  }
  if (!received) return await fallback();
  throw new Error("The reply stream ended before the reply was complete");
}
