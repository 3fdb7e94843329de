"""One vocabulary (docs/vocabulary.md): rotation in degrees, the follower's place as `follower`
(a location or a crown space "crown:SEGMENT:K"), the old keyword `location=` kept as a deprecated
alias, moves converted by the engine's notation (the same errors as records and the server), and
tournament() seeded as `carcassonne tournament` (the one seed rule, src/engine/seeds.h)."""
import json
import os
import pathlib
import subprocess
import warnings

import pytest

from helpers import carc


def _state(seed=3):
    s = carc.new_game(seed=seed, auto_chance=True)
    assert not s.is_chance_node()
    return s


def test_rotation_is_in_degrees():
    s = _state()
    moves = s.legal_moves()
    assert {m.rotation for m in moves} <= {0, 90, 180, 270}
    assert any(m.rotation for m in moves)
    for m in moves[:20]:
        assert m.degrees == m.rotation
        assert carc.Move(m.x, m.y, m.rotation, follower=m.follower) == m or m.crown is not None
        assert f"rotation={m.rotation}" in repr(m)
    for bad in (1, 2, 3, 45, 360, -90):
        with pytest.raises(ValueError, match="rotation is in degrees clockwise: 0, 90, 180 or 270"):
            carc.Move(1, 0, bad)
    with pytest.raises(ValueError, match="quarter turns are no longer accepted"):
        carc.Move(1, 0, 1)
    assert all(rot in (0, 90, 180, 270) for (_x, _y, _t, rot) in s.tiles())
    g = carc.Game()
    t = g.new_initial_state(seed=1, start_tile="D", start_rotation=270)
    assert t.tiles()[0][3] == 270
    with pytest.raises(ValueError, match="degrees"):
        g.new_initial_state(seed=1, start_tile="D", start_rotation=3)


def test_follower_keyword_and_its_deprecated_alias():
    s = _state()
    m = next(m for m in s.legal_moves() if m.location)
    assert m.follower == m.location
    new = carc.Move(m.x, m.y, m.rotation, follower=m.follower)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        old = carc.Move(m.x, m.y, m.rotation, location=m.follower)
    assert [x.category for x in w] == [DeprecationWarning] and "follower=" in str(w[0].message)
    assert new == old == m
    assert f"follower='{m.follower}'" in repr(m)
    with pytest.raises(ValueError, match="follower= or its deprecated old name location=, not both"):
        carc.Move(m.x, m.y, m.rotation, follower="N", location="N")
    t = s.clone()
    t.apply(new)
    assert any((f[1], f[2], f[3]) == (m.x, m.y, m.follower) for f in t.followers())


def test_crown_spaces_have_the_engine_names():
    game = carc.Game(tileset="wheel-of-fortune")
    assert all(c.startswith("crown:") for c in game.crown_spaces)
    assert all(c.startswith("crown:") for c in carc.CROWN_SPACES)
    s = game.new_initial_state(seed=2, auto_chance=True)
    for _ in range(40):
        if s.is_terminal():
            break
        crowned = [m for m in s.legal_moves() if m.crown]
        if crowned:
            m = crowned[0]
            assert m.follower == m.crown and m.crown in game.crown_spaces
            # the crown space as the follower's place, or by crown=, old and new spelling: one move
            assert carc.Move(m.x, m.y, m.rotation, follower=m.crown, choice=m.choice) == m
            assert carc.Move(m.x, m.y, m.rotation, crown=m.crown.removeprefix("crown:"), choice=m.choice) == m
            t = s.clone()
            t.apply(carc.Move(m.x, m.y, m.rotation, follower=m.crown, choice=m.choice))
            return
        s.apply(s.legal_moves()[0])
        while s.is_chance_node():
            s.draw_random()
    pytest.fail("no crown space was offered")


def test_moves_are_checked_by_the_engine_notation():
    """The reasons are notation's (src/engine/notation.cc), as the server and records give them."""
    s = _state()
    m = next(m for m in s.legal_moves() if m.location)
    reasons = [s.check_move(carc.Move(m.x, m.y, m.rotation, follower=loc)) for loc in carc.LOCATIONS]
    assert any(f"rotated {m.rotation} has no follower location" in r for r in reasons), reasons
    assert "off the board" in s.check_move(carc.Move(5000, 0))
    assert "no drawn tile number 2" in s.check_move(carc.Move(m.x, m.y, m.rotation, choice=2))
    assert "no Plague decision is pending" in s.check_move(carc.Move(1, 0, follower="N", kind="plague"))
    with pytest.raises(ValueError, match="off the board"):
        s.clone().apply(carc.Move(5000, 0))
    with pytest.raises(ValueError, match="no follower number 30"):
        s.clone().apply(carc.Move(m.x, m.y, m.rotation, take_back=30))


def _cli():
    for d in (os.environ.get("CARC_BUILD_DIR"), pathlib.Path(carc.__file__).resolve().parents[2]):
        if d and (pathlib.Path(d) / "carcassonne").exists():
            return str(pathlib.Path(d) / "carcassonne")
    pytest.skip("the carcassonne CLI was not found ($CARC_BUILD_DIR/carcassonne)")


@pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library (tournaments need it)")
@pytest.mark.parametrize("players,games,seed", [(["greedy", "random"], 6, 5), (["random", "greedy", "random"], 4, 12)])
def test_tournament_seeds_like_the_cli(players, games, seed):
    """carcassonne.tournament seeds by the one seed rule as `carcassonne tournament` does: the same
    scores game for game, so the same totals as `--json` prints."""
    t = carc.tournament(players, games=games, seed=seed)
    ref = carc.tournament_games(players, seed, 0, games)["scores"].tolist()
    assert t["results"] == ref
    out = subprocess.run([_cli(), "tournament", "--players", ",".join(players), "-n", str(games), "--seed", str(seed),
                          "--json", "-t", "1"], check=True, capture_output=True, text=True, timeout=120).stdout
    cli = json.loads(out)
    summary = json.loads(carc.tournament_summary(players, carc.tournament_games(players, seed, 0, games)["scores"],
                                                 [0] * len(players), [0] * len(players), seed))
    for key in cli:
        if key not in ("seconds", "iterations", "decisions", "mean_iterations", "players_stats"):
            assert cli[key] == summary[key], key
    # and the dict's means are the CLI's
    assert t["mean_score"] == pytest.approx([sum(r[p] for r in ref) / games for p in range(len(players))])
