# syntax=docker/dockerfile:1
# baton's image: Node 24 runs the TypeScript sources directly, so there is no build step beyond the
# dependencies. Not built in CI (no Docker daemon there); test/unit/deploy/deploy-files.test.ts checks
# what can be checked without one. Build: `docker build -t baton .` (or `docker compose build`).

# Build stage: production dependencies only (the `node` dev dependency is not needed: the base is Node 24).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# Runtime stage.
FROM node:24-slim
# bubblewrap sandboxes the agents' shell commands; ca-certificates for the model and chat platform APIs.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap ca-certificates \
    && rm -rf /var/lib/apt/lists/*
# The code belongs to root and is read-only for baton; only the data volume is writable.
RUN groupadd --system --gid 10001 baton \
    && useradd --system --uid 10001 --gid baton --home-dir /var/lib/baton --no-create-home baton \
    && mkdir -p /etc/baton /var/lib/baton \
    && chown baton:baton /var/lib/baton
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY channels ./channels
# A config with no secrets in it: tokens are `${ENV_VAR}` references, given at run time.
COPY config/docker.toml /etc/baton/baton.toml
ENV NODE_ENV=production
USER baton
VOLUME ["/etc/baton", "/var/lib/baton"]
EXPOSE 8080
# /healthz of the operations API (`start` and `gateway`; a `worker` serves no HTTP: compose disables this
# check for it). No curl in the slim image: Node's fetch. BATON_HEALTH_PORT follows [gateway] port.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.BATON_HEALTH_PORT ?? 8080}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form: node is the container's main process and receives SIGTERM itself (run with `--init` or
# compose's `init: true` so a minimal init reaps children, such as sandboxed shell commands).
ENTRYPOINT ["node", "src/cli.ts"]
CMD ["start", "--config", "/etc/baton/baton.toml"]
