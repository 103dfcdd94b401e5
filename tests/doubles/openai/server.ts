/*
 * A local OpenAI-compatible chat-completions server for tests. The real `openai` SDK talks
 * to it over HTTP (OPENAI_BASE_URL = `${baseURL}`), as it would to OpenAI, Ollama or vLLM.
 * It speaks the wire format of POST /v1/chat/completions (plain JSON and `stream: true`
 * server-sent events), answers errors the way OpenAI does ({ error: { message, type,
 * code } } with the HTTP status, Retry-After on 429), checks the bearer key, and keeps a
 * journal of every request for assertions.
 *
 * What it answers is up to the test: `reply(fn)` sets a function from the request to the
 * assistant's text (default: a short deterministic text), `failNext(status, times)` makes
 * the next calls fail.
 */

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };
export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  [key: string]: unknown;
};
export type Reply = string | { status: number; message?: string };

export type OpenAiServer = {
  /** Pass as OPENAI_BASE_URL. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Every request received, oldest first (failed ones too); `aborted` when the client went away before the answer. */
  journal: { body: ChatRequest; status: number; time: number; aborted: boolean }[];
  /** A slow provider: every answer waits this long first (0 by default). */
  setDelay(ms: number): void;
  reply(fn: (request: ChatRequest) => Reply | Promise<Reply>): void;
  failNext(status: number, times?: number, message?: string): void;
  /** Drops pending failures and restores the default reply. */
  reset(): void;
  close(): Promise<void>;
};

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  404: "invalid_request_error",
  429: "rate_limit_exceeded",
  500: "server_error",
  502: "server_error",
  503: "server_error",
};

export async function startOpenAiServer(options: { apiKey?: string; model?: string } = {}): Promise<OpenAiServer> {
  const apiKey = options.apiKey ?? "sk-test-local";
  const model = options.model ?? "test-model";
  const journal: OpenAiServer["journal"] = [];
  const failures: { status: number; message?: string }[] = [];
  const defaultReply = (r: ChatRequest): Reply => `Reply to: ${r.messages[r.messages.length - 1]?.content.slice(0, 60) ?? ""}`;
  let replyFn: (request: ChatRequest) => Reply | Promise<Reply> = defaultReply;
  let delayMs = 0;

  const error = (status: number, message: string, headers: Record<string, string> = {}) =>
    Response.json({ error: { message, type: ERROR_TYPES[status] ?? "api_error", param: null, code: null } }, { status, headers });

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.headers.get("authorization") !== `Bearer ${apiKey}`) {
      return error(401, "Incorrect API key provided.");
    }
    if (req.method === "GET" && url.pathname === "/v1/models") {
      return Response.json({ object: "list", data: [{ id: model, object: "model", created: 0, owned_by: "local" }] });
    }
    if (req.method !== "POST" || url.pathname !== "/v1/chat/completions") return error(404, `Unknown request URL: ${url.pathname}`);
    let body: ChatRequest;
    try {
      body = await req.json();
    } catch {
      return error(400, "We could not parse the JSON body of your request.");
    }
    const entry = { body, status: 200, time: Date.now(), aborted: false };
    journal.push(entry);
    // Deno also aborts a request's signal once its answer is sent; only an abort before that counts
    let answering = false;
    req.signal.addEventListener("abort", () => void (entry.aborted ||= !answering));
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      entry.status = 400;
      return error(400, "'messages' is a required property");
    }
    answering = true;
    const failure = failures.shift();
    if (failure) {
      entry.status = failure.status;
      return error(failure.status, failure.message ?? "The server had an error while processing your request.",
        failure.status === 429 ? { "retry-after": "0" } : {});
    }
    const reply = await replyFn(body);
    if (typeof reply !== "string") {
      entry.status = reply.status;
      return error(reply.status, reply.message ?? "The server had an error while processing your request.");
    }
    const id = `chatcmpl-${crypto.randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 10, completion_tokens: Math.ceil(reply.length / 4), total_tokens: 10 + Math.ceil(reply.length / 4) };
    if (!body.stream) {
      return Response.json({
        id, object: "chat.completion", created, model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply, refusal: null }, finish_reason: "stop", logprobs: null }],
        usage,
      });
    }
    const chunks = reply.match(/.{1,16}/gs) ?? [""];
    const encoder = new TextEncoder();
    const stream = new ReadableStream({
      async start(controller) {
        const send = (data: unknown) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(data)}\n\n`));
        send({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] });
        for (const piece of chunks) {
          send({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
          await new Promise((r) => setTimeout(r, 2));
        }
        send({ id, object: "chat.completion.chunk", created, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
        // as OpenAI does when asked: one last chunk with the usage and no choices
        const options = body.stream_options as { include_usage?: boolean } | undefined;
        if (options?.include_usage) send({ id, object: "chat.completion.chunk", created, model: body.model, choices: [], usage });
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  });

  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    apiKey,
    model,
    journal,
    reply(fn) {
      replyFn = fn;
    },
    failNext(status, times = 1, message) {
      for (let i = 0; i < times; i++) failures.push({ status, message });
    },
    setDelay(ms) {
      delayMs = ms;
    },
    reset() {
      failures.length = 0;
      replyFn = defaultReply;
      delayMs = 0;
    },
    close: () => server.shutdown(),
  };
}

/** The system and last user message of a request, for assertions on prompts. */
export function promptOf(request: ChatRequest) {
  return {
    system: request.messages.filter((m) => m.role === "system").map((m) => m.content).join("\n"),
    user: [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "",
  };
}
