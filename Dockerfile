# The gateway with the built admin, for deployment (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Applied by `npm ci` (its postinstall): the dependency patches of patches/ (docs/operations.md says why each).
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=8000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The IBGE municipality list orders are mapped with (data/README.md).
COPY --from=build /app/data ./data
# Hiper's answers wait here for a database that could not take them (ORDERS_ANSWERS_DIR): the node user writes it.
RUN mkdir -p /app/.data/hiper-answers && chown -R node /app/.data
USER node
EXPOSE 8000
# The same heap bounds as `npm start` (docs/operations.md says what they cost and save).
CMD ["node", "--max-old-space-size=96", "--max-semi-space-size=8", "dist/gateway/main.js"]
