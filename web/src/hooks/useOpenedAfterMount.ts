import { useEffect, useState } from "react";

/**
 * For a dialog whose code loads on first use and so mounts already meant to be open: it
 * renders closed once and opens on the next render, so its opening transition still plays.
 */
export function useOpenedAfterMount(opened: boolean): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return opened && mounted;
}
