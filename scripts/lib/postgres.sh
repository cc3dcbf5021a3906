# shellcheck shell=bash
# Finds or starts a PostgreSQL for Clearway. Source it, then call:
#
#   ensure_database NAME      exports DATABASE_URL for database NAME and prints one line
#                             saying where it came from.
#   pg_database_url NAME      prints the URL of database NAME on the server of DATABASE_URL.
#   pg_recreate_database NAME drops (WITH FORCE) and creates NAME on that server.
#   pg_private_status         prints whether the private cluster runs (exit 0 if it does).
#   pg_private_stop           stops the private cluster if it runs.
#
# Where the server comes from, in order:
#   1. DATABASE_URL, when it is set: used as it is (the database is created when missing
#      and the user may do so).
#   2. A PostgreSQL answering at 127.0.0.1:5432 that lets `postgres` in without a password
#      (the usual local setup): postgres://postgres@127.0.0.1:5432/NAME, unless it allows
#      fewer connections than CLEARWAY_PG_MIN_CONNECTIONS asks (the test command asks 200:
#      its servers run side by side), in which case the private cluster serves instead.
#   3. A private cluster under .clearway/pg in the project, on 127.0.0.1:54329, made with
#      the system's PostgreSQL binaries (Debian's `postgresql` is installed first when no
#      binaries are found and we are root with apt-get). It runs as the `postgres` user when
#      we are root (initdb refuses root), trust auth on 127.0.0.1 only, fsync on. Reused by
#      later calls; stop it with `scripts/pg.sh stop`.
#
# Settings (environment):
#   CLEARWAY_PG_PROBE_HOST / CLEARWAY_PG_PROBE_PORT  where to look for a running server
#                                                    (127.0.0.1 / 5432)
#   CLEARWAY_PG_PORT      port of the private cluster (54329)
#   CLEARWAY_PG_DIR       folder of the private cluster (<project>/.clearway/pg)
#   CLEARWAY_PG_NO_INSTALL=1  never install PostgreSQL with apt-get
#   CLEARWAY_PG_MIN_CONNECTIONS  pass over a found server that allows fewer connections
#                                (max_connections) than this; unset: any server will do.
#                                The private cluster allows at least 200, or this many.

CLEARWAY_ROOT="${CLEARWAY_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"

_pg_log() { printf '%s\n' "$*" >&2; }
_pg_die() {
	printf 'postgres: error: %s\n' "$*" >&2
	return 1
}

# The folder of PostgreSQL's server binaries (initdb, pg_ctl, postgres), newest major first.
_pg_bindir() {
	local d v best="" bestv=-1
	for d in /usr/lib/postgresql/*/bin; do
		if [ ! -x "$d/initdb" ] || [ ! -x "$d/pg_ctl" ]; then continue; fi
		v="${d#/usr/lib/postgresql/}"
		v="${v%%/*}"
		v="${v%%.*}"
		case "$v" in '' | *[!0-9]*) v=0 ;; esac
		if [ "$v" -gt "$bestv" ]; then
			best="$d"
			bestv="$v"
		fi
	done
	if [ -z "$best" ] && command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		best="$(dirname "$(readlink -f "$(command -v initdb)")")"
	fi
	[ -n "$best" ] && printf '%s\n' "$best"
}

# A psql client: PATH first, then next to the server binaries.
_pg_psql() {
	local b
	if command -v psql >/dev/null 2>&1; then
		command -v psql
		return 0
	fi
	b="$(_pg_bindir)" || true
	if [ -n "$b" ] && [ -x "$b/psql" ]; then
		printf '%s\n' "$b/psql"
		return 0
	fi
	return 1
}

_pg_is_root() { [ "$(id -u)" = 0 ]; }

# Installs Debian's postgresql when no server binaries exist and we may.
_pg_install() {
	if [ "${CLEARWAY_PG_NO_INSTALL:-0}" = 1 ]; then
		_pg_die "no PostgreSQL binaries found and CLEARWAY_PG_NO_INSTALL=1; install PostgreSQL or set DATABASE_URL"
		return 1
	fi
	if ! _pg_is_root || ! command -v apt-get >/dev/null 2>&1; then
		_pg_die "no PostgreSQL binaries found (initdb, pg_ctl); install PostgreSQL (Debian: apt-get install postgresql) or set DATABASE_URL"
		return 1
	fi
	_pg_log "postgres: no PostgreSQL binaries found; installing Debian's postgresql (apt-get)..."
	export DEBIAN_FRONTEND=noninteractive
	if ! { apt-get update -qq && apt-get install -y -qq postgresql; } </dev/null >/tmp/clearway-apt-postgresql.log 2>&1; then
		tail -n 20 /tmp/clearway-apt-postgresql.log >&2 || true
		_pg_die "apt-get install postgresql failed (log: /tmp/clearway-apt-postgresql.log)"
		return 1
	fi
}

# 0 when a server at host:port lets `postgres` in without a password.
_pg_server_usable() {
	local host="$1" port="$2" psql
	psql="$(_pg_psql)" || return 1
	if command -v pg_isready >/dev/null 2>&1; then
		pg_isready -q -h "$host" -p "$port" -t 3 >/dev/null 2>&1 || return 1
	fi
	PGCONNECT_TIMEOUT=3 "$psql" -X -q -w -h "$host" -p "$port" -U postgres -d postgres \
		-Atc 'select 1' </dev/null >/dev/null 2>&1
}

# The max_connections of the server at host:port (empty when it cannot be read).
_pg_max_connections() {
	local psql
	psql="$(_pg_psql)" || return 0
	PGCONNECT_TIMEOUT=3 "$psql" -X -q -w -h "$1" -p "$2" -U postgres -d postgres \
		-Atc 'show max_connections' </dev/null 2>/dev/null || true
}

# The connections the private cluster allows: 200, or CLEARWAY_PG_MIN_CONNECTIONS if more.
_pg_private_connections() {
	local want="${CLEARWAY_PG_MIN_CONNECTIONS:-0}"
	case "$want" in '' | *[!0-9]*) want=0 ;; esac
	if [ "$want" -gt 200 ]; then echo "$want"; else echo 200; fi
}

# Runs psql on the maintenance database of the server that URL points at.
# usage: _pg_admin_psql URL psql-args...
_pg_admin_psql() {
	local url="$1" psql
	shift
	psql="$(_pg_psql)" || {
		_pg_die "psql not found"
		return 1
	}
	PGCONNECT_TIMEOUT=10 PGOPTIONS='-c client_min_messages=warning' "$psql" -X -q -w -v ON_ERROR_STOP=1 -d "$(_pg_url_with_db "$url" postgres)" "$@" </dev/null
}

# URL with its database name replaced (keeps user, password, host, port and ?params).
_pg_url_with_db() {
	local url="$1" db="$2" rest params="" scheme authority
	case "$url" in
	*://*) ;;
	*)
		printf '%s\n' "$url"
		return 0
		;;
	esac
	scheme="${url%%://*}"
	rest="${url#*://}"
	case "$rest" in *\?*)
		params="?${rest#*\?}"
		rest="${rest%%\?*}"
		;;
	esac
	authority="${rest%%/*}"
	printf '%s://%s/%s%s\n' "$scheme" "$authority" "$db" "$params"
}

# Database name of a URL.
_pg_url_db() {
	local rest="${1#*://}"
	rest="${rest%%\?*}"
	case "$rest" in */*) printf '%s\n' "${rest#*/}" ;; *) printf '\n' ;; esac
}

# URL shown to people: password hidden.
_pg_url_display() {
	printf '%s\n' "$1" | sed -E 's#(://[^:/@]+):[^@/]*@#\1:***@#'
}

_pg_valid_name() {
	case "$1" in
	'' | *[!A-Za-z0-9_]*)
		_pg_die "database name '$1' must be letters, digits and _"
		return 1
		;;
	esac
}

# Creates database NAME on the server of URL when it is missing. Prints "created" or "exists".
_pg_create_if_missing() {
	local url="$1" name="$2" found
	_pg_valid_name "$name" || return 1
	found="$(_pg_admin_psql "$url" -Atc "select 1 from pg_database where datname = '$name'")" || return 1
	if [ "$found" = 1 ]; then
		echo exists
		return 0
	fi
	if ! _pg_admin_psql "$url" -c "create database \"$name\"" >/dev/null 2>&1; then
		# Someone else may have created it at the same moment.
		found="$(_pg_admin_psql "$url" -Atc "select 1 from pg_database where datname = '$name'")" || return 1
		[ "$found" = 1 ] || {
			_pg_die "could not create database $name on $(_pg_url_display "$url")"
			return 1
		}
		echo exists
		return 0
	fi
	echo created
}

# --- the private cluster -------------------------------------------------------------

# CLEARWAY_PG_DIR, else .clearway/pg in the project; but when we are root and the project's
# folder is closed to the postgres user (a checkout under /root), a folder of /var/tmp named
# after the project, since initdb must run as that user.
_pg_private_dir() {
	local d="${CLEARWAY_PG_DIR:-}"
	if [ -z "$d" ]; then
		d="$CLEARWAY_ROOT/.clearway/pg"
		if _pg_is_root && id postgres >/dev/null 2>&1 &&
			! (cd / && runuser -u postgres -- test -x "$CLEARWAY_ROOT") 2>/dev/null; then
			d="/var/tmp/clearway-pg-$(printf '%s' "$CLEARWAY_ROOT" | cksum | cut -d' ' -f1)"
		fi
	fi
	case "$d" in /*) ;; *) d="$CLEARWAY_ROOT/$d" ;; esac
	printf '%s\n' "${d%/}"
}
_pg_private_port() { printf '%s\n' "${CLEARWAY_PG_PORT:-54329}"; }

# Runs a command as the cluster's owner: `postgres` when we are root, else ourselves.
# (From /, so that a home folder closed to `postgres` does not bother it.)
_pg_as_owner() {
	if _pg_is_root; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

# The socket folder: inside the cluster folder unless that path is too long for a socket.
_pg_private_sockdir() {
	local dir
	dir="$(_pg_private_dir)/run"
	if [ "${#dir}" -gt 90 ]; then
		dir="/tmp/clearway-pg-$(printf '%s' "$(_pg_private_dir)" | cksum | cut -d' ' -f1)"
	fi
	printf '%s\n' "$dir"
}

# 0 when the private cluster's postmaster runs.
pg_private_status() {
	local dir bindir
	dir="$(_pg_private_dir)"
	if [ ! -f "$dir/data/PG_VERSION" ]; then
		echo "postgres: no private cluster at $dir"
		return 3
	fi
	bindir="$(_pg_bindir)" || {
		echo "postgres: private cluster at $dir, but no PostgreSQL binaries to ask"
		return 4
	}
	if _pg_as_owner "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
		echo "postgres: private cluster at $dir is running on 127.0.0.1:$(_pg_private_port)"
		return 0
	fi
	echo "postgres: private cluster at $dir is stopped"
	return 3
}

pg_private_stop() {
	local dir bindir
	dir="$(_pg_private_dir)"
	[ -f "$dir/data/PG_VERSION" ] || {
		echo "postgres: no private cluster at $dir"
		return 0
	}
	bindir="$(_pg_bindir)" || {
		_pg_die "no PostgreSQL binaries found"
		return 1
	}
	if _pg_as_owner "$bindir/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
		_pg_as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
		echo "postgres: stopped the private cluster at $dir"
	else
		echo "postgres: the private cluster at $dir was not running"
	fi
}

# Makes sure the private cluster exists and runs. Prints what it did (a few words).
_pg_private_ensure() {
	local dir data sock port bindir did="" ver
	dir="$(_pg_private_dir)"
	data="$dir/data"
	sock="$(_pg_private_sockdir)"
	port="$(_pg_private_port)"

	bindir="$(_pg_bindir)" || true
	if [ -z "$bindir" ]; then
		_pg_install || return 1
		bindir="$(_pg_bindir)" || true
		[ -n "$bindir" ] || {
			_pg_die "PostgreSQL was installed but initdb/pg_ctl are still not found"
			return 1
		}
		did="installed postgresql, "
	fi

	if _pg_is_root && ! id postgres >/dev/null 2>&1; then
		useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres ||
			{
				_pg_die "could not create the postgres user"
				return 1
			}
	fi

	mkdir -p "$dir" "$sock"
	if _pg_is_root; then
		chown postgres: "$dir" "$sock"
		[ -d "$data" ] && chown -R postgres: "$data"
		if ! _pg_as_owner test -w "$dir"; then
			_pg_die "the postgres user cannot write to $dir (a parent folder is closed to it); set CLEARWAY_PG_DIR to a folder it can reach, e.g. /var/tmp/clearway-pg"
			return 1
		fi
	fi
	chmod 0700 "$sock" 2>/dev/null || true

	if [ ! -f "$data/PG_VERSION" ]; then
		# fsync stays on: the server refuses to start with fsync off.
		if ! _pg_as_owner "$bindir/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 \
			--no-locale >"$dir/initdb.log" 2>&1; then
			tail -n 20 "$dir/initdb.log" >&2 || true
			_pg_die "initdb failed (log: $dir/initdb.log)"
			return 1
		fi
		{
			echo ""
			echo "# written by scripts/lib/postgres.sh"
			echo "listen_addresses = '127.0.0.1'"
			echo "unix_socket_directories = '${sock//\'/\'\'}'"
			echo "max_connections = $(_pg_private_connections)"
			echo "fsync = on"
		} | _pg_as_owner tee -a "$data/postgresql.conf" >/dev/null
		did="${did}initialised a new cluster, "
	fi

	if _pg_as_owner "$bindir/pg_ctl" -D "$data" status >/dev/null 2>&1; then
		did="${did}reused the running private cluster"
	else
		if _pg_server_usable 127.0.0.1 "$port"; then
			_pg_die "port $port is taken by another PostgreSQL; stop it or set CLEARWAY_PG_PORT"
			return 1
		fi
		if ! _pg_as_owner "$bindir/pg_ctl" -D "$data" -l "$dir/postgres.log" -o "-p $port" \
			-w -t 60 start >/dev/null 2>&1; then
			tail -n 20 "$dir/postgres.log" >&2 || true
			_pg_die "the private cluster did not start (log: $dir/postgres.log)"
			return 1
		fi
		did="${did}started the private cluster"
	fi

	local i
	for i in $(seq 1 60); do
		_pg_server_usable 127.0.0.1 "$port" && break
		[ "$i" = 60 ] && {
			_pg_die "the private cluster on port $port does not answer (log: $dir/postgres.log)"
			return 1
		}
		sleep 0.5
	done
	ver="$(cat "$data/PG_VERSION")"
	printf '%s (PostgreSQL %s, %s, port %s)\n' "$did" "$ver" "$dir" "$port"
}

# --- the entry points ----------------------------------------------------------------

ensure_database() {
	local name="${1:?usage: ensure_database NAME}" state url host port what
	_pg_valid_name "$name" || return 1

	if [ -n "${DATABASE_URL:-}" ]; then
		what="using DATABASE_URL from the environment"
		state="$(_pg_create_if_missing "$DATABASE_URL" "$(_pg_url_db "$DATABASE_URL")" 2>/dev/null)" ||
			state="not checked"
		export DATABASE_URL
		_pg_log "postgres: $what: $(_pg_url_display "$DATABASE_URL") (database $state)"
		return 0
	fi

	host="${CLEARWAY_PG_PROBE_HOST:-127.0.0.1}"
	port="${CLEARWAY_PG_PROBE_PORT:-5432}"
	local why="none at $host:$port" allowed want="${CLEARWAY_PG_MIN_CONNECTIONS:-0}"
	case "$want" in '' | *[!0-9]*) want=0 ;; esac
	if _pg_server_usable "$host" "$port"; then
		allowed="$(_pg_max_connections "$host" "$port")"
		if [[ "$allowed" =~ ^[0-9]+$ ]] && [ "$allowed" -lt "$want" ]; then
			why="the server at $host:$port allows $allowed connections, fewer than the $want asked (CLEARWAY_PG_MIN_CONNECTIONS)"
		else
			url="postgres://postgres@$host:$port/$name"
			state="$(_pg_create_if_missing "$url" "$name")" || return 1
			export DATABASE_URL="$url"
			_pg_log "postgres: found a server at $host:$port; database $name $state; DATABASE_URL=$url"
			return 0
		fi
	fi

	what="$(_pg_private_ensure)" || return 1
	url="postgres://postgres@127.0.0.1:$(_pg_private_port)/$name"
	state="$(_pg_create_if_missing "$url" "$name")" || return 1
	export DATABASE_URL="$url"
	_pg_log "postgres: $why; $what; database $name $state; DATABASE_URL=$url"
}

pg_database_url() {
	local name="${1:?usage: pg_database_url NAME}"
	[ -n "${DATABASE_URL:-}" ] || {
		_pg_die "DATABASE_URL is not set (call ensure_database first)"
		return 1
	}
	_pg_url_with_db "$DATABASE_URL" "$name"
}

pg_recreate_database() {
	local name="${1:?usage: pg_recreate_database NAME}"
	_pg_valid_name "$name" || return 1
	[ -n "${DATABASE_URL:-}" ] || {
		_pg_die "DATABASE_URL is not set (call ensure_database first)"
		return 1
	}
	_pg_admin_psql "$DATABASE_URL" -c "drop database if exists \"$name\" with (force)" >/dev/null &&
		_pg_admin_psql "$DATABASE_URL" -c "create database \"$name\"" >/dev/null
}
