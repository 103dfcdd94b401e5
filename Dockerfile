# Pressa in one image, every role: the command is `npm start` (scripts/start.ts) and
# PRESSA_PROCESSES chooses what this container runs (api, worker, bot; default all three).
#   - Alone: embedded PostgreSQL under /data unless DATABASE_URL is set, then the API, the
#     worker, and the bot when TELEGRAM_BOT_TOKEN is set.
#   - Several on one PostgreSQL (compose.yaml): `deno task migrate` once per release as the
#     owner (DATABASE_OWNER_URL), then containers with DATABASE_URL as pressa_app and e.g.
#     PRESSA_PROCESSES=api,worker; such a container migrates nothing and never gets the
#     owner's password. With TELEGRAM_WEBHOOK_SECRET every API handles the bot's updates;
#     without it run exactly one container with `bot` (Telegram allows one poller).
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
# The processes run as `pressa`, who owns nothing of the program (root's files, read-only to
# it) and only /data; the embedded PostgreSQL runs as that user too.
RUN useradd --system --create-home --uid 10001 --user-group pressa \
  && mkdir -p /data && chown pressa:pressa /data
COPY --from=build /app /app
USER pressa
# Deno's compiled modules in pressa's cache, so a container starts without compiling
RUN deno cache scripts/start.ts main/api.ts main/worker.ts main/bot.ts sql/migrate.ts
VOLUME /data
EXPOSE 8000
# GET /api/health: 200 while the API answers and reaches the database. A container without
# the api role (PRESSA_PROCESSES=worker or bot) serves nothing to ask: compose disables it there.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["deno", "run", "-A", "scripts/start.ts"]
