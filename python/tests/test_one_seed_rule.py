"""The one seed rule (src/engine/seeds.h, issue #36): the same (run seed, game index, seating) is the
same game in every front end -- `carcassonne simulate` and `carcassonne tournament` (CLI), Python's
play_games (the C++ batch, and the Python loop used with Python players) and tournament(), and the
Dask module's tasks (carcassonne.distributed.selfplay_range, called directly: a task is a pure
function). Games are compared move for move (the records' turns) and by their draw seed."""
import json
import os
import pathlib
import subprocess

import pytest

import carcassonne as carc

PKG_DIR = pathlib.Path(carc.__file__).resolve().parents[1]


def _cli():
    for d in (os.environ.get("CARC_BUILD_DIR"), PKG_DIR.parent):
        if d and (pathlib.Path(d) / "carcassonne").is_file():
            return str(pathlib.Path(d) / "carcassonne")
    pytest.skip("the carcassonne CLI was not found ($CARC_BUILD_DIR/carcassonne)")


def _moves(record_json):
    """(seed, turns) of a record: what makes it the same game, whatever the players' names."""
    j = json.loads(record_json)
    return j["setup"]["seed"], j["turns"]


def _cli_records(args, tmp_path, name):
    out = tmp_path / name
    subprocess.run([_cli(), *args, "--out", str(out)], check=True, capture_output=True, text=True, timeout=300)
    return [_moves((out / f).read_text()) for f in sorted(os.listdir(out)) if f.endswith(".record.json")]


def test_seed_functions():
    if hasattr(carc, "derive_seed"):
        assert carc.game_seed(9, 3) == carc.derive_seed(9, 3)
    gs = carc.game_seed(9, 3)
    assert carc.seat_seed(gs, 0) != carc.seat_seed(gs, 1) != gs
    if hasattr(carc, "derive_seed"):
        assert carc.seat_seed(gs, 1) == carc.derive_seed(gs, 2)


def test_random_games_are_the_same_in_simulate_tournament_and_python(tmp_path):
    sim = _cli_records(["simulate", "--games", "4", "--seed", "9", "--threads", "2"], tmp_path, "sim")
    assert len(sim) == 4
    assert [s for s, _ in sim] == [carc.game_seed(9, i) for i in range(4)]
    batch = [_moves(carc.record_to_json(r.record)) for r in carc.play_games(["random", "random"], 4, seed=9, threads=2)]
    assert batch == sim
    # A Python-side seat forces play_games' Python loop: RandomSeat made with the seat's seed is the
    # 'random' player of that seat, so the game is simulate's game 0 again.
    seat1 = carc.RandomSeat(carc.seat_seed(carc.game_seed(9, 0), 1))
    loop = carc.play_games(["random", seat1], 1, seed=9)
    assert _moves(carc.record_to_json(loop[0].record)) == sim[0]
    if carc.has_ai():
        tour = _cli_records(["tournament", "--players", "random,random", "-n", "4", "--seed", "9", "-t", "2"],
                            tmp_path, "tour")
        assert tour == sim


@pytest.mark.skipif(not carc.has_ai(), reason="the module was built without the AI library")
def test_ai_games_are_the_same_in_the_cli_python_and_dask(tmp_path):
    tour = _cli_records(["tournament", "--players", "greedy,random", "-n", "4", "--seed", "4", "-t", "2"],
                        tmp_path, "tour")
    # play_games seats specs in order; the tournament rotates: game i seats (i + j) % 2.
    for i in range(4):
        seating = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        batch = carc.play_games(seating, i + 1, seed=4)[i]
        assert _moves(carc.record_to_json(batch.record)) == tour[i], f"play_games game {i}"
    # Python's tournament() (its own loop in Python) gives the CLI's scores game for game.
    py = carc.tournament(["greedy", "random"], games=4, seed=4, records=False)
    assert [s for s, _ in tour] == [carc.game_seed(4, i) for i in range(4)]
    cli_json = json.loads(subprocess.run([_cli(), "tournament", "--players", "greedy,random", "-n", "4", "--seed", "4",
                                          "--json"], check=True, capture_output=True, text=True).stdout)
    assert [round(x, 6) for x in py["mean_score"]] == [round(p["mean_score"], 6) for p in cli_json["players"]]
    # A Python player object in a seat forces play_games' Python loop: the same game as the C++ batch.
    gs = carc.game_seed(4, 0)
    loop = carc.play_games([carc.Player("greedy", carc.seat_seed(gs, 0)), "random"], 1, seed=4)
    assert _moves(carc.record_to_json(loop[0].record)) == tour[0]
    # The Dask module's self-play task (a pure function of rules, players, seed and game range).
    try:
        from carcassonne import distributed as cd
    except ImportError:
        pytest.skip("Dask's `distributed` is not importable")
    import io

    import numpy as np

    data, _ = cd.selfplay_range(cd.rules_spec(), ["greedy", "random"], 4, 0, 4)
    z = np.load(io.BytesIO(data))
    assert [_moves(str(r)) for r in z["records"]] == tour
