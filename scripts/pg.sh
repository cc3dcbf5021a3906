#!/usr/bin/env bash
# The database helper of scripts/lib/postgres.sh, by hand:
#
#   scripts/pg.sh url [NAME]     find or start PostgreSQL, create NAME (clearway), print its URL
#   scripts/pg.sh psql [NAME]    the same, then open psql on it
#   scripts/pg.sh status         is the private cluster (.clearway/pg) running?
#   scripts/pg.sh stop           stop the private cluster
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
CLEARWAY_ROOT="$(pwd)"
export CLEARWAY_ROOT
# shellcheck source=scripts/lib/postgres.sh
. scripts/lib/postgres.sh

case "${1:-}" in
url)
	ensure_database "${2:-clearway}"
	printf '%s\n' "$DATABASE_URL"
	;;
psql)
	ensure_database "${2:-clearway}"
	exec "$(_pg_psql)" "$DATABASE_URL"
	;;
status) pg_private_status ;;
stop) pg_private_stop ;;
*)
	sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac
