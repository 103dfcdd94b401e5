import { type RefObject, useEffect, useRef, useState } from "react";
import { GENERATED_POST_LENGTH } from "../../../../contract/limits.ts";
import { generatePost, generateTitle } from "../../api/ai.ts";
import { useProject } from "../../api/projects.ts";
import { useT } from "../../i18n/i18n.tsx";
import { clampInput } from "../../lib/clampInput.ts";
import type { Generated, Values } from "../../lib/draftForm.ts";
import { generationFailureText } from "../../lib/messages.ts";
import type { FormattedText } from "../../lib/postDocument.ts";
import { toastError } from "../../lib/toast.ts";

type Generating = "title" | "post" | null;

type GenerationSource = {
  projectId: number;
  opened: boolean;
  draftId: number | undefined;
  values: Values;
  /** Writes what the AI made: the title or the text only (lib/draftForm.ts withGenerated), never the ad. */
  apply: (generated: Generated) => void;
  /** Where the focus goes when the text is asked for without a title. */
  titleInput: RefObject<HTMLInputElement | null>;
};

/** The draft dialog's AI help: one generation at a time, its target length, and one step of undo. */
export function useDraftGeneration({ projectId, opened, draftId, values, apply, titleInput }: GenerationSource) {
  const t = useT();
  const { project } = useProject(projectId);
  const [generating, setGenerating] = useState<Generating>(null);
  const [postLength, setPostLength] = useState<number | string>(GENERATED_POST_LENGTH.default);
  /** The text a generated post replaced, until the person edits it again: one step of undo. */
  const [replacedContent, setReplacedContent] = useState<FormattedText | null>(null);
  const generation = useRef<AbortController | null>(null);

  // Each opening starts with nothing to undo.
  useEffect(() => {
    if (opened) setReplacedContent(null);
  }, [opened, draftId]);

  // A generation still running when the dialog closes (or shows another draft) is dropped.
  useEffect(() => {
    if (opened) return;
    generation.current?.abort();
    generation.current = null;
    setGenerating(null);
  }, [opened, draftId]);

  const runGeneration = async (kind: Exclude<Generating, null>, work: (signal: AbortSignal) => Promise<void>) => {
    generation.current?.abort();
    const controller = new AbortController();
    generation.current = controller;
    setGenerating(kind);
    try {
      await work(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      const failed = kind === "title" ? "schedule.generateTitleFailed" : "schedule.generatePostFailed";
      const detail = generationFailureText(t, error, failed);
      toastError(t(failed), detail === t(failed) ? undefined : detail);
    } finally {
      if (generation.current === controller) {
        generation.current = null;
        setGenerating(null);
      }
    }
  };

  const handleGenerateTitle = () =>
    runGeneration("title", async (signal) => {
      const title = await generateTitle(projectId, { signal });
      if (!signal.aborted) apply({ title });
    });

  const handleGeneratePost = () => {
    const title = values.title.trim();
    if (title === "") {
      toastError(t("drafts.titleRequired"), t("drafts.titleRequiredForPost"));
      titleInput.current?.focus();
      return;
    }
    // Spec §5: the target length is 100–4000, 1500 when left empty.
    const length = clampInput(postLength, GENERATED_POST_LENGTH);
    setPostLength(length);
    return runGeneration("post", async (signal) => {
      // Spec §7 sends a language; the server writes in the project's language either way.
      const language = project?.language ?? "ru";
      const post = await generatePost(projectId, { title, postLength: length, language }, { signal });
      if (signal.aborted) return;
      setReplacedContent(values.body.text.trim() === "" ? null : values.body);
      apply({ body: { text: post.content, entities: post.entities } });
    });
  };

  return { generating, postLength, setPostLength, replacedContent, setReplacedContent, handleGenerateTitle, handleGeneratePost };
}
