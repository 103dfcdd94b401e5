/*
 * The streamed assistant reply as the SPA reads it (spec §7 chat, streamed): server-sent
 * events from a POST body cut anywhere, and when the plain call is used instead.
 */
import { afterEach, describe, expect, test } from "vitest";
import { type ChatRequest, streamChatMessage } from "../../web/src/api/chat.ts";
import { ApiRequestError } from "../../web/src/api/fetcher.ts";
import { readServerSentEvents } from "../../web/src/lib/sse.ts";

/** A body that arrives in the given byte pieces. */
function bodyOf(pieces: (string | Uint8Array)[]) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
      controller.close();
    },
  });
}

async function eventsOf(pieces: (string | Uint8Array)[]) {
  const events = [];
  for await (const event of readServerSentEvents(bodyOf(pieces))) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  test("events split across chunks, with CRLF, comments and multi-line data", async () => {
    const text = ': ping\r\nevent: delta\r\ndata: {"text":"При"}\r\n\r\nevent: delta\ndata: {"text":"вет"}\n\nevent: done\ndata: line one\ndata: line two\n\n';
    const bytes = new TextEncoder().encode(text);
    // Cut every 3 bytes: inside words, inside Cyrillic letters and between \r and \n.
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) pieces.push(bytes.slice(i, i + 3));
    expect(await eventsOf(pieces)).toEqual([
      { event: "delta", data: '{"text":"При"}' },
      { event: "delta", data: '{"text":"вет"}' },
      { event: "done", data: "line one\nline two" },
    ]);
  });

  test("an event without a name is a message; one cut off before its blank line is dropped", async () => {
    expect(await eventsOf(["data: hello\n\n", "event: delta\ndata: half"])).toEqual([{ event: "message", data: "hello" }]);
  });
});

const request: ChatRequest = { message: "Привет", mode: "general", currentContent: "", history: [] };
const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** Answers the stream route with `stream` and the plain route with a stored reply; records the calls. */
function serve(stream: () => Response | Promise<Response>) {
  const calls: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url.endsWith("/chat/stream")) return await stream();
    return Response.json({ id: 7, message: "Целиком", timestamp: "2025-03-01T10:00:00Z" });
  }) as typeof fetch;
  return calls;
}

const sse = (text: string) => new Response(bodyOf([text]), { headers: { "content-type": "text/event-stream" } });

describe("streamChatMessage", () => {
  test("hands over each piece, then answers the stored reply", async () => {
    const calls = serve(() =>
      sse('event: delta\ndata: {"text":"Здрав"}\n\nevent: delta\ndata: {"text":"ствуйте"}\n\nevent: done\ndata: {"id":3,"message":"Здравствуйте","timestamp":"2025-03-01T10:00:00Z"}\n\n')
    );
    const pieces: string[] = [];
    const reply = await streamChatMessage(1, request, { onDelta: (piece) => pieces.push(piece) });
    expect(pieces).toEqual(["Здрав", "ствуйте"]);
    expect(reply).toEqual({ id: 3, message: "Здравствуйте", timestamp: "2025-03-01T10:00:00Z" });
    expect(calls).toEqual(["/api/projects/1/chat/stream"]);
  });

  test("an error event is a failure with the server's message, not a second request", async () => {
    const calls = serve(() => sse('event: error\ndata: {"message":"The AI is busy","code":"ai.unavailable"}\n\n'));
    const failure = await streamChatMessage(1, request, { onDelta: () => {} }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).body).toEqual({ message: "The AI is busy", code: "ai.unavailable" });
    expect(calls).toHaveLength(1);
  });

  test("a refusal from the API (503 not configured) is a failure, not a second request", async () => {
    const calls = serve(() =>
      Response.json({ message: "AI is not configured on this server", code: "ai.notConfigured" }, { status: 503 })
    );
    const failure = await streamChatMessage(1, request, { onDelta: () => {} }).catch((error: unknown) => error);
    expect((failure as ApiRequestError).status).toBe(503);
    expect((failure as ApiRequestError).body?.code).toBe("ai.notConfigured");
    expect(calls).toHaveLength(1);
  });

  test("without streaming (no connection, a proxy's page, a plain body) the plain call answers", async () => {
    for (const answer of [
      () => Promise.reject(new TypeError("Failed to fetch")),
      () => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }),
      () => new Response("buffered", { headers: { "content-type": "text/plain" } }),
      () => sse(": nothing but a comment\n\n"),
    ]) {
      const calls = serve(answer);
      const reply = await streamChatMessage(1, request, { onDelta: () => {} });
      expect(reply.message).toBe("Целиком");
      expect(calls).toEqual(["/api/projects/1/chat/stream", "/api/projects/1/chat"]);
    }
  });

  test("a stream cut after some text is a failure: the reply is not asked for twice", async () => {
    serve(() => sse('event: delta\ndata: {"text":"Здрав"}\n\n'));
    await expect(streamChatMessage(1, request, { onDelta: () => {} })).rejects.toThrow("ended before the reply was complete");
  });
});
