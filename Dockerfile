# Multi-stage build: compile in the Rust image, run as a non-root user in a slim image.
FROM rust:1-bookworm AS build
WORKDIR /src
# Dependencies first so that source edits do not rebuild them.
COPY Cargo.toml Cargo.lock ./
RUN mkdir -p src benches && echo 'fn main() {}' > src/main.rs && echo '' > src/lib.rs \
    && for b in ctg wicketz champions; do echo 'fn main() {}' > benches/$b.rs; done \
    && cargo build --release --locked || true
COPY . .
RUN touch src/main.rs src/lib.rs && cargo build --release --locked --bin crease

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /var/lib/crease crease
COPY --from=build /src/target/release/crease /usr/local/bin/crease
USER crease
WORKDIR /var/lib/crease
ENV DATABASE_URL=sqlite:///var/lib/crease/crease.db
EXPOSE 8080
ENTRYPOINT ["crease"]
CMD ["serve", "--bind", "0.0.0.0:8080"]
