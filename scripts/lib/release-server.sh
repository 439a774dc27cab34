# Sourced by the scripts that measure a release server (load.sh,
# review-timing.sh): builds `raum` and the load client for release, starts
# `raum serve` on a free port with a fresh database in a scratch folder
# (per-address limits off: every client is this machine), stops it and
# removes the folder on exit. Sets $dir (the scratch folder) and $url.
# RAUM_LOAD_DB=postgres keeps the games in a scratch PostgreSQL
# (scripts/postgres.sh) rather than a SQLite file.
cargo build --release -q -p raum-cli
cargo build --release -q -p raum-server --example load
# Each online game holds two sockets at each end.
ulimit -n 4096 2>/dev/null || true
dir=$(mktemp -d)
db="$dir/games.db"
pg=""
trap 'kill ${server:-} 2>/dev/null || true; [ -z "$pg" ] || bash scripts/postgres.sh stop "$pg"; rm -rf "$dir"' EXIT
if [ "${RAUM_LOAD_DB:-sqlite}" = postgres ]; then
    pg=$(mktemp -d)
    db=$(bash scripts/postgres.sh start "$pg" 2>"$dir/postgres.err") || { cat "$dir/postgres.err" >&2; exit 1; }
fi
target/release/raum serve --port 0 --no-address-limits --db "$db" >"$dir/serve.out" 2>&1 &
server=$!
for _ in $(seq 100); do
    grep -q 'http://' "$dir/serve.out" 2>/dev/null && break
    sleep 0.1
done
url=$(grep -o 'http://[^ ]*' "$dir/serve.out") || {
    cat "$dir/serve.out" >&2
    echo "$(basename "$0"): the server did not start" >&2
    exit 1
}
