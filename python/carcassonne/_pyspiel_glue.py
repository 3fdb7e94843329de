"""Registration of carcassonne.spiel with OpenSpiel (imported by spiel.register() when pyspiel is
importable). Follows OpenSpiel's Python-game pattern: pyspiel.Game / pyspiel.State subclasses that
delegate to carcassonne.spiel (``inner``), the game type of carcassonne.spiel (built with pyspiel's
own GameType enums), and its py observer. Tested against a pyspiel-shaped stub module
(python/tests/test_spiel_conventions.py): pyspiel is not packaged by Debian."""
from __future__ import annotations

from . import spiel as _spiel

_registered: set = set()


def _game_info(pyspiel, g: "_spiel.SpielGame"):
    kw = dict(num_distinct_actions=g.num_distinct_actions(), max_chance_outcomes=g.max_chance_outcomes(),
              num_players=g.num_players(), min_utility=g.min_utility(), max_utility=g.max_utility(),
              utility_sum=g.utility_sum(), max_game_length=g.max_game_length())
    try:
        return pyspiel.GameInfo(**kw)
    except TypeError:  # a pyspiel whose GameInfo needs a float utility_sum (general-sum returns)
        kw["utility_sum"] = 0.0
        return pyspiel.GameInfo(**kw)


def register(pyspiel) -> None:
    """Registers GAME_NAME ('python_carcassonne'; parameters as carcassonne.spiel.load_game)."""
    if id(pyspiel) in _registered:
        return

    class State(pyspiel.State):
        """A pyspiel.State over a carcassonne.spiel.SpielState (``inner``)."""

        def __init__(self, game, inner):
            super().__init__(game)
            self.inner = inner

        def current_player(self):
            return self.inner.current_player()

        def _legal_actions(self, player):
            return self.inner.legal_actions(player)

        def chance_outcomes(self):
            return self.inner.chance_outcomes()

        def _apply_action(self, action):
            self.inner.apply_action(action)

        def _action_to_string(self, player, action):
            return self.inner.action_to_string(player, action)

        def is_terminal(self):
            return self.inner.is_terminal()

        def returns(self):
            return self.inner.returns()

        def rewards(self):
            return self.inner.rewards()

        def __str__(self):
            return str(self.inner)

    class Game(pyspiel.Game):
        """A pyspiel.Game over a carcassonne.spiel.SpielGame (``inner``)."""

        def __init__(self, params=None):
            self.inner = _spiel.load_game(_spiel.GAME_NAME, dict(params or {}))
            g = self.inner
            super().__init__(g.get_type(), _game_info(pyspiel, g), g.get_parameters())

        def new_initial_state(self):
            return State(self, self.inner.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            return self.inner.make_py_observer(iig_obs_type, params)

    default = _spiel.load_game(_spiel.GAME_NAME)
    pyspiel.register_game(default.get_type(), Game)
    _registered.add(id(pyspiel))
