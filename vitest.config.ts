import { defineConfig } from "vitest/config";

// Runs under Deno (`npm test` → scripts/test.ts), so server code and tests share a runtime.
export default defineConfig({
  test: {
    // .test.tsx: component tests, each in a DOM emulation it names (// @vitest-environment happy-dom)
    include: ["tests/**/*.test.ts", "tests/**/*.test.tsx"],
    globalSetup: ["tests/global_setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
  },
});
