# Sourced by the scripts that measure a release server (load.sh,
# review-timing.sh): builds `raum` and the load client for release, starts
# `raum serve` on a free port with a fresh database in a scratch folder
# (per-address limits off: every client is this machine; up to 8,192
# connections, for 1,000 games' 4,000 sockets and more), stops it and
# removes the folder on exit. Sets $dir (the scratch folder), $release (the
# folder of the release build) and $url.
# RAUM_LOAD_DB=postgres keeps the games in a scratch PostgreSQL
# (scripts/postgres.sh) rather than a SQLite file; RAUM_LOAD_DB=cluster runs
# two servers on a scratch PostgreSQL behind haproxy (scripts/cluster.sh), and
# $url is the balancer's. RAUM_RELEASE_DIR=FOLDER takes `raum` and
# `examples/load` from a release build there rather than building them.
if [ -n "${RAUM_RELEASE_DIR:-}" ]; then
    release=$RAUM_RELEASE_DIR
    [ -x "$release/raum" ] && [ -x "$release/examples/load" ] ||
        { echo "$(basename "$0"): no raum or examples/load in $release" >&2; exit 1; }
else
    release="${CARGO_TARGET_DIR:-target}/release"
    cargo build --release -q -p raum-cli
    cargo build --release -q -p raum-server --example load
fi
# Each online game holds two sockets at each end (and, through a balancer, two more there).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 4096 2>/dev/null || true
dir=$(mktemp -d)
db="$dir/games.db"
pg=""
cluster=""
trap 'kill ${server:-} 2>/dev/null || true; [ -z "$pg" ] || bash scripts/postgres.sh stop "$pg";
    [ -z "$cluster" ] || bash scripts/cluster.sh stop "$cluster"; rm -rf "$dir"' EXIT
case "${RAUM_LOAD_DB:-sqlite}" in
sqlite) ;;
postgres)
    pg=$(mktemp -d)
    db=$(bash scripts/postgres.sh start "$pg" 2>"$dir/postgres.err") || { cat "$dir/postgres.err" >&2; exit 1; }
    ;;
cluster)
    cluster=$(mktemp -d)
    url=$(RAUM_CLUSTER_NO_LIMITS=1 bash scripts/cluster.sh start "$cluster" "$release/raum") || exit 1
    ;;
*)
    echo "$(basename "$0"): RAUM_LOAD_DB is sqlite, postgres or cluster, not $RAUM_LOAD_DB" >&2
    exit 2
    ;;
esac
if [ -z "$cluster" ]; then
    "$release/raum" serve --port 0 --no-address-limits --max-connections 8192 --db "$db" >"$dir/serve.out" 2>&1 &
    server=$!
    for _ in $(seq 100); do
        grep -q 'http://' "$dir/serve.out" 2>/dev/null && break
        sleep 0.1
    done
    # The banner's URL (the log's "serving" line, on stderr, names it too).
    url=$(grep -o 'Raum is at http://[^ ]*' "$dir/serve.out" | head -n 1 | sed 's/^Raum is at //')
    [ -n "$url" ] || {
        cat "$dir/serve.out" >&2
        echo "$(basename "$0"): the server did not start" >&2
        exit 1
    }
fi
