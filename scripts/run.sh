#!/usr/bin/env bash
# Runs Clearway on this machine: the one command of the README.
#
#   scripts/run.sh
#
# 1. finds a database (DATABASE_URL, else a PostgreSQL at 127.0.0.1:5432, else a private
#    cluster under .clearway/pg, installing Debian's postgresql when needed; see
#    scripts/lib/postgres.sh) and uses database `clearway`;
# 2. builds the web app (npm ci when needed, npm run build -> webapp/dist);
# 3. builds the server (cargo build --release --locked);
# 4. migrates and seeds (reference tables; demo accounts and data in development mode);
# 5. prints the URL and the demo logins and serves (API + projectors + web app) until Ctrl-C.
#
# Reads .env in the project folder when there is one (see .env.sample). Respects
# DATABASE_URL, CLEARWAY_ADDR (127.0.0.1:8080), CLEARWAY_MODE (development),
# CLEARWAY_JWT_SECRET, CLEARWAY_WEB_DIR (webapp/dist), RUST_LOG; in development
# CLEARWAY_CUSTOMS_DIR (.customs) and CLEARWAY_CUSTOMS_SIM_DELAY_MS (3000) for the channel
# and its simulator of customs.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLEARWAY_ROOT="$(pwd)"
export CLEARWAY_ROOT
# shellcheck source=scripts/lib/common.sh
. scripts/lib/common.sh
# shellcheck source=scripts/lib/postgres.sh
. scripts/lib/postgres.sh

case "${1:-}" in
-h | --help)
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
"") ;;
*) die "unknown argument '$1' (scripts/run.sh takes none; see --help)" ;;
esac

if [ -f .env ]; then
	say "reading .env"
	set -a
	# shellcheck disable=SC1091
	. ./.env
	set +a
fi

need_tool cargo "install Rust (rustup)"
need_tool node "install Node.js 20"
need_tool npm "install Node.js 20 (with npm)"

export CLEARWAY_MODE="${CLEARWAY_MODE:-development}"
export CLEARWAY_ADDR="${CLEARWAY_ADDR:-127.0.0.1:8080}"
export CLEARWAY_WEB_DIR="${CLEARWAY_WEB_DIR:-webapp/dist}"
export RUST_LOG="${RUST_LOG:-info}"

# Refuse early when the address is taken, rather than after the builds.
addr_host="${CLEARWAY_ADDR%:*}"
addr_port="${CLEARWAY_ADDR##*:}"
addr_host="${addr_host#[}"
addr_host="${addr_host%]}"
case "$addr_host" in
0.0.0.0 | "" | "::") show_host=127.0.0.1 ;;
*:*) show_host="[$addr_host]" ;;
*) show_host="$addr_host" ;;
esac
probe_host="$show_host"
probe_host="${probe_host#[}"
probe_host="${probe_host%]}"
if port_open "$probe_host" "$addr_port"; then
	die "something already listens on $CLEARWAY_ADDR; stop it or set CLEARWAY_ADDR (e.g. CLEARWAY_ADDR=127.0.0.1:8081 scripts/run.sh)"
fi

started=$SECONDS
ensure_database clearway
ensure_document_tools || warn "reading PDFs and scans for proposed declarations needs poppler-utils and tesseract-ocr"

say "building the web app"
npm_install webapp
(cd webapp && npm run build)

say "building the server (cargo build --release --locked)"
cargo build --release --locked --bin clearway
bin="${CARGO_TARGET_DIR:-$CLEARWAY_ROOT/target}/release/clearway"

say "migrating"
"$bin" migrate
say "seeding ($CLEARWAY_MODE)"
"$bin" seed

# Development: the customs channel on a folder of its own, with the simulator of customs
# playing the other side (docs/customs.md), stopped with the server.
if [ "$CLEARWAY_MODE" = development ]; then
	export CLEARWAY_CUSTOMS_DIR="${CLEARWAY_CUSTOMS_DIR:-$CLEARWAY_ROOT/.customs}"
	mkdir -p "$CLEARWAY_CUSTOMS_DIR"
	"$bin" customs-sim --delay-ms "${CLEARWAY_CUSTOMS_SIM_DELAY_MS:-3000}" &
	sim_pid=$!
	trap 'kill "$sim_pid" 2>/dev/null' EXIT INT TERM
	"$bin" serve
	exit $?
fi

url="http://$show_host:$addr_port"
{
	echo
	echo "Clearway is starting at $url  (ready in $(fmt_duration $((SECONDS - started))); Ctrl-C stops it)"
	echo "  OpenAPI:   $url/api/openapi.json    health: $url/api/v1/health"
	echo "  database:  $(_pg_url_display "$DATABASE_URL")"
	if [ "$CLEARWAY_MODE" = development ]; then
		echo "  demo logins (password Demopass2026):"
		echo "    acme, globex          customers of two different companies"
		echo "    operator              operator"
		echo "    admin                 admin"
		echo "    superadmin            super admin"
		echo "    auditor               compliance reviewer (reads the audit log)"
		echo "  customs:   $CLEARWAY_CUSTOMS_DIR (a simulator of customs answers the messages; docs/customs.md)"
	else
		echo "  mode $CLEARWAY_MODE: no demo accounts"
	fi
	echo
} >&2

exec "$bin" serve
