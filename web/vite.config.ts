import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The SPA is built into web/dist, which the API serves. In development `npm run dev:web`
// proxies /api to the API on $PORT (default 8000).
export default defineConfig({
  root: new URL(".", import.meta.url).pathname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: {
    proxy: { "/api": `http://localhost:${process.env.PORT ?? 8000}` },
  },
});
