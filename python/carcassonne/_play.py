"""Batch play with Python policies: play_games() and tournament() accept, per seat, a player spec
string ("mcts:iterations=200"), a ``carcassonne.Player`` object, or a Python callable
``policy(state) -> Move or action index`` (the state is a copy the policy may change).

When every seat is a spec string, play_games runs the engine's C++ batch (threads, GIL released),
unchanged. With a Python player the games are played in Python, one after the other, by the one seed
rule of every front end (src/engine/seeds.h): game i draws with ``game_seed(seed, i)`` and a spec in
seat j gets a player seeded with ``seat_seed(game seed, j)``, as in the C++ batch, ``carcassonne
simulate`` and ``carcassonne tournament``, so a game of spec players is the same game either way.
tournament() seats players as ``carcassonne tournament`` does (seat j of game i is player
``tournament_player(i, j, k)``), so its scores equal the CLI's for the same seed.
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Sequence, Union

from . import _core

PlayerLike = Union[str, Callable[[Any], Any], Any]


def _is_spec(p) -> bool:
    return isinstance(p, str)


def _seat_name(p) -> str:
    if isinstance(p, str):
        return p
    name = getattr(p, "name", None)
    if isinstance(name, str):
        return name
    return getattr(p, "__name__", None) or type(p).__name__


def _make_seat(p, seed):
    """A function state -> Move for one seat of one game."""
    if isinstance(p, str):
        if p == "random":
            return _core.RandomSeat(seed).choose  # the 'random' player, with or without the AI library
        if not _core.has_ai():
            raise ValueError(f"player '{p}': this module was built without the AI library; only 'random'")
        player = _core.Player(p, seed)
        return player.choose
    if hasattr(p, "choose") and callable(p.choose):
        return p.choose
    if callable(p):
        return p
    raise TypeError(f"a player is a spec string, a carcassonne.Player or a callable, not {type(p).__name__}")


def _check(players, n):
    if len(players) != n:
        raise ValueError(f"need one player per seat ({n})")
    for p in players:
        if _is_spec(p):
            if _core.has_ai():
                _core.Player(p, 0)  # ValueError for a bad spec, before any game is played
            elif p != "random":
                raise ValueError(f"player '{p}': this module was built without the AI library; only 'random'")
        elif not (callable(p) or hasattr(p, "choose")):
            raise TypeError(f"a player is a spec string, a carcassonne.Player or a callable, not {type(p).__name__}")


def _play_one(game, seats: Sequence[PlayerLike], names, seed: int, index: int, records: bool):
    """One game: draw seed game_seed(seed, index), seat j's player seeded seat_seed(that, j)."""
    gs = _core.game_seed(seed, index)
    s = game.new_initial_state(seed=gs)
    choosers = [_make_seat(p, _core.seat_seed(gs, j)) for j, p in enumerate(seats)]
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.draw_random()
            continue
        cp = s.current_player()
        m = choosers[cp](s.clone())
        s.apply(m if isinstance(m, _core.Move) else operator.index(m))  # a Move or an action index
        moves += 1
    rec = _core.record_of(s, list(names)) if records else None
    return _core.GameResult(index, gs, s.scores(), moves, rec)


def play_games(players: Sequence[PlayerLike] = ("random", "random"), games: int = 1, seed: int = 1, threads: int = 1,
               tileset: str = "base", expansions: Sequence[str] = (), rules=None, records: bool = True):
    """Plays `games` games, one player per seat (spec string, Player object or callable), and returns
    a list of GameResult in game order. All specs: the C++ batch on `threads` threads (0 = all cores).
    Game i uses draw seed game_seed(seed, i) as `carcassonne simulate` does (both default to seed 1)."""
    players = list(players)
    if all(_is_spec(p) for p in players):
        return _core.play_games(players=players, games=games, seed=seed, threads=threads, tileset=tileset,
                                       expansions=list(expansions), rules=rules, records=records)
    if games < 0:
        raise ValueError("games must be >= 0")
    if rules is not None:
        game = _core.Game(rules)
        if game.num_players != len(players):
            raise ValueError(f"need one player per seat ({game.num_players})")
    else:
        game = _core.Game(players=len(players), tileset=tileset, expansions=list(expansions))
    _check(players, game.num_players)
    names = [_seat_name(p) for p in players]
    return [_play_one(game, players, names, seed, i, records) for i in range(games)]


def tournament(players: Sequence[PlayerLike], games: int = 10, seed: int = 1, tileset: str = "base",
               expansions: Sequence[str] = (), records: bool = False) -> dict:
    """Players against each other, seeded and seated as `carcassonne tournament` (and the cluster's
    tournaments) do: game i draws with game_seed(seed, i), its seat j is player (i + j) % k
    (tournament_player) seeded with seat_seed(game seed, j). With spec strings only, the scores
    are those of `carcassonne tournament --players ... --seed S --json` game for game.
    Returns {'players': names, 'wins': shared wins per player (a tie for first shares the win),
    'win_rate', 'mean_score', 'games', 'results': per game the scores by player}."""
    players = list(players)
    k = len(players)
    if not hasattr(_core, "tournament_player"):
        raise RuntimeError("tournament() needs the AI library (this module was built without it)")
    game = _core.Game(players=k, tileset=tileset, expansions=list(expansions))
    _check(players, k)
    names = [_seat_name(p) for p in players]
    wins = [0.0] * k
    total = [0.0] * k
    results = []
    for i in range(games):
        order = [_core.tournament_player(i, j, k) for j in range(k)]
        r = _play_one(game, [players[p] for p in order], [names[p] for p in order], seed, i, records)
        by_player = [0] * k
        for j, p in enumerate(order):
            by_player[p] = r.scores[j]
        top = max(by_player)
        n_top = by_player.count(top)
        for p in range(k):
            total[p] += by_player[p]
            if by_player[p] == top:
                wins[p] += 1.0 / n_top
        results.append(by_player)
    return {"players": names, "games": games, "wins": wins,
            "win_rate": [w / games if games else 0.0 for w in wins],
            "mean_score": [t / games if games else 0.0 for t in total], "results": results}
