/** Where Debian's Chromium lives, for `npm test` (which installs it) and the browser tests. */

/** Debian's Chromium, the browser people use. */
export const CHROMIUM = "/usr/bin/chromium";
/**
 * Debian's headless build of the same Chromium (package chromium-headless-shell, built from
 * one source with /usr/bin/chromium): the same Blink and V8 without the desktop browser's
 * shell. The browser tests drive it: on this 2-core machine they are bound by Chromium's CPU,
 * and this build spent 28 % less of it on the same file (schedule: 85 → 61 CPU-seconds).
 */
export const CHROMIUM_HEADLESS = "/usr/lib/chromium/chromium-headless-shell";
