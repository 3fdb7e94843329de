"""Records (load/save/replay) and batch play: batch results equal replaying their records,
and do not depend on the number of threads."""
import pytest

from helpers import carc


def test_record_round_trip(tmp_path):
    s = carc.new_game(players=3, expansions=["festival"], seed=12, auto_chance=True)
    s.play_random(7)
    r = carc.record_of(s, ["ann", "bob", "cy"])
    assert r.players == ["ann", "bob", "cy"] and r.expansions == ["festival"] and len(r) == s.turn
    path = tmp_path / "game.record.json"
    r.save(str(path))
    r2 = carc.load_record(str(path))
    assert carc.record_to_json(r2) == r.to_json()
    t = carc.replay(r2)
    assert t == s and t.scores() == s.scores()
    events, after = carc.replay_events(r2)
    assert after[-1] == s.scores()
    assert sum(e[2] for e in events) == sum(s.scores())
    first = carc.initial_state(r2)
    assert first.turn == 0 and first.is_chance_node()


def test_bad_record_raises_record_error():
    with pytest.raises(carc.RecordError):
        carc.parse_record("{not json")
    s = carc.new_game(seed=1, auto_chance=True)
    s.play_random(1)
    text = carc.record_of(s).to_json()
    assert '"x":' in text
    text = text.replace('"x":', '"x":55, "xx":', 1)  # an unknown field
    with pytest.raises(carc.RecordError):
        carc.parse_record(text)
    good = carc.record_of(s)
    bad = carc.parse_record(good.to_json().replace('"y":', '"y":40', 1))  # a far-away place
    with pytest.raises(carc.RecordError):
        carc.replay(bad)


@pytest.mark.parametrize("expansions", [[], ["festival"]])
def test_batch_results_equal_replays(expansions):
    res = carc.play_games(players=["random"] * 3, games=20, seed=99, threads=2, expansions=expansions)
    assert [r.index for r in res] == list(range(20))
    for r in res:
        st = carc.replay(r.record)
        assert st.is_terminal()
        assert st.scores() == r.scores
        assert r.record.players == ["random"] * 3
        assert len(r.record) == r.moves


def test_batch_independent_of_threads_and_records():
    a = carc.play_games(games=12, seed=7, threads=1)
    b = carc.play_games(games=12, seed=7, threads=0)
    c = carc.play_games(games=12, seed=7, threads=3, records=False)
    assert [r.scores for r in a] == [r.scores for r in b] == [r.scores for r in c]
    assert [r.record.to_json() for r in a] == [r.record.to_json() for r in b]
    assert all(r.record is None for r in c)
    assert carc.play_games(games=0) == []


def test_batch_record_carries_the_game_seed():
    r = carc.play_games(games=2, seed=3)[1]
    assert r.record.seed == r.seed
    assert carc.initial_state(r.record) == carc.new_game(seed=r.seed)
    # The replayed game continues exactly like the live one: its generator is in the state.
    assert carc.replay(r.record).is_terminal()


def test_batch_rejects_bad_specs():
    with pytest.raises(ValueError):
        carc.play_games(players=["random", "no-such-player"], games=1)
    with pytest.raises(ValueError):
        carc.play_games(players=["random"], games=1)


@pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library")
def test_batch_with_ai_players_equals_replay():
    res = carc.play_games(players=["greedy", "random"], games=4, seed=5, threads=2)
    for r in res:
        assert carc.replay(r.record).scores() == r.scores
    again = carc.play_games(players=["greedy", "random"], games=4, seed=5, threads=1)
    assert [r.scores for r in again] == [r.scores for r in res]


@pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library")
def test_choose_move_and_players():
    names = [n for n, _ in carc.players()]
    assert "random" in names
    s = carc.new_game(seed=2, auto_chance=True)
    for spec in ("random", "greedy", "mcts:iterations=50"):
        m = carc.choose_move(s, spec, seed=1)
        assert s.check_move(m) == "" and m in s.legal_moves()
    p = carc.Player("mcts:iterations=50", seed=3)
    ev = p.analyse(s)
    assert ev and ev[0][0] in s.legal_moves()
    with pytest.raises(ValueError):
        carc.choose_move(s, "no-such-player")
    s.play_random(0)
    with pytest.raises(ValueError):
        carc.choose_move(s, "random")


def test_batch_random_games_equal_cli_simulate(tmp_path):
    import pathlib
    import subprocess

    cli = pathlib.Path(carc.__file__).resolve().parents[2] / "carcassonne"
    if not cli.exists():
        pytest.skip("no carcassonne binary next to the module")
    r = subprocess.run([str(cli), "simulate", "-n", "4", "--seed", "77", "-p", "3", "--expansions", "festival",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("simulate failed: " + r.stderr[-300:])
    for g in carc.play_games(players=["random"] * 3, games=4, seed=77, expansions=["festival"]):
        rec = carc.load_record(str(tmp_path / f"game_{g.index:06d}.record.json"))
        rec.players = g.record.players
        assert rec.to_json() == g.record.to_json()
