/*
 * A new project's path to its first post: connect the channel, add drafts, plan. Each step
 * ticks itself off from what the project really has, so the path shows what is left and
 * leaves once everything is there.
 */
import type { ProjectSectionPath } from "./projectPaths.ts";

export type FirstStepKey = "connect" | "drafts" | "plan";
export type FirstStep = { key: FirstStepKey; done: boolean; path: ProjectSectionPath };

/** What the project has, as the Project page reads it. */
export type ProjectProgress = {
  /** A channel connected (its approver said Allow). */
  channelConnected: boolean;
  drafts: number;
  /** Anything planned: a post or series still to go out, a post waiting for review, or a preview waiting for its approver. */
  planned: boolean;
};

export function firstSteps(progress: ProjectProgress): FirstStep[] {
  return [
    { key: "connect", done: progress.channelConnected, path: "channels" },
    { key: "drafts", done: progress.drafts > 0, path: "drafts" },
    { key: "plan", done: progress.planned, path: "schedule" },
  ];
}

/** The step to take now: the first not done, or null when the path is walked. */
export const nextStep = (steps: FirstStep[]) => steps.find((step) => !step.done) ?? null;
