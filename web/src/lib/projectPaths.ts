/**
 * The areas of a project (spec §2) as URL paths, in the order the sidebar and overview
 * show them. Without their icons (lib/projectSections.ts), so the routes stay light.
 */
export const PROJECT_SECTION_PATHS = ["ai-assistant", "channels", "schedule", "drafts", "published", "statistics", "ads", "members", "activity", "webhooks"] as const;

export type ProjectSectionPath = (typeof PROJECT_SECTION_PATHS)[number];

export const projectPath = (projectId: number, section?: ProjectSectionPath) =>
  section ? `/project/${projectId}/${section}` : `/project/${projectId}`;
