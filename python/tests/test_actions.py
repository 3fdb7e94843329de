"""The fixed action space: every legal move has one index inside the window, index <-> move
round-trips, the mask matches the legal moves."""
import random

import numpy as np
import pytest

from helpers import carc, make_game


# With the Fruit-Bearing Trees (fruit parts in the index): test_fruit_actions.py.
@pytest.mark.parametrize("expansions", [[], ["festival"], ["fortune-teller"], ["festival", "fortune-teller"]])
def test_action_round_trip_through_a_game(expansions):
    game = make_game("base", expansions, players=3)
    assert game.num_actions == game.num_choices * (2 * game.radius + 1) ** 2 * 4 * carc.NUM_OPTIONS
    s = game.new_initial_state(seed=17, auto_chance=True)
    rng = random.Random(17)
    took_back = 0
    while not s.is_terminal():
        moves = s.legal_moves()
        actions = [s.move_to_action(m) for m in moves]
        assert len(set(actions)) == len(actions), "two moves share an index"
        assert sorted(actions) == s.legal_actions()
        mask = s.legal_action_mask()
        assert mask.shape == (game.num_actions,) and mask.dtype == np.bool_
        assert mask.sum() == len(moves)
        assert np.flatnonzero(mask).tolist() == s.legal_actions()
        assert s.num_moves_outside_window() == 0
        for m, a in zip(moves, actions):
            assert s.action_to_move(a) == m
        i = rng.randrange(len(moves))
        took_back += moves[i].take_back >= 0
        if rng.random() < 0.5:
            s.apply(actions[i])
        else:
            s.apply(moves[i])


def test_action_layout_is_documented_formula():
    s = carc.new_game(seed=3, auto_chance=True, radius=5)
    W, K = 11, carc.NUM_OPTIONS
    assert s.num_choices == 1
    for m in s.legal_moves():
        opt = 0 if m.location is None else 1 + carc.LOCATIONS.index(m.location)
        cell = (m.y + 5) * W + (m.x + 5)
        assert s.move_to_action(m) == (cell * 4 + m.rotation // 90) * K + opt


def test_take_back_actions():
    s = carc.new_game(players=2, expansions=["festival"], seed=1, auto_chance=True)
    rng = random.Random(1)
    found = 0
    while not s.is_terminal():
        moves = s.legal_moves()
        for m in moves:
            if m.take_back >= 0:
                found += 1
                a = s.move_to_action(m)
                assert a % carc.NUM_OPTIONS > len(carc.LOCATIONS)
                assert s.action_to_move(a) == m
                x, y, loc = m.take_back_at
                assert (s.turn_player, x, y, loc) == s.followers()[m.take_back][:4]
        s.apply(rng.choice(moves))
    assert found > 0


def test_small_window_drops_far_moves():
    s = carc.new_game(seed=4, auto_chance=True, radius=1)
    while not s.is_terminal() and s.num_moves_outside_window() == 0:
        s.apply(s.legal_moves()[0])
    assert s.num_moves_outside_window() > 0
    assert len(s.legal_actions()) + s.num_moves_outside_window() == len(s.legal_moves())
    far = [m for m in s.legal_moves() if max(abs(m.x), abs(m.y)) > 1][0]
    with pytest.raises(ValueError):
        s.move_to_action(far)


def test_mask_reshapes_onto_the_board():
    s = carc.new_game(seed=8, auto_chance=True, radius=7)
    W, K = 15, carc.NUM_OPTIONS
    grid = s.legal_action_mask().reshape(W, W, 4, K)
    for m in s.legal_moves():
        opt = 0 if m.location is None else 1 + carc.LOCATIONS.index(m.location)
        assert grid[m.y + 7, m.x + 7, m.rotation // 90, opt]
    planes = s.observation_planes()
    names = s.game.observation_plane_names
    fits = planes[[names.index(f"fits_rot{r}") for r in range(4)]]  # (4, W, W)
    assert np.array_equal(fits.transpose(1, 2, 0) > 0, grid.any(axis=3))


def test_fortune_teller_choice_is_part_of_the_index():
    s = carc.new_game(players=2, expansions=["fortune-teller"], seed=2, auto_chance=True, radius=9)
    W, K, cells = 19, carc.NUM_OPTIONS, 19 * 19
    rng = random.Random(2)
    chose_second = 0
    while not s.is_terminal():
        for m in s.legal_moves():
            a = s.move_to_action(m)
            assert a // (cells * 4 * K) == m.choice
            assert m.tile == s.drawn_tiles[m.choice]
            assert s.action_to_move(a) == m
        later = [m for m in s.legal_moves() if m.choice > 0]
        chose_second += bool(later)
        # Fortune tellers stand on tents ("C" of a tent tile): steer towards them.
        tents = [m for m in s.legal_moves() if m.location == "C"]
        s.apply(rng.choice(later or tents or s.legal_moves()))
    assert chose_second > 0
