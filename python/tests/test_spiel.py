"""carcassonne.spiel in the style of OpenSpiel's random-simulation test, over every rule
combination: serialization round trip, clone equality, chance probabilities summing to 1, legal
actions sorted and in range, masks equal to the legal actions, returns only at the end, and
determinism by seed."""
import pickle

import numpy as np
import pytest

from helpers import carc, variant_id, variants

import carcassonne.spiel as spiel  # the project's own module: never skipped


def load(tileset, expansions, players=2, **kw):
    # No skip: a rule combination the engine refuses fails.
    return spiel.load_game("carcassonne", {"players": players, "tileset": tileset,
                                           "expansions": "+".join(expansions), **kw})


def check_state(g, s, full):
    n = g.num_distinct_actions()
    cp = s.current_player()
    ret = s.returns()
    assert len(ret) == g.num_players()
    if s.is_terminal():
        assert cp == spiel.TERMINAL_PLAYER_ID and s.legal_actions() == [] and s.chance_outcomes() == []
        assert s.rewards() == ret
        if g.get_type().utility == spiel.GameType.Utility.ZERO_SUM:
            assert abs(sum(ret)) < 1e-9
        assert all(g.min_utility() - 1e-9 <= r <= g.max_utility() + 1e-9 for r in ret)
        return
    assert ret == [0.0] * g.num_players() and s.rewards() == ret
    if s.is_chance_node():
        assert cp == spiel.CHANCE_PLAYER_ID
        out = s.chance_outcomes()
        acts = [a for a, _ in out]
        assert acts == sorted(set(acts)) and all(0 <= a < g.max_chance_outcomes() for a in acts)
        assert abs(sum(p for _, p in out) - 1.0) < 1e-9 and all(p > 0 for _, p in out)
        assert s.legal_actions() == acts
        assert all(s.action_to_string(cp, a) for a in acts[:3])
    else:
        assert 0 <= cp < g.num_players()
        legal = s.legal_actions()
        assert legal, "a decision without legal actions"
        assert legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < n
        assert s.legal_actions(cp) == legal
        assert s.legal_actions((cp + 1) % g.num_players()) == []
        assert s.action_to_string(cp, legal[0])
        if not full:
            return
        mask = s.legal_action_mask_array()
        assert mask.shape == (n,) and mask.dtype == np.int8 and np.array_equal(np.flatnonzero(mask), legal)
        bmask = s.legal_action_mask_array(dtype=bool)
        assert bmask.dtype == np.bool_ and np.array_equal(np.flatnonzero(bmask), legal)
        buf = np.ones(n, np.int8)
        assert s.legal_action_mask_array(out=buf) is buf and np.array_equal(np.flatnonzero(buf), legal)
        assert s.action_to_string(cp, legal[0])
        obs = s.observation_tensor()
        assert obs.shape == tuple(g.observation_tensor_shape()) and obs.dtype == np.float32
        info = s.information_state_tensor(cp)
        assert info.shape == tuple(g.information_state_tensor_shape())
        assert np.array_equal(info[:obs.size], obs)
    if not full:
        return
    c = s.clone()
    assert c.serialize() == s.serialize() and c.engine_state == s.engine_state
    assert c.current_player() == cp and c.legal_actions() == s.legal_actions()
    back = g.deserialize_state(s.serialize())
    assert back.history() == s.history() and back.engine_state == s.engine_state
    assert back.full_history() == s.full_history() and back.current_player() == cp
    snap = g.from_snapshot(s.snapshot())
    assert snap.full_history() == s.full_history() and snap.engine_state == s.engine_state
    assert snap.legal_actions() == s.legal_actions() and snap.chance_outcomes() == s.chance_outcomes()
    assert back.legal_actions() == s.legal_actions() and back.chance_outcomes() == s.chance_outcomes()
    assert pickle.loads(pickle.dumps(s)).serialize() == s.serialize()


def random_play(g, seed, check_every=0):
    rng = np.random.default_rng(seed)
    s = g.new_initial_state()
    steps = 0
    while not s.is_terminal():
        if check_every:
            check_state(g, s, steps % check_every == 0)
        if s.is_chance_node():
            acts, probs = zip(*s.chance_outcomes())
            a = int(acts[rng.choice(len(acts), p=np.asarray(probs))])
        else:
            a = int(rng.choice(s.legal_actions()))
        if check_every and steps % max(3 * check_every, 11) == 1:
            child = s.child(a)
            player = s.current_player()
            child.undo_action(player, a)
            assert child.serialize() == s.serialize() and child.engine_state == s.engine_state
        s.apply_action(a)
        steps += 1
        assert steps <= g.max_history_length(), "longer than max_history_length()"
    if check_every:
        check_state(g, s, True)
    assert s.move_number() <= g.max_game_length()
    return s


ALL_STATES = [("base", []), ("base", ["festival", "fruit-trees"]),
              ("wheel-of-fortune", ["festival", "fortune-teller", "fruit-trees"])]


@pytest.mark.parametrize("v", variants(), ids=variant_id)
def test_random_simulation(v):
    g = load(*v)
    assert g.num_distinct_actions() <= 2 ** 20
    t = g.get_type()
    GT = spiel.GameType
    assert t.dynamics is GT.Dynamics.SEQUENTIAL and t.chance_mode is GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.reward_model is GT.RewardModel.TERMINAL and t.information is GT.Information.IMPERFECT_INFORMATION
    # Every state is fully checked (serialization round trip, clone, masks, tensors) for three
    # combinations that cover every kind of node; every 9th state for the others (run time).
    every = 1 if v in ALL_STATES else 9
    s = random_play(g, seed=11, check_every=every)
    # Determinism by seed: the same seed gives the same game.
    assert random_play(g, seed=11).history() == s.history()
    assert random_play(g, seed=12).history() != s.history()


def test_three_players_and_scores():
    g = load("base", ["festival"], players=3, returns="score")
    assert g.get_type().utility is spiel.GameType.Utility.GENERAL_SUM and g.utility_sum() is None
    s = random_play(g, seed=3, check_every=11)
    assert s.returns() == [float(x) for x in s.engine_state.scores()]


def test_fruit_harvest_is_a_chance_node():
    g = load("base", ["fruit-trees"])
    T = g.num_tile_types
    seen = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        s = g.new_initial_state()
        while not s.is_terminal() and seen < 3:
            if s.is_chance_node():
                out = s.chance_outcomes()
                if out[0][0] >= T:  # a fruit value
                    assert all(T <= a < T + 4 for a, _ in out)
                    assert "fruit token worth" in s.action_to_string(spiel.CHANCE_PLAYER_ID, out[0][0])
                    before = list(s.engine_state.scores())
                    # The lowest value is applied: the harvesting player gains exactly it (plus scoring).
                    v = out[0][0] - T + 2
                    fruit = s.engine_state.action_to_move(s._reveal).harvest
                    left = s.engine_state.fruit_values_left(fruit)
                    s.apply_action(out[0][0])
                    after = s.engine_state.fruit_values_left(fruit)
                    assert sorted(after + [v]) == left
                    assert sum(s.engine_state.scores()) >= sum(before)
                    seen += 1
                    continue
                acts, probs = zip(*out)
                s.apply_action(int(acts[rng.choice(len(acts), p=np.asarray(probs))]))
            else:
                legal = s.legal_actions()
                # Prefer harvests to meet the chance node often.
                harvest = [a for a in legal if "harvest" in s.action_to_string(s.current_player(), a)]
                s.apply_action(int(rng.choice(harvest or legal)))
        if seen >= 3:
            break
    assert seen >= 3, "no harvest met in 40 games"


def test_fruit_two_step_decision():
    g = load("base", ["fruit-trees"])
    fs = g.flat
    for seed in range(20):
        rng = np.random.default_rng(seed)
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(int(acts[rng.choice(len(acts), p=np.asarray(probs))]))
                continue
            legal = s.legal_actions()
            if legal[0] >= fs.f_fruit:
                player = s.current_player()
                assert all(a >= fs.f_fruit for a in legal)
                assert s.observation_tensor()[-8] == 1.0  # spiel_fruit_stage
                before = s.engine_state.turn
                s.apply_action(legal[-1])
                # The move is complete (or a fruit value is being revealed).
                assert s.engine_state.turn == before + 1 or s.is_chance_node() or s.current_player() != player \
                    or s.engine_state.phase != "place"
                return
            s.apply_action(int(rng.choice(legal)))
    pytest.fail("no two-step decision in 20 games")


def test_load_game_forms_and_errors():
    a = spiel.load_game("carcassonne(players=3,expansions=festival+fruit-trees)")
    b = spiel.load_game("carcassonne", {"players": 3, "expansions": ["festival", "fruit-trees"]})
    c = spiel.load_game({"players": 3, "expansions": "festival,fruit-trees"})
    assert a == b == c and a.num_players() == 3
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(ValueError, match="unknown game"):
        spiel.load_game("chess")
    with pytest.raises(ValueError, match="unknown parameter"):
        spiel.load_game("carcassonne", {"colour": 1})
    with pytest.raises(ValueError):
        spiel.load_game("carcassonne", {"expansions": "no-such"})
    g = spiel.load_game("carcassonne")
    s = g.new_initial_state()
    with pytest.raises(ValueError):
        s.apply_action(g.num_tile_types)  # no such tile type
    with pytest.raises(ValueError, match="line 2"):
        g.deserialize_state("0\nx\n")
    with pytest.raises(ValueError, match="action number 2"):
        g.deserialize_state(f"{g.new_initial_state().chance_outcomes()[0][0]}\n{g.num_distinct_actions() - 1}\n")
    # The registered name is accepted too, with parameters.
    assert spiel.load_game("python_carcassonne(players=3,expansions=festival+fruit-trees)") == a
    assert spiel.load_game("python_carcassonne", {"players": 3, "expansions": "festival+fruit-trees"}) == a
    assert spiel.load_game(str(a)) == a


@pytest.mark.skipif(not spiel.HAVE_PYSPIEL, reason="pyspiel is not installed (no Debian package, no PyPI here): "
                    "the registration is tested against a stub in test_spiel_conventions.py")
def test_register_with_real_pyspiel():
    import pyspiel
    from open_spiel.python.algorithms import mcts

    assert spiel.register()
    game = pyspiel.load_game("python_carcassonne(players=2)")
    state = game.new_initial_state()
    assert state.is_chance_node()
    bot = mcts.MCTSBot(spiel.load_game("carcassonne"), 1.4, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)))
    s = spiel.load_game("carcassonne").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    assert bot.step(s) in s.legal_actions()


def test_compact_observation_grows_with_tiles_and_matches_dense():
    from carcassonne.compact import CompactBuffers, compact_observation

    game = carc.Game(players=2, expansions=["festival"])
    buf = CompactBuffers(game)
    s = game.new_initial_state(seed=4, auto_chance=True)
    C, W, _ = game.observation_shape["planes"]
    R = game.radius
    sizes = []
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        rows, vec = compact_observation(s, out=buf)
        fresh, vec2 = compact_observation(s)
        assert np.array_equal(rows, fresh) and np.array_equal(vec, vec2)
        assert rows.shape[1] == 2 + C and len(rows) <= 3 * (s.turn + 1) + 8
        # Rebuild the dense planes from the rows.
        planes = np.zeros((C, W, W), dtype=np.float32)
        xs, ys = rows[:, 0].astype(int) + R, rows[:, 1].astype(int) + R
        planes[:, ys, xs] = rows[:, 2:].T
        assert np.array_equal(planes, s.observation_planes())
        sizes.append(len(rows))
        s.apply(int(rng.choice(s.legal_actions())))
    assert sizes[-1] > sizes[0] and sizes[0] < 20
