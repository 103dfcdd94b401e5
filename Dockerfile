# Pressa in one image. By default it runs everything (`npm start`: embedded PostgreSQL
# unless DATABASE_URL is set, the API, the worker, the bot when TELEGRAM_BOT_TOKEN is set).
# With an external PostgreSQL run one process per container from the same image
# (compose.yaml does): `deno task migrate` once per release, then `deno task api`,
# `deno task worker` (several are fine) and `deno task bot` (exactly one).
# When anyone but you can reach the container, set PUBLIC_URL to the https:// address users
# open, and SMTP_URL. With a public PUBLIC_URL and no SMTP_URL the processes refuse to start;
# left at its default (http://localhost:8000) sign-in codes are written to the log.
# Put a reverse proxy in front of the API and publish port 8000 to it alone (compose.yaml
# does, with Caddy); set TRUST_PROXY to the proxy's addresses (CIDRs) so the per-IP limits
# count clients, not the proxy, and nobody else can choose their IP with X-Forwarded-For.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# .dockerignore keeps the host's node_modules, .data (a local database) and web/dist out.
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV PORT=8000 DATA_DIR=/data PATH=/app/node_modules/.bin:$PATH
COPY --from=build /app /app
RUN mkdir -p /data
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["deno", "run", "-A", "scripts/start.ts"]
