/*
 * The one AI module: the official `openai` SDK on chat completions, so any
 * OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp). Configured by
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL; without them every AI call answers
 * 503 saying how to configure it. The SDK retries 429 and 5xx with exponential backoff
 * (honouring Retry-After); failures become clear ApiErrors.
 */
import OpenAI from "openai";
import type { Config } from "../config.ts";
import { errorMessage } from "../../contract/error_codes.ts";
import { ApiError } from "../errors.ts";

export const DEFAULT_MODEL = "gpt-4o-mini";
const TIMEOUT_MS = 90_000;
const MAX_RETRIES = 3;

export type AiMessage = { role: "system" | "user" | "assistant"; content: string };
export type CompleteOptions = {
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** The tokens the call cost, as the provider reports them (estimated when it does not). */
  onUsage?: (tokens: number) => void;
};

/** About four characters a token: what a call is counted as when the provider reports no usage. */
export function estimatedTokens(messages: AiMessage[], answer: string) {
  return Math.ceil((messages.reduce((sum, m) => sum + m.content.length, 0) + answer.length) / 4);
}

export type Ai = {
  model: string;
  complete(messages: AiMessage[], options?: CompleteOptions): Promise<string>;
  stream(messages: AiMessage[], options?: CompleteOptions): AsyncIterable<string>;
};

export const AI_NOT_CONFIGURED = errorMessage("ai.notConfigured");

/** The configured AI, or undefined (then routes answer 503 with AI_NOT_CONFIGURED). */
export function createAi(config: Config["openai"]): Ai | undefined {
  if (!config.apiKey && !config.baseUrl) return undefined;
  const client = new OpenAI({
    // local servers (Ollama, llama.cpp) take any key
    apiKey: config.apiKey ?? "not-needed",
    baseURL: config.baseUrl,
    timeout: TIMEOUT_MS,
    maxRetries: MAX_RETRIES,
  });
  const model = config.model ?? DEFAULT_MODEL;
  const params = (messages: AiMessage[], options: CompleteOptions) => ({
    model,
    messages,
    temperature: options.temperature ?? 0.8,
    ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
  });
  return {
    model,
    async complete(messages, options = {}) {
      try {
        const completion = await client.chat.completions.create({ ...params(messages, options), stream: false }, { signal: options.signal });
        const text = completion.choices[0]?.message?.content?.trim() ?? "";
        options.onUsage?.(completion.usage?.total_tokens ?? estimatedTokens(messages, text));
        if (text === "") throw new ApiError("ai.emptyAnswer");
        return text;
      } catch (err) {
        throw aiError(err);
      }
    },
    async *stream(messages, options = {}) {
      let stream;
      try {
        stream = await client.chat.completions.create(
          { ...params(messages, options), stream: true, stream_options: { include_usage: true } },
          { signal: options.signal },
        );
      } catch (err) {
        throw aiError(err);
      }
      let answer = "";
      let reported: number | undefined;
      try {
        for await (const chunk of stream) {
          if (chunk.usage) reported = chunk.usage.total_tokens;
          const delta = chunk.choices[0]?.delta?.content;
          if (delta) {
            answer += delta;
            yield delta;
          }
        }
      } catch (err) {
        throw aiError(err);
      } finally {
        // a stream cut short (the browser went away) still cost what was generated
        options.onUsage?.(reported ?? estimatedTokens(messages, answer));
      }
    },
  };
}

export function requireAi(ai: Ai | undefined): Ai {
  if (!ai) throw new ApiError("ai.notConfigured");
  return ai;
}

/**
 * The provider's failure as something a user can act on: a code the interface says in its
 * language; the provider's own words stay in `cause` for the logs.
 */
export function aiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // The browser went away and the call was abandoned: there is nobody to answer (logged as 499).
  if (err instanceof OpenAI.APIUserAbortError) {
    return new ApiError("ai.aborted");
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ApiError("ai.timeout");
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new ApiError("ai.unreachable");
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 502;
    if (status === 401 || status === 403) return new ApiError("ai.unauthorized");
    if (status === 404) return new ApiError("ai.modelNotFound", { cause: err });
    if (status === 429) return new ApiError("ai.providerBusy");
    if (status >= 500) return new ApiError("ai.unavailable", { cause: err });
    return new ApiError("ai.badRequest", { cause: err });
  }
  return new ApiError("ai.failed", { cause: err });
}
