import { TIMEZONES } from "../../../contract/limits.ts";

/** The UTC offset of a timezone at an instant, e.g. "GMT+3"; empty when unknown. */
export function offsetOf(timeZone: string, at: Date): string {
  try {
    const parts = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "shortOffset" }).formatToParts(at);
    return parts.find((part) => part.type === "timeZoneName")?.value ?? "";
  } catch {
    return "";
  }
}

/** The 24 timezone choices (spec §3) labelled with their current UTC offset. */
export function timezoneOptions(at = new Date()): { value: string; label: string }[] {
  return TIMEZONES.map((timeZone) => {
    if (timeZone === "UTC") return { value: timeZone, label: "UTC" };
    const offset = offsetOf(timeZone, at);
    const name = timeZone.replaceAll("_", " ");
    return { value: timeZone, label: offset ? `${name} (${offset})` : name };
  });
}
