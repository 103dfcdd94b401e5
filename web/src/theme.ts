import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

// A calm ink-blue, a touch deeper than Telegram's own so it reads as ours.
const brand: MantineColorsTuple = [
  "#eef3ff",
  "#dce4f9",
  "#b6c6ef",
  "#8da6e5",
  "#6a8adc",
  "#5479d7",
  "#4770d5",
  "#385fbe",
  "#2f54ab",
  "#224898",
];

/*
 * Mantine's greys with shades 5 and 6 one step darker (WCAG AA, axe's color-contrast): shade 6
 * is the dimmed text, 5.4:1 on white and 4.9:1 on gray-1 (Mantine's #868e96 gave 3.3:1);
 * shade 5 draws icons, status dots and placeholders at 3.3:1 on white.
 */
const gray: MantineColorsTuple = [
  "#f8f9fa",
  "#f1f3f5",
  "#e9ecef",
  "#dee2e6",
  "#ced4da",
  "#868e96",
  "#646b72",
  "#495057",
  "#343a40",
  "#212529",
];

/*
 * The dark scheme in Telegram's night blue rather than Mantine's neutral greys. Mantine reads
 * 0 as text, 1 as dimmed text (7.9:1 on cards), 3 as placeholders, 4 as borders, 6 as
 * inputs, 7 as the body (cards, dialogs); our page background is 8.
 */
const dark: MantineColorsTuple = [
  "#d9dee5",
  "#b3bcc7",
  "#8e99a6",
  "#6b7683",
  "#3d4754",
  "#323c48",
  "#27313c",
  "#1e2731",
  "#18202a",
  "#111820",
];

/*
 * The app's own colour roles, one value per scheme, so CSS modules name a role and never a
 * shade that only suits the light scheme:
 *   --pressa-page         behind the cards (the shell, a calendar's outside days, agendas)
 *   --pressa-surface      cards, panels, dialogs (Mantine's body colour)
 *   --pressa-muted        quiet fills inside a surface (chips, tags, code, previews)
 *   --pressa-hairline     dividers between rows and cells
 *   --pressa-line         outlines of boxes and fields
 *   --pressa-text-strong  body text a shade softer than black
 *   --pressa-text-muted   secondary text, stronger than dimmed (both AA on every fill above)
 *   --pressa-accent-bg    a brand-tinted fill (today, the selected day, drop targets)
 *   --pressa-accent-line  its outline
 *   --pressa-accent-text  brand-coloured text, AA on the surface, page and accent fills
 *   --pressa-shadow       the colour of soft shadows
 */
/*
 * Text on the light variants (badges, status chips, alerts) is Mantine's shade 9, too pale in
 * some colours: green 3.8:1 on its badge, yellow 2.6:1. Darkened by these percentages (the
 * rest black) it reads at 4.5:1 or more on shades 0 to 2 of its colour.
 */
const LIGHT_VARIANT_TEXT: Record<string, number> = { green: 80, teal: 85, yellow: 70, orange: 80, red: 90 };
const lightVariantText = Object.fromEntries(
  Object.entries(LIGHT_VARIANT_TEXT).map(([color, percent]) => [
    `--mantine-color-${color}-light-color`,
    `color-mix(in srgb, var(--mantine-color-${color}-9) ${percent}%, black)`,
  ]),
);

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    // Error text and red buttons at 4.5:1 (Mantine's red-6 gives 3.3:1 on white and under white text).
    "--mantine-color-error": "var(--mantine-color-red-9)",
    "--mantine-color-red-filled": "var(--mantine-color-red-8)",
    "--mantine-color-red-filled-hover": "var(--mantine-color-red-9)",
    ...lightVariantText,
    "--pressa-page": "var(--mantine-color-gray-0)",
    "--pressa-surface": "var(--mantine-color-white)",
    "--pressa-muted": "var(--mantine-color-gray-1)",
    "--pressa-hairline": "var(--mantine-color-gray-2)",
    "--pressa-line": "var(--mantine-color-gray-3)",
    "--pressa-text-strong": "var(--mantine-color-gray-8)",
    "--pressa-text-muted": "var(--mantine-color-gray-7)",
    "--pressa-accent-bg": "var(--mantine-color-brand-0)",
    "--pressa-accent-line": "var(--mantine-color-brand-2)",
    "--pressa-accent-text": "var(--mantine-color-brand-7)",
    "--pressa-shadow": "rgb(30 50 100 / 0.1)",
  },
  dark: {
    "--mantine-color-dimmed": "var(--mantine-color-dark-1)",
    "--mantine-color-error": "var(--mantine-color-red-4)",
    "--mantine-color-red-filled": "var(--mantine-color-red-8)",
    "--mantine-color-red-filled-hover": "var(--mantine-color-red-9)",
    "--pressa-page": "var(--mantine-color-dark-8)",
    "--pressa-surface": "var(--mantine-color-dark-7)",
    "--pressa-muted": "var(--mantine-color-dark-6)",
    "--pressa-hairline": "var(--mantine-color-dark-5)",
    "--pressa-line": "var(--mantine-color-dark-4)",
    "--pressa-text-strong": "var(--mantine-color-dark-0)",
    "--pressa-text-muted": "var(--mantine-color-dark-1)",
    "--pressa-accent-bg": "color-mix(in srgb, var(--mantine-color-brand-6) 22%, var(--mantine-color-dark-7))",
    "--pressa-accent-line": "var(--mantine-color-brand-7)",
    "--pressa-accent-text": "var(--mantine-color-brand-3)",
    "--pressa-shadow": "rgb(0 0 0 / 0.35)",
  },
});

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: 6,
  colors: { brand, gray, dark },
  // Mantine's own transitions (dialogs, menus, tooltips) are skipped under prefers-reduced-motion.
  respectReducedMotion: true,
  defaultRadius: "md",
  cursorType: "pointer",
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontWeight: "650",
    sizes: {
      h1: { fontSize: "1.75rem", lineHeight: "1.25" },
      h2: { fontSize: "1.375rem", lineHeight: "1.3" },
      h3: { fontSize: "1.125rem", lineHeight: "1.35" },
      h4: { fontSize: "1rem", lineHeight: "1.4" },
    },
  },
  components: {
    Modal: {
      defaultProps: { radius: "lg", centered: true, overlayProps: { backgroundOpacity: 0.4, blur: 2 } },
      styles: { title: { fontWeight: 650, fontSize: "var(--mantine-font-size-lg)" } },
    },
    Card: { defaultProps: { radius: "lg", withBorder: true } },
    Paper: { defaultProps: { radius: "lg" } },
    // on keyboard focus too: a Tab user meets the same hints as a mouse user
    Tooltip: { defaultProps: { withArrow: true, events: { hover: true, focus: true, touch: false } } },
  },
});
