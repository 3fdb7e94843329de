"""The MCTS evaluator hook in the research API (carcassonne.spiel.make_evaluator): spiel states,
observations and flat-space masks in, priors over the flat action space and values out, batched
across the search's leaves."""
import numpy as np
import pytest

import carcassonne as carc
import carcassonne.spiel as spiel

needs_ai = pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library")


def decision(game, seed, want=None):
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    for _ in range(10_000):
        if s.is_chance_node():
            a, p = zip(*s.chance_outcomes())
            s.apply_action(int(a[rng.choice(len(a), p=np.asarray(p))]))
        elif want is None or want(s):
            return s
        else:
            s.apply_action(int(rng.choice(s.legal_actions())))
    pytest.fail("no such decision")


@needs_ai
@pytest.mark.parametrize("params", [{}, {"expansions": "fruit-trees+festival"},
                                    {"tileset": "wheel-of-fortune", "expansions": "fortune-teller"}])
def test_batches_are_research_shaped(params):
    game = spiel.load_game("carcassonne", params)
    calls = []

    def fn(batch):
        B = len(batch.states)
        assert batch.observations.shape == (B, game.observation_tensor_size()) and batch.observations.dtype == np.float32
        assert batch.masks.shape == (B, game.num_distinct_actions()) and batch.masks.dtype == np.bool_
        for i, s in enumerate(batch.states):
            assert s.current_player() == batch.players[i] and not s.is_terminal()
            assert np.array_equal(np.flatnonzero(batch.masks[i]), s.legal_actions() if batch.players[i] >= 0 else [])
            assert np.array_equal(batch.observations[i], s.observation_tensor())
        calls.append(B)
        return np.ones((B, game.num_distinct_actions())), np.full((B, game.num_players()), 0.5)

    s = decision(game, 3)
    player = carc.Player("mcts:iterations=48", seed=1, evaluator=spiel.make_evaluator(game, fn), batch=8)
    move = player.choose(s.engine_state)
    assert move in s.engine_state.legal_moves()
    assert calls and max(calls) <= 8 and sum(calls) >= 40 // 8


def test_priors_map_to_the_engine_move_order():
    game = spiel.load_game("carcassonne", {"expansions": "fruit-trees"})
    def mixed(s):
        if s._first >= 0:
            return False
        n = [len(s._fruit_parts(a)) for a in s.legal_actions()]
        return max(n) > 1 and min(n) == 1

    s = decision(game, 5, want=mixed)
    st = s.engine_state
    legal = s.legal_actions()
    split = next(a for a in legal if len(s._fruit_parts(a)) > 1)
    parts = s._fruit_parts(split)
    single = next(a for a in legal if len(s._fruit_parts(a)) == 1)

    def fn(batch):
        pri = np.zeros((1, game.num_distinct_actions()))
        pri[0, split] = 0.75
        pri[0, single] = 0.25
        pri[0, game.flat.f_fruit + parts[0]] = 3.0   # the first fruit part gets 3/4 of `split`'s weight
        pri[0, game.flat.f_fruit + parts[1]] = 1.0
        for p in parts[2:]:
            pri[0, game.flat.f_fruit + p] = 0.0
        return pri, [[0.5, 0.5]]

    priors, values = spiel.make_evaluator(game, fn, observations=False)([st])
    firsts, fparts = st.flat_moves()
    p = np.asarray(priors[0])
    assert len(p) == len(st.legal_moves()) and values == [[0.5, 0.5]]
    assert p[(firsts == single)].tolist() == [0.25]
    got = {int(fp): float(x) for fp, x, f in zip(fparts, p, firsts) if f == split}
    assert got[parts[0]] == pytest.approx(0.75 * 0.75) and got[parts[1]] == pytest.approx(0.75 * 0.25)
    assert p.sum() == pytest.approx(1.0)
