/** One server-sent event: its name ("message" when the server gave none) and its data text. */
export type ServerSentEvent = { event: string; data: string };

/**
 * Reads a `text/event-stream` body (what EventSource would, but for a POST answer): events
 * end at a blank line, `data:` lines join with "\n", comments and ids are skipped. Any of
 * CRLF, LF or CR ends a line, and a chunk may end mid-line or mid-character.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];

  function* takeLines(final: boolean): Generator<ServerSentEvent> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone CR at the end of a chunk may be the first half of CRLF: wait for more.
      if (!match || (!final && match[0] === "\r" && match.index === buffer.length - 1)) return;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      if (line === "") {
        if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
        event = "";
        data = [];
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
  }

  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      yield* takeLines(false);
    }
    buffer += decoder.decode();
    yield* takeLines(true);
    // The spec drops an event the stream cut off before its blank line; so do we.
  } finally {
    // Also when the reader stops early: the connection is not needed any more.
    reader.cancel().catch(() => {});
  }
}
