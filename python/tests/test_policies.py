"""Python policies in play_games/tournament, and MCTS with a batched Python evaluator."""
import numpy as np
import pytest

from helpers import carc

needs_ai = pytest.mark.skipif(not carc.has_ai(), reason="module built without the AI library")


def first_move(state):
    return state.legal_moves()[0]


def first_action(state):
    return state.legal_actions()[0]


def test_play_games_with_callables_equals_replay():
    res = carc.play_games(players=[first_move, first_action], games=3, seed=2)
    assert [r.index for r in res] == [0, 1, 2]
    for r in res:
        assert r.seed == carc.game_seed(2, r.index)
        assert carc.replay(r.record).scores() == r.scores
        assert r.record.players == ["first_move", "first_action"]
    again = carc.play_games(players=[first_move, first_action], games=3, seed=2, records=False)
    assert [r.scores for r in again] == [r.scores for r in res] and again[0].record is None
    # numpy integers are action indices too.
    np_ints = carc.play_games(players=[first_move, lambda s: np.int64(s.legal_actions()[0])], games=3, seed=2)
    assert [r.scores for r in np_ints] == [r.scores for r in res]


@needs_ai
def test_python_path_plays_spec_seats_like_the_batch():
    # A spec seat in a Python game gets the same seeds as in the C++ batch.
    gs = carc.game_seed(9, 0)
    second = carc.Player("greedy", seed=carc.seat_seed(gs, 1))  # the seed the batch gives seat 1
    py = carc.play_games(players=["greedy", second], games=1, seed=9)
    cc = carc.play_games(players=["greedy", "greedy"], games=1, seed=9)
    assert py[0].seed == cc[0].seed and py[0].scores == cc[0].scores
    assert py[0].record.to_json() == cc[0].record.to_json()


def test_bad_players_are_rejected():
    with pytest.raises(TypeError):
        carc.play_games(players=[first_move, 42], games=1)
    with pytest.raises(ValueError):
        carc.play_games(players=[first_move], games=1)
    with pytest.raises(ValueError):
        carc.play_games(players=[first_move, "no-such-player"], games=1)


@needs_ai
def test_tournament_rotates_seats():
    t = carc.tournament(["greedy", first_move], games=4, seed=3)
    assert t["players"] == ["greedy", "first_move"] and t["games"] == 4
    assert abs(sum(t["wins"]) - 4) < 1e-9 and len(t["results"]) == 4
    assert t["win_rate"][0] > t["win_rate"][1]  # greedy beats always-the-first-move
    assert t["mean_score"] == [float(np.mean([r[p] for r in t["results"]])) for p in range(2)]


@needs_ai
def test_mcts_with_python_evaluator():
    batches = []

    def evaluator(states):
        batches.append(len(states))
        priors, values = [], []
        for s in states:
            assert not s.is_terminal()
            n = s.num_legal_moves() if not s.is_chance_node() else 0
            priors.append(np.ones(n) if n else None)
            sc = np.array(s.scores(), dtype=float)
            values.append(list(0.5 + 0.5 * np.tanh((sc - sc.mean()) / 20)))
        return priors, values

    s = carc.new_game(seed=5, auto_chance=True)
    p = carc.Player("mcts:iterations=48", seed=1, evaluator=evaluator, batch=16)
    m = p.choose(s)
    assert m in s.legal_moves()
    assert 0 < sum(batches) <= 48  # one leaf per iteration; terminal leaves are not sent
    assert max(batches) <= 16
    # Deterministic for a seed.
    q = carc.Player("mcts:iterations=48", seed=1, evaluator=evaluator, batch=16)
    assert q.choose(s) == m
    # Priors steer the search: all weight on one move makes it the most visited.
    target = s.legal_moves()[3]

    def peaked(states):
        pri = []
        for st in states:
            if st.is_chance_node():
                pri.append(None)
                continue
            moves = st.legal_moves()
            root = st.turn == s.turn and st.current_player() == s.current_player()
            pri.append([1.0 if mv == target and root else 1e-3 for mv in moves])
        return pri, [[0.5] * st.num_players for st in states]

    ev = carc.Player("mcts:iterations=64", seed=2, evaluator=peaked).analyse(s)
    assert ev[0][0] == target


@needs_ai
def test_evaluator_errors():
    s = carc.new_game(seed=5, auto_chance=True)
    with pytest.raises(ValueError, match="mcts"):
        carc.Player("greedy", evaluator=lambda st: ([], []))
    with pytest.raises(ValueError, match="one entry per state"):
        carc.Player("mcts:iterations=8", evaluator=lambda st: ([], [])).choose(s)
    with pytest.raises(ZeroDivisionError):
        carc.Player("mcts:iterations=8", evaluator=lambda st: 1 / 0).choose(s)
