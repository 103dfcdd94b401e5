import { localStorageColorSchemeManager } from "@mantine/core";

/**
 * The theme choice (system / light / dark) lives in this browser, like the language.
 * web/public/color-scheme.js reads the same key before the app loads, so the first paint
 * already has the right scheme; keep the two in step.
 */
export const COLOR_SCHEME_STORAGE_KEY = "pressa.color-scheme";

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
