#!/usr/bin/env python3
"""Random games per second through the Python module: driven step by step from Python, and
through one batch call (play_games, C++ threads, GIL released), next to the C++ figure of
`carcassonne bench`.

    PYTHONPATH=build/python /usr/bin/python3 python/bench.py [--seconds 3] [--build-dir build]
        [--players 2] [--tileset base|wheel-of-fortune] [--expansions festival,...]
"""
import argparse
import json
import os
import pathlib
import random
import subprocess
import sys
import time

try:
    import numpy as np
except ImportError:  # masks need numpy; the game figures do not
    np = None

ROOT = pathlib.Path(__file__).resolve().parents[1]


def find_module(build_dir):
    try:
        import carcassonne  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(pathlib.Path(build_dir) / "python"))
    import carcassonne
    return carcassonne


def timed(fn, seconds):
    """Runs fn(i) for i = 0, 1, ... for `seconds` of CPU time; returns calls per CPU second of the
    process (like `carcassonne bench`, which reports per core from CPU time, so figures stay
    meaningful on a loaded machine)."""
    n, t0 = 0, time.process_time()
    while True:
        fn(n)
        n += 1
        el = time.process_time() - t0
        if el >= seconds:
            return n / el


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.environ.get("CARC_BUILD_DIR", str(ROOT / "build")))
    ap.add_argument("--seconds", type=float, default=3.0, help="time per step-by-step measurement")
    ap.add_argument("--batch-games", type=int, default=20000)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--tileset", default="base", help="base or wheel-of-fortune")
    ap.add_argument("--expansions", default="", help="comma-separated")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    carc = find_module(args.build_dir)
    exps = [e for e in args.expansions.split(",") if e]
    game = carc.Game(players=args.players, tileset=args.tileset, expansions=exps)
    res = {"rules": str(game.rules), "cores": os.cpu_count()}

    def py_moves(i):
        rng = random.Random(i)
        s = game.new_initial_state(seed=i, auto_chance=True)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_moves()))

    def py_actions(i):
        rng = random.Random(i)
        s = game.new_initial_state(seed=i, auto_chance=True)
        while not s.is_terminal():
            s.apply(rng.choice(s.legal_actions()))

    fruit = game.num_fruit_codes > 1

    wheel = game.has_wheel
    extra_ranges = [r for r in ("crown", "plague", "choose") if game.action_ranges[r][1] > game.action_ranges[r][0]]

    def py_rl(i):
        # What a learning loop does per step: observation + mask, then an action. With the
        # Fruit-Bearing Trees the flat mask is num_placements * 441 entries: use the factored masks
        # (and, with the Wheel of Fortune, one mask per wheel range).
        rng = random.Random(i)
        s = game.new_initial_state(seed=i, auto_chance=True)
        while not s.is_terminal():
            s.observation()
            if fruit:
                s.legal_placement_mask()
                s.legal_fruit_masks()
                for r in extra_ranges:
                    s.legal_range_mask(r)
            else:
                s.legal_action_mask()
            s.apply(rng.choice(s.legal_actions()))

    def decision_states(games):
        # Every decision of a few random games (clones), for per-call timings.
        out = []
        for i in range(games):
            rng = random.Random(i)
            s = game.new_initial_state(seed=i, auto_chance=True)
            while not s.is_terminal():
                out.append(s.clone())
                s.apply(rng.choice(s.legal_actions()))
        return out

    def per_call_us(fn, states, seconds):
        # Mean CPU microseconds of fn(state) over the decisions of a few games.
        return 1e6 / (timed(lambda i: fn(states[i % len(states)]), seconds))

    def py_explicit_chance(i):
        rng = random.Random(i)
        s = game.new_initial_state(seed=i)
        while not s.is_terminal():
            if s.is_chance_node():
                s.draw_random()
            else:
                moves = s.legal_moves()
                s.apply(moves[rng.randrange(len(moves))])

    # Decisions per game (placements, and with the wheel also Plague and Choose decisions).
    decisions, kinds = 0, {}
    for i in range(20):
        rng = random.Random(i)
        s = game.new_initial_state(seed=i, auto_chance=True)
        while not s.is_terminal():
            m = rng.choice(s.legal_moves())
            kinds[m.kind] = kinds.get(m.kind, 0) + 1
            s.apply(m)
    res["decisions_per_game"] = sum(kinds.values()) / 20
    res["decision_kinds_per_game"] = {k: v / 20 for k, v in sorted(kinds.items())}

    res["python_step_moves"] = timed(py_moves, args.seconds)
    res["python_step_actions"] = timed(py_actions, args.seconds)
    res["python_step_explicit_chance"] = timed(py_explicit_chance, args.seconds)
    res["python_step_obs_mask"] = timed(py_rl, args.seconds)
    res["python_play_random_1call_per_game"] = timed(
        lambda i: game.new_initial_state(seed=i, auto_chance=True).play_random(i), args.seconds)

    # Mask building per decision (microseconds), over the decisions of 5 random games.
    states = decision_states(5)
    res["decisions_timed"] = len(states)
    res["mean_legal_moves"] = sum(s.num_legal_moves() for s in states) / len(states)
    flat = np.zeros(game.num_actions, bool) if np is not None else None
    placement = np.zeros(game.num_placements, bool) if np is not None else None
    res["us_legal_actions"] = per_call_us(lambda s: s.legal_actions(), states, args.seconds)
    if np is not None:
        res["us_legal_action_mask_out"] = per_call_us(lambda s: s.legal_action_mask(out=flat), states, args.seconds)
        res["us_legal_placement_mask_out"] = per_call_us(lambda s: s.legal_placement_mask(out=placement), states,
                                                         args.seconds)
        res["us_legal_fruit_masks"] = per_call_us(lambda s: s.legal_fruit_masks(), states, args.seconds)

    # One thread: games per CPU second (the worker's time; the polling caller adds almost none).
    # All cores: games per wall-clock second (the throughput of the whole machine).
    for threads, records in ((1, False), (1, True), (0, False)):
        t0, c0 = time.perf_counter(), time.process_time()
        carc.play_games(players=["random"] * args.players, games=args.batch_games, seed=1, threads=threads,
                        tileset=args.tileset, expansions=exps, records=records)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        key = f"batch_threads{'_all' if threads == 0 else threads}{'_records' if records else ''}"
        res[key] = args.batch_games / (wall if threads == 0 else cpu)

    cli = pathlib.Path(args.build_dir) / "carcassonne"
    if cli.exists():
        cmd = [str(cli), "bench", "--json", "--players", str(args.players), "--tileset", args.tileset]
        if exps:
            cmd += ["--expansions", ",".join(exps)]
        out = subprocess.run(cmd, capture_output=True, text=True, check=False).stdout.strip().splitlines()
        if out:
            res["cpp_bench"] = json.loads(out[-1])["games_per_second"]

    if args.json:
        print(json.dumps(res, indent=1))
        return
    print(f"{res['rules']}, random games per CPU second ({res['cores']} cores; "
          f"{res['decisions_per_game']:.1f} decisions per game: {res['decision_kinds_per_game']}):")
    labels = {
        "python_step_moves": "Python, step by step: legal_moves() + apply(move), auto chance",
        "python_step_actions": "Python, step by step: legal_actions() + apply(action)",
        "python_step_explicit_chance": "Python, step by step, explicit draw_random()",
        "python_step_obs_mask": "Python, step by step + observation() + legal_action_mask()",
        "python_play_random_1call_per_game": "Python, one play_random() call per game",
        "batch_threads1": "play_games(), 1 thread, no records",
        "batch_threads1_records": "play_games(), 1 thread, with records",
        "batch_threads_all": "play_games(), all cores, no records (per wall-clock second)",
        "cpp_bench": "C++ `carcassonne bench` (1 core)",
    }
    if fruit:
        labels["python_step_obs_mask"] = ("Python, step by step + observation() + legal_placement_mask() + "
                                          "legal_fruit_masks()" + (" + legal_range_mask() per wheel range"
                                                                   if wheel else ""))
    for k, label in labels.items():
        if k in res:
            print(f"  {res[k]:10.0f}  {label}")
    print(f"Per decision, CPU microseconds ({res['decisions_timed']} decisions of 5 games, "
          f"{res['mean_legal_moves']:.0f} legal moves on average; num_actions {game.num_actions:,}):")
    us = {
        "us_legal_actions": "legal_actions()",
        "us_legal_action_mask_out": f"legal_action_mask(out=...), {game.num_actions:,} entries",
        "us_legal_placement_mask_out": f"legal_placement_mask(out=...), {game.num_placements:,} entries",
        "us_legal_fruit_masks": f"legal_fruit_masks(), rows x {game.num_fruit_codes}",
    }
    for k, label in us.items():
        if k in res:
            print(f"  {res[k]:10.1f}  {label}")


if __name__ == "__main__":
    main()
