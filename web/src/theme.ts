import { createTheme, type MantineColorsTuple } from "@mantine/core";

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

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: 6,
  colors: { brand },
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
    Tooltip: { defaultProps: { withArrow: true } },
  },
});
