import rosetta from "rosetta";
import type { TFunction } from "../../web/src/i18n/i18n.tsx";

/** The interface's lookup (web/src/i18n/i18n.tsx) over one dictionary: a missing key shows the key. */
export function translator(dictionary: Record<string, string>): TFunction {
  const i18n = rosetta<Record<string, string>>({ dictionary });
  return (key, params) => i18n.t([key], params, "dictionary") || key;
}
