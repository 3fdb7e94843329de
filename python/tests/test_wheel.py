"""The Wheel of Fortune through Python: crown-space moves, Plague decisions by a player who is
not the turn player, Choose decisions (with the Fortune Teller), their action index ranges and
masks, the wheel in observations, and batch play."""
import pickle
import random

import numpy as np
import pytest

from helpers import carc, followers_conserved, make_game

WOF = "wheel-of-fortune"
WHEEL_VARIANTS = [[], ["festival"], ["fortune-teller"], ["festival", "fortune-teller"], ["fruit-trees"],
                  ["festival", "fortune-teller", "fruit-trees"]]


def placement_code(s, m):
    """The documented placement part of a 'place' range index."""
    W, R = 2 * s.radius + 1, s.radius
    opt = 0
    if m.location is not None:
        opt = 1 + carc.LOCATIONS.index(m.location)
    elif m.take_back >= 0:
        own = [i for i, f in enumerate(s.followers()) if f[0] == s.turn_player]
        opt = 1 + len(carc.LOCATIONS) + own.index(m.take_back)
    cell = (m.y + R) * W + (m.x + R)
    return ((m.choice * W * W + cell) * 4 + m.rotation // 90) * carc.NUM_OPTIONS + opt


def fruit_code(m):
    t = 0 if m.fruit_type is None else 1 + carc.FRUIT_TYPES.index(m.fruit_type)
    if m.harvest is not None:
        act = 1 + carc.FRUIT_TYPES.index(m.harvest)
    elif m.sell:
        act = 1 + len(carc.FRUIT_TYPES) + carc.SELL_SETS.index(tuple(m.sell))
    else:
        act = 0
    return t * carc.NUM_FRUIT_ACTIONS + act


def documented_index(s, m):
    """The action index of a legal move by the formulas of docs/python.md."""
    W, R = 2 * s.radius + 1, s.radius
    ranges = s.action_ranges
    if m.kind == "choose":
        return ranges["choose"][0] + m.choice
    if m.kind == "plague":
        cell = (m.y + R) * W + (m.x + R)
        return ranges["plague"][0] + cell * len(carc.LOCATIONS) + carc.LOCATIONS.index(m.location)
    if m.crown is not None or m.take_back_crown is not None:
        cell = (m.y + R) * W + (m.x + R)
        if m.crown is not None:
            opt = carc.CROWN_SPACES.index(m.crown)
        else:
            opt = len(carc.CROWN_SPACES) + carc.CROWN_SPACES.index(m.take_back_crown)
        q = ((m.choice * W * W + cell) * 4 + m.rotation // 90) * carc.NUM_CROWN_OPTIONS + opt
        stack = 0 if m.fruit_type is None else 1 + carc.FRUIT_TYPES.index(m.fruit_type)
        crown_placements = s.num_choices * W * W * 4 * carc.NUM_CROWN_OPTIONS
        return ranges["crown"][0] + stack * crown_placements + q
    return fruit_code(m) * s.num_placements + placement_code(s, m)


def check_actions(s):
    """Every action-index check at one decision node; returns (moves, actions)."""
    moves = s.legal_moves()
    assert s.num_moves_outside_window() == 0
    actions = [s.move_to_action(m) for m in moves]
    assert len(set(actions)) == len(actions), "two legal moves share an index"
    assert sorted(actions) == s.legal_actions()
    for m, a in zip(moves, actions):
        assert a == documented_index(s, m), m
        back = s.action_to_move(a)
        assert back == m and back.kind == m.kind
        assert (back.crown, back.take_back_crown, back.location) == (m.crown, m.take_back_crown, m.location)
    # One mask per range: exactly the legal actions of that range.
    for name, (lo, hi) in s.action_ranges.items():
        if name == "place" and s.num_fruit_codes > 1:
            continue  # 65 million entries: the factored masks below
        mask = s.legal_range_mask(name)
        assert mask.shape == (hi - lo,) and mask.dtype == np.bool_
        assert (np.flatnonzero(mask) + lo).tolist() == sorted(a for a in actions if lo <= a < hi)
    P = s.num_placements
    main = s.action_ranges["place"][1]
    pmask = s.legal_placement_mask()
    assert np.flatnonzero(pmask).tolist() == sorted({a % P for a in actions if a < main})
    rows, fm = s.legal_fruit_masks()
    r, f = np.nonzero(fm)
    assert sorted((f * P + rows[r]).tolist()) == sorted(a for a in actions if a < main)
    if s.num_fruit_codes == 1:
        flat = s.legal_action_mask()
        assert flat.shape == (s.num_actions,)
        assert np.flatnonzero(flat).tolist() == sorted(actions)
    return moves, actions


def test_sizes_and_ranges():
    for exps in WHEEL_VARIANTS:
        g = make_game(WOF, exps, players=3)
        base = carc.Game(players=3, expansions=exps)
        W, N = 2 * g.radius + 1, g.num_choices
        stacks = 7 if "fruit-trees" in exps else 1
        r = g.action_ranges
        # The 'place' range is the same as without the wheel.
        assert r["place"] == (0, base.num_actions) and g.num_placements == base.num_placements
        assert r["crown"] == (r["place"][1], r["place"][1] + stacks * N * W * W * 4 * carc.NUM_CROWN_OPTIONS)
        assert r["plague"] == (r["crown"][1], r["crown"][1] + W * W * len(carc.LOCATIONS))
        assert r["choose"] == (r["plague"][1], r["plague"][1] + (N if "fortune-teller" in exps else 0))
        assert g.num_actions == r["choose"][1]
        # Without the wheel the extra ranges are empty.
        br = base.action_ranges
        assert br["crown"] == br["plague"] == br["choose"] == (base.num_actions, base.num_actions)
    assert carc.NUM_CROWN_OPTIONS == 2 * len(carc.CROWN_SPACES) == 24
    assert carc.WHEEL_EVENTS == ["fortuna", "taxes", "famine", "storm", "inquisition", "plague"]
    assert carc.CROWN_SPACES[:3] == ["crown:fortuna:0", "crown:fortuna:1", "crown:taxes:0"]
    g = carc.Game(tileset=WOF)
    assert g.crown_spaces == ["crown:fortuna:0", "crown:taxes:0", "crown:taxes:1", "crown:famine:0", "crown:storm:0",
                              "crown:storm:1", "crown:inquisition:0", "crown:plague:0", "crown:plague:1"]
    assert [e for e, _ in g.wheel] == carc.WHEEL_EVENTS and sum(c for _, c in g.wheel) == 9
    assert len(g.board_cells) == 16 and g.start_tile is None and g.num_setup_tiles == 16
    with pytest.raises(ValueError):
        g.new_initial_state(start_tile="A")  # the game starts with the board
    s = g.new_initial_state(seed=1)
    assert [t[:3] for t in s.tiles()] == [(x, y, t) for x, y, t in g.board_cells]
    assert s.pig == 0 and s.pig_event == "fortuna" and s.crowns() == [-1] * 12 and s.plague_player is None
    assert g.num_actions == 147_928 + 161_376 + 23_534  # docs/python.md table


@pytest.mark.parametrize("expansions", WHEEL_VARIANTS, ids=lambda e: "+".join(["wof"] + e))
def test_wheel_action_round_trip(expansions):
    game = make_game(WOF, expansions, players=3)
    seen = {"crown": 0, "take_back_crown": 0, "plague": 0, "choose": 0, "by_index": 0}
    seeds = (1, 2) if "fruit-trees" in expansions else (1, 2, 3)
    for seed in seeds:
        s = game.new_initial_state(seed=seed, auto_chance=True)
        rng = random.Random(seed)
        while not s.is_terminal():
            moves, actions = check_actions(s)
            seen["crown"] += any(m.crown for m in moves)
            seen["take_back_crown"] += any(m.take_back_crown for m in moves)
            seen["plague"] += moves[0].kind == "plague"
            seen["choose"] += any(m.kind == "choose" for m in moves)
            # Steer towards crown followers (so that Festival crown take-backs and crown
            # scoring happen) and land followers (so that the Plague has something to take).
            crowns = [i for i, m in enumerate(moves) if m.crown]
            land = [i for i, m in enumerate(moves) if m.location]
            r = rng.random()
            i = rng.choice(crowns) if crowns and r < 0.3 else rng.choice(land) if land and r < 0.7 else \
                rng.randrange(len(moves))
            expect = s.clone()
            expect.apply(moves[i])
            s.apply(actions[i])
            seen["by_index"] += 1
            assert s == expect
    assert seen["crown"] and seen["plague"], seen
    if "festival" in expansions:
        assert seen["take_back_crown"], seen
    if "fortune-teller" in expansions:
        assert seen["choose"], seen


def find_state(game, want, seeds=range(1, 60), steer=True):
    """The first decision node of random games (auto chance) where want(state) holds."""
    for seed in seeds:
        s = game.new_initial_state(seed=seed, auto_chance=True)
        rng = random.Random(seed)
        while not s.is_terminal():
            if want(s):
                return s
            moves = s.legal_moves()
            land = [m for m in moves if m.location] if steer else []
            s.apply(rng.choice(land) if land and rng.random() < 0.6 else rng.choice(moves))
    pytest.fail("no such state in the random games")


def test_plague_decision_by_a_non_active_player():
    game = carc.Game(players=3, tileset=WOF, radius=20)
    s = find_state(game, lambda s: s.phase == "plague" and s.current_player() != s.turn_player)
    p, turn_player = s.current_player(), s.turn_player
    assert s.plague_player == p and s.pig_event == "plague"
    assert s.current_tile is not None  # the turn's tile waits for the Plague decisions
    assert "Plague" in str(s)
    moves = s.legal_moves()
    own = [(x, y, loc) for q, x, y, loc, _ in s.followers() if q == p]
    assert sorted((m.x, m.y, m.location) for m in moves) == sorted(own)
    assert all(m.kind == "plague" and m.take_back_at == (m.x, m.y, m.location) for m in moves)
    # Only the deciding player's followers: the turn player's, another's or a placement are refused.
    assert s.check_move(carc.Move(0, -1)) != ""
    others = [(x, y, loc) for q, x, y, loc, _ in s.followers() if q != p]
    for x, y, loc in others:
        assert s.check_move(carc.Move(x, y, follower=loc, kind="plague")) != ""
    with pytest.raises(ValueError):
        s.apply(carc.Move(0, -1))
    # The observation defaults to the deciding player and shows who decides.
    names = game.observation_vector_names
    vec = s.observation_vector()
    assert np.array_equal(s.observation(), s.observation(p))
    assert vec[names.index("phase_plague")] == 1 and vec[names.index("decides_p0")] == 1
    assert vec[names.index("phase_place")] == 1  # a decision node
    rel_turn = (turn_player - p) % 3
    assert vec[names.index(f"to_move_p{rel_turn}")] == 1  # whose turn it is stays the turn player
    tv = s.observation_vector(turn_player)
    assert tv[names.index(f"decides_p{(p - turn_player) % 3}")] == 1
    # A hand-built plague move (by the follower's place) equals the listed one; applying it by
    # move or by index takes that follower back into the supply.
    m = moves[-1]
    h = carc.Move(m.x, m.y, follower=m.location, kind="plague")
    assert h == m and hash(h) == hash(m) and pickle.loads(pickle.dumps(m)) == m
    assert s.check_move(h) == ""
    assert "Plague" in s.describe(h)
    a = s.move_to_action(h)
    lo, hi = s.action_ranges["plague"]
    assert lo <= a < hi and s.legal_range_mask("plague")[a - lo]
    assert s.action_to_move(a) == m
    by_move, by_index = s.clone(), s.clone()
    before = s.supply()[p]
    by_move.apply(h)
    by_index.apply(a)
    assert by_move == by_index
    assert by_move.supply()[p] == before + 1
    assert (p, m.x, m.y, m.location) not in [f[:4] for f in by_move.followers()]
    assert followers_conserved(by_move)
    # The state JSON of a pending Plague round-trips, and so does the finished game's record.
    assert carc.state_from_json(s.to_json()) == s
    by_move.play_random(3)
    rec = carc.record_of(by_move)
    assert any(t["plague"] for t in rec.turns)
    assert carc.replay(rec) == by_move


@pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library")
def test_ai_players_make_wheel_decisions():
    game = carc.Game(players=3, tileset=WOF, expansions=["fortune-teller"])
    s = find_state(game, lambda s: s.phase == "plague" and s.current_player() != s.turn_player)
    for spec in ("random", "greedy", "mcts:iterations=30"):
        m = carc.choose_move(s, spec, seed=1)
        assert m.kind == "plague" and m in s.legal_moves()
    c = find_state(game, lambda s: any(m.kind == "choose" for m in s.legal_moves()))
    for spec in ("greedy", "mcts:iterations=30"):
        m = carc.choose_move(c, spec, seed=2)
        assert m in c.legal_moves()


def test_choose_decision_with_the_fortune_teller():
    game = carc.Game(players=2, tileset=WOF, expansions=["fortune-teller"])
    s = find_state(game, lambda s: any(m.kind == "choose" for m in s.legal_moves()))
    names = game.observation_vector_names
    assert s.chosen is None
    assert s.observation_vector()[names.index("phase_choose")] == 1
    chooses = [m for m in s.legal_moves() if m.kind == "choose"]
    m = chooses[0]
    assert m.tile == s.drawn_tiles[m.choice] and "@" in m.tile  # a wheel tile
    h = carc.Move(kind="choose", choice=m.choice)
    assert h == m and hash(h) == hash(m) and s.check_move(h) == ""
    a = s.move_to_action(h)
    assert a == s.action_ranges["choose"][0] + m.choice
    pig = s.pig
    s.apply(a)
    # The wheel has turned; the chosen tile is now placed (or first the Plague is decided).
    assert s.chosen == m.choice and s.pig != pig
    assert s.observation_vector(s.turn_player)[names.index(f"chosen_c{m.choice}")] == 1
    if s.phase == "place":
        assert {mv.choice for mv in s.legal_moves()} == {m.choice}
        assert all(mv.kind == "place" for mv in s.legal_moves())
    with pytest.raises(ValueError):
        carc.Move(1, 0, kind="choose")
    with pytest.raises(ValueError):
        carc.Move(kind="choose", choice=1, crown="taxes:0")


def test_crown_moves_by_name_and_index():
    game = carc.Game(players=2, tileset=WOF, expansions=["festival"])
    s = game.new_initial_state(seed=3, auto_chance=True)
    m = next(m for m in s.legal_moves() if m.crown == "crown:taxes:0")
    assert m.crown_index == carc.CROWN_SPACES.index("crown:taxes:0") == 2 and m.location is None
    assert m.follower == "crown:taxes:0"
    for crown in ("taxes:0", "crown:taxes:0", 2):
        h = carc.Move(m.x, m.y, m.rotation, crown=crown)
        assert h == m and hash(h) == hash(m) and s.check_move(h) == ""
        assert s.move_to_action(h) == s.move_to_action(m)
    assert "crown='crown:taxes:0'" in repr(m)
    assert pickle.loads(pickle.dumps(m)) == m
    t = s.clone()
    t.apply(carc.Move(m.x, m.y, m.rotation, crown="taxes:0"))
    assert t.crowns()[2] == 0 and t.crowns_per_player() == [1, 0] and t.supply()[0] == 6
    # fortuna has one crown space: "fortuna:1" does not exist on this wheel.
    assert "crown:fortuna:1" not in game.crown_spaces
    assert s.check_move(carc.Move(m.x, m.y, m.rotation, crown="fortuna:1")) != ""
    with pytest.raises(ValueError):
        carc.Move(0, 1, crown="nowhere:0")
    with pytest.raises(ValueError):
        carc.Move(0, 1, crown=12)
    with pytest.raises(ValueError):
        carc.Move(0, 1, follower="N", crown="taxes:0")
    # Festival: take a follower back from a crown space.
    fs = find_state(game, lambda s: any(m.take_back_crown for m in s.legal_moves()), steer=False)
    tb = next(m for m in fs.legal_moves() if m.take_back_crown)
    assert tb.take_back == -1 and tb.take_back_at is None
    h = carc.Move(tb.x, tb.y, tb.rotation, take_back_crown=tb.take_back_crown)
    assert h == tb and hash(h) == hash(tb) and fs.check_move(h) == ""
    idx = carc.CROWN_SPACES.index(tb.take_back_crown)
    assert fs.crowns()[idx] == fs.turn_player
    me = fs.turn_player
    before = fs.supply()[me]
    fs.apply(h)
    assert fs.crowns()[idx] == -1 and fs.supply()[me] >= before + 1
    # Malformed wheel moves are refused when built.
    for bad in (dict(kind="plague", x=1, y=0), dict(kind="plague", x=1, y=0, follower="C", crown=2),
                dict(kind="bogus"), dict(take_back=0, take_back_crown="taxes:0")):
        with pytest.raises(ValueError):
            carc.Move(**bad)
    # Crown moves in a game without the wheel are refused, not crashes.
    base = carc.new_game(seed=1, auto_chance=True)
    assert base.check_move(carc.Move(0, 1, crown="taxes:0")) != ""


def test_wheel_observation_content():
    game = carc.Game(players=3, tileset=WOF, expansions=["fortune-teller"], radius=12)
    shp = game.observation_shape
    P, N, T = 3, 3, game.num_tile_types
    assert shp["planes"][0] == 23 + 7 * P
    assert shp["vector"] == ((N + 1) * T + 4 * P + 5 + 6 + 12 * (P + 1) + 2 * P + 2 + N,)
    names = game.observation_vector_names
    pnames = game.observation_plane_names
    assert len(names) == shp["vector"][0] and len(pnames) == shp["planes"][0]
    s = game.new_initial_state(seed=4)
    rng = random.Random(4)
    checked = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.draw_random()
            continue
        me = s.current_player()
        vec = s.observation_vector(me)
        assert vec[names.index("pig_" + s.pig_event)] == 1
        assert vec[names.index("pig_fortuna"):names.index("pig_plague") + 1].sum() == 1
        crowns = s.crowns()
        for c, who in enumerate(crowns):
            key = carc.CROWN_SPACES[c].replace(":", "_")  # "crown:taxes:0" -> crown_taxes_0
            exists = carc.CROWN_SPACES[c] in game.crown_spaces
            assert vec[names.index(key + "_free")] == (exists and who < 0)
            for o in range(P):
                assert vec[names.index(f"{key}_p{o}")] == (who >= 0 and (who - me) % P == o)
        for q in range(P):
            assert vec[names.index(f"crowns_p{(q - me) % P}")] == s.crowns_per_player()[q]
        assert vec[names.index("phase_plague")] == (s.phase == "plague")
        assert vec[names.index("decides_p0")] == 1
        # The board's 16 cells are tiles in the planes.
        planes = s.observation_planes(me)
        for x, y, _ in game.board_cells:
            assert planes[pnames.index("tile"), y + 12, x + 12] == 1
        # fits planes: where the drawn tiles still to be placed fit (the placements listed, when
        # no wheel tile waits to be chosen).
        moves = s.legal_moves()
        if s.phase == "place" and not any(m.kind == "choose" for m in moves):
            fits = planes[[pnames.index(f"fits_rot{r}") for r in range(4)]]
            listed = {(m.rotation // 90, m.y + 12, m.x + 12) for m in moves}
            assert set(zip(*np.nonzero(fits))) == listed
        checked += 1
        s.apply(rng.choice(moves))
    assert checked > 50


def test_fruit_trees_in_observations_and_hidden_values():
    game = carc.Game(players=2, expansions=["fruit-trees"], radius=15)
    pnames, names = game.observation_plane_names, game.observation_vector_names
    assert pnames[-7:] == ["tree_" + f for f in carc.FRUIT_TYPES] + ["fruit_left"]
    assert game.observation_shape["vector"] == (2 * game.num_tile_types + 4 * 2 + 5 + 6 * 2 + 18,)
    s = game.new_initial_state(seed=7, auto_chance=True)
    rng = random.Random(7)
    harvested_differently = held_seen = 0
    while not s.is_terminal():
        me = s.current_player()
        planes, vec = s.observation_planes(), s.observation_vector()
        trees = s.fruit_trees()
        left, held, sold = s.fruit_left(), s.fruit_held(), s.fruit_sold()
        for t, f in enumerate(carc.FRUIT_TYPES):
            assert vec[names.index("stack_unused_" + f)] == (f not in trees)
            assert vec[names.index("fruit_left_" + f)] == left[t]
            assert vec[names.index("fruit_sold_" + f)] == sold[t]
            for q in range(2):
                assert vec[names.index(f"held_p{(q - me) % 2}_{f}")] == held[q][t]
            plane = planes[pnames.index("tree_" + f)]
            if f in trees:
                x, y = trees[f]
                assert plane[y + 15, x + 15] == 1 and plane.sum() == 1
                assert planes[pnames.index("fruit_left"), y + 15, x + 15] == left[t]
            else:
                assert plane.sum() == 0
        held_seen += sum(map(sum, held)) > 0
        # Resampling the hidden stacks changes no observation, yet the next harvest's value can differ.
        other = s.clone()
        other.resample_hidden(rng.randrange(1 << 60))
        for p in range(2):
            assert np.array_equal(s.observation(p), other.observation(p))
        moves = s.legal_moves()
        harvests = [m for m in moves if m.harvest is not None]
        if harvests:
            m = rng.choice(harvests)
            x, y = s.clone(), other.clone()
            x.apply(m)
            y.apply(m)
            harvested_differently += x.scores() != y.scores()
            s.apply(m)
        else:
            s.apply(rng.choice(moves))
    assert held_seen > 0
    assert harvested_differently > 0  # the values are really hidden, and really not shown


@pytest.mark.parametrize("expansions", [[], ["festival", "fortune-teller"], ["fruit-trees"]],
                         ids=lambda e: "+".join(["wof"] + e))
def test_batch_wheel_games_equal_replays(expansions):
    res = carc.play_games(players=["random"] * 3, games=8, seed=5, threads=2, tileset=WOF, expansions=expansions)
    for r in res:
        st = carc.replay(r.record)
        assert st.is_terminal() and st.scores() == r.scores
        assert r.record.tileset == WOF
        assert r.moves >= len(r.record)  # Plague and Choose decisions count as moves, not turns
    again = carc.play_games(players=["random"] * 3, games=8, seed=5, threads=1, tileset=WOF,
                            expansions=expansions)
    assert [r.record.to_json() for r in again] == [r.record.to_json() for r in res]
    if carc.has_ai():
        ai = carc.play_games(players=["greedy", "random", "greedy"], games=3, seed=6, threads=2, tileset=WOF,
                             expansions=expansions)
        for r in ai:
            assert carc.replay(r.record).scores() == r.scores


def test_sourced_tile_set_and_board():
    """71 tiles (19 with a pig number), the board's rim cities and roads, and a city closed
    against board city A counting the board's cell."""
    game = make_game(WOF, [])
    assert game.tile_info("U@2")["wheel"] == 2 and game.tile_info("U@2")["count"] == 3
    assert game.tile_info("IC/RrRr@1")["edges"] == ["road"] * 4
    assert game.tile_info("board:1:0")["edges"] == ["field", "field", "wheel", "field"]
    assert game.tile_info("board:0:0")["edges"][0] == "city"
    rec = carc.parse_record(
        '{"format":"carcassonne-record/1","setup":{"players":["A","B"],"tileset":"wheel-of-fortune",'
        '"expansions":[],"seed":1,"draws":"scripted"},"turns":['
        '{"tile":"E","x":0,"y":-1,"rotation":180,"meeple":"S"}]}')
    s = carc.replay(rec)
    assert s.scores() == [4, 0]  # E + the board's cell: a city of 2 tiles
    assert s.bag_size == 70


def test_replay_log_reports_the_pig_the_plague_and_crown_segments():
    """The engine's wheel events through Python: the pig's move (from, to, steps, tile), the
    Plague's deciding players in order, and the segment of a crown scoring."""
    rec = carc.parse_record(
        '{"format":"carcassonne-record/1","setup":{"players":["A","B","C"],"tileset":"wheel-of-fortune",'
        '"expansions":[],"seed":1,"draws":"scripted"},"turns":['
        '{"tile":"F","x":0,"y":-1,"rotation":90,"meeple":"N"},'
        '{"tile":"B","x":1,"y":4,"rotation":0,"meeple":"crown:taxes:0"},'
        '{"tile":"F","x":4,"y":2,"rotation":0,"meeple":"E"},'
        '{"tile":"U@3","x":2,"y":-1,"rotation":0,"meeple":"crown:plague:0"},'
        '{"tile":"U@2","x":-1,"y":0,"rotation":0,"plague":[{"x":4,"y":2,"at":"E"},{"x":0,"y":-1,"at":"N"}]}]}')
    log = carc.replay_log(rec)
    pigs = [e for e in log if e["kind"] == "pig"]
    assert [(e["turn"], e["from"], e["to"], e["steps"], e["tile"]) for e in pigs] == [
        (4, "fortuna", "storm", 3, "U@3"), (5, "storm", "plague", 2, "U@2")]
    plague = [e for e in log if e["kind"] == "plague"]
    assert [(e["player"], e["x"], e["y"], e["at"], e["points"]) for e in plague] == [(2, 4, 2, "E", 0), (0, 0, -1, "N", 0)]
    crown = [e for e in log if e["kind"] == "crown"]
    assert [(e["player"], e["points"], e["segment"]) for e in crown] == [(0, 6, "plague")]
    assert all(e["segment"] == "storm" for e in log if e["kind"] == "storm")
    events, _ = carc.replay_events(rec)
    assert [e[3] for e in events] == [e["kind"] for e in log]
