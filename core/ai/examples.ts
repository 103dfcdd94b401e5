/*
 * The AI learns from what worked (docs/autopilot-and-ai.md "AI"): before a post is written, by generate-post,
 * a content-generation job or autopilot, the project's voice is given its best-received
 * recent posts (app_public.best_received_posts decides which, how many and how long), which
 * postPrompt shows the model as examples of the voice.
 */
import type { Sql } from "../db.ts";
import type { ProjectVoice } from "./prompts.ts";

export async function withExamples<V extends ProjectVoice>(sql: Sql, userId: number, projectId: number, voice: V): Promise<V> {
  const rows = await sql<{ content: string }[]>`select content from app_public.best_received_posts(${userId}, ${projectId})`;
  return { ...voice, examples: rows.map((r) => r.content) };
}
