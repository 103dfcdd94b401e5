import type { Role } from "../../../contract/team.ts";
import type { TranslationKey } from "../i18n/i18n.tsx";

/** The words for each role of a project's team (docs/teams.md). */
export const ROLE_LABEL_KEYS = {
  owner: "team.role.owner",
  editor: "team.role.editor",
  author: "team.role.author",
  viewer: "team.role.viewer",
} as const satisfies Record<Role, TranslationKey>;
