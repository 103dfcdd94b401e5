import { useMediaQuery } from "@mantine/hooks";

/** Phone-sized screens (below Mantine's xs breakpoint), where long dialogs take the whole screen. */
export function useIsPhone(): boolean {
  return useMediaQuery("(max-width: 36em)") ?? false;
}
