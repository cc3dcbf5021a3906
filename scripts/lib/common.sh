# shellcheck shell=bash
# Small helpers shared by scripts/run.sh, scripts/test.sh and scripts/bench.sh.

CLEARWAY_ROOT="${CLEARWAY_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"

say() { printf '==> %s\n' "$*" >&2; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# "1m05s" from a number of seconds.
fmt_duration() {
	local s="$1"
	if [ "$s" -ge 60 ]; then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

need_tool() {
	command -v "$1" >/dev/null 2>&1 || die "$1 is needed: $2"
}

# Installs the npm packages of a folder with `npm ci` when node_modules is missing, when
# package-lock.json changed since the last install, or always when CI=true.
npm_install() {
	local dir="$1" stamp lockhash
	[ -f "$dir/package-lock.json" ] || die "$dir/package-lock.json is missing: commit it (npm ci needs it)"
	stamp="$dir/node_modules/.clearway-lock.sha256"
	lockhash="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)"
	if [ "${CI:-}" != true ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lockhash" ]; then
		say "npm: $dir/node_modules is up to date with package-lock.json"
		return 0
	fi
	say "npm ci in $dir"
	(cd "$dir" && timeout -k 30 900 npm ci --no-audit --no-fund) || return 1
	mkdir -p "$dir/node_modules"
	printf '%s\n' "$lockhash" >"$stamp"
}

# ensure_debian PATH PACKAGE...: when PATH (a file, e.g. /usr/bin/xmllint) is missing,
# apt-get installs Debian's PACKAGEs (as root; two tries).
ensure_debian() {
	local path="$1" try
	shift
	if [ -x "$path" ]; then
		return 0
	fi
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
		warn "$path is missing and we cannot apt-get install $* (not root or no apt-get)"
		return 1
	fi
	for try in 1 2; do
		say "installing Debian's $* for $path (try $try)"
		if DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -qq </dev/null &&
			DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "$@" </dev/null &&
			[ -x "$path" ]; then
			return 0
		fi
		[ "$try" = 1 ] && sleep 10
	done
	warn "apt-get install $* failed twice"
	return 1
}

# Debian's Chromium for the browser tests (playwright-core launches /usr/bin/chromium).
ensure_chromium() {
	ensure_debian /usr/bin/chromium chromium || return 1
	say "chromium: $(/usr/bin/chromium --version 2>/dev/null || echo present)"
}

# The Debian tools the Rust tests run: xmllint (libxml2-utils) validates the exception
# export's XML against its schema.
ensure_test_tools() {
	ensure_debian /usr/bin/xmllint libxml2-utils
}

# The document readers of declarations proposed from documents (docs/ai-create.md):
# poppler's pdftotext (and pdftoppm, which the tests use to render pages) and tesseract with
# its Chinese and English models.
ensure_document_tools() {
	ensure_debian /usr/bin/pdftotext poppler-utils || return 1
	ensure_debian /usr/bin/tesseract tesseract-ocr tesseract-ocr-chi-sim tesseract-ocr-eng || return 1
	# tesseract present without its Chinese model (installed earlier without it).
	if ! tesseract --list-langs 2>/dev/null | grep -qx chi_sim; then
		[ "$(id -u)" = 0 ] || { warn "tesseract lacks chi_sim and we are not root"; return 1; }
		say "installing Debian's tesseract-ocr-chi-sim"
		DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq tesseract-ocr-chi-sim tesseract-ocr-eng </dev/null || return 1
	fi
	# A CJK font, so that poppler renders the Chinese sample documents (scripts/bench.sh extract).
	if [ ! -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] && [ "$(id -u)" = 0 ]; then
		say "installing Debian's fonts-wqy-zenhei"
		DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq fonts-wqy-zenhei </dev/null || warn "fonts-wqy-zenhei failed"
	fi
	# Fonts metric-compatible with the PDF base fonts (Helvetica, Times), so that the sample
	# invoices render as laid out: a wider stand-in font runs a column heading into the next
	# one and the scanned-invoice tests read a different page (chromium brings them along,
	# but the rust tests must not depend on the e2e setup having run first).
	if [ ! -d /usr/share/fonts/truetype/liberation ] && [ "$(id -u)" = 0 ]; then
		say "installing Debian's fonts-liberation"
		DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq fonts-liberation </dev/null || warn "fonts-liberation failed"
	fi
}

# 0 when URL answers 2xx.
http_ok() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsS -o /dev/null --max-time 3 "$1" 2>/dev/null
	else
		node -e 'fetch(process.argv[1],{signal:AbortSignal.timeout(3000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))' "$1"
	fi
}

# 0 when something accepts TCP connections at HOST PORT.
port_open() {
	# shellcheck disable=SC2016 # $0 and $1 belong to the inner bash
	timeout 3 bash -c 'exec 3<>"/dev/tcp/$0/$1"' "$1" "$2" 2>/dev/null
}
