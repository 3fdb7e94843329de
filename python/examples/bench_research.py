#!/usr/bin/env python3
"""Speed of the research layers against the engine (docs/performance.md, "Python research loops").

Per rule set: random games per CPU second through
  engine  the engine bindings alone: legal_actions() + apply(action), chance_outcomes() + apply_draw()
  spiel   carcassonne.spiel: legal_actions() + apply_action(), chance_outcomes() + apply_action()
  pz      carcassonne.pettingzoo: last() (observation and int8 mask), action_space(agent).sample(mask),
          step(): the AEC loop of PettingZoo's documentation
and the spiel/engine ratio; then per state of a finished game: deserialize_state(serialize()),
from_snapshot(snapshot()), undo_action() and the snapshot's size; legal_action_mask_array().

    PYTHONPATH=build/python /usr/bin/python3 python/examples/bench_research.py [--seconds 3] [--rules all|base]
"""
import argparse
import random
import time

import numpy as np

import carcassonne.pettingzoo as pz
import carcassonne.spiel as spiel

RULES = [{}, {"expansions": "festival"}, {"expansions": "fruit-trees"},
         {"tileset": "wheel-of-fortune"},
         {"tileset": "wheel-of-fortune", "expansions": "festival+fortune-teller+fruit-trees"}]


def per_second(fn, seconds):
    n, t0 = 0, time.process_time()
    while True:
        fn(n)
        n += 1
        el = time.process_time() - t0
        if el >= seconds:
            return n / el


def timed(fn, reps):
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) / reps


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--rules", default="all", help="all or base")
    args = ap.parse_args()
    for params in RULES if args.rules == "all" else RULES[:1]:
        g = spiel.load_game("carcassonne", params)
        eg = g.engine

        def engine(i):
            rng = random.Random(i)
            s = eg.new_initial_state(seed=i)
            while not s.is_terminal():
                if s.is_chance_node():
                    t, p = zip(*s.chance_outcomes())
                    s.apply_draw(rng.choices(t, p)[0])
                else:
                    s.apply(rng.choice(s.legal_actions()))

        def spiel_game(i):
            rng = random.Random(i)
            s = g.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    a, p = zip(*s.chance_outcomes())
                    s.apply_action(rng.choices(a, p)[0])
                else:
                    s.apply_action(rng.choice(s.legal_actions()))
            return s

        env = pz.env(**{"players": 2, **{k: v for k, v in params.items()}})

        def pz_game(i):
            env.reset(seed=i)
            for agent in env.agent_iter():
                obs, rew, term, trunc, info = env.last()
                env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))

        e = per_second(engine, args.seconds)
        sp = per_second(spiel_game, args.seconds)
        z = per_second(pz_game, args.seconds)
        s = spiel_game(7)
        text, snap, hist = s.serialize(), s.snapshot(), s.full_history()
        d = timed(lambda: g.deserialize_state(text), 50)
        f = timed(lambda: g.from_snapshot(snap), 50)
        c = [s.clone() for _ in range(50)]
        u = timed(lambda: c.pop().undo_action(*hist[-1]), 50)
        mid = g.deserialize_state("".join(f"{a}\n" for a in s.history()[:len(hist) // 2]))
        while mid.is_chance_node():
            mid.apply_action(mid.chance_outcomes()[0][0])
        m = timed(lambda: mid.legal_action_mask_array(), 200)
        print(f"{g}\n  random games/s: engine {e:.0f}, spiel {sp:.0f} (engine/spiel {e / sp:.2f}x), pettingzoo {z:.0f}"
              f"\n  whole game ({len(hist)} actions): deserialize_state {1e3 * d:.3f} ms, from_snapshot {1e3 * f:.3f} ms,"
              f" undo_action {1e3 * u:.3f} ms, snapshot {len(snap)} bytes; legal_action_mask_array "
              f"({g.num_distinct_actions()}) {1e6 * m:.0f} us", flush=True)


if __name__ == "__main__":
    main()
