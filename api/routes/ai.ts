/*
 * AI writing (spec §5, §7): titles, posts, batch content generation as a job, and the
 * assistant chat (plain and streamed). Prompts are in core/ai/prompts.ts.
 *
 * The operator pays for every token, so each request counts one call against the account
 * (app_public.begin_ai_call: calls per minute, tokens per UTC day, and the tokens of every
 * account together that day; 429 over any) and every provider call's tokens are recorded. The chat's context is the stored conversation, never
 * what a client sends, and the whole prompt is capped. A browser that goes away aborts the
 * provider call.
 */
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import * as v from "valibot";
import { type Ai, type AiMessage, aiError, requireAi } from "../../core/ai/client.ts";
import { formattedPost } from "../../contract/markdown.ts";
import { withExamples } from "../../core/ai/examples.ts";
import { chatPrompt, postPrompt, type ProjectVoice, titlePrompt, titlesFrom, titlesPrompt, tokensFor } from "../../core/ai/prompts.ts";
import { ChatHistoryQuery, ChatSchema, GenerateContentSchema, GeneratePostSchema, type GenerationJob, GenerateTitlesSchema } from "../../contract/ai.ts";
import { CHAT_CONTEXT_MESSAGES, POST_CONTENT_MAX } from "../../contract/limits.ts";
import { type ErrorCode, errorMessage, isErrorCode } from "../../contract/error_codes.ts";
import type { Sql } from "../../core/db.ts";
import type { ApiDeps } from "../deps.ts";
import { type AppEnv, currentUser } from "../env.ts";
import type { Context } from "hono";
import { ApiError } from "../../core/errors.ts";
import { logCause } from "../errors.ts";
import { requireUser } from "../middleware/session.ts";
import { body, idParam, IgnoredBody, optionalBody } from "../validate.ts";

/** The project an AI call writes for, read first: a role that may not use AI spends nothing (team.forbidden). */
async function projectVoice(sql: Sql, userId: number, projectId: number) {
  const [project] = await sql<ProjectVoice[]>`select * from app_public.ai_project(${userId}, ${projectId})`;
  return project;
}

async function existingTitles(sql: Sql, userId: number, projectId: number) {
  const rows = await sql<{ title: string }[]>`select title from app_public.project_drafts(${userId}, ${projectId})`;
  return rows.map((r) => r.title);
}

/** Exactly `count` distinct titles: asks again for the missing ones (a model may give fewer). */
export async function generateTitles(ai: Ai, project: ProjectVoice, count: number, existing: string[]) {
  const titles: string[] = [];
  const seen = new Set(existing.map((t) => t.toLowerCase()));
  for (let attempt = 0; attempt < 3 && titles.length < count; attempt++) {
    const answer = await ai.complete(titlesPrompt(project, count - titles.length, [...existing, ...titles]), { maxTokens: 60 * count + 100 });
    for (const title of titlesFrom(answer)) {
      if (titles.length < count && !seen.has(title.toLowerCase())) {
        seen.add(title.toLowerCase());
        titles.push(title);
      }
    }
  }
  if (titles.length < count) {
    throw new ApiError("ai.tooFewTitles", { cause: `${titles.length} of ${count} titles` });
  }
  return titles;
}

/**
 * A question and its answer are stored together once the answer exists, so a failed
 * reply leaves no unanswered question behind and a retry does not store it twice.
 */
async function saveExchange(sql: Sql, userId: number, projectId: number, question: string, answer: string) {
  return await sql.begin(async (tx) => {
    const [q] = await tx<{ id: number }[]>`select id from app_public.add_chat_message(${userId}, ${projectId}, 'user', ${question})`;
    const [a] = await tx<{ id: number; createdAt: string }[]>`
      select id, created_at from app_public.add_chat_message(${userId}, ${projectId}, 'assistant', ${answer})`;
    return { id: a.id, createdAt: a.createdAt, questionId: q.id };
  });
}

/**
 * The most a chat prompt may carry, in characters (~12k tokens): the system prompt with the
 * project's voice and the current draft, the stored context and the question. Older context
 * goes first when it does not fit.
 */
export const CHAT_PROMPT_MAX_CHARS = 48_000;
/**
 * What one AI call may cost at most, reserved before it is made: the longest prompt (at 4
 * characters a token) and the longest answer asked for (2,000 tokens).
 */
export const AI_CALL_TOKEN_BOUND = CHAT_PROMPT_MAX_CHARS / 4 + 2_000;

/** The stored conversation's last messages, oldest first: the chat's context. */
async function storedContext(sql: Sql, userId: number, projectId: number): Promise<AiMessage[]> {
  const rows = await sql<{ role: "user" | "assistant"; content: string }[]>`
    select role, content from app_public.chat_history(${userId}, ${projectId}, 1, ${CHAT_CONTEXT_MESSAGES})`;
  return rows.reverse().map((r) => ({ role: r.role, content: r.content }));
}

/** The prompt without the oldest context messages that would take it over the cap. */
export function cappedPrompt(build: (context: AiMessage[]) => AiMessage[], context: AiMessage[]): AiMessage[] {
  const size = (messages: AiMessage[]) => messages.reduce((sum, m) => sum + m.content.length, 0);
  for (let from = 0; from <= context.length; from++) {
    const prompt = build(context.slice(from));
    if (size(prompt) <= CHAT_PROMPT_MAX_CHARS || from === context.length) return prompt;
  }
  return build([]);
}

type JobRow = {
  id: number;
  status: GenerationJob["status"];
  result: { progress: GenerationJob["result"]["progress"]; failed?: { draftId: number; error: string }[] };
  /** the failure's error code (stored as a code, worded here for API clients) */
  error: string | null;
};

/** A stored code in its English words; a code the catalogue no longer has reads as a failed AI call. */
const jobFailure = (stored: string): { code: ErrorCode; message: string } => {
  const code = isErrorCode(stored) ? stored : "ai.failed";
  return { code, message: errorMessage(code) };
};

export function toJob(row: JobRow): GenerationJob {
  const failed = row.result.failed?.map(({ draftId, error }) => {
    const { code, message } = jobFailure(error);
    return { draftId, error: message, code };
  });
  const failure = row.error === null ? null : jobFailure(row.error);
  return {
    jobId: row.id,
    status: row.status,
    result: { progress: row.result.progress, ...(failed && { failed }) },
    error: failure?.message ?? null,
    errorCode: failure?.code ?? null,
  };
}


export function aiRoutes({ sql, ai, log, config }: ApiDeps) {
  const { aiCallsPerMinute, aiDailyTokens, aiDailyTokensTotal } = config.limits;
  /**
   * The AI for this request: counted as one call of the account (429 over its limits or
   * the service's day),
   * every provider call's tokens recorded against it, aborted when the browser goes away.
   */
  /**
   * One AI call of the account counted (429 over its limits), reserving nothing: a
   * generation job's posts are judged one by one as the job writes them, in the account's one
   * AI queue.
   */
  async function countAiCall(c: Context<AppEnv>) {
    requireAi(ai);
    const [{ reservation }] = await sql<{ reservation: number }[]>`
      select app_public.begin_ai_call(${currentUser(c).id}, ${aiCallsPerMinute}, ${aiDailyTokens}, ${aiDailyTokensTotal}, 0) as reservation`;
    await sql`select app_public.settle_ai_call(${reservation})`;
  }

  async function accountAi(c: Context<AppEnv>): Promise<Ai> {
    const model = requireAi(ai);
    const userId = currentUser(c).id;
    const [{ reservation }] = await sql<{ reservation: number }[]>`
      select app_public.begin_ai_call(${userId}, ${aiCallsPerMinute}, ${aiDailyTokens}, ${aiDailyTokensTotal}, ${AI_CALL_TOKEN_BOUND}) as reservation`;
    const signal = c.req.raw.signal;
    // each provider call's tokens are recorded, and the reservation settled, before its answer
    // is handed on: the account's next call is judged by what this one really spent
    const recorded: Promise<unknown>[] = [];
    const onUsage = (tokens: number) =>
      void recorded.push(sql`select app_public.record_ai_tokens(${userId}, ${tokens})`.catch((err) =>
        log("error", "AI tokens could not be recorded", { userId, tokens, error: err })
      ));
    const settle = async () => {
      await Promise.all(recorded);
      await sql`select app_public.settle_ai_call(${reservation})`.catch((err) =>
        log("error", "an AI reservation could not be settled; it lapses in 10 minutes", { userId, error: err })
      );
    };
    // a request that fails before it asks the provider (a project not found) gives its
    // reservation back as it ends, rather than holding the day for 10 minutes
    let used = false;
    c.set("unusedAiReservation", () => used ? Promise.resolve() : settle());
    return {
      model: model.model,
      complete: async (messages, options = {}) => {
        used = true;
        try {
          return await model.complete(messages, { ...options, signal, onUsage });
        } finally {
          await settle();
        }
      },
      stream: async function* (messages, options = {}) {
        used = true;
        try {
          yield* model.stream(messages, { ...options, signal, onUsage });
        } finally {
          await settle();
        }
      },
    };
  }

  return new Hono<AppEnv>()
    .use(requireUser)
    .use(async (c, next) => {
      try {
        await next();
      } finally {
        await c.get("unusedAiReservation")?.();
      }
    })
    .post("/generate-title", optionalBody(IgnoredBody), async (c) => {
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const project = await projectVoice(sql, userId, projectId);
      const model = await accountAi(c);
      const answer = await model.complete(titlePrompt(project, await existingTitles(sql, userId, projectId)), { maxTokens: 80 });
      const [title] = titlesFrom(answer);
      if (!title) throw new ApiError("ai.noTitle");
      return c.json({ title });
    })
    .post("/generate-post", body(GeneratePostSchema), async (c) => {
      const { title, postLength } = c.req.valid("json");
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const project = await withExamples(sql, userId, projectId, await projectVoice(sql, userId, projectId));
      const model = await accountAi(c);
      const post = formattedPost(await model.complete(postPrompt(project, title, postLength), { maxTokens: tokensFor(postLength) }), POST_CONTENT_MAX);
      return c.json({ content: post.text, entities: post.entities });
    })
    .post("/generate-multiple-titles", body(GenerateTitlesSchema), async (c) => {
      const { count } = c.req.valid("json");
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const project = await projectVoice(sql, userId, projectId);
      const model = await accountAi(c);
      return c.json({ titles: await generateTitles(model, project, count, await existingTitles(sql, userId, projectId)) });
    })
    .post("/drafts/generate-content", body(GenerateContentSchema), async (c) => {
      const { draftIds, postLength } = c.req.valid("json");
      await countAiCall(c); // say so now rather than through a failed job; the job is one call
      const [job] = await sql<Parameters<typeof toJob>[0][]>`
        select * from app_public.create_generation_job(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${draftIds}::bigint[], ${postLength})`;
      return c.json(toJob(job), 201);
    })
    .get("/jobs/:jobId", async (c) => {
      const [job] = await sql<Parameters<typeof toJob>[0][]>`
        select * from app_public.get_generation_job(${currentUser(c).id}, ${idParam(c.req.param("projectId"))},
          ${idParam(c.req.param("jobId"))})`;
      return c.json(toJob(job));
    })
    .get("/chat/history", async (c) => {
      const query = v.safeParse(ChatHistoryQuery, c.req.query());
      if (!query.success) throw new ApiError("chat.historyQueryInvalid");
      const { page, limit } = query.output as unknown as { page: number; limit: number };
      const rows = await sql<{ id: number; role: "user" | "assistant"; content: string; createdAt: string; hasMore: boolean }[]>`
        select * from app_public.chat_history(${currentUser(c).id}, ${idParam(c.req.param("projectId"))}, ${page}, ${limit})`;
      const hasMore = rows[0]?.hasMore ?? false;
      return c.json({
        // oldest first within the page, as a chat shows them
        messages: rows.reverse().map((r) => ({ id: r.id, role: r.role, content: r.content, timestamp: r.createdAt })),
        hasMore,
        nextPage: hasMore ? page + 1 : null,
      });
    })
    .post("/chat", body(ChatSchema), async (c) => {
      // The client's `history` (spec §7) is accepted and ignored: the context is what is stored.
      const { message, mode, currentContent } = c.req.valid("json");
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const project = await projectVoice(sql, userId, projectId);
      const model = await accountAi(c);
      const prompt = cappedPrompt((context) => chatPrompt(project, mode, currentContent, context, message), await storedContext(sql, userId, projectId));
      const answer = await model.complete(prompt, { maxTokens: 2000 });
      const saved = await saveExchange(sql, userId, projectId, message, answer);
      return c.json({ id: saved.id, message: answer, timestamp: saved.createdAt, questionId: saved.questionId });
    })
    .post("/chat/stream", body(ChatSchema), async (c) => {
      const { message, mode, currentContent } = c.req.valid("json");
      const userId = currentUser(c).id;
      const projectId = idParam(c.req.param("projectId"));
      const project = await projectVoice(sql, userId, projectId);
      const model = await accountAi(c);
      const prompt = cappedPrompt((context) => chatPrompt(project, mode, currentContent, context, message), await storedContext(sql, userId, projectId));
      return streamSSE(c, async (stream) => {
        let answer = "";
        try {
          for await (const delta of model.stream(prompt, { maxTokens: 2000 })) {
            answer += delta;
            await stream.writeSSE({ event: "delta", data: JSON.stringify({ text: delta }) });
          }
          if (answer.trim() === "") throw new ApiError("ai.emptyAnswer");
          const saved = await saveExchange(sql, userId, projectId, message, answer.trim());
          await stream.writeSSE({
            event: "done",
            data: JSON.stringify({ id: saved.id, message: answer.trim(), timestamp: saved.createdAt, questionId: saved.questionId }),
          });
        } catch (err) {
          if (c.req.raw.signal.aborted) return; // the browser went away: nobody to tell
          const failure = aiError(err);
          logCause(log, c, failure);
          await stream.writeSSE({ event: "error", data: JSON.stringify({ message: failure.message, code: failure.code }) });
        }
      });
    });
}
