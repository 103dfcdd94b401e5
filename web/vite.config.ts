import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const apiTarget = `http://localhost:${process.env.PORT ?? 8000}`;

// The SPA is built into web/dist, which the API serves. In development `npm run dev:web`
// proxies /api to the API on $PORT (default 8000).
export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  plugins: [react()],
  // CSS light-dark() needs browsers from 2024 on; older targets make the minifier rewrite it
  // into variables that only a color-scheme declaration defines, and Mantine sets the
  // scheme by attribute, so the rewritten colours were invalid in both themes.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, cssTarget: ["chrome123", "edge123", "firefox120", "safari17.5"] },
  server: {
    proxy: {
      "/api": {
        target: apiTarget,
        changeOrigin: true,
        // The API refuses mutations whose Origin is not its own; through this dev proxy the
        // page's origin is Vite's, so the proxy presents the API's origin instead.
        configure: (proxy) => {
          proxy.on("proxyReq", (proxyRequest) => {
            if (proxyRequest.getHeader("origin")) proxyRequest.setHeader("origin", apiTarget);
          });
        },
      },
    },
  },
});
