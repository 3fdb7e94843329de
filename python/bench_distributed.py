"""Overhead of carcassonne.distributed against `carcassonne tournament` on one machine
(docs/performance.md, "Cluster runs").

    PYTHONPATH=build/python /usr/bin/python3 python/bench_distributed.py [--games 2000] [--rounds 5]
        [--chunks default,25,50,125,250,1000] [--players greedy,greedy] [--cli build/carcassonne]

Starts a Dask scheduler and 2 single-threaded worker processes on loopback (`dask scheduler`,
`dask worker --nworkers 2 --nthreads 1`), then per round runs the CLI on 2 threads and the cluster
once per chunk size, interleaved so that load from other programs hits both alike. Reports games per
wall-clock second (best and median of the rounds), the cluster/CLI time ratio of the best runs, and
CPU seconds per 1000 games (CLI: the process; cluster: workers + scheduler + client), which does not
depend on the machine's load. Every cluster result is checked against the CLI's (same numbers).
"""
import argparse
import json
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import distributed

# The script's own directory holds the package's sources without the built extension: import the
# package from PYTHONPATH (build/python) instead.
if sys.path and pathlib.Path(sys.path[0] or ".").resolve() == pathlib.Path(__file__).resolve().parent:
    del sys.path[0]
from carcassonne import distributed as cd  # noqa: E402


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_scheduler(dask_scheduler=None):
    return cpu_self()


def strip(text):
    return re.sub(r',"seconds":[-+0-9.eE]+', "", text.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", default="greedy,greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunks", default="default,25,50,125,250,1000")
    ap.add_argument("--cli", default=str(pathlib.Path(__file__).resolve().parents[1] / "build" / "carcassonne"))
    args = ap.parse_args()
    chunks = [None if c == "default" else int(c) for c in args.chunks.split(",")]
    players = args.players.split(",")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(pathlib.Path(cd.__file__).resolve().parents[1])
    with tempfile.TemporaryDirectory(prefix="carc-bench-dask-") as d:
        sf = os.path.join(d, "scheduler.json")
        procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                   "--port", "0", "--no-dashboard", "--scheduler-file", sf],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=d)]
        try:
            while not os.path.exists(sf):
                time.sleep(0.1)
            time.sleep(0.3)
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file", sf,
                                           "--nworkers", "2", "--nthreads", "1", "--no-dashboard", "--host",
                                           "127.0.0.1", "--local-directory", d],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=d))
            client = distributed.Client(scheduler_file=sf, timeout=60)
            client.wait_for_workers(2, timeout=120)
            # Warm-up: every worker imports the module once.
            cd.tournament(client, players, 4, seed=args.seed, chunk=1)
            # Background CPU of the idle cluster (heartbeats, monitors), per wall second.
            i0 = sum(client.run(cpu_self).values()) + client.run_on_scheduler(cpu_scheduler) + cpu_self()
            time.sleep(5)
            idle = (sum(client.run(cpu_self).values()) + client.run_on_scheduler(cpu_scheduler) + cpu_self() - i0) / 5
            wall = {c: [] for c in ["cli"] + chunks}
            cpu = {c: [] for c in ["cli"] + chunks}
            for rnd in range(args.rounds):
                c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                out = subprocess.run([args.cli, "tournament", "--players", args.players, "-n", str(args.games),
                                      "--seed", str(args.seed), "-t", "2", "--json"],
                                     check=True, capture_output=True, text=True).stdout
                c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                ref = strip(out)
                wall["cli"].append(json.loads(out)["seconds"])
                cpu["cli"].append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
                for c in chunks:
                    w0 = sum(client.run(cpu_self).values()) + client.run_on_scheduler(cpu_scheduler) + cpu_self()
                    text = cd.tournament_json(client, players, args.games, seed=args.seed, chunk=c)
                    w1 = sum(client.run(cpu_self).values()) + client.run_on_scheduler(cpu_scheduler) + cpu_self()
                    if strip(text) != ref:
                        raise SystemExit(f"chunk {c}: the cluster's result differs from the CLI's")
                    wall[c].append(json.loads(text)["seconds"])
                    cpu[c].append(w1 - w0)
                load = open("/proc/loadavg").read().split()[0]
                print(f"round {rnd + 1}/{args.rounds} done (load average {load})", file=sys.stderr)
            client.close()
        finally:
            for p in reversed(procs):
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
    n = args.games
    best_cli = min(wall["cli"])
    print(f"{n} games {args.players}, seed {args.seed}, {args.rounds} rounds; "
          f"cluster = scheduler + 2 workers x 1 thread on this machine; idle cluster CPU {idle:.3f} s/s")
    print("| run | games per task | tasks | games/s best | games/s median | time / CLI (best) | CPU s per 1000 games |")
    print("|---|---|---|---|---|---|---|")
    for c in ["cli"] + chunks:
        if c == "cli":
            label, per, tasks = "`carcassonne tournament -t 2`", "-", "-"
        else:
            per = c if c is not None else cd.default_chunk(n, 2)
            label, tasks = ("cluster, default chunk" if c is None else "cluster"), -(-n // per)
        b, m = n / min(wall[c]), n / statistics.median(wall[c])
        print(f"| {label} | {per} | {tasks} | {b:.0f} | {m:.0f} | {min(wall[c]) / best_cli:.3f} | "
              f"{1000 * statistics.median(cpu[c]) / n:.2f} |")


if __name__ == "__main__":
    main()
