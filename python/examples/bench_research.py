"""Speed of the research conventions: random games through carcassonne.spiel (legal_actions + apply_action per
step) and observation_tensor(out=). Run: PYTHONPATH=build/python /usr/bin/python3 python/examples/bench_research.py"""
import time, numpy as np, carcassonne.spiel as spiel, carcassonne.pettingzoo as pz
for params in [{}, {"expansions": "fruit-trees"}, {"tileset": "wheel-of-fortune", "expansions": "festival+fortune-teller+fruit-trees"}]:
    g = spiel.load_game("carcassonne", params); rng = np.random.default_rng(0); n = 0; t = time.perf_counter()
    for game in range(5):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                a, p = zip(*s.chance_outcomes()); s.apply_action(int(a[rng.choice(len(a), p=np.asarray(p))]))
            else:
                s.apply_action(int(rng.choice(s.legal_actions())))
            n += 1
    dt = time.perf_counter() - t
    obs = np.empty(g.observation_tensor_size(), np.float32)
    t = time.perf_counter(); [s.observation_tensor(0, out=obs) for _ in range(200)]; to = (time.perf_counter() - t) / 200
    print(f"{g}: {g.num_distinct_actions()} actions, obs {g.observation_tensor_size()}, {1e6*dt/n:.0f} us/step (legal_actions+apply), observation_tensor(out=) {1e6*to:.0f} us")
import carcassonne as carc
from carcassonne.compact import CompactBuffers, compact_observation
game = carc.Game(players=2)
buf = CompactBuffers(game)
s = game.new_initial_state(seed=1, auto_chance=True)
first = compact_observation(s, out=buf)[0].size
while not s.is_terminal():
    last = compact_observation(s, out=buf)[0].shape
    s.apply(int(rng.choice(s.legal_actions())))
print(f"compact observation, base 2p: {first} row values at the first decision, {last[0]} rows x {last[1]} at the last "
      f"(dense planes {game.observation_shape['planes']})")
