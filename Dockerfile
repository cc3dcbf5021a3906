# syntax=docker/dockerfile:1
# Clearway in one image: the web app (built with Node 20), the `clearway` binary (built with
# --locked) and a small Debian runtime. Build: docker build -t clearway .
# Run: see compose.yaml (PostgreSQL + Clearway + a mail catcher).

# --- the web app -------------------------------------------------------------------------
FROM node:20-bookworm-slim AS web
WORKDIR /src/webapp
COPY webapp/package.json webapp/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY webapp/ ./
# VITE_* variables are read at build time (see .env.sample); pass them as build args.
ARG VITE_CONTACT_SHANGHAI_NAME=""
ARG VITE_CONTACT_SHANGHAI_EMAIL=""
ARG VITE_CONTACT_ZHENGZHOU_NAME=""
ARG VITE_CONTACT_ZHENGZHOU_EMAIL=""
ENV VITE_CONTACT_SHANGHAI_NAME=$VITE_CONTACT_SHANGHAI_NAME \
    VITE_CONTACT_SHANGHAI_EMAIL=$VITE_CONTACT_SHANGHAI_EMAIL \
    VITE_CONTACT_ZHENGZHOU_NAME=$VITE_CONTACT_ZHENGZHOU_NAME \
    VITE_CONTACT_ZHENGZHOU_EMAIL=$VITE_CONTACT_ZHENGZHOU_EMAIL
RUN npm run build

# --- the server --------------------------------------------------------------------------
FROM rust:1-bookworm AS server
WORKDIR /src
COPY . .
# The built web app sits where the binary may embed it from (webapp/dist).
COPY --from=web /src/webapp/dist ./webapp/dist
# The commit /api/v1/health and /environment show (the context has no .git):
#   docker build --build-arg CLEARWAY_COMMIT=$(git rev-parse --short=12 HEAD) .
ARG CLEARWAY_COMMIT=unknown
RUN cargo build --release --locked --bin clearway \
 && cp target/release/clearway /usr/local/bin/clearway

# --- the runtime -------------------------------------------------------------------------
FROM debian:bookworm-slim
# Every program the server starts (command::sandbox::TOOLS; tests/api/image_tools.rs checks
# this list against it): poppler's pdftotext and pdfinfo, tesseract with its Chinese and
# English models; a CJK font and poppler's CJK data so Chinese PDFs read as they do elsewhere.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
    poppler-utils poppler-data fonts-wqy-zenhei \
    tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --create-home --home-dir /app --uid 10001 --user-group clearway
WORKDIR /app
COPY --from=server /usr/local/bin/clearway /usr/local/bin/clearway
COPY --from=web /src/webapp/dist /app/webapp/dist
COPY migrations /app/migrations
COPY seeds /app/seeds
COPY scripts/docker-entrypoint.sh /usr/local/bin/clearway-entrypoint
ENV CLEARWAY_ADDR=0.0.0.0:8080 \
    CLEARWAY_MODE=production \
    CLEARWAY_WEB_DIR=/app/webapp/dist \
    RUST_LOG=info
USER clearway
EXPOSE 8080
ENTRYPOINT ["clearway-entrypoint"]
CMD ["clearway", "serve"]
