"""AlphaZero-style search with a value function fitted in numpy from self-play.

1. Self-play: greedy players play GAMES games; every decision's public features (the observation
   vector and board summaries of the planes, relative seats) are stored with the final result of the observing player
   (1 win, 0.5 tie, 0 loss).
2. Fit: ridge regression of the result on the features (numpy only), squashed to [0, 1].
3. Search: carcassonne.Player("mcts:iterations=N", evaluator=value) values new leaves with the
   fitted function (priors uniform: PUCT) instead of rollouts; it plays plain "mcts:iterations=N"
   with seats rotating, and the win rate is printed.

Run: PYTHONPATH=build/python /usr/bin/python3 python/examples/value_search.py [games] [iterations] [matches]
"""
import sys
import time

import numpy as np

import carcassonne as carc

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 40
ITERATIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 200
MATCHES = int(sys.argv[3]) if len(sys.argv) > 3 else 20

game = carc.Game(players=2)
NV = game.observation_shape["vector"][0]
C, W, _ = game.observation_shape["planes"]
# Board summaries from the planes: followers per relative player and kind (planes 19 + 4o + k)
# and cells where a relative player leads an unfinished road/city/field (19 + 4P + 3o + k).
BOARD = list(range(19, 19 + 7 * 2))
V = NV + len(BOARD)
dense = np.empty(game.observation_shape["flat"][0], dtype=np.float32)


def features(state, player, out):
    """The observation vector seen by `player` (scores, supplies, bag counts...), board summaries
    of the planes (followers by kind, unfinished features led, per relative player) and a bias."""
    state.observation(player, out=dense)  # out= reuse: no allocation per call
    planes = dense[:C * W * W].reshape(C, W * W)
    out[:NV] = dense[C * W * W:]
    out[NV:V] = planes[BOARD].sum(axis=1)
    out[V] = 1.0
    return out


# 1. Self-play data.
t0 = time.time()
X, y = [], []
buf = np.empty(V + 1, dtype=np.float32)
for g in range(GAMES):
    s = game.new_initial_state(seed=1000 + g, auto_chance=True)
    greedy = [carc.Player("greedy", seed=g * 2 + p) for p in range(2)]
    seen = []
    while not s.is_terminal():
        p = s.current_player()
        for q in range(2):
            seen.append((q, features(s, q, buf).copy()))
        s.apply(greedy[p].choose(s))
    sc = s.scores()
    for q, f in seen:
        X.append(f)
        y.append(1.0 if sc[q] > sc[1 - q] else 0.5 if sc[q] == sc[1 - q] else 0.0)
X, y = np.array(X), np.array(y)

# 2. Ridge regression on standardised features.
mu, sd = X.mean(0), X.std(0) + 1e-6
mu[-1], sd[-1] = 0.0, 1.0
Z = (X - mu) / sd
w = np.linalg.solve(Z.T @ Z + 1.0 * np.eye(Z.shape[1]), Z.T @ (y - 0.5))
pred = np.clip(0.5 + Z @ w, 0, 1)
print(f"self-play: {GAMES} games, {len(y)} samples, fit R^2 = "
      f"{1 - ((pred - y) ** 2).mean() / y.var():.3f} ({time.time() - t0:.1f} s)")


def value(states):
    """Batched evaluator: uniform priors, the fitted value of each player."""
    F = np.empty((len(states) * 2, V + 1), dtype=np.float32)
    for i, st in enumerate(states):
        for q in range(2):
            features(st, q, F[2 * i + q])
    v = np.clip(0.5 + ((F - mu) / sd) @ w, 0.01, 0.99).reshape(len(states), 2)
    v = v / v.sum(1, keepdims=True)  # the two players' shares of the win
    return [None] * len(states), v.tolist()


# 3. Search with the value function against plain MCTS at equal iterations, seats rotating.
t0 = time.time()
spec = f"mcts:iterations={ITERATIONS}"
players = [carc.Player(spec, seed=7, evaluator=value, batch=8), spec]
res = carc.tournament(players, games=MATCHES, seed=11)
wins = res["wins"][0]
rate = wins / MATCHES
half = 1.96 * np.sqrt(max(rate * (1 - rate), 1e-9) / MATCHES)
print(f"{spec} + value function vs {spec}: {wins:g} of {MATCHES} games ({100 * rate:.0f}% +- {100 * half:.0f}), "
      f"mean scores {res['mean_score'][0]:.1f} vs {res['mean_score'][1]:.1f} ({time.time() - t0:.0f} s)")
