# Multi-stage build: compile in the Rust image, run as a non-root user in a slim image.
FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first, so that source edits do not rebuild them: the manifest with a stub for
# every target it declares (each [[bench]] is named there; a missing one fails the build).
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src benches && echo 'fn main() {}' > src/main.rs && echo '' > src/lib.rs \
    && for bench in $(grep -A1 '^\[\[bench\]\]' Cargo.toml | sed -n 's/^name = "\(.*\)"/\1/p'); do \
         echo 'fn main() {}' > "benches/$bench.rs"; done \
    && cargo build --release --locked --bin crease
COPY . .
# The release profile keeps line tables for profilers; the image needs none of them.
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin crease \
    && strip target/release/crease

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /var/lib/crease crease
COPY --from=build /src/target/release/crease /usr/local/bin/crease
USER crease
WORKDIR /var/lib/crease
# The embedded database lives here: keep it on a volume, or it goes with the container.
VOLUME /var/lib/crease
ENV DATABASE_URL=sqlite:///var/lib/crease/crease.db
EXPOSE 8080
# dash has no /dev/tcp and the image no curl: the server's own binary asks it.
HEALTHCHECK --interval=10s --timeout=4s --start-period=10s --retries=5 \
    CMD ["crease", "health", "--url", "http://127.0.0.1:8080/readyz"]
ENTRYPOINT ["crease"]
CMD ["serve", "--bind", "0.0.0.0:8080"]
