#!/usr/bin/env python3
"""Cost of the MCTS evaluator hook against the built-in search at equal iterations
(docs/performance.md, "Python research loops").

On the same decisions (random base 2-player games, seed 1), per call of Player.choose:
  rollouts   the built-in search: mcts:iterations=N (rollouts with the engine's heuristic)
  hook       evaluator=fn on engine states, fn returning uniform priors and 0.5 (the hook's floor)
  research   evaluator=carcassonne.spiel.make_evaluator(game, fn): spiel states, observations and flat
             masks in, flat priors out (fn returns uniform priors and 0.5)
  research-no-obs  the same without observations

    PYTHONPATH=build/python /usr/bin/python3 python/examples/bench_evaluator.py [--iterations 200] [--decisions 20]
"""
import argparse
import time

import numpy as np

import carcassonne as carc
import carcassonne.spiel as spiel


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--decisions", type=int, default=20)
    ap.add_argument("--batch", type=int, default=8)
    args = ap.parse_args()
    game = spiel.load_game("python_carcassonne")
    rng = np.random.default_rng(1)
    states = []
    s = game.engine.new_initial_state(seed=1, auto_chance=True)
    while len(states) < args.decisions:
        if s.is_terminal():
            s = game.engine.new_initial_state(seed=len(states) + 2, auto_chance=True)
        if rng.random() < 0.3:
            states.append(s.clone())
        s.apply(int(rng.choice(s.legal_actions())))
    k = game.num_players()
    leaves = [0]

    def hook(batch):
        leaves[0] += len(batch)
        return [None] * len(batch), [[0.5] * k] * len(batch)

    def research(batch):
        leaves[0] += len(batch.states)
        return None, np.full((len(batch.states), k), 0.5)

    spec = f"mcts:iterations={args.iterations}"
    kinds = {
        "rollouts": lambda: carc.Player(spec, seed=1),
        "hook": lambda: carc.Player(spec, seed=1, evaluator=hook, batch=args.batch),
        "research": lambda: carc.Player(spec, seed=1, evaluator=spiel.make_evaluator(game, research), batch=args.batch),
        "research-no-obs": lambda: carc.Player(spec, seed=1, batch=args.batch,
                                               evaluator=spiel.make_evaluator(game, research, observations=False)),
    }
    base = None
    for name, make in kinds.items():
        leaves[0] = 0
        p = make()
        t0 = time.process_time()
        for st in states:
            p.choose(st)
        dt = (time.process_time() - t0) / len(states)
        base = base or dt
        per_leaf = f", {1e6 * dt * len(states) / leaves[0]:.0f} us per evaluated leaf" if leaves[0] else ""
        print(f"{name:16s} {1e3 * dt:8.2f} ms per move ({dt / base:.2f}x rollouts){per_leaf}", flush=True)


if __name__ == "__main__":
    main()
