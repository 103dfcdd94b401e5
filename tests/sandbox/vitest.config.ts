import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Runs only the Telegram double's own tests, without the repository's global setup
// (embedded PostgreSQL), which they do not need:
//   deno run -A node_modules/vitest/vitest.mjs run --config tests/sandbox/vitest.config.ts
export default defineConfig({
  test: {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["tests/sandbox/telegram_*.test.ts"],
    testTimeout: 10_000,
  },
});
