#!/usr/bin/env bash
# End-to-end tests of the web app in a real browser: Debian's chromium driven
# by playwright-core (pinned in tests/browser/package-lock.json).
#
#   bash scripts/browser-test.sh RAUM_BINARY [TEST_FILE...]
#   bash scripts/browser-test.sh --install
#
# (TEST_FILEs: names under tests/browser/, e.g. online.test.mjs; default all.)
# Installs what is missing (chromium with apt-get, playwright-core with npm
# ci), starts `RAUM_BINARY serve --port 0` on a fresh database, waits until
# it answers its list of variants, runs tests/browser/*.test.mjs against it,
# stops it, and exits non-zero on any failure. Screenshots go to
# target/browser/.
set -euo pipefail

# --- what the tests need -----------------------------------------------------
# Installs what is missing: Debian's chromium, and playwright-core in
# tests/browser/node_modules. `--install` does only this (scripts/test.sh runs
# it beside the build: it waits on the network, not on the CPU).
install_missing() {
  if [ ! -x "$chromium" ]; then
    echo "browser-test: installing Debian's chromium" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core >&2
  fi
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "error: the browser tests need node (20 or later) and npm" >&2
    exit 2
  fi
  local want have
  want="$(cd "$root/tests/browser" && node -e 'console.log(require("./package-lock.json").packages["node_modules/playwright-core"].version)')"
  have="$(cd "$root/tests/browser" && node -e 'try { console.log(require("./node_modules/playwright-core/package.json").version) } catch { console.log("") }')"
  if [ "$want" != "$have" ]; then
    echo "browser-test: npm ci (playwright-core $want)" >&2
    (cd "$root/tests/browser" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >&2)
  fi
}

root="$(cd "$(dirname "$0")/.." && pwd)"
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ "${1:-}" = "--install" ]; then
  install_missing
  exit 0
fi
if [ $# -lt 1 ]; then
  echo "usage: $0 RAUM_BINARY [TEST_FILE...]" >&2
  exit 2
fi
if [ ! -x "$1" ] || [ -d "$1" ]; then
  echo "error: $1 is not an executable" >&2
  exit 2
fi
binary="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
tests=("$@")

install_missing
cd "$root/tests/browser"
if [ ${#tests[@]} -eq 0 ]; then tests=(./*.test.mjs); fi

# --- the server ----------------------------------------------------------------
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

"$binary" serve --port 0 --games-per-hour 0 --db "$work/raum.db" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=""
for _ in $(seq 1 300); do
  url="$(grep -o 'http://127\.0\.0\.1:[0-9]*/' "$work/server.out" | head -n 1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "error: raum serve printed no URL" >&2
  cat "$work/server.out" "$work/server.err" >&2
  exit 1
fi
echo "browser-test: server at $url" >&2
# The server builds every variant's tables on the first request that needs
# them: seconds on an idle machine, 15 s and more on a loaded one. Asked for
# here, with time to spare, so that no test's wait pays for it.
if ! node -e '
  const t0 = Date.now();
  fetch(new URL("api/variants", process.argv[1]), {signal: AbortSignal.timeout(300000)})
    .then(async (r) => {
      if (!r.ok) throw new Error(`GET /api/variants: ${r.status}`);
      const n = (await r.json()).length;
      console.error(`browser-test: server ready (${n} variants, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    })
    .catch((e) => {
      console.error(`error: the server did not answer /api/variants: ${e.message}`);
      process.exit(1);
    });
' "$url"; then
  cat "$work/server.out" "$work/server.err" >&2
  exit 1
fi

# --- the tests ------------------------------------------------------------------
mkdir -p "$root/target/browser"
status=0
RAUM_URL="$url" RAUM_SCREENSHOTS="$root/target/browser" CHROMIUM="$chromium" \
  node --test --test-concurrency=1 --test-timeout=120000 "${tests[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "browser-test: FAILED (server log follows)" >&2
  tail -n 40 "$work/server.err" >&2 || true
fi
exit "$status"
