"""Fruit-Bearing Trees moves in Python: their fruit parts are visible, survive pickling,
and a random game through the API uses them."""
import pickle

from helpers import carc


def test_fruit_moves_are_visible_and_pickle():
    s = carc.new_game(players=2, expansions=["fruit-trees"], seed=5, auto_chance=True)
    seen_type = seen_action = False
    while not s.is_terminal():
        moves = s.legal_moves()
        for m in moves:
            if m.fruit_type is not None:
                seen_type = True
                assert m.fruit_type in ("apple", "apricot", "cherry", "elder", "plum", "quince")
            if m.harvest is not None or m.sell:
                seen_action = True
                back = pickle.loads(pickle.dumps(m))
                assert back == m and back.harvest == m.harvest and back.sell == m.sell
                assert "harvest" in repr(m) or "sell" in repr(m)
        # Prefer fruit actions so the game exercises them.
        pick = next((m for m in moves if m.harvest is not None or m.sell), moves[len(moves) // 2])
        s.apply(pick)
    assert seen_type and seen_action
