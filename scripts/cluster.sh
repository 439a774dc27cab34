#!/usr/bin/env bash
# Raum on several servers, on this machine (issue 39): a scratch PostgreSQL
# (scripts/postgres.sh), two `raum serve --db postgres://...` instances on
# free loopback ports, and haproxy before them on a free loopback port,
# balancing HTTP and WebSockets (scripts/lib/haproxy.cfg: round robin, no
# sticky sessions, each instance's /readyz checked every second). Installs
# Debian's haproxy where it is missing. docs/deploy.md explains the same on
# several machines.
#
#   scripts/cluster.sh start DIR [RAUM]   starts it all in the background in DIR (a new folder);
#                                         prints the balancer's URL (also kept in DIR/url)
#   scripts/cluster.sh stop DIR           stops it all (the instances gracefully) and removes DIR
#   scripts/cluster.sh run [RAUM]         starts it in a scratch folder, prints the URL, and
#                                         stops it all on Ctrl-C
#   scripts/cluster.sh install            installs haproxy where it is missing; prints its path
#                                         (scripts/test.sh, for tests/cli/cluster.rs)
#
# RAUM is the `raum` binary; without it, `raum` is built for release. Logs: DIR/raum-N.log,
# DIR/haproxy.log, DIR/postgres/server.log. RAUM_CLUSTER_SERVERS=N starts N instances
# rather than two. The instances trust the balancer (--trusted-proxy 127.0.0.1): each client's
# per-address limits go by the address haproxy names in X-Forwarded-For (docs/deploy.md).
# RAUM_CLUSTER_NO_LIMITS=1 turns those limits off (scripts/load.sh: a thousand games from one
# address). As root, PostgreSQL runs as the user `postgres`,
# the instances as `nobody`, and haproxy drops to the user `haproxy` once it listens.
set -euo pipefail
cd "$(dirname "$0")/.."
me="cluster.sh"

usage() {
    echo "usage: $0 start DIR [RAUM] | stop DIR | run [RAUM] | install" >&2
    exit 2
}

fail() {
    echo "$me: $*" >&2
    exit 1
}

# The last lines of a log, to stderr, under its name.
show_log() {
    [ -f "$1" ] || return 0
    echo "== $1 (last lines):" >&2
    tail -n 20 "$1" >&2
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The status code of GET http://127.0.0.1:PORT/PATH, or 000 when nothing answers.
status_of() {
    curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$1$2" 2>/dev/null || true
}

haproxy_bin() {
    command -v haproxy 2>/dev/null || { [ -x /usr/sbin/haproxy ] && echo /usr/sbin/haproxy; }
}

install_haproxy() {
    echo "$me: installing Debian's haproxy" >&2
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    # (Waiting for another apt-get, as scripts/test.sh runs installs beside each other.)
    local apt=($sudo apt-get -o DPkg::Lock::Timeout=600)
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends haproxy >&2 ||
        { "${apt[@]}" update >&2 && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends haproxy >&2; }
}

# haproxy's path, installed first where it is missing.
ensure_haproxy() {
    if ! haproxy_bin; then
        install_haproxy
        haproxy_bin || fail "no haproxy after installing it"
    fi
}

# Starts a process in its own session (a Ctrl-C at the terminal is not its), output to LOG;
# notes it in DIR/pids as NAME PID.
launch() {
    local name=$1 log=$2
    shift 2
    setsid "$@" </dev/null >"$log" 2>&1 &
    echo "$name $!" >>"$dir/pids"
}

start() {
    [ -z "$raum" ] || [ -x "$raum" ] || fail "$raum is not an executable"
    command -v curl >/dev/null || fail "curl is needed (apt-get install curl)"
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
        fail "$dir exists and is not empty: give a new folder"
    fi
    local haproxy
    haproxy="$(ensure_haproxy)"
    if [ -z "$raum" ]; then
        echo "$me: building raum (cargo build --release -p raum-cli)" >&2
        cargo build --release -q -p raum-cli >&2 || fail "building raum failed"
        raum="${CARGO_TARGET_DIR:-target}/release/raum"
    fi
    mkdir -p "$dir"
    dir="$(cd "$dir" && pwd)"
    raum="$(cd "$(dirname "$raum")" && pwd)/$(basename "$raum")"
    touch "$dir/cluster" "$dir/pids"
    # From here on a failure stops what started.
    trap 'status=$?; [ $status = 0 ] || stop; exit $status' EXIT
    # Each balanced connection is two sockets at the balancer, and a WebSocket one at an instance.
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

    # As root: the instances as `nobody` (from a copy of the binary if nobody may not run it).
    local as=()
    if [ "$(id -u)" = 0 ]; then
        chmod 755 "$dir"
        as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
        "${as[@]}" test -x "$dir" ||
            fail "other users cannot reach $dir (PostgreSQL runs as postgres): give a folder whose parents they can enter"
        if ! "${as[@]}" test -x "$raum"; then
            cp "$raum" "$dir/raum"
            raum="$dir/raum"
        fi
    fi

    echo "$me: starting PostgreSQL (scripts/postgres.sh)" >&2
    local db
    db="$(bash scripts/postgres.sh start "$dir/postgres" 2>"$dir/postgres.log")" ||
        { show_log "$dir/postgres.log"; fail "starting PostgreSQL failed"; }

    local n=${RAUM_CLUSTER_SERVERS:-2} i limits=(--trusted-proxy 127.0.0.1)
    [ "${RAUM_CLUSTER_NO_LIMITS:-}" != 1 ] || limits=(--no-address-limits)
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || fail "RAUM_CLUSTER_SERVERS must be a number of servers, not $n"
    local ports=()
    for i in $(seq "$n"); do
        (cd "$dir" && launch "raum-$i" "$dir/raum-$i.log" "${as[@]}" "$raum" serve --port 0 --db "$db" \
            "${limits[@]}")
    done
    # Each prints its URL once its database is open and migrated, then must be ready.
    for i in $(seq "$n"); do
        local pid port="" log="$dir/raum-$i.log"
        pid="$(awk -v n="raum-$i" '$1 == n {print $2}' "$dir/pids")"
        for _ in $(seq 300); do
            port="$(grep -o 'http://127.0.0.1:[0-9]*' "$log" 2>/dev/null | head -n 1 | sed 's/.*://')" || true
            [ -n "$port" ] && break
            kill -0 "$pid" 2>/dev/null || { show_log "$log"; fail "raum-$i stopped at its start"; }
            sleep 0.1
        done
        [ -n "$port" ] || { show_log "$log"; fail "raum-$i printed no URL within 30 s"; }
        local ready=""
        for _ in $(seq 300); do
            [ "$(status_of "$port" /readyz)" = 200 ] && { ready=1; break; }
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        [ -n "$ready" ] || { show_log "$log"; fail "raum-$i (port $port) was not ready within 30 s"; }
        ports+=("$port")
    done

    local lb maxconn user="" servers=""
    lb="$(free_port)"
    # Two sockets a balanced connection, within the limit on open files (raised above).
    maxconn=$((($(ulimit -n) - 100) / 2))
    [ "$maxconn" -le 20000 ] || maxconn=20000
    if [ "$(id -u)" = 0 ] && id haproxy >/dev/null 2>&1; then
        user="    user haproxy"$'\n'"    group haproxy"
    fi
    for i in $(seq "$n"); do
        [ -z "$servers" ] || servers+=$'\n'
        servers+="    server raum-$i 127.0.0.1:${ports[$((i - 1))]}"
    done
    local cfg
    cfg="$(<scripts/lib/haproxy.cfg)"
    cfg="${cfg//@PORT@/$lb}"
    cfg="${cfg//@MAXCONN@/$maxconn}"
    cfg="${cfg//@USER@/$user}"
    cfg="${cfg//@SERVERS@/$servers}"
    echo "$cfg" >"$dir/haproxy.cfg"
    "$haproxy" -c -q -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 ||
        { show_log "$dir/haproxy.log"; fail "haproxy refuses $dir/haproxy.cfg"; }
    launch haproxy "$dir/haproxy.log" "$haproxy" -db -f "$dir/haproxy.cfg"
    local pid url="http://127.0.0.1:$lb/" ready=""
    pid="$(awk '$1 == "haproxy" {print $2}' "$dir/pids")"
    for _ in $(seq 150); do
        [ "$(status_of "$lb" /readyz)" = 200 ] && { ready=1; break; }
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$ready" ] || { show_log "$dir/haproxy.log"; fail "the balancer (port $lb) did not answer within 15 s"; }
    echo "$url" >"$dir/url"
    echo "$me: $n instances (${ports[*]/#/http://127.0.0.1:}) behind haproxy; logs in $dir" >&2
    echo "$url"
    trap - EXIT
}

# Stops what DIR/pids names (each checked to be the program started: haproxy or raum), gently
# first (the instances close their sockets with 1012 and finish their requests within 10 s),
# then PostgreSQL; removes DIR.
stop() {
    if [ ! -e "$dir/cluster" ]; then
        [ -e "$dir" ] || return 0
        fail "$dir is not a folder this script started: left as it is"
    fi
    local name pid pids=()
    if [ -f "$dir/pids" ]; then
        while read -r name pid; do
            # (A pid noted long ago may be another program's now.)
            case "$(cat "/proc/$pid/comm" 2>/dev/null || true)" in
            raum | haproxy) pids+=("$pid") ;;
            esac
        done <"$dir/pids"
    fi
    if [ ${#pids[@]} -gt 0 ]; then
        kill -TERM "${pids[@]}" 2>/dev/null || true
        for _ in $(seq 150); do
            local alive=0
            for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
            [ $alive = 0 ] && break
            sleep 0.1
        done
        kill -KILL "${pids[@]}" 2>/dev/null || true
    fi
    bash scripts/postgres.sh stop "$dir/postgres" || true
    rm -rf "$dir"
}

[ $# -ge 1 ] || usage
case "$1" in
start)
    [ $# -ge 2 ] && [ $# -le 3 ] || usage
    dir=$2
    raum=${3:-}
    start
    ;;
stop)
    [ $# -eq 2 ] || usage
    dir=$2
    stop
    ;;
install)
    [ $# -eq 1 ] || usage
    ensure_haproxy
    ;;
run)
    [ $# -le 2 ] || usage
    dir="$(mktemp -d -t raum-cluster.XXXXXX)"
    raum=${2:-}
    start
    sleep infinity &
    sleeper=$!
    trap 'kill $sleeper 2>/dev/null; stop; echo "$me: stopped" >&2' EXIT
    trap 'exit 0' INT TERM
    echo "$me: open the URL above; Ctrl-C stops it all" >&2
    wait $sleeper
    ;;
*)
    usage
    ;;
esac
