#!/usr/bin/env python3
"""Moves per second with `--durability full` vs `fast` (docs/performance.md, "Durability").

Starts `carcassonne serve` on loopback with a fresh SQLite file for each mode, then CLIENTS threads each play
hot-seat games (two human seats, the first legal placement every turn: GET /legal then POST /move) for SECONDS,
and reports moves/s and the POST /move latency (p50, p99). Every move is written to SQLite before it is answered.

  scripts/bench_durability.py [--bin build/carcassonne] [--seconds 10] [--clients 4] [--modes full,fast]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def call(base, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def player(base, deadline, lat, errors):
    while time.time() < deadline:
        g = call(base, "POST", "/api/games", {"players": [{"name": "A"}, {"name": "B"}]})
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        while time.time() < deadline:
            legal = call(base, "GET", f"/api/games/{gid}/legal")
            if not legal["placements"]:
                break
            p = legal["placements"][0]
            mv = {"token": tokens[legal["player"]], "x": p["x"], "y": p["y"], "rotation": p["rotation"], "turn": legal["turn"]}
            t0 = time.perf_counter()
            try:
                call(base, "POST", f"/api/games/{gid}/move", mv)
            except Exception:  # noqa: BLE001 - counted, the run goes on
                errors.append(1)
                break
            lat.append(time.perf_counter() - t0)


def run(binary, mode, seconds, clients):
    with tempfile.TemporaryDirectory() as d:
        srv = subprocess.Popen([binary, "serve", "--port", "0", "--ai-delay", "0", "--db", os.path.join(d, "g.sqlite"),
                                "--durability", mode], stdout=subprocess.PIPE, text=True)
        try:
            line = srv.stdout.readline()
            port = line.split("http://")[1].split("/")[0].split(":")[1]
            base = f"http://127.0.0.1:{port}"
            lat, errors = [], []
            deadline = time.time() + seconds
            threads = [threading.Thread(target=player, args=(base, deadline, lat, errors)) for _ in range(clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            srv.terminate()
            srv.wait()
    lat.sort()
    q = lambda f: 1000 * lat[min(len(lat) - 1, int(f * len(lat)))] if lat else float("nan")  # noqa: E731
    return {"mode": mode, "moves": len(lat), "moves_per_s": len(lat) / seconds, "p50_ms": q(0.5), "p99_ms": q(0.99),
            "errors": len(errors)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "build", "carcassonne"))
    ap.add_argument("--seconds", type=float, default=10)
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--modes", default="full,fast")
    a = ap.parse_args()
    print("| durability | moves | moves/s | POST /move p50 ms | p99 ms | errors |")
    print("|---|---|---|---|---|---|")
    for mode in a.modes.split(","):
        r = run(a.bin, mode, a.seconds, a.clients)
        print(f"| {r['mode']} | {r['moves']} | {r['moves_per_s']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {r['errors']} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
