#!/usr/bin/env bash
# Property-based fuzz run over the server's own OpenAPI document (schemathesis, from PyPI).
#
#   scripts/fuzz.sh             every role and no token, the bounded run scripts/test.sh uses
#   FUZZ_EXAMPLES=200 scripts/fuzz.sh     a longer run
#
# It builds nothing: target/debug/clearway must exist (scripts/test.sh builds it first). It
# recreates the database clearway_fuzz, migrates and seeds it, serves on 127.0.0.1:18090
# (CLEARWAY_FUZZ_PORT) in development mode, and runs schemathesis once without a token and
# once per demo role (customer, operator, admin, super admin; tests/fuzz/hooks.py signs in
# through the development-only test login). Each run checks every answer: no 5xx, status,
# content type, headers and body as the document says, and the envelope
# {code, message, ...} for every JSON answer. After the runs the server log must hold no
# panic. schemathesis is installed into .clearway/venv (pinned below) when missing.
# Exit status 0 only when every run passed. Reports: .clearway/test-logs/fuzz-*.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLEARWAY_ROOT="$(pwd)"
export CLEARWAY_ROOT
# shellcheck source=scripts/lib/common.sh
. scripts/lib/common.sh
# shellcheck source=scripts/lib/postgres.sh
. scripts/lib/postgres.sh

SCHEMATHESIS_VERSION=4.32.5
PORT="${CLEARWAY_FUZZ_PORT:-18090}"
URL="http://127.0.0.1:$PORT"
EXAMPLES="${FUZZ_EXAMPLES:-10}"
LOGDIR="$CLEARWAY_ROOT/.clearway/test-logs"
VENV="$CLEARWAY_ROOT/.clearway/venv"
BIN="${CARGO_TARGET_DIR:-$CLEARWAY_ROOT/target}/debug/clearway"
SERVER_LOG="$LOGDIR/fuzz-server.out"
mkdir -p "$LOGDIR"

[ -x "$BIN" ] || die "no $BIN (cargo build --bin clearway first)"

ensure_schemathesis() {
	if [ -x "$VENV/bin/schemathesis" ] &&
		[ "$("$VENV/bin/schemathesis" --version 2>/dev/null | awk '{print $NF}')" = "$SCHEMATHESIS_VERSION" ]; then
		return 0
	fi
	need_tool python3 "install Python 3 (with venv)"
	if ! python3 -m venv "$VENV" 2>/dev/null; then
		say "python3 -m venv failed; installing Debian's python3-venv"
		apt-get install -y -q python3-venv >/dev/null
		python3 -m venv "$VENV"
	fi
	"$VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
}

SERVER_PID=
stop() {
	[ -n "$SERVER_PID" ] || return 0
	kill -TERM "$SERVER_PID" 2>/dev/null || true
	for _ in $(seq 1 40); do
		kill -0 "$SERVER_PID" 2>/dev/null || return 0
		sleep 0.25
	done
	kill -KILL "$SERVER_PID" 2>/dev/null || true
}
trap stop EXIT

start_server() {
	if port_open 127.0.0.1 "$PORT"; then
		die "something already listens on 127.0.0.1:$PORT (set CLEARWAY_FUZZ_PORT)"
	fi
	ensure_database test >/dev/null
	pg_recreate_database "${CLEARWAY_FUZZ_DB:-clearway_fuzz}"
	export DATABASE_URL
	DATABASE_URL="$(pg_database_url "${CLEARWAY_FUZZ_DB:-clearway_fuzz}")"
	# A small pool (one fuzzer at a time): the API tests run beside it on the same server.
	export CLEARWAY_MODE=development CLEARWAY_ADDR="127.0.0.1:$PORT" RUST_LOG="${RUST_LOG:-warn}" \
		CLEARWAY_DB_MAX_CONNECTIONS=8
	unset CLEARWAY_JWT_SECRET CLEARWAY_WEB_DIR CLEARWAY_OIDC_ISSUER CLEARWAY_SMTP_URL
	timeout 300 "$BIN" migrate >/dev/null
	timeout 300 "$BIN" seed >/dev/null
	"$BIN" serve </dev/null >"$SERVER_LOG" 2>&1 &
	SERVER_PID=$!
	for _ in $(seq 1 120); do
		http_ok "$URL/api/v1/health" && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || {
			tail -n 40 "$SERVER_LOG"
			die "clearway serve exited early"
		}
		sleep 0.5
	done
	die "$URL/api/v1/health did not answer within 60 s"
}

ensure_schemathesis
start_server
say "fuzzing $URL/api/openapi.json: $EXAMPLES examples per operation and phase, schemathesis $SCHEMATHESIS_VERSION"

# One schemathesis run per role, all at once (each with one worker; they spend most of their
# time in Python, so together they keep both cores of a small machine busy).
fuzz_as() {
	local user="$1" name="${1:-anonymous}"
	FUZZ_BASE_URL="$URL" FUZZ_USER="$user" PYTHONPATH="$CLEARWAY_ROOT/tests/fuzz" \
		SCHEMATHESIS_HOOKS=hooks timeout -k 10 1100 "$VENV/bin/schemathesis" run "$URL/api/openapi.json" \
		--checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,envelope \
		--phases examples,coverage,fuzzing --max-examples "$EXAMPLES" --seed 20261124 \
		--workers 1 --request-timeout 30 --no-color --output-truncate true \
		--report junit --report-junit-path "$LOGDIR/fuzz-$name.xml" \
		>"$LOGDIR/fuzz-$name.log" 2>&1
}

ROLES=("" acme operator admin superadmin)
PIDS=()
for user in "${ROLES[@]}"; do
	fuzz_as "$user" &
	PIDS+=($!)
done
FAILED=()
for i in "${!ROLES[@]}"; do
	name="${ROLES[$i]:-anonymous}"
	if wait "${PIDS[$i]}"; then
		echo "fuzz as $name: $(grep -E '(passed|failures?|warnings?) in ' "$LOGDIR/fuzz-$name.log" | tail -n 1 | tr -d '=')"
	else
		FAILED+=("$name")
		echo "fuzz as $name FAILED; the end of its log:"
		tail -n 80 "$LOGDIR/fuzz-$name.log"
	fi
done

if grep -n "panicked" "$SERVER_LOG"; then
	FAILED+=("panic in the server log")
fi
if [ ${#FAILED[@]} -gt 0 ]; then
	echo "fuzz: FAILED: ${FAILED[*]} (logs: $LOGDIR/fuzz-*.log, server log $SERVER_LOG)"
	exit 1
fi
echo "fuzz: no failures as anonymous, acme, operator, admin, superadmin"
