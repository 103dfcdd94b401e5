/*
 * Every prompt the product sends, in one readable place. Each is built from the project:
 * its name, description, sources, writing style and language. A post is asked for in
 * Markdown, which models write best, and becomes text plus Telegram entities on our side
 * (contract/markdown.ts), and so is the assistant's reply (converted by the web app with the
 * same module); titles stay plain text. A post is at most 4096 characters.
 */
import { POST_CONTENT_MAX } from "../../contract/limits.ts";
import type { WritingStyle } from "../../contract/projects.ts";
import type { AiMessage } from "./client.ts";

export type ProjectVoice = {
  name: string;
  description: string;
  sources: string;
  writingStyle: WritingStyle;
  language: "ru" | "en" | string;
  /**
   * The texts of the project's best-received recent posts (core/ai/examples.ts), for a post's
   * prompt only; already few and cut short by app_public.best_received_posts.
   */
  examples?: string[];
};

const FORMALITY = ["very casual, like a friend", "casual", "neutral", "formal", "very formal, official"];
const SERIOUSNESS = ["playful and humorous", "light", "balanced", "serious", "strictly serious and factual"];
const EMOJI = ["no emoji at all", "a few emoji where they help", "many emoji"];

export const languageName = (language: string) => (language === "en" ? "English" : "Russian");

/**
 * Telegram-friendly Markdown: what contract/markdown.ts turns into entities, and nothing it
 * would have to flatten (headings, tables, nested lists).
 */
const TELEGRAM_MARKDOWN =
  "**bold** for the lead line or key words, _italic_, `code`, [link text](https://…) only for real https links, " +
  "> for a quote, ||spoiler|| if it fits; a list is plain lines starting with \"-\" or \"1.\", never nested. " +
  "No headings (#), no tables, no HTML tags. Line breaks and emoji are fine.";

/**
 * Who we write for and how: the shared part of every prompt. `markdown` for a post's text
 * and the assistant's replies (converted to entities); plain text for titles.
 */
export function systemPrompt(project: ProjectVoice, format: "plain" | "markdown" = "plain") {
  const style = project.writingStyle;
  const lines = [
    `You write content for the Telegram channel "${project.name}".`,
    project.description.trim() ? `About the channel: ${project.description.trim()}` : "",
    project.sources.trim()
      ? `Sources the channel relies on (one per line; draw on their topics and facts, never invent quotes from them):\n${project.sources.trim()}`
      : "",
    `Writing style: ${FORMALITY[style.formality] ?? FORMALITY[2]} (formality ${style.formality}/4); ` +
    `${SERIOUSNESS[style.seriousness] ?? SERIOUSNESS[2]} (seriousness ${style.seriousness}/4); ` +
    `${EMOJI[style.emojiUsage] ?? EMOJI[1]} (emoji usage ${style.emojiUsage}/2).`,
    `Always write in ${languageName(project.language)}.`,
    format === "markdown"
      ? `Format your text with Markdown the way Telegram channels read: ${TELEGRAM_MARKDOWN}`
      : "Output plain text ready to paste into Telegram: no Markdown (no **, #, or backticks), no HTML tags. Line breaks and emoji are fine.",
  ];
  return lines.filter((l) => l !== "").join("\n");
}

export function titlePrompt(project: ProjectVoice, existingTitles: string[]): AiMessage[] {
  const avoid = existingTitles.length ? `\nTitles the channel already has (suggest something different):\n${existingTitles.slice(0, 30).join("\n")}` : "";
  return [
    { role: "system", content: systemPrompt(project) },
    { role: "user", content: `Suggest one title for a new post for this channel.${avoid}\nAnswer with the title only: one line, no quotes, no numbering.` },
  ];
}

export function titlesPrompt(project: ProjectVoice, count: number, existingTitles: string[]): AiMessage[] {
  const avoid = existingTitles.length ? `\nAvoid these titles the channel already has:\n${existingTitles.slice(0, 50).join("\n")}` : "";
  return [
    { role: "system", content: systemPrompt(project) },
    {
      role: "user",
      content: `Suggest exactly ${count} different titles for new posts for this channel.${avoid}\n` +
        `Answer with the titles only, one per line, no numbering, no quotes, nothing else.`,
    },
  ];
}

/**
 * What readers liked, as a model of the voice: the model is told to take the tone, rhythm
 * and form, never the topics, facts or sentences (a post copied from the channel would be a
 * repeat its readers notice). Nothing when the channel has no reactions yet.
 */
function examplesSection(examples: string[] | undefined) {
  if (!examples?.length) return "";
  const quoted = examples.map((text, i) => `Example ${i + 1}:\n"""\n${text}\n"""`).join("\n");
  return "\n\nRecent posts of this channel that its readers reacted to most. They show the voice that works here: " +
    "imitate their tone, rhythm, length of sentences and formatting habits, not their topics or facts, " +
    "and never copy or retell them.\n" + quoted;
}

export function postPrompt(project: ProjectVoice, title: string, length: number): AiMessage[] {
  return [
    { role: "system", content: systemPrompt(project, "markdown") + examplesSection(project.examples) },
    {
      role: "user",
      content: `Write a Telegram post titled "${title}".\n` +
        `Length: about ${length} characters (never more than ${POST_CONTENT_MAX}).\n` +
        "Answer with the post text only, without repeating the title as a heading.",
    },
  ];
}

export const CHAT_MODES = {
  general: "Help the author run the channel: ideas, plans, questions about content.",
  editor: "Edit the author's current draft as they ask. Answer with the edited text unless they ask something else.",
  title: "Suggest titles for the author's current draft: a short list, one per line.",
  improver: "Improve the author's current draft: clearer, livelier, in the channel's style. Answer with the improved text.",
} as const;
export type ChatMode = keyof typeof CHAT_MODES;

export function chatPrompt(
  project: ProjectVoice,
  mode: ChatMode,
  currentContent: string,
  history: AiMessage[],
  message: string,
): AiMessage[] {
  const draft = currentContent.trim() ? `\n\nThe author's current draft:\n"""\n${currentContent.trim()}\n"""` : "";
  return [
    { role: "system", content: `${systemPrompt(project, "markdown")}\n\nYou are the channel's writing assistant. ${CHAT_MODES[mode]}${draft}` },
    ...history.filter((m) => m.role !== "system"),
    { role: "user", content: message },
  ];
}

/** Tokens to allow for about `length` characters (Cyrillic runs ~2.5 characters a token). */
export function tokensFor(length: number) {
  return Math.min(4096, Math.ceil(length / 2) + 200);
}

/** One title from a model's answer: first non-empty line, without numbering or quotes. */
export function cleanTitle(line: string) {
  return line.trim().replace(/^(\d+[.)]|[-*•—–])\s*/, "").replace(/^["«“'](.*)["»”']$/, "$1").replace(/\*\*/g, "").trim();
}

export function titlesFrom(answer: string) {
  return answer.split("\n").map(cleanTitle).filter((t) => t !== "" && t.length <= 200);
}
