"""Shared helpers for the Python tests."""
import itertools
import random

import carcassonne as carc  # no importorskip: a missing module fails the suite


def variants():
    """Every (tileset, expansions) combination the module knows about: each tile set of
    carc.tile_sets() with each subset of carc.expansion_names(). The engine must accept every one
    (a refused combination fails the tests that use it)."""
    out = []
    names = list(carc.expansion_names())
    for tileset in carc.tile_sets():
        for n in range(len(names) + 1):
            for combo in itertools.combinations(names, n):
                out.append((tileset, list(combo)))
    return out


def variant_id(v):
    return "+".join([v[0]] + v[1]) or "base"


def make_game(tileset, expansions, players=2, **kw):
    """The Game (a ValueError, so a failure, when the engine rejects the combination)."""
    return carc.Game(players=players, tileset=tileset, expansions=expansions, **kw)


def random_game(game, seed, check=None, kinds=None):
    """Plays one game through the Python API with explicit chance nodes; `check(state)` is
    called at every node, and `kinds` (a dict) counts the applied moves by kind. Returns the
    terminal state."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    steps = 0
    # Per turn: up to 3 draws (Fortune Teller), a wheel-tile choice, a Plague decision per
    # player, and the placement.
    bound = game.total_tiles * (5 + game.num_players) + 10
    while not s.is_terminal():
        steps += 1
        assert steps <= bound, "the game does not end"
        if check:
            check(s)
        if s.is_chance_node():
            outcomes = s.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            tiles, probs = zip(*outcomes)
            s.apply_draw(rng.choices(tiles, probs)[0])
        else:
            moves = s.legal_moves()
            assert moves, "a decision node without legal moves"
            m = rng.choice(moves)
            if kinds is not None:
                kinds[m.kind] = kinds.get(m.kind, 0) + 1
            s.apply(m)
    if check:
        check(s)
    return s


def followers_conserved(s):
    """Land + crown spaces + supply = 7 for every player."""
    land = [0] * s.num_players
    for f in s.followers():
        land[f[0]] += 1
    return all(land[p] + s.crowns_per_player()[p] + s.supply()[p] == 7 for p in range(s.num_players))
