#!/usr/bin/env bash
# Runs all of Clearway's tests: the one test command of the README; .ci/run calls it.
#
#   scripts/test.sh              everything (what CI runs)
#   scripts/test.sh web rust     only some groups: web, rust, e2e, fuzz
#
# setup  a database server (DATABASE_URL, else 127.0.0.1:5432, else the private cluster
#        of scripts/lib/postgres.sh) with database `test`; DATABASE_URL points at it and
#        #[sqlx::test] makes a fresh database per test from it. Debian's chromium when
#        /usr/bin/chromium is missing (for e2e), Debian's libxml2-utils when xmllint
#        is missing (for rust).
# web    in webapp/: npm ci, typecheck, lint, build (-> webapp/dist); test (vitest) runs in
#        the background beside the rust tests.
# rust   cargo fmt --check, clippy -D warnings, cargo test --workspace --no-run (compile),
#        cargo build; then, once fuzz, e2e and vitest are going in the background (they
#        mostly wait on servers and browsers), cargo test --workspace --no-fail-fast (every
#        test binary runs even when one fails).
# e2e    (in the background) when e2e/package.json exists: target/debug/clearway against a fresh database
#        clearway_e2e (CLEARWAY_E2E_DB; migrate, seed, serve on 127.0.0.1:18080 with webapp/dist, staff
#        single sign-on against tests/oidc's provider on a free loopback port, notices
#        mailed to maildev of tests/mail on free loopback ports, the customs channel on the
#        fresh folder .clearway/e2e-customs), then npm ci && npm test in
#        e2e/ with CLEARWAY_URL=http://127.0.0.1:18080 and MAILDEV_URL (maildev's web API).
# fuzz   scripts/fuzz.sh: schemathesis (PyPI, into .clearway/venv) over /api/openapi.json of
#        target/debug/clearway on its own database clearway_fuzz (CLEARWAY_FUZZ_DB), without a token and as each
#        demo role: no 5xx, no panic, every answer as documented and in the envelope.
#
# Every step runs even when an earlier one failed (unless it needs what failed), so one run
# shows all failures; CLEARWAY_TEST_FAIL_FAST=1 stops at the first. The exit status is 0
# only when every step passed. Step logs: .clearway/test-logs/. The last line counts the
# tests of cargo test, vitest and node --test: "tests: N passed, N failed, N skipped".
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLEARWAY_ROOT="$(pwd)"
export CLEARWAY_ROOT
# shellcheck source=scripts/lib/common.sh
. scripts/lib/common.sh
# shellcheck source=scripts/lib/postgres.sh
. scripts/lib/postgres.sh

DO_WEB=0 DO_RUST=0 DO_E2E=0 DO_FUZZ=0
if [ $# -eq 0 ]; then
	DO_WEB=1 DO_RUST=1 DO_E2E=1 DO_FUZZ=1
fi
for arg in "$@"; do
	case "$arg" in
	web) DO_WEB=1 ;;
	rust) DO_RUST=1 ;;
	e2e) DO_E2E=1 ;;
	fuzz) DO_FUZZ=1 ;;
	-h | --help)
		sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	*) die "unknown group '$arg' (groups: web rust e2e fuzz)" ;;
	esac
done

E2E_PORT="${CLEARWAY_E2E_PORT:-18080}"
E2E_DB="${CLEARWAY_E2E_DB:-clearway_e2e}"
E2E_URL="http://127.0.0.1:$E2E_PORT"
LOGDIR="$CLEARWAY_ROOT/.clearway/test-logs"
mkdir -p "$LOGDIR"
rm -f "$LOGDIR"/*.log

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-$([ "${CI:-}" = true ] && echo never || echo auto)}"
if [ "${CI:-}" = true ]; then
	export CARGO_INCREMENTAL=0 # a fresh clone gains nothing from incremental data
	export NO_COLOR=1 FORCE_COLOR=0 npm_config_update_notifier=false
fi

T0=$SECONDS
SUMMARY=()  # "status|duration|name"
FAILED=()   # names of failed steps
N_PASSED=0 N_FAILED=0 N_SKIPPED=0

# Adds the test counts that a step's log reports (cargo test, vitest, node --test).
count_tests() {
	local log="$1" p f s
	read -r p f s < <(
		sed -E 's/\x1b\[[0-9;]*[A-Za-z]//g' "$log" | awk '
			/^test result: / {
				for (i = 1; i <= NF; i++) {
					w = $(i + 1); gsub(/[;,.]/, "", w)
					if (w == "passed") p += $i; else if (w == "failed") f += $i; else if (w == "ignored") s += $i
				}
				next
			}
			/^[ \t]*Summary \[.*tests? run:/ {
				for (i = 1; i <= NF; i++) {
					w = $(i + 1); gsub(/[;,.]/, "", w)
					if (w == "passed") p += $i; else if (w == "failed") f += $i; else if (w == "skipped") s += $i
				}
				next
			}
			/^[ \t]*Tests[ \t]+[0-9]/ {
				for (i = 2; i <= NF; i++) {
					w = $(i + 1)
					if (w == "passed") p += $i; else if (w == "failed") f += $i
					else if (w == "skipped" || w == "todo") s += $i
				}
				next
			}
			/^(# |ℹ )(pass|fail|cancelled|skipped|todo) [0-9]+$/ {
				if ($2 == "pass") p += $3; else if ($2 == "fail" || $2 == "cancelled") f += $3; else s += $3
			}
			END { printf "%d %d %d\n", p, f, s }'
	)
	N_PASSED=$((N_PASSED + p))
	N_FAILED=$((N_FAILED + f))
	N_SKIPPED=$((N_SKIPPED + s))
}

record() { SUMMARY+=("$1|$2|$3"); }

# run_step NAME TIMEOUT_SECONDS COMMAND...
# TIMEOUT 0 means none; a shell function runs without one (it times its own commands).
run_step() {
	local name="$1" limit="$2" log start status
	shift 2
	log="$LOGDIR/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_-' '_').log"
	printf '\n==> [%s] %s\n' "$name" "$*" >&2
	start=$SECONDS
	set +e
	if [ "$(type -t "$1")" = function ]; then
		limit=0
	fi
	if [ "$limit" -gt 0 ]; then
		(timeout -k 30 "$limit" "$@") 2>&1 | tee "$log"
	else
		(
			set -e
			"$@"
		) 2>&1 | tee "$log"
	fi
	status=${PIPESTATUS[0]}
	set -e
	count_tests "$log"
	local took
	took="$(fmt_duration $((SECONDS - start)))"
	if [ "$status" -eq 0 ]; then
		printf '==> [%s] ok in %s\n' "$name" "$took" >&2
		record ok "$took" "$name"
		return 0
	fi
	if [ "$status" -eq 124 ] && [ "$limit" -gt 0 ]; then
		printf '==> [%s] FAILED: timed out after %ss (log: %s)\n' "$name" "$limit" "$log" >&2
	else
		printf '==> [%s] FAILED (exit %s) in %s (log: %s)\n' "$name" "$status" "$took" "$log" >&2
	fi
	record FAILED "$took" "$name"
	FAILED+=("$name")
	if [ "${CLEARWAY_TEST_FAIL_FAST:-0}" = 1 ]; then
		finish
	fi
	return 1
}

# run_step_bg NAME TIMEOUT COMMAND...: run_step in the background (its output only in its
# log); collect_bg waits for every such step and records it as run_step would have. For the
# suites that mostly wait on a server (e2e, fuzz), so they overlap.
BG_STEPS=()
run_step_bg() {
	local result
	result="$LOGDIR/bg-$(printf '%s' "$1" | tr -c 'A-Za-z0-9_-' '_').result"
	printf '\n==> [%s] started in the background (log: %s)\n' "$1" \
		"$LOGDIR/$(printf '%s' "$1" | tr -c 'A-Za-z0-9_-' '_').log" >&2
	(
		SUMMARY=() FAILED=() N_PASSED=0 N_FAILED=0 N_SKIPPED=0 CLEARWAY_TEST_FAIL_FAST=0
		trap - EXIT
		run_step "$@" >/dev/null 2>&1 || true
		{
			printf 'COUNTS %s %s %s\n' "$N_PASSED" "$N_FAILED" "$N_SKIPPED"
			for line in "${SUMMARY[@]}"; do printf 'SUMMARY %s\n' "$line"; done
			for line in "${FAILED[@]}"; do printf 'FAILED %s\n' "$line"; done
		} >"$result"
	) &
	BG_STEPS+=("$!|$result|$1")
}

collect_bg() {
	local entry pid result name kind rest p f s log
	for entry in "${BG_STEPS[@]}"; do
		IFS='|' read -r pid result name <<<"$entry"
		wait "$pid" || true
		log="$LOGDIR/$(printf '%s' "$name" | tr -c 'A-Za-z0-9_-' '_').log"
		if [ ! -f "$result" ]; then
			printf '==> [%s] FAILED: the background step left no result (log: %s)\n' "$name" "$log" >&2
			record FAILED "?" "$name"
			FAILED+=("$name")
			continue
		fi
		while read -r kind rest; do
			case "$kind" in
			COUNTS)
				read -r p f s <<<"$rest"
				N_PASSED=$((N_PASSED + p)) N_FAILED=$((N_FAILED + f)) N_SKIPPED=$((N_SKIPPED + s))
				;;
			SUMMARY) SUMMARY+=("$rest") ;;
			FAILED)
				FAILED+=("$rest")
				printf '==> [%s] FAILED; the end of its log (%s):\n' "$rest" "$log" >&2
				tail -n 60 "$log" >&2 || true
				;;
			esac
		done <"$result"
		grep -q "^FAILED " "$result" || printf '==> [%s] ok (log: %s)\n' "$name" "$log" >&2
	done
	BG_STEPS=()
}

# A step that could not run because a step it needs failed: counts as a failure.
not_run() {
	printf '\n==> [%s] NOT RUN: %s\n' "$1" "$2" >&2
	record "NOT RUN" "-" "$1 ($2)"
	FAILED+=("$1")
}

# A group whose folder does not exist yet: not a failure.
skipped() {
	printf '\n==> [%s] skipped: %s\n' "$1" "$2" >&2
	record skipped "-" "$1 ($2)"
}

finish() {
	local line status took name
	{
		echo
		echo "==================== test summary ===================="
		for line in "${SUMMARY[@]}"; do
			IFS='|' read -r status took name <<<"$line"
			printf '  %-8s %7s  %s\n' "$status" "$took" "$name"
		done
		echo "  total time $(fmt_duration $((SECONDS - T0)))"
		if [ ${#FAILED[@]} -gt 0 ]; then
			printf '  FAILED steps: %s\n' "$(printf '%s; ' "${FAILED[@]}" | sed 's/; $//')"
		fi
	}
	echo "tests: $N_PASSED passed, $N_FAILED failed, $N_SKIPPED skipped"
	if [ ${#FAILED[@]} -gt 0 ]; then
		exit 1
	fi
	exit 0
}

# --- the e2e server ------------------------------------------------------------------

SERVER_PIDFILE="$LOGDIR/e2e-server.pid"
SERVER_LOG="$LOGDIR/e2e-server.out"
# The OpenID Connect provider of tests/oidc that the e2e server's staff single sign-on uses.
OIDC_PIDFILE="$LOGDIR/e2e-oidc.pid"
OIDC_LOG="$LOGDIR/e2e-oidc.out"
# The SMTP server (maildev, tests/mail) the e2e server mails notices to; its web API's URL
# is written to MAILDEV_URL_FILE for the browser tests (MAILDEV_URL).
MAILDEV_PIDFILE="$LOGDIR/e2e-maildev.pid"
MAILDEV_LOG="$LOGDIR/e2e-maildev.out"
MAILDEV_URL_FILE="$LOGDIR/e2e-maildev.url"

# stop_pidfile FILE: TERM the process it names, KILL it after 10 s.
stop_pidfile() {
	local file="$1" pid i
	[ -f "$file" ] || return 0
	pid="$(cat "$file")"
	rm -f "$file"
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for i in $(seq 1 40); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.25
	done
	kill -KILL "$pid" 2>/dev/null || true
}

stop_server() {
	stop_pidfile "$SERVER_PIDFILE"
	stop_pidfile "$OIDC_PIDFILE"
	stop_pidfile "$MAILDEV_PIDFILE"
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts tests/oidc/provider.mjs on a free loopback port, with the e2e web app's redirect
# URIs registered, and sets OIDC_ISSUER to its URL.
start_e2e_oidc() {
	local pid i
	[ -d tests/oidc/node_modules/oidc-provider ] || {
		echo "tests/oidc/node_modules is missing (npm ci in tests/oidc)"
		return 1
	}
	node tests/oidc/provider.mjs 0 \
		--redirect-uris="$E2E_URL/auth-redirect,$E2E_URL/azure-redirect" </dev/null >"$OIDC_LOG" 2>&1 &
	pid=$!
	echo "$pid" >"$OIDC_PIDFILE"
	for i in $(seq 1 60); do
		OIDC_ISSUER="$(sed -n 's/^listening \(http[^ ]*\)$/\1/p' "$OIDC_LOG" | head -n 1)"
		if [ -n "$OIDC_ISSUER" ]; then
			echo "oidc provider: pid $pid, $OIDC_ISSUER, log $OIDC_LOG"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "the oidc provider exited early; its log:"
			tail -n 30 "$OIDC_LOG"
			return 1
		fi
		sleep 0.5
	done
	echo "the oidc provider did not say where it listens within 30s; its log:"
	tail -n 30 "$OIDC_LOG"
	return 1
}

# A free TCP port on 127.0.0.1 (the kernel's choice).
free_port() {
	node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

# Starts maildev (tests/mail) on two free loopback ports; sets MAIL_SMTP_PORT and writes its
# web API's URL to MAILDEV_URL_FILE.
start_e2e_maildev() {
	local bin=tests/mail/node_modules/.bin/maildev web pid i
	[ -x "$bin" ] || {
		echo "$bin is missing (npm ci in tests/mail)"
		return 1
	}
	MAIL_SMTP_PORT="$(free_port)"
	web="$(free_port)"
	"$bin" --ip 127.0.0.1 --web-ip 127.0.0.1 --smtp "$MAIL_SMTP_PORT" --web "$web" \
		</dev/null >"$MAILDEV_LOG" 2>&1 &
	pid=$!
	echo "$pid" >"$MAILDEV_PIDFILE"
	for i in $(seq 1 60); do
		if http_ok "http://127.0.0.1:$web/email"; then
			echo "http://127.0.0.1:$web" >"$MAILDEV_URL_FILE"
			echo "maildev: pid $pid, smtp 127.0.0.1:$MAIL_SMTP_PORT, web http://127.0.0.1:$web"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "maildev exited early; its log:"
			tail -n 30 "$MAILDEV_LOG"
			return 1
		fi
		sleep 0.5
	done
	echo "maildev did not answer within 30s; its log:"
	tail -n 30 "$MAILDEV_LOG"
	return 1
}

# shellcheck disable=SC2317 # called through run_step
start_e2e_server() {
	local bin="${CARGO_TARGET_DIR:-$CLEARWAY_ROOT/target}/debug/clearway" db pid i
	[ -x "$bin" ] || {
		echo "no $bin"
		return 1
	}
	[ -f webapp/dist/index.html ] || {
		echo "no webapp/dist/index.html"
		return 1
	}
	if port_open 127.0.0.1 "$E2E_PORT"; then
		echo "something already listens on 127.0.0.1:$E2E_PORT (set CLEARWAY_E2E_PORT to use another port)"
		return 1
	fi
	pg_recreate_database "$E2E_DB"
	db="$(pg_database_url "$E2E_DB")"
	echo "database: $(_pg_url_display "$db") (recreated)"
	# A small pool: one browser at a time. The API tests beside it start servers of their
	# own, and each server holds one connection per projection besides its pool.
	export DATABASE_URL="$db" CLEARWAY_MODE=development CLEARWAY_ADDR="127.0.0.1:$E2E_PORT" \
		CLEARWAY_WEB_DIR="$CLEARWAY_ROOT/webapp/dist" RUST_LOG="${RUST_LOG:-info}" \
		CLEARWAY_DB_MAX_CONNECTIONS=8
	unset CLEARWAY_JWT_SECRET
	start_e2e_oidc || return 1
	# Notices go to maildev, and their links to this server.
	start_e2e_maildev || return 1
	export CLEARWAY_SMTP_URL="smtp://127.0.0.1:$MAIL_SMTP_PORT" CLEARWAY_PUBLIC_URL="$E2E_URL"
	# Staff single sign-on against that provider (docs/sso.md); `clearway` is its client.
	export CLEARWAY_OIDC_ISSUER="$OIDC_ISSUER" CLEARWAY_OIDC_CLIENT_ID=clearway \
		CLEARWAY_OIDC_CLIENT_SECRET=clearway-test-secret \
		CLEARWAY_OIDC_REDIRECT_URL="$E2E_URL/auth-redirect,$E2E_URL/azure-redirect"
	# The customs channel on a fresh folder of its own: the browser tests drop receipts into
	# its inbox/ and watch them move declarations (no simulator: the tests are customs).
	CLEARWAY_CUSTOMS_DIR="$CLEARWAY_ROOT/.clearway/e2e-customs"
	rm -rf "$CLEARWAY_CUSTOMS_DIR"
	mkdir -p "$CLEARWAY_CUSTOMS_DIR"
	export CLEARWAY_CUSTOMS_DIR
	timeout 300 "$bin" migrate
	timeout 300 "$bin" seed
	"$bin" serve </dev/null >"$SERVER_LOG" 2>&1 &
	pid=$!
	echo "$pid" >"$SERVER_PIDFILE"
	echo "clearway serve: pid $pid, log $SERVER_LOG"
	for i in $(seq 1 120); do
		if http_ok "$E2E_URL/api/v1/health"; then
			echo "healthy at $E2E_URL after ~$((i / 2))s"
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "clearway serve exited early; its log:"
			tail -n 50 "$SERVER_LOG"
			return 1
		fi
		sleep 0.5
	done
	echo "$E2E_URL/api/v1/health did not answer 2xx within 60s; server log:"
	tail -n 50 "$SERVER_LOG"
	return 1
}

# --- setup ---------------------------------------------------------------------------

need_tool cargo "install Rust (rustup)"
need_tool node "install Node.js 20"
need_tool npm "install Node.js 20 (with npm)"
say "cargo $(cargo --version | cut -d' ' -f2), node $(node --version), npm $(npm --version); CI=${CI:-}"

start=$SECONDS
# Each test server holds one connection per projection besides its pool, and the e2e and
# fuzz servers run beside the API tests: fewer than 200 connections run out at the start
# ("too many clients already"). A server found at 127.0.0.1:5432 that allows fewer is passed
# over for the private cluster of scripts/lib/postgres.sh, which allows 200.
export CLEARWAY_PG_MIN_CONNECTIONS="${CLEARWAY_PG_MIN_CONNECTIONS:-200}"
if ensure_database test; then
	record ok "$(fmt_duration $((SECONDS - start)))" "setup: database ($(_pg_url_display "$DATABASE_URL"))"
	max_conn="$(psql "$DATABASE_URL" -Atc 'SHOW max_connections' 2>/dev/null || true)"
	if [[ "$max_conn" =~ ^[0-9]+$ ]] && [ "$max_conn" -lt "$CLEARWAY_PG_MIN_CONNECTIONS" ]; then
		warn "PostgreSQL at DATABASE_URL allows $max_conn connections; the tests in parallel want about $CLEARWAY_PG_MIN_CONNECTIONS (ALTER SYSTEM SET max_connections = 300, then restart it)"
	fi
else
	record FAILED "$(fmt_duration $((SECONDS - start)))" "setup: database"
	FAILED+=("setup: database")
	finish
fi

HAVE_E2E=0
[ -f e2e/package.json ] && HAVE_E2E=1
if [ "$DO_E2E" = 1 ]; then
	run_step "setup: chromium" 900 ensure_chromium || true
fi

# --- web -----------------------------------------------------------------------------

WEB_BUILT=0 WEB_TEST=0
if [ "$DO_WEB" = 1 ] || { [ "$DO_E2E" = 1 ] && [ "$HAVE_E2E" = 1 ]; }; then
	if [ ! -f webapp/package.json ]; then
		skipped "web" "no webapp/package.json yet"
	elif run_step "web: npm ci" 900 npm_install webapp; then
		if [ "$DO_WEB" = 1 ]; then
			run_step "web: typecheck" 900 npm --prefix webapp run typecheck || true
			run_step "web: lint" 900 npm --prefix webapp run lint || true
			# vitest runs later, in the background beside the rust tests (below).
			WEB_TEST=1
		fi
		if run_step "web: build" 900 npm --prefix webapp run build; then WEB_BUILT=1; fi
	else
		not_run "web: checks and build" "npm ci failed"
	fi
fi

# --- rust ----------------------------------------------------------------------------

BIN_BUILT=0
if [ "$DO_RUST" = 1 ]; then
	# Real peers the API tests talk to on loopback: an SMTP server (maildev) and an OpenID
	# Connect provider (oidc-provider). The tests fail without them.
	for tool in tests/mail tests/oidc; do
		if [ -f "$tool/package.json" ]; then
			run_step "rust: npm ci $tool" 900 npm_install "$tool" || true
		fi
	done
	run_step "setup: test tools (xmllint)" 900 ensure_test_tools || true
	run_step "setup: document tools (poppler, tesseract)" 900 ensure_document_tools || true
	run_step "rust: fmt" 300 cargo fmt --all --check || true
	run_step "rust: clippy" 1800 cargo clippy --workspace --all-targets --locked -- -D warnings || true
	# Compiled now, run below once the suites that mostly wait (fuzz, e2e, vitest) are going.
	# The test build makes target/debug/clearway too (the API tests run it), so the
	# server that e2e and fuzz start needs no second build with other features.
	TESTS_STARTED="$LOGDIR/.tests-build-started"
	touch "$TESTS_STARTED"
	if run_step "rust: build tests" 2400 cargo test --workspace --locked --no-run &&
		[ "${CARGO_TARGET_DIR:-target}/debug/clearway" -nt "$TESTS_STARTED" ]; then
		BIN_BUILT=1
	fi
fi
if [ "$BIN_BUILT" = 0 ] && { [ "$DO_RUST" = 1 ] || [ "$DO_FUZZ" = 1 ] || { [ "$DO_E2E" = 1 ] && [ "$HAVE_E2E" = 1 ]; }; }; then
	if run_step "rust: build" 1800 cargo build --locked --bin clearway; then BIN_BUILT=1; fi
fi

# --- fuzz (in the background, beside e2e) ----------------------------------------------

if [ "$DO_FUZZ" = 1 ]; then
	if [ "$BIN_BUILT" = 0 ]; then
		not_run "fuzz" "the server did not build"
	else
		run_step_bg "fuzz: schemathesis" 1500 scripts/fuzz.sh
	fi
fi

# --- e2e (in the background) ---------------------------------------------------------

# shellcheck disable=SC2317 # called through run_step_bg
e2e_suite() {
	local status=0
	echo "==> start the server"
	start_e2e_server || {
		stop_server
		return 1
	}
	echo "==> the browser tests"
	timeout 1200 env CLEARWAY_URL="$E2E_URL" CHROMIUM_PATH=/usr/bin/chromium \
		CLEARWAY_OIDC_ISSUER="$(sed -n 's/^listening \(http[^ ]*\)$/\1/p' "$OIDC_LOG" | head -n 1)" \
		MAILDEV_URL="$(cat "$MAILDEV_URL_FILE" 2>/dev/null)" \
		CLEARWAY_CUSTOMS_DIR="$CLEARWAY_CUSTOMS_DIR" \
		npm --prefix e2e test || {
		status=$?
		echo "--- last lines of the server log ($SERVER_LOG):"
		tail -n 40 "$SERVER_LOG" || true
	}
	stop_server
	return "$status"
}

if [ "$DO_E2E" = 1 ]; then
	if [ "$HAVE_E2E" = 0 ]; then
		skipped "e2e" "no e2e/package.json yet"
	elif [ "$WEB_BUILT" = 0 ]; then
		not_run "e2e" "the web app did not build"
	elif [ "$BIN_BUILT" = 0 ]; then
		not_run "e2e" "the server did not build"
	elif run_step "e2e: npm ci" 900 npm_install e2e &&
		# The rust group installed the peers already; reinstalling them now would pull them
		# from under the rust tests that run beside the browser tests.
		{ [ "$DO_RUST" = 1 ] || {
			run_step "e2e: npm ci tests/oidc" 900 npm_install tests/oidc &&
				run_step "e2e: npm ci tests/mail" 900 npm_install tests/mail
		}; }; then
		run_step_bg "e2e: browser tests" 0 e2e_suite
	fi
fi

# --- vitest (in the background) and the rust tests ---------------------------------------

if [ "$WEB_TEST" = 1 ]; then
	# One worker: vitest is not on the critical path (the rust tests are), and each of its
	# workers builds a jsdom environment and imports the app, CPU the rust tests then lack.
	run_step_bg "web: test" 1500 npm --prefix webapp test -- --maxWorkers=1
fi
if [ "$DO_RUST" = 1 ]; then
	run_step "rust: test" 2400 cargo test --workspace --locked --no-fail-fast || true
fi

collect_bg
finish
