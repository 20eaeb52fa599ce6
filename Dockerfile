# cloudsvc: one image for the api, worker, migrate and console gateway services (docker-compose.yml).
# glibc base: the Temporal SDK's native bridge ships glibc builds only.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY api api
COPY activities activities
COPY agent agent
COPY bench bench
COPY cli cli
COPY clients clients
COPY console-gateway console-gateway
COPY db db
COPY domain domain
COPY http http
COPY platform platform
COPY scripts scripts
COPY server server
COPY services services
COPY web web
COPY wire wire
COPY worker worker
COPY workflows workflows
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY bin bin
# The console gateway's credential volume (docker-compose.yml): a fresh named volume takes this
# folder's owner and mode, so the set-up service, running as node, can write there.
RUN install -d -o node -g node -m 700 /var/lib/cloudsvc/console-gateway
USER node
EXPOSE 8080
# The worker bundles workflows from dist/workflows at start; the api listens on PORT.
CMD ["node", "dist/server/main.js"]
