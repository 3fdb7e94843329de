"""The action index with the Fruit-Bearing Trees: the fruit parts of a move (stack put on a tree
tile, harvest, sale) are part of the index, so index <-> move is a bijection on the legal moves,
and the flat and factored masks hold exactly the legal moves' indices."""
import random

import numpy as np
import pytest

from helpers import carc, make_game

FRUIT_VARIANTS = [["fruit-trees"], ["festival", "fruit-trees"], ["festival", "fortune-teller", "fruit-trees"]]


def has_fruit(m):
    return m.harvest is not None or bool(m.sell)


def fruit_code(m):
    """The documented fruit part of an index, computed from the Move's public fields."""
    t = 0 if m.fruit_type is None else 1 + carc.FRUIT_TYPES.index(m.fruit_type)
    if m.harvest is not None:
        act = 1 + carc.FRUIT_TYPES.index(m.harvest)
    elif m.sell:
        act = 1 + len(carc.FRUIT_TYPES) + carc.SELL_SETS.index(tuple(m.sell))
    else:
        act = 0
    return t * carc.NUM_FRUIT_ACTIONS + act


def placement_code(s, m):
    W, R = 2 * s.radius + 1, s.radius
    opt = 0
    if m.location is not None:
        opt = 1 + carc.LOCATIONS.index(m.location)
    elif m.take_back >= 0:
        me = s.turn_player
        own = [i for i, f in enumerate(s.followers()) if f[0] == me]
        opt = 1 + len(carc.LOCATIONS) + own.index(m.take_back)
    cell = (m.y + R) * W + (m.x + R)
    return ((m.choice * W * W + cell) * 4 + m.rotation // 90) * carc.NUM_OPTIONS + opt


def check_decision(s, dense=None):
    """Every check on one decision node; returns (moves, actions)."""
    P, F = s.num_placements, s.num_fruit_codes
    moves = s.legal_moves()
    inside = [m for m in moves if max(abs(m.x), abs(m.y)) <= s.radius]
    assert len(inside) + s.num_moves_outside_window() == len(moves)
    actions = [s.move_to_action(m) for m in inside]
    assert len(set(actions)) == len(actions), "two legal moves share an index"
    assert sorted(actions) == s.legal_actions()
    for m, a in zip(inside, actions):
        assert 0 <= a < s.num_actions
        assert a == fruit_code(m) * P + placement_code(s, m)  # the documented formula
        back = s.action_to_move(a)
        assert back == m
        assert (back.fruit_type, back.harvest, back.sell) == (m.fruit_type, m.harvest, m.sell)
    # Factored masks: placement part, then fruit part per placement.
    pmask = s.legal_placement_mask()
    assert pmask.shape == (P,) and pmask.dtype == np.bool_
    assert np.flatnonzero(pmask).tolist() == sorted({a % P for a in actions})
    rows, fmasks = s.legal_fruit_masks()
    assert rows.tolist() == np.flatnonzero(pmask).tolist()
    assert fmasks.shape == (len(rows), F) and fmasks.dtype == np.bool_
    r, f = np.nonzero(fmasks)
    assert sorted((f * P + rows[r]).tolist()) == sorted(actions)
    for i in random.Random(len(actions)).sample(range(len(rows)), min(3, len(rows))):
        assert np.array_equal(s.legal_fruit_mask(int(rows[i])), fmasks[i])
    if dense is not None:
        mask = s.legal_action_mask(out=dense)
        assert mask.shape == (s.num_actions,)
        assert np.flatnonzero(mask).tolist() == sorted(actions)
    return inside, actions


@pytest.mark.parametrize("expansions", FRUIT_VARIANTS, ids="+".join)
def test_fruit_actions_round_trip_in_random_games(expansions):
    game = make_game("base", expansions, players=3)
    assert game.num_fruit_codes == carc.NUM_FRUIT_CODES == 7 * carc.NUM_FRUIT_ACTIONS == 441
    assert game.num_placements == game.num_choices * (2 * game.radius + 1) ** 2 * 4 * carc.NUM_OPTIONS
    assert game.num_actions == game.num_fruit_codes * game.num_placements
    seen = {"stack": 0, "harvest": 0, "sell": 0, "take_back": 0, "choice": 0}
    for seed in (1, 2, 3):
        s = game.new_initial_state(seed=seed, auto_chance=True)
        rng = random.Random(seed)
        while not s.is_terminal():
            moves, actions = check_decision(s)
            assert len(moves) == len(s.legal_moves())  # R = 20: nothing outside the window
            seen["stack"] += any(m.fruit_type is not None for m in moves)
            seen["harvest"] += any(m.harvest is not None for m in moves)
            seen["sell"] += any(m.sell for m in moves)
            seen["take_back"] += any(m.take_back >= 0 for m in moves)
            seen["choice"] += any(m.choice > 0 for m in moves)
            # Steer towards fruit actions (so holdings grow and sales appear), apply by index.
            fruity = [i for i, m in enumerate(moves) if has_fruit(m)]
            i = rng.choice(fruity) if fruity and rng.random() < 0.7 else rng.randrange(len(moves))
            expect = s.clone()
            expect.apply(moves[i])
            s.apply(actions[i])
            assert s == expect
    assert seen["stack"] and seen["harvest"] and seen["sell"], seen
    if "festival" in expansions:
        assert seen["take_back"], seen
    if "fortune-teller" in expansions:
        assert seen["choice"], seen


@pytest.mark.parametrize("expansions", [["fruit-trees"], ["festival", "fortune-teller", "fruit-trees"]],
                         ids="+".join)
def test_dense_mask_matches_legal_moves_in_a_small_window(expansions):
    game = make_game("base", expansions, players=2, radius=6)
    dense = np.ones(game.num_actions, bool)  # one buffer for the whole game (the flat mask is large)
    s = game.new_initial_state(seed=9, auto_chance=True)
    rng = random.Random(9)
    while not s.is_terminal():
        moves, _ = check_decision(s, dense=dense)
        pool = moves or s.legal_moves()
        fruity = [m for m in pool if has_fruit(m)]
        s.apply(rng.choice(fruity) if fruity and rng.random() < 0.7 else rng.choice(pool))


def test_moves_without_fruit_parts_keep_their_base_index():
    fruit = carc.new_game(players=2, expansions=["fruit-trees"], seed=4, auto_chance=True)
    base = carc.Game(players=2)
    assert fruit.num_placements == base.num_actions
    rng = random.Random(4)
    while not fruit.is_terminal():
        for m in fruit.legal_moves():
            a = fruit.move_to_action(m)
            if m.fruit_type is None and not has_fruit(m):
                assert a < fruit.num_placements and a == placement_code(fruit, m)
            else:
                assert a >= fruit.num_placements
        fruit.apply(rng.choice(fruit.legal_moves()))


def test_hand_built_fruit_moves():
    s = carc.new_game(players=2, expansions=["fruit-trees"], seed=5, auto_chance=True)
    rng = random.Random(5)
    built = 0
    while not s.is_terminal() and built < 40:
        for m in s.legal_moves():
            if m.fruit_type is not None or has_fruit(m):
                h = carc.Move(m.x, m.y, m.rotation, m.location, m.take_back, m.choice,
                              fruit_type=m.fruit_type, harvest=m.harvest, sell=m.sell)
                assert h == m and hash(h) == hash(m)
                assert s.check_move(h) == ""
                assert s.move_to_action(h) == s.move_to_action(m)
                built += 1
        moves = s.legal_moves()
        fruity = [m for m in moves if has_fruit(m)]
        s.apply(rng.choice(fruity or moves))
    assert built > 0
    with pytest.raises(ValueError):
        carc.Move(0, 1, fruit_type="banana")
    with pytest.raises(ValueError):
        carc.Move(0, 1, follower="N", harvest="apple", sell=["plum"])
    with pytest.raises(ValueError):
        carc.Move(0, 1, follower="N", sell=["plum", "plum"])


def test_fruit_constants_and_illegal_codes():
    assert carc.FRUIT_TYPES == ["apple", "apricot", "cherry", "elder", "plum", "quince"]
    assert len(carc.SELL_SETS) == 56 and len(set(carc.SELL_SETS)) == 56
    assert all(1 <= len(t) <= 4 for t in carc.SELL_SETS)
    masks = [sum(1 << carc.FRUIT_TYPES.index(f) for f in t) for t in carc.SELL_SETS]
    assert masks == sorted(masks)
    assert carc.NUM_FRUIT_ACTIONS == 1 + 6 + 56
    base = carc.new_game(seed=1, auto_chance=True)
    assert base.num_fruit_codes == 1 and base.num_actions == base.num_placements
    s = carc.new_game(expansions=["fruit-trees"], seed=1, auto_chance=True)
    P = s.num_placements
    with pytest.raises(ValueError):
        s.action_to_move(s.num_actions)
    # The last fruit code: stack "quince" and the last sale; decodes, but no legal move has it.
    m = s.action_to_move((carc.NUM_FRUIT_CODES - 1) * P)
    assert m.fruit_type == "quince" and tuple(m.sell) == carc.SELL_SETS[-1]
    with pytest.raises(ValueError):
        s.apply((carc.NUM_FRUIT_CODES - 1) * P)
