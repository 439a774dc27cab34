#!/usr/bin/env bash
# A scratch PostgreSQL for tests and trials: a cluster of its own in a folder,
# listening on a free loopback port only, run by an unprivileged user, with
# trust authentication on loopback and without fsync (nothing in it outlives
# the run). Installs Debian's postgresql package where the server is missing.
#
#   scripts/postgres.sh start DIR   makes DIR (a new cluster) and starts it; prints the
#                                   database's URL (postgres://raum@127.0.0.1:PORT/raum),
#                                   also kept in DIR/url
#   scripts/postgres.sh stop DIR    stops it and removes DIR
#
# As root, the server runs as the user `postgres` (the package's), made if missing.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}
[ $# -eq 2 ] || usage
action=$1
dir=$2

# The newest installed server's programs.
bindir() {
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    [ -n "$d" ] && [ -x "$d/initdb" ] && echo "$d"
}

# Runs a command as the cluster's user.
as_user() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

case "$action" in
start)
    if ! bin="$(bindir)"; then
        echo "postgres.sh: installing Debian's postgresql" >&2
        sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends postgresql >&2 ||
            { $sudo apt-get update >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends postgresql >&2; }
        bin="$(bindir)" || { echo "postgres.sh: no PostgreSQL server after installing it" >&2; exit 1; }
    fi
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    as_user "$bin/initdb" -D "$dir/data" -U raum --auth=trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    as_user "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >&2 || { cat "$dir/server.log" >&2; exit 1; }
    as_user "$bin/psql" -q -h 127.0.0.1 -p "$port" -U raum -d postgres -c "CREATE DATABASE raum" >&2
    url="postgres://raum@127.0.0.1:$port/raum"
    echo "$url" >"$dir/url"
    echo "$url"
    ;;
stop)
    if [ -d "$dir/data" ] && bin="$(bindir)"; then
        as_user "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    usage
    ;;
esac
