# Pressa in one image. By default it runs everything (`npm start`: embedded PostgreSQL
# unless DATABASE_URL is set, the API, the worker, the bot when TELEGRAM_BOT_TOKEN is set).
# With an external PostgreSQL, run one process per container from the same image:
#   docker run … pressa node_modules/.bin/deno task api|worker|bot
# (run `node_modules/.bin/deno task migrate` once per release before them).

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-bookworm-slim
WORKDIR /app
ENV PORT=8000 DATA_DIR=/data
COPY --from=build /app /app
RUN mkdir -p /data
VOLUME /data
EXPOSE 8000
CMD ["node_modules/.bin/deno", "run", "-A", "scripts/start.ts"]
