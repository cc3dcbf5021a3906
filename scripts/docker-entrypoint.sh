#!/bin/sh
# Entrypoint of the container image (see Dockerfile). Runs the given command, by default
# `clearway serve`. Before `serve`:
#   CLEARWAY_MIGRATE=1  runs `clearway migrate` first (retried while the database starts)
#   CLEARWAY_SEED=1     runs `clearway seed` after it (reference data; demo data in
#                       development mode)
set -eu

is_serve=0
case "${1:-}" in
clearway) [ "${2:-}" = serve ] && is_serve=1 ;;
serve) is_serve=1 ;;
esac

if [ "$is_serve" = 1 ] && [ "${CLEARWAY_MIGRATE:-0}" = 1 ]; then
	tries=0
	until clearway migrate; do
		tries=$((tries + 1))
		if [ "$tries" -ge 30 ]; then
			echo "clearway migrate failed $tries times; giving up" >&2
			exit 1
		fi
		echo "clearway migrate failed; retrying in 2 s ($tries/30)" >&2
		sleep 2
	done
fi
if [ "$is_serve" = 1 ] && [ "${CLEARWAY_SEED:-0}" = 1 ]; then
	clearway seed
fi

[ "${1:-}" = serve ] && set -- clearway "$@"
exec "$@"
