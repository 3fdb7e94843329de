"""carcassonne.Table: the game in progress the server and `carcassonne play` hold (src/match/table.h):
undo (own move and the computer's reply; never another person's), resignation, hints, AI turns (the
runner's game), the AI failure policy (a spec that cannot be made plays nothing), and save/load."""
import json

import pytest

import carcassonne as carc

if not hasattr(carc, "Table"):
    pytest.skip("built without the AI library", allow_module_level=True)


def test_undo_takes_back_own_move_and_the_reply_only():
    g = carc.Game(players=2)
    t = carc.Table(g, [("Ann", "human"), ("Bot", "ai", "greedy")], seed=11)
    with pytest.raises(ValueError, match="no move of yours"):
        t.undo(0, seed=1)
    tile = t.state.drawn_tiles
    t.play(0, t.state.legal_moves()[0])
    assert t.auto_seat == 1
    assert t.play_ai() == 1
    assert t.state.turn == 2
    t.undo(0, seed=99)
    assert t.state.turn == 0
    assert t.state.drawn_tiles == tile, "the undone turn's tile comes again"
    hot = carc.Table(g, [("Ann", "human"), ("Ben", "human")], seed=3)
    hot.play(0, hot.state.legal_moves()[0])
    hot.play(1, hot.state.legal_moves()[0])
    with pytest.raises(ValueError, match="Ben has moved since your last move"):
        hot.undo(0, seed=1)


def test_resign_hints_and_refusals():
    g = carc.Game(players=2)
    t = carc.Table(g, [("Ann", "human"), ("Ben", "human")], seed=4)
    with pytest.raises(ValueError, match="it is Ann's turn, not Ben's"):
        t.play(1, t.state.legal_moves()[0])
    pub = t.hint_position(0, seed=7)
    assert [str(m) for m in pub.legal_moves()] == [str(m) for m in t.state.legal_moves()]
    with pytest.raises(ValueError, match="hints are for the player to move"):
        t.hint_position(1, seed=7)
    t.resign(1)
    assert t.status == "finished" and t.end_reason == "Ben resigned"
    with pytest.raises(ValueError, match="the game is over"):
        t.resign(0)


def test_ai_turns_play_the_runners_game():
    g = carc.Game(players=2)
    r = carc.play_games(["greedy", "greedy"], games=1, seed=5)[0]
    t = carc.Table(g, [("A", "ai", "greedy"), ("B", "ai", "greedy")], seed=carc.game_seed(5, 0))
    t.play_ai()
    assert t.status == "finished"
    assert list(t.state.scores()) == list(r.scores)


def test_an_ai_that_cannot_be_made_plays_nothing():
    g = carc.Game(players=2)
    t = carc.Table(g, [("Bot", "ai", "nonsense"), ("Ann", "human")], seed=2)
    assert t.play_ai() == 0
    seat, spec, error = t.ai_failure
    assert (seat, spec) == (0, "nonsense")
    assert "cannot be made" in error
    assert t.state.turn == 0 and t.auto_seat == -1


@pytest.mark.parametrize("tileset,expansions", [("base", []), ("base", ["festival"]), ("base", ["fortune-teller"]),
                                                ("base", ["fruit-trees"]), ("wheel-of-fortune", [])])
def test_save_and_load_a_game_in_progress(tileset, expansions):
    g = carc.Game(players=3, tileset=tileset, expansions=expansions)
    t = carc.Table(g, [("Ann", "human"), ("Bot", "ai", "random"), ("Cy", "human")], seed=8)
    for step in range(40):
        if t.status != "playing":
            break
        if t.auto_seat >= 0:
            t.play_ai()
            continue
        s = t.state
        t.play(s.current_player(), s.legal_moves()[step % len(s.legal_moves())])
        u = carc.Table.from_json(t.to_json(), t.record_json())
        assert json.loads(u.to_json()) == json.loads(t.to_json())
        assert u.record_json() == t.record_json()
        assert u.state.to_json() == t.state.to_json()


def test_hostile_seat_names_and_saved_forms_are_refused():
    g = carc.Game(players=2)
    with pytest.raises(ValueError, match="seat name"):
        carc.Table(g, [("Ann\x1b[2J", "human"), ("Ben", "human")], seed=1)
    with pytest.raises(ValueError, match="seat name"):
        carc.Table(g, [("A" * 200, "human"), ("Ben", "human")], seed=1)
    t = carc.Table(g, [("  Ann  ", "human"), ("Ben", "human")], seed=1)
    assert t.seats[0][0] == "Ann", "names are cleaned like the server's"
    rec = t.record_json()
    with pytest.raises(ValueError, match="nested deeper"):
        carc.Table.from_json("[" * 10000 + "]" * 10000, rec)
    with pytest.raises(ValueError, match="bytes, at most"):
        carc.Table.from_json(" " * (2 << 20), rec)
    with pytest.raises(Exception, match="twice|duplicate|seats"):
        carc.Table.from_json('{"seats": [], "seats": []}', rec)
