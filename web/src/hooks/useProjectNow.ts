import { now, type ZonedDateTime } from "@internationalized/date";
import { useEffect, useState } from "react";
import { CALENDAR_TICK_MS } from "../lib/ui.ts";

/**
 * The current time in the project's timezone, refreshed every 60 seconds (spec §9), so
 * "today", past days and the header clock move on while the page stays open.
 */
export function useProjectNow(timeZone: string): ZonedDateTime {
  const [current, setCurrent] = useState(() => now(timeZone));
  useEffect(() => {
    setCurrent(now(timeZone));
    const timer = window.setInterval(() => setCurrent(now(timeZone)), CALENDAR_TICK_MS);
    return () => window.clearInterval(timer);
  }, [timeZone]);
  return current;
}
