/*
 * The one AI module: the official `openai` SDK on chat completions, so any
 * OpenAI-compatible server works (OpenAI, Ollama, vLLM, llama.cpp). Configured by
 * OPENAI_API_KEY / OPENAI_BASE_URL / OPENAI_MODEL; without them every AI call answers
 * 503 saying how to configure it. The SDK retries 429 and 5xx with exponential backoff
 * (honouring Retry-After); failures become clear ApiErrors.
 */
import OpenAI from "openai";
import type { Config } from "../config.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
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

export const AI_NOT_CONFIGURED =
  "AI is not configured on this server: set OPENAI_API_KEY (and OPENAI_BASE_URL / OPENAI_MODEL for another OpenAI-compatible server such as Ollama or vLLM), then restart.";

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
        if (text === "") throw new ApiError(502, "ai.emptyAnswer", "The AI returned an empty answer. Please try again.");
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
  if (!ai) throw new ApiError(503, "ai.notConfigured", AI_NOT_CONFIGURED);
  return ai;
}

/**
 * The provider's failure as something a user can act on. Messages are fixed sentences, so
 * the interface can show them in its language (they are dictionary keys); the provider's
 * own words stay in `cause` for the logs.
 */
export function aiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // The browser went away and the call was abandoned: there is nobody to answer (logged as 499).
  if (err instanceof OpenAI.APIUserAbortError) {
    return new ApiError(499 as ContentfulStatusCode, "ai.aborted", "The request was cancelled.");
  }
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ApiError(504, "ai.timeout", "The AI took too long to answer. Please try again.");
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new ApiError(502, "ai.unreachable", "The AI server cannot be reached right now. Please try again later.");
  }
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 502;
    if (status === 401 || status === 403) {
      return new ApiError(503, "ai.unauthorized", "The AI server refused our API key: check OPENAI_API_KEY.");
    }
    if (status === 404) {
      return new ApiError(503, "ai.modelNotFound", "The AI server does not know the model set in OPENAI_MODEL.", { cause: err });
    }
    if (status === 429) {
      return new ApiError(503, "ai.rateLimited", "The AI provider is busy (rate limit reached). Please try again in a minute.");
    }
    if (status >= 500) return new ApiError(502, "ai.unavailable", "The AI provider had an error. Please try again.", { cause: err });
    return new ApiError(502, "ai.badRequest", "The AI provider refused the request. Please try again.", { cause: err });
  }
  return new ApiError(502, "ai.unavailable", "The AI request failed. Please try again.", { cause: err });
}
