#!/usr/bin/env bash
# `iobisect upload` against a real HTTP server on 127.0.0.1
# (tests/httpd/httpd.c): server down (documents spooled, exit 1), a wrong
# token (clear error naming the URL and $IOBISECT_UPLOAD_TOKEN, documents
# kept), then back with the right token (`upload --flush` sends them, each
# stored once), and a second run that sends nothing. IOBISECT overrides
# the binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${IOBISECT:-./iobisect}")
out=$(mktemp -d /tmp/iobisect-upload.XXXXXX)
srv_pid=
cleanup() { [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null; rm -rf "$out"; }
trap cleanup EXIT

cc -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -o "$out/httpd" tests/httpd/httpd.c
python3 tests/fixture/synth-results.py "$out/results" up >/dev/null
ndocs=$(find "$out/results/up" -name 'boot-*.json' | wc -l)
export XDG_CACHE_HOME=$out/cache
spool=$out/spool

start_server() { # TOKEN PORT
	mkdir -p "$out/srv"
	"$out/httpd" "$out/srv" "$2" "$1" >"$out/port" &
	srv_pid=$!
	for _ in $(seq 50); do [ -s "$out/port" ] && break; sleep 0.1; done
	port=$(cat "$out/port")
}
stop_server() { kill "$srv_pid"; wait "$srv_pid" 2>/dev/null || true; srv_pid=; }

# A port nobody listens on: start the server, note its port, stop it.
start_server "" 0; stop_server
url="http://127.0.0.1:$port/ingest"

# 1. Down: everything is spooled, exit 1, the error says how to flush.
if IOBISECT_UPLOAD_TOKEN=right "$bin" upload "$out/results/up" --url "$url" --spool "$spool" 2>"$out/err1"; then
	echo "upload to a dead server succeeded" >&2; exit 1
fi
grep -q -- "--flush" "$out/err1"
spooled=$(find "$spool" -name '*.json' | wc -l)
[ "$spooled" -eq "$ndocs" ] || { echo "spooled $spooled of $ndocs" >&2; exit 1; }

# 2. Back, but our token is wrong: clear error, nothing lost.
start_server right "$port"
if IOBISECT_UPLOAD_TOKEN=wrong "$bin" upload --flush --spool "$spool" 2>"$out/err2"; then
	echo "upload with a wrong token succeeded" >&2; exit 1
fi
grep -q "$url" "$out/err2" && grep -q IOBISECT_UPLOAD_TOKEN "$out/err2"
[ "$(find "$spool" -name '*.json' | wc -l)" -eq "$ndocs" ]

# 3. The right token: the flush sends every spooled document once.
IOBISECT_UPLOAD_TOKEN=right "$bin" upload --flush --spool "$spool"
[ "$(find "$spool" -name '*.json' | wc -l)" -eq 0 ]
stored=$(find "$out/srv/stored" -name '*.json' | wc -l)
[ "$stored" -eq "$ndocs" ] || { echo "stored $stored of $ndocs" >&2; exit 1; }

# 4. The next run has nothing new to send.
IOBISECT_UPLOAD_TOKEN=right "$bin" upload "$out/results/up" --url "$url" --spool "$spool" 2>"$out/err4"
grep -q "0 sent, $ndocs already sent, 0 kept" "$out/err4"
stop_server
echo "51-upload: $ndocs documents spooled while down, kept on a wrong token, flushed once"
