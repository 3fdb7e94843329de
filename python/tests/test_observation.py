"""Observations: documented shapes, and nothing hidden leaks (changing only the draw
generator changes no observation)."""
import random

import numpy as np
import pytest

from helpers import carc, make_game, variant_id, variants


def all_views(s):
    return [s.observation(p) for p in range(s.num_players)]


@pytest.mark.parametrize("variant", variants(), ids=variant_id)
def test_observation_ignores_hidden_information(variant):
    game = make_game(*variant, players=3)
    s = game.new_initial_state(seed=5)
    rng = random.Random(5)
    differed = 0
    while not s.is_terminal():
        other = s.clone()
        other.resample_hidden(rng.randrange(1 << 62))
        assert other != s or s.is_terminal()  # only the hidden generator differs
        for a, b in zip(all_views(s), all_views(other)):
            assert np.array_equal(a, b)
        # fits planes: exactly the listed placements (when no wheel tile waits to be chosen).
        moves = s.legal_moves()
        if s.phase == "place" and all(m.kind == "place" for m in moves):
            names = game.observation_plane_names
            planes = s.observation_planes()
            fits = planes[[names.index(f"fits_rot{r}") for r in range(4)]]
            R = game.radius
            assert set(zip(*np.nonzero(fits))) == {(m.rotation // 90, m.y + R, m.x + R) for m in moves}
        # The hidden part matters: the next random draws usually differ.
        if s.is_chance_node():
            x, y = s.clone(), other.clone()
            x.draw_random()
            y.draw_random()
            differed += x.current_tile != y.current_tile
            s.draw_random()
        else:
            s.apply(rng.choice(moves))
    assert differed > 0


def test_shapes_and_names():
    game = carc.Game(players=4, expansions=["festival"], radius=10)
    shp = game.observation_shape
    C, W, _ = shp["planes"]
    assert W == 21 and C == 23 + 7 * 4
    assert shp["vector"] == (2 * game.num_tile_types + 4 * 4 + 5,)
    assert shp["flat"] == (C * W * W + shp["vector"][0],)
    assert len(game.observation_plane_names) == C
    assert len(game.observation_vector_names) == shp["vector"][0]
    s = game.new_initial_state(seed=1, auto_chance=True)
    assert s.observation_shape == shp
    planes, vec, flat = s.observation_planes(), s.observation_vector(), s.observation()
    assert planes.shape == shp["planes"] and vec.shape == shp["vector"] and flat.shape == shp["flat"]
    assert planes.dtype == np.float32
    assert np.array_equal(flat, np.concatenate([planes.ravel(), vec]))


def test_observation_content():
    game = carc.Game(players=2, radius=8)
    s = game.new_initial_state(seed=2, auto_chance=True)
    names = game.observation_plane_names
    vnames = game.observation_vector_names
    planes = s.observation_planes()
    assert planes[names.index("tile"), 8, 8] == 1  # the start tile at (0, 0)
    assert planes[names.index("tile")].sum() == 1
    fits = sum(planes[names.index(f"fits_rot{r}")] for r in range(4))
    assert (fits > 0).sum() == len({(m.x, m.y) for m in s.legal_moves()})
    vec = s.observation_vector()
    assert vec[vnames.index("drawn_" + s.current_tile)] == 1
    assert vec[vnames.index("phase_place")] == 1
    assert vec[vnames.index("bag_size")] == s.bag_size
    assert vec[vnames.index("to_move_p0")] == 1
    # Seats are relative to the observer: player 1 sees itself as p0.
    s.play_random(0)
    v0, v1 = s.observation_vector(0), s.observation_vector(1)
    sc = s.scores()
    assert v0[vnames.index("score_p0")] == sc[0] and v1[vnames.index("score_p0")] == sc[1]
    assert v0[vnames.index("phase_terminal")] == 1


def test_followers_appear_for_their_owner():
    game = carc.Game(players=2, radius=15)
    s = game.new_initial_state(seed=6, auto_chance=True)
    while not s.followers():
        with_follower = [m for m in s.legal_moves() if m.location]
        s.apply(with_follower[0] if with_follower else s.legal_moves()[0])
    owner, x, y, _, kind = s.followers()[0]
    names = game.observation_plane_names
    k = {"road": "road", "city": "city", "field": "field"}.get(kind, "centre")
    mine = s.observation_planes(owner)
    theirs = s.observation_planes(1 - owner)
    assert mine[names.index(f"follower_p0_{k}"), y + 15, x + 15] == 1
    assert theirs[names.index(f"follower_p1_{k}"), y + 15, x + 15] == 1


def test_out_arrays_are_filled_in_place():
    s = carc.new_game(seed=3, auto_chance=True, radius=6)
    buf = np.full(s.observation_shape["flat"], 7, np.float32)
    assert s.observation(out=buf) is not None
    assert np.array_equal(buf, s.observation())
    mask = np.ones(s.num_actions, bool)
    s.legal_action_mask(out=mask)
    assert np.array_equal(mask, s.legal_action_mask())
    with pytest.raises((TypeError, ValueError)):
        s.observation(out=np.zeros(s.observation_shape["flat"]))  # float64: not filled silently
    with pytest.raises((TypeError, ValueError)):
        s.observation(out=np.zeros(3, np.float32))


def test_fortune_teller_observation_shows_every_drawn_tile():
    game = carc.Game(players=2, expansions=["fortune-teller"], radius=12)
    T = game.num_tile_types
    assert game.num_choices == 3
    assert game.observation_shape["vector"] == (4 * T + 4 * 2 + 5,)
    names = game.observation_vector_names
    s = game.new_initial_state(seed=3)
    rng = random.Random(3)
    multi = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.draw_random()
            continue
        vec = s.observation_vector()
        drawn = s.drawn_tiles
        for c, tile in enumerate(drawn):
            prefix = "drawn_" if c == 0 else f"drawn{c}_"
            assert vec[names.index(prefix + tile)] == 1
        assert vec[: 3 * T].sum() == len(drawn)
        multi += len(drawn) > 1
        s.apply(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("variant", variants(), ids=variant_id)
def test_public_view_is_the_engines_and_hides_what_is_hidden(variant):
    """State.public_view is the engine's one public view (public_view.h): equal for two states
    that differ only in hidden information, without the generator, the seed or the face-down fruit
    order, and with what is public (the drawn tiles, the bag's counts, the history)."""
    import json
    game = make_game(*variant, players=3)
    s = game.new_initial_state(seed=9, auto_chance=True)
    rng = random.Random(9)
    for _ in range(30):
        if s.is_terminal():
            break
        other = s.clone()
        other.resample_hidden(rng.randrange(1 << 62))
        for p in range(-1, s.num_players):
            view = s.public_view(p)
            assert view == other.public_view(p)
            j = json.loads(view)
            assert j["format"] == "carcassonne-observation/2" and j["observer"] == p
            assert "seed" not in j and "rng" not in j
            assert "initial_stacks" not in j.get("fruit", {}) and "stacks" not in j.get("fruit", {})
            assert j["phase"] == s.phase
        full = json.loads(s.to_json())
        assert full["seed"] is not None and "rng" in full  # the state JSON keeps them (for saving)
        if s.phase == "place":
            assert j["tile"] == s.current_tile
        assert len(j["history"]) == s.turn
        s.apply(rng.choice(s.legal_moves()))
