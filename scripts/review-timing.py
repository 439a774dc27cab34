#!/usr/bin/env python3
"""How long a game's review takes, and whether it delays engine moves in other
games (issue 38). Against a running `raum serve` (see scripts/review-timing.sh,
which starts one with the load script playing beside it):

1. makes a finished game of PLIES plies (Five Up unless VARIANT) by engine self-play through
   POST /api/lines (30 ms a move, one of the two best lines at random, seed
   fixed), resigned at the end if the rules did not end it;
2. times the engine's replies in a game against it (a fixed time per move)
   with nothing else asked of the engine;
3. starts the review of the finished game and, while it is made, times the
   engine's replies again; then reports the review's time. (The person's
   moves in that game are the engine's best at 20 ms, asked before each
   reply is timed.)

Standard library only.   review-timing.py URL [PLIES] [VARIANT] [ENGINE_MS] [MOVES]
"""

import json
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request

VARIANT = "five-up"


def call(base, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {path}: {e.code} {e.read().decode()}")


def finished_game(base, plies, rng):
    """A finished game of `plies` plies by engine self-play (the
    longest of a few tries where each game ends sooner)."""
    best = None
    for _ in range(8):
        gid, played = self_play(base, plies, rng)
        if best is None or played > best[1]:
            best = (gid, played)
        if played >= plies:
            break
    return best


def self_play(base, plies, rng):
    created = call(base, "POST", "/api/games", {"variant": VARIANT, "mode": "local"})
    gid, token = created["id"], created["tokens"]["white"]
    moves = []
    state = created["state"]
    while len(moves) < plies and not state["result"]:
        lines = call(base, "POST", "/api/lines", {"variant": VARIANT, "moves": moves, "movetime": 30, "multipv": 2})
        if not lines["lines"]:
            break
        coord = rng.choice(lines["lines"])["moves"][0]
        state = call(base, "POST", f"/api/games/{gid}/moves", {"token": token, "ply": len(moves), "move": coord})
        moves.append(coord)
    if not state["result"]:
        state = call(base, "POST", f"/api/games/{gid}/resign", {"token": token})
    return gid, state["ply"]


def engine_replies(base, count, engine_ms, rng):
    """Milliseconds from each move sent to the engine's reply in the state."""
    created = call(base, "POST", "/api/games", {"variant": VARIANT, "mode": "engine", "engine": {"color": "black", "movetime": engine_ms}})
    gid, token = created["id"], created["tokens"]["white"]
    state = created["state"]
    times = []
    for _ in range(count):
        if state["result"] or not state["legal"]:
            break
        # the person plays the engine's best move at 20 ms (a game that lasts), before the clock starts
        moves = [m["coord"] for m in state["moves"]]
        lines = call(base, "POST", "/api/lines", {"variant": VARIANT, "moves": moves, "movetime": 20, "multipv": 1})
        move = lines["lines"][0]["moves"][0] if lines["lines"] else rng.choice(state["legal"])["coord"]
        ply = state["ply"]
        start = time.monotonic()
        state = call(base, "POST", f"/api/games/{gid}/moves", {"token": token, "ply": ply, "move": move})
        while state["ply"] < ply + 2 and not state["result"]:
            time.sleep(0.005)
            state = call(base, "GET", f"/api/games/{gid}")
        times.append((time.monotonic() - start) * 1000)
    return times


def summary(times):
    return f"median {statistics.median(times):.0f} ms, max {max(times):.0f} ms over {len(times)} replies"


def main():
    base = sys.argv[1].rstrip("/")
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    global VARIANT
    VARIANT = sys.argv[3] if len(sys.argv) > 3 else VARIANT
    engine_ms = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 12
    rng = random.Random(38)
    gid, played = finished_game(base, plies, rng)
    print(f"review-timing: a finished {VARIANT} game of {played} plies ({gid})")
    alone = engine_replies(base, count, engine_ms, rng)
    print(f"review-timing: engine replies ({engine_ms} ms a move), nothing else asked: {summary(alone)}")

    done = {}

    def review():
        start = time.monotonic()
        call(base, "POST", f"/api/games/{gid}/review", {})
        while True:
            r = call(base, "GET", f"/api/games/{gid}/review")
            if r["status"] == "done":
                done["secs"] = time.monotonic() - start
                done["positions"] = len(r["review"]["positions"])
                return
            time.sleep(0.05)

    t = threading.Thread(target=review)
    t.start()
    during = engine_replies(base, count, engine_ms, rng)
    t.join()
    print(f"review-timing: engine replies while the review is made: {summary(during)}")
    print(f"review-timing: the review of {done['positions']} positions took {done['secs']:.1f} s")


if __name__ == "__main__":
    main()
