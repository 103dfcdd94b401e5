import type { PLATFORMS } from "../../../../contract/limits.ts";

export type Platform = (typeof PLATFORMS)[number];

/** Platform names are brand names: the same in every interface language. */
export const PLATFORM_NAMES: Record<Platform, string> = { telegram: "Telegram", vk: "VK", dzen: "Дзен" };

/** Small brand marks so a channel's platform reads at a glance. */
export function PlatformMark({ platform, size = 36 }: { platform: Platform; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ flex: "none" }}>
      {platform === "telegram" && (
        <>
          <circle cx="12" cy="12" r="12" fill="#2AABEE" />
          <path
            fill="#fff"
            d="M5.4 11.7 17.1 7.2c.54-.2 1.02.13.84.95l-2 9.4c-.15.66-.54.83-1.1.52l-3.03-2.24-1.46 1.41c-.16.16-.3.3-.62.3l.22-3.08 5.6-5.06c.25-.22-.05-.34-.38-.13l-6.92 4.36-2.98-.93c-.65-.2-.66-.65.13-.96z"
          />
        </>
      )}
      {platform === "vk" && (
        <>
          <rect width="24" height="24" rx="7" fill="#0077FF" />
          <path
            fill="#fff"
            d="M12.8 16.8c-4.6 0-7.2-3.15-7.3-8.4h2.3c.08 3.85 1.78 5.48 3.12 5.82V8.4h2.17v3.32c1.33-.14 2.72-1.66 3.2-3.32h2.16a6.4 6.4 0 0 1-2.95 4.18 6.6 6.6 0 0 1 3.43 4.22h-2.38c-.5-1.6-1.78-2.84-3.46-3v3h-.29z"
          />
        </>
      )}
      {platform === "dzen" && (
        <>
          <rect width="24" height="24" rx="7" fill="#111" />
          <path fill="#fff" d="M12 4.5c.1 4.3 3.2 7.4 7.5 7.5-4.3.1-7.4 3.2-7.5 7.5-.1-4.3-3.2-7.4-7.5-7.5 4.3-.1 7.4-3.2 7.5-7.5z" />
        </>
      )}
    </svg>
  );
}
