#!/usr/bin/env bash
# The benchmark command (outside .ci/run: it takes long and loads the machine).
#
#   scripts/bench.sh [ARGS...]
#
# Finds or starts PostgreSQL like scripts/run.sh (see scripts/lib/postgres.sh), uses the
# database `clearway_bench` (DATABASE_URL points at it), builds the server binary in release
# mode (the `mixed` benchmark starts it as scripts/run.sh does) and runs the benchmark binary
# in release mode with ARGS:
#   cargo build --release --locked -p clearway --bin clearway
#   cargo run --release --locked -p clearway-bench -- ARGS
# It prints the figures that docs/benchmarks.md records. `scripts/bench.sh --help` passes
# --help to the binary. Subcommands: all (about 12 minutes on 2 cores), commands, peer,
# rebuild, list, export, verify, mixed, upload, clean; `hs` (the HS code suggestions'
# accuracy and latency); `customs` (the customs channel's messages, receipts and latency,
# release, CUSTOMS_BENCH_N declarations, default 10,000); and `extract` (the document
# extractor's and the HS suggestions' accuracy, tests run in debug mode). Each benchmark
# drops and creates its own database clearway_bench_<name> on that server and leaves it
# behind for inspection
# (`scripts/bench.sh clean` drops them).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLEARWAY_ROOT="$(pwd)"
export CLEARWAY_ROOT
# shellcheck source=scripts/lib/common.sh
. scripts/lib/common.sh
# shellcheck source=scripts/lib/postgres.sh
. scripts/lib/postgres.sh

need_tool cargo "install Rust (rustup)"
# `extract`: the document extractor's accuracy on generated invoices, then the HS code
# suggestions' top-1/top-5 over seeds/hs-labelled.csv (a fresh database per run on the
# server DATABASE_URL names) (docs/ai-create.md).
if [ "${1:-}" = extract ]; then
	ensure_document_tools
	cargo test --locked -p command --lib ai_draft::tests::bench_extract -- --ignored --nocapture
	ensure_database clearway_bench
	exec cargo test --locked --test api hs_suggestions::bench_hs_labelled -- --ignored --nocapture
fi
# `hs`: the HS code suggestions alone: the tariff index in process (release; dev split, then
# HS_BENCH_SPLIT=held-out for the held-out part), then through the endpoint (debug) over
# seeds/hs-labelled.csv and seeds/hs-goods-bench.csv (docs/ai-create.md).
if [ "${1:-}" = hs ]; then
	HS_BENCH_SPLIT="${HS_BENCH_SPLIT:-dev}" cargo test --locked --release -p textsearch --lib hs::bench -- --ignored --nocapture
	ensure_database clearway_bench
	exec cargo test --locked --test api hs_suggestions::bench_hs_labelled -- --ignored --nocapture
fi
# `customs`: the customs channel in release mode (docs/benchmarks.md, "Customs channel"):
# N declared declarations' messages written, N receipt files ingested beside the raw parse
# + append of the same run, and file-to-list latency at a steady 100 receipts/s, on a fresh
# database per run on the server DATABASE_URL names.
if [ "${1:-}" = customs ]; then
	ensure_database clearway_bench
	exec cargo test --locked --release --test api customs_bench::bench_customs -- --ignored --nocapture
fi
ensure_database clearway_bench
export RUST_LOG="${RUST_LOG:-warn,sqlx::query=error}"
say "cargo build --release --locked -p clearway --bin clearway"
cargo build --release --locked -p clearway --bin clearway
say "cargo run --release --locked -p clearway-bench -- $*"
exec cargo run --release --locked -p clearway-bench -- "$@"
