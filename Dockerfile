# syntax=docker/dockerfile:1
# Chapterwise: one image for web instances and workers (docs: README "Deployment").
#   docker build -t chapterwise .
#   docker run -e DATABASE_URL=… -e JWT_SECRET=… -p 3000:3000 chapterwise            # web
#   docker run -e DATABASE_URL=… -e JWT_SECRET=… chapterwise node apps/server/dist/server.js --worker

# --- build: install everything, build the three workspaces, then drop dev dependencies.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/server apps/server
COPY apps/web apps/web
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- run: the built files, production dependencies, no compilers, not root.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/packages/shared/package.json packages/shared/
COPY --from=build /app/packages/shared/dist packages/shared/dist
COPY --from=build /app/apps/web/package.json apps/web/
COPY --from=build /app/apps/web/build apps/web/build
COPY --from=build /app/apps/server/package.json apps/server/
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/server/src/db/migrations apps/server/src/db/migrations
COPY --from=build /app/apps/server/seed-data apps/server/seed-data
COPY --from=build /app/apps/server/assets apps/server/assets
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# /readyz: 503 while the database does not answer or the process is shutting down.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/dist/server.js"]
