#!/usr/bin/env python3
"""The security probe of issue 37, rerun: starts `raum serve` (release build) on
a free loopback port with a fresh database and checks each finding of the
probe, printing what it measured and PASS or FAIL. Exit status 1 if any fails.

    python3 scripts/abuse-probe.py [--binary target/release/raum]

Everything comes from one address (127.0.0.1), as in the probe. Takes about a
minute (the slow-connection checks wait for the server's timeouts).
"""

import argparse
import http.client
import json
import os
import re
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time

failures = []


def check(ok, what, measured=""):
    print(f"{'PASS' if ok else 'FAIL'}  {what}{': ' + measured if measured else ''}", flush=True)
    if not ok:
        failures.append(what)


class Client:
    def __init__(self, port):
        self.port = port

    def call(self, method, path, body=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {"content-type": "application/json"} if body is not None else {}
        c.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        r = c.getresponse()
        data = r.read()
        c.close()
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = data.decode("utf-8", "replace")
        return r.status, parsed, dict((k.lower(), v) for k, v in r.getheaders())

    def get(self, path):
        return self.call("GET", path)

    def post(self, path, body):
        return self.call("POST", path, body)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def wait_for_ply(c, game, ply, limit):
    start = time.monotonic()
    while time.monotonic() - start < limit:
        status, st, _ = c.get(f"/api/games/{game}")
        if status == 200 and len(st["moves"]) >= ply:
            return time.monotonic() - start
        time.sleep(0.02)
    return None


def until_closed(sock, limit):
    """Seconds until the server closes `sock` (None past `limit`), and what it said."""
    sock.settimeout(limit)
    start = time.monotonic()
    got = b""
    try:
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                return time.monotonic() - start, got
            got += chunk
    except (socket.timeout, TimeoutError):
        return None, got
    except OSError:
        return time.monotonic() - start, got


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/raum")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="raum-probe-")
    db = os.path.join(work, "games.db")
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--db", db], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(re.search(r":(\d+)/", line).group(1))
        c = Client(port)
        probe(c, server.pid, db, port)
    finally:
        server.terminate()
        server.wait()
    print(f"\n{len(failures)} finding(s) still open" + ("" if not failures else ": " + "; ".join(failures)))
    sys.exit(1 if failures else 0)


def probe(c, pid, db, port):
    # --- the lobby: the first list of variants, and memory after it ---------------
    start = time.monotonic()
    status, variants, _ = c.get("/api/variants")
    ms = (time.monotonic() - start) * 1000
    check(status == 200 and ms < 200, "the first GET /api/variants answers in under 200 ms", f"{ms:.1f} ms")
    for path in ["/", "/static/lobby.js", "/static/style.css", "/api/variant-examples"]:
        c.get(path)
    mb = rss_mb(pid)
    check(mb < 100, "resident memory after serving the lobby under 100 MB", f"{mb:.0f} MB")

    # --- headers, 404s, the database file -----------------------------------------
    status, game, _ = c.post("/api/games", {"variant": "five-up", "mode": "online"})
    gid, tokens = game["id"], game["tokens"]
    for path in ["/", f"/g/{gid}", "/api/variants", f"/api/games/{gid}", "/static/nope.js", "/nowhere"]:
        _, _, h = c.get(path)
        ok = ("frame-ancestors 'none'" in h.get("content-security-policy", "")
              and h.get("x-content-type-options") == "nosniff" and h.get("referrer-policy") == "no-referrer")
        check(ok, f"security headers on {path}")
    status, body, _ = c.get("/%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    check(status == 404 and "script" not in str(body).lower(), "a 404 does not echo the path")
    mode = stat.S_IMODE(os.stat(db).st_mode)
    check(mode == 0o600, "the database file is 0600", oct(mode))
    status, st, _ = c.post(f"/api/games/{gid}/moves", {"token": tokens["white"], "ply": 0, "move": game["state"]["legal"][0]["coord"]})
    with open(db, "rb") as f:
        raw = f.read()
    for ext in ["-wal"]:
        if os.path.exists(db + ext):
            with open(db + ext, "rb") as f:
                raw += f.read()
    clear = [t for t in tokens.values() if t.encode() in raw]
    check(status == 200 and not clear, "seat tokens are not stored in clear", f"{len(clear)} of {len(tokens)} found")

    # --- input bounds and names ------------------------------------------------------
    start_fen = "rwkgr|ppppp|5|5|5/nbqnb|ppppp|5|5|5/5|5|5|5|5/5|5|5|PPPPP|NBQNB/5|5|5|PPPPP|RWKGR w Kk - 0 4294967295"
    status, _, _ = c.post("/api/games", {"variant": "five-up", "mode": "local", "fen": start_fen})
    check(400 <= status < 500, "a fullmove number of 4294967295 is refused", str(status))
    status, _, _ = c.post("/api/games", {"variant": "five-up", "mode": "online", "names": {"white": "Raum (level 3)"}})
    check(status == 400, "a person may not call themselves 'Raum (level 3)'", str(status))
    status, g, _ = c.post("/api/games", {"variant": "five-up", "mode": "online", "names": {"white": "\u202enna\u200b"}})
    check(status == 201 and g["state"]["names"]["white"] == "nna", "bidi and zero-width characters are dropped from names",
          repr(g["state"]["names"]["white"]) if status == 201 else str(status))

    # --- engine time -------------------------------------------------------------------
    slow = {"variant": "five-up", "mode": "engine", "engine": {"color": "white", "movetime": 60000}}
    status, body, _ = c.post("/api/games", slow)
    check(status == 400, "an engine move of 60 s is refused (10 s at most)", str(status))
    slow["engine"]["movetime"] = 10000
    hogs = [c.post("/api/games", slow)[1] for _ in range(3)]
    quick = {"variant": "five-up", "mode": "engine", "engine": {"color": "white", "movetime": 300}}
    status, q, _ = c.post("/api/games", quick)
    took = wait_for_ply(c, q["id"], 1, 30)
    check(took is not None and took < 2, "a 300 ms engine reply while three games think 10 s a move",
          "none in 30 s" if took is None else f"{took:.2f} s")
    # Twenty analyses of 10 s, all at once, then an engine move in another game.
    status, local, _ = c.post("/api/games", {"variant": "raumschach", "mode": "local"})
    answers = []

    def analyse():
        answers.append(c.post(f"/api/games/{local['id']}/analysis", {"movetime": 10000})[0])

    threads = [threading.Thread(target=analyse) for _ in range(20)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    status, q2, _ = c.post("/api/games", quick)
    took = wait_for_ply(c, q2["id"], 1, 30)
    check(took is not None and took < 2, "an engine reply while twenty 10 s analyses were asked for",
          "none in 30 s" if took is None else f"{took:.2f} s")
    for t in threads:
        t.join()
    refused = sum(1 for s in answers if s == 429)
    check(refused >= 19, "analyses past the caps are refused with 429", f"{refused} of 20 refused")
    for h in hogs:
        c.post(f"/api/games/{h['id']}/resign", {"token": h["tokens"]["black"]})

    # A multi-player game whose one person resigns: the engine seats stop.
    engine = {"player": "engine", "movetime": 50}
    status, m, _ = c.post("/api/games", {"variant": "triquetral-3p", "mode": "online",
                                         "seats": {"white": {"name": "Ann"}, "blue": engine, "green": engine}})
    first = m["state"]["legal"][0]["coord"]
    c.post(f"/api/games/{m['id']}/moves", {"token": m["tokens"]["white"], "ply": 0, "move": first})
    wait_for_ply(c, m["id"], 3, 10)
    _, st, _ = c.post(f"/api/games/{m['id']}/resign", {"token": m["tokens"]["white"]})
    time.sleep(2)
    _, later, _ = c.get(f"/api/games/{m['id']}")
    check(later["ply"] == st["ply"], "engine seats make no move once the last person resigned",
          f"ply {st['ply']} then {later['ply']} 2 s later")

    # --- slow and silent connections ------------------------------------------------------
    def connect(data=b""):
        s = socket.create_connection(("127.0.0.1", port))
        if data:
            s.sendall(data)
        return s

    start = time.monotonic()
    huge = connect(b"POST /api/games HTTP/1.1\r\nHost: raum\r\nContent-Length: 10000000000\r\n\r\n{")
    took, said = until_closed(huge, 30)
    check(said.startswith(b"HTTP/1.1 413") and took is not None and took < 2,
          "Content-Length: 10000000000 and one byte: 413 at once", f"{said[:12]!r} after {took}")
    conns = {
        "a bare connect": connect(),
        "partial headers": connect(b"GET / HTTP/1.1\r\nHost: raum\r\n"),
        "a body that never comes": connect(b"POST /api/games HTTP/1.1\r\nHost: raum\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"),
    }
    trickle = connect(b"GET / HTTP/1.1\r\nHost: raum\r\n")

    def trickling():
        for _ in range(60):
            try:
                trickle.sendall(b"X")
            except OSError:
                return
            time.sleep(1)

    threading.Thread(target=trickling, daemon=True).start()
    conns["a trickle"] = trickle
    start = time.monotonic()
    results = {}

    def watch(name, s):
        results[name] = until_closed(s, 40)

    watchers = [threading.Thread(target=watch, args=kv) for kv in conns.items()]
    for w in watchers:
        w.start()
    for w in watchers:
        w.join()
    for name, (took, said) in results.items():
        check(took is not None and took < 30, f"slowloris ({name}) closed within 30 s",
              "open after 40 s" if took is None else f"{took:.1f} s, {said[:12]!r}")

    # --- connections per address ------------------------------------------------------------
    many = [connect() for _ in range(70)]
    time.sleep(0.3)
    turned = 0
    for s in many:
        s.settimeout(0.05)
        try:
            if s.recv(64).startswith(b"HTTP/1.1 503"):
                turned += 1
        except OSError:
            pass
    check(turned >= 6, "connections past 64 from one address are answered 503", f"{turned} of 70 turned away")
    for s in many:
        s.close()
    time.sleep(0.3)

    # --- rate limits -----------------------------------------------------------------------------
    codes = [c.post("/api/games", {"variant": "five-up", "mode": "local"})[0] for _ in range(200)]
    made, limited = codes.count(201), codes.count(429)
    check(made <= 20 and limited >= 180, "200 POST /api/games from one address: the rate limit answers 429",
          f"{made} created, {limited} refused with 429")


if __name__ == "__main__":
    main()
