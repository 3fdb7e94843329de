"""Registration of carcassonne.spiel with OpenSpiel (imported only by spiel.register() when pyspiel is
importable). Follows OpenSpiel's Python-game pattern (pyspiel.Game / pyspiel.State subclasses and a
py observer). pyspiel is not packaged by Debian, so this file is not exercised by the tests here."""
from __future__ import annotations

import numpy as np

from . import spiel as _spiel

_registered = False


def register(pyspiel) -> None:
    """Registers 'python_carcassonne' (parameters as carcassonne.spiel.load_game)."""
    global _registered
    if _registered:
        return
    GT = pyspiel.GameType
    game_type = GT(
        short_name="python_carcassonne",
        long_name="Python Carcassonne",
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC,
        information=GT.Information.IMPERFECT_INFORMATION,
        utility=GT.Utility.ZERO_SUM,
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={k: v for k, v in _spiel._DEFAULTS.items() if k != "returns"},
    )

    class Observer:
        """OpenSpiel py observer: `tensor` and `dict` filled by set_from(state, player)."""

        def __init__(self, game, info_state):
            self._info = info_state
            size = game.inner.information_state_tensor_size() if info_state else game.inner.observation_tensor_size()
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            if self._info:
                state.inner.information_state_tensor(player, out=self.tensor)
            else:
                state.inner.observation_tensor(player, out=self.tensor)

        def string_from(self, state, player):
            if self._info:
                return state.inner.information_state_string(player)
            return state.inner.observation_string(player)

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            p = {k: v for k, v in (params or {}).items()}
            self.inner = _spiel.load_game(_spiel.GAME_NAME, {**p, "returns": "win"})
            g = self.inner
            info = pyspiel.GameInfo(
                num_distinct_actions=g.num_distinct_actions(),
                max_chance_outcomes=g.max_chance_outcomes(),
                num_players=g.num_players(),
                min_utility=g.min_utility(),
                max_utility=g.max_utility(),
                utility_sum=0.0,
                max_game_length=g.max_game_length(),
            )
            super().__init__(game_type, info, p)

        def new_initial_state(self):
            return State(self, self.inner.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            info_state = bool(iig_obs_type is not None and getattr(iig_obs_type, "perfect_recall", False))
            return Observer(self, info_state)

    class State(pyspiel.State):
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

        def __str__(self):
            return str(self.inner)

    pyspiel.register_game(game_type, Game)
    _registered = True
