"""carcassonne.spiel as OpenSpiel's own code sees it: the GameType enums (pyspiel's when pyspiel is
importable, same-named real enums otherwise), PlayerId, registration under the name load_game
accepts, the py observer (make_py_observer), and an MCTS whose constructor performs exactly the
checks of OpenSpiel's MCTSBot (`game.get_type().reward_model != pyspiel.GameType.RewardModel.TERMINAL`
-> "Game must have terminal rewards.").

pyspiel has no Debian package and no PyPI is reachable here, so the registration glue runs
against a minimal pyspiel-shaped stub module put into sys.modules (`pyspiel_stub`), and
carcassonne.spiel is re-imported over it."""
import enum
import importlib
import math
import random
import re
import sys
import types
from collections import namedtuple

import numpy as np
import pytest

import carcassonne as carc
import carcassonne.spiel as spiel

IIGObservationType = namedtuple("IIGObservationType", "perfect_recall public_info private_info")


def make_stub():
    """A module with the parts of pyspiel the glue and OpenSpiel's Python algorithms use."""
    m = types.ModuleType("pyspiel")

    class GameType:
        class Dynamics(enum.Enum):
            SIMULTANEOUS, SEQUENTIAL, MEAN_FIELD = 0, 1, 2

        class ChanceMode(enum.Enum):
            DETERMINISTIC, EXPLICIT_STOCHASTIC, SAMPLED_STOCHASTIC = 0, 1, 2

        class Information(enum.Enum):
            ONE_SHOT, PERFECT_INFORMATION, IMPERFECT_INFORMATION = 0, 1, 2

        class Utility(enum.Enum):
            ZERO_SUM, CONSTANT_SUM, GENERAL_SUM, IDENTICAL = 0, 1, 2, 3

        class RewardModel(enum.Enum):
            REWARDS, TERMINAL = 0, 1

        _FIELDS = ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
                   "max_num_players", "min_num_players", "provides_information_state_string",
                   "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
                   "parameter_specification", "default_loadable", "provides_factored_observation_string")

        def __init__(self, **kw):  # pyspiel's keyword constructor; unknown keywords are an error
            unknown = set(kw) - set(self._FIELDS)
            assert not unknown, unknown
            for k, v in kw.items():
                setattr(self, k, v)
            for k, e in (("dynamics", self.Dynamics), ("chance_mode", self.ChanceMode),
                         ("information", self.Information), ("utility", self.Utility),
                         ("reward_model", self.RewardModel)):
                assert isinstance(kw[k], e), (k, kw[k])  # pyspiel's C++ binding accepts only its enums

    class PlayerId(enum.IntEnum):
        DEFAULT_PLAYER_ID, INVALID, TERMINAL, CHANCE, MEAN_FIELD, SIMULTANEOUS = 0, -3, -4, -1, -5, -2

    class GameInfo:
        def __init__(self, num_distinct_actions, max_chance_outcomes, num_players, min_utility, max_utility,
                     utility_sum, max_game_length):
            if utility_sum is None:
                raise TypeError("utility_sum must be a float")  # as an older pyspiel
            self.num_distinct_actions = num_distinct_actions
            self.max_chance_outcomes = max_chance_outcomes
            self.num_players = num_players
            self.min_utility, self.max_utility, self.utility_sum = min_utility, max_utility, utility_sum
            self.max_game_length = max_game_length

    class Game:
        def __init__(self, game_type, game_info, params):
            assert isinstance(game_type, GameType) and isinstance(game_info, GameInfo)
            self._type, self._info, self._params = game_type, game_info, dict(params)

        def get_type(self):
            return self._type

        def get_parameters(self):
            return dict(self._params)

        def num_players(self):
            return self._info.num_players

        def num_distinct_actions(self):
            return self._info.num_distinct_actions

        def max_utility(self):
            return self._info.max_utility

        def min_utility(self):
            return self._info.min_utility

    class State:
        def __init__(self, game):
            self._game = game

        def get_game(self):
            return self._game

        def legal_actions(self, player=None):
            return self._legal_actions(self.current_player() if player is None else player)

        def apply_action(self, action):
            self._apply_action(action)

        def action_to_string(self, player, action):
            return self._action_to_string(player, action)

        def is_chance_node(self):
            return self.current_player() == PlayerId.CHANCE

        def clone(self):
            import copy
            return copy.deepcopy(self, {id(self._game): self._game})  # pyspiel: the game is shared

    class Bot:
        def __init__(self):
            pass

    registry = {}

    def register_game(game_type, cls):
        registry[game_type.short_name] = (game_type, cls)

    def load_game(name, params=None):
        mt = re.fullmatch(r"(\w+)(?:\((.*)\))?", name)
        p = dict(kv.split("=", 1) for kv in (mt.group(2) or "").split(",") if kv)
        p.update(params or {})
        return registry[mt.group(1)][1](p)

    def registered_names():
        return list(registry)

    m.__dict__.update(GameType=GameType, PlayerId=PlayerId, GameInfo=GameInfo, Game=Game, State=State, Bot=Bot,
                      register_game=register_game, load_game=load_game, registered_names=registered_names,
                      INVALID_ACTION=-1, _registry=registry)
    return m


@pytest.fixture
def pyspiel_stub():
    """carcassonne.spiel re-imported with the stub as `pyspiel`; restored afterwards."""
    saved = sys.modules.get("pyspiel")
    stub = make_stub()
    sys.modules["pyspiel"] = stub
    importlib.reload(spiel)
    try:
        yield stub
    finally:
        if saved is None:
            del sys.modules["pyspiel"]
        else:
            sys.modules["pyspiel"] = saved
        importlib.reload(spiel)


class MiniMCTSBot:
    """A UCT search over OpenSpiel's state API whose constructor performs exactly the checks of
    OpenSpiel's MCTSBot (open_spiel/python/algorithms/mcts.py), against `pyspiel` (the real module,
    the stub or, without either, carcassonne.spiel's stand-in enums)."""

    def __init__(self, game, pyspiel, simulations=24, seed=0):
        game_type = game.get_type()
        if game_type.reward_model != pyspiel.GameType.RewardModel.TERMINAL:
            raise ValueError("Game must have terminal rewards.")
        if game_type.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError("Game must have sequential turns.")
        self.simulations, self.rng = simulations, random.Random(seed)

    def _rollout(self, state):
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(self.rng.choices(actions, probs)[0])
            else:
                state.apply_action(self.rng.choice(state.legal_actions()))
        return state.returns()

    def step(self, state):
        player = state.current_player()
        actions = state.legal_actions(player)[:8]  # a small tree: the search is not under test
        visits, value = [0] * len(actions), [0.0] * len(actions)
        for n in range(1, self.simulations + 1):
            i = max(range(len(actions)), key=lambda k: math.inf if not visits[k] else
                    value[k] / visits[k] + 1.4 * math.sqrt(math.log(n) / visits[k]))
            child = state.clone()
            child.apply_action(actions[i])
            value[i] += self._rollout(child)[player]
            visits[i] += 1
        return actions[max(range(len(actions)), key=visits.__getitem__)]


def first_decision(game):
    s = game.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    return s


def test_stand_in_enums_without_pyspiel():
    if spiel.HAVE_PYSPIEL:
        pytest.skip("pyspiel is installed: get_type() uses its enums (test_register_with_real_pyspiel)")
    GT = spiel.GameType
    for e in (GT.Dynamics, GT.ChanceMode, GT.Information, GT.Utility, GT.RewardModel):
        assert issubclass(e, enum.Enum)
    t = spiel.load_game("carcassonne").get_type()
    assert t.reward_model is GT.RewardModel.TERMINAL and t.dynamics is GT.Dynamics.SEQUENTIAL
    assert t.chance_mode is GT.ChanceMode.EXPLICIT_STOCHASTIC and t.information is GT.Information.IMPERFECT_INFORMATION
    assert t.utility is GT.Utility.ZERO_SUM and t.short_name == "python_carcassonne"
    assert spiel.load_game("carcassonne(returns=score)").get_type().utility is GT.Utility.GENERAL_SUM
    assert t.reward_model != "TERMINAL"  # the old plain strings never equalled an enum: that was the bug
    assert spiel.PlayerId.CHANCE == spiel.CHANCE_PLAYER_ID == -1 and spiel.PlayerId.TERMINAL == -4
    # The MCTSBot constructor checks pass against the stand-in enums.
    stand_in = types.SimpleNamespace(GameType=GT)
    game = spiel.load_game("carcassonne")
    s = first_decision(game)
    assert MiniMCTSBot(game, stand_in).step(s) in s.legal_actions()
    assert spiel.register() is False


def test_pyspiel_enums_registration_and_mcts(pyspiel_stub):
    ps = pyspiel_stub
    assert spiel.HAVE_PYSPIEL and spiel.GameType is ps.GameType and spiel.PlayerId is ps.PlayerId
    game = spiel.load_game("carcassonne", {"players": 2, "expansions": "festival"})
    t = game.get_type()
    assert isinstance(t, ps.GameType) and t.reward_model is ps.GameType.RewardModel.TERMINAL
    assert t.dynamics is ps.GameType.Dynamics.SEQUENTIAL and t.utility is ps.GameType.Utility.ZERO_SUM
    # OpenSpiel's MCTSBot constructor checks accept the unregistered game ...
    s = first_decision(game)
    assert MiniMCTSBot(game, ps).step(s) in s.legal_actions()
    # ... and the registered one, loaded by pyspiel under the name load_game accepts too.
    assert spiel.register() is True and spiel.register() is True  # idempotent
    assert "python_carcassonne" in ps.registered_names()
    reg_type = ps._registry["python_carcassonne"][0]
    assert reg_type.short_name == spiel.GAME_NAME and reg_type.parameter_specification["players"] == 2
    pg = ps.load_game("python_carcassonne(players=3,expansions=festival+fruit-trees)")
    assert pg.num_players() == 3 and pg.inner == spiel.load_game("python_carcassonne(players=3,expansions=festival+fruit-trees)")
    assert pg.get_type().reward_model is ps.GameType.RewardModel.TERMINAL
    score_game = ps.load_game("python_carcassonne", {"returns": "score"})  # general sum: utility_sum None -> 0.0
    assert score_game.get_type().utility is ps.GameType.Utility.GENERAL_SUM
    bot = MiniMCTSBot(pg, ps, simulations=6)
    state = pg.new_initial_state()
    assert isinstance(state, ps.State) and state.current_player() == ps.PlayerId.CHANCE
    rng = random.Random(1)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        elif decisions < 2:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
            decisions += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.returns()) == 3 and abs(sum(state.returns())) < 1e-9
    # The observer of the registered game.
    obs = pg.make_py_observer()
    obs.set_from(state, 0)
    assert np.array_equal(obs.tensor, state.inner.observation_tensor(0))


def test_py_observer():
    game = spiel.load_game("carcassonne", {"expansions": "fruit-trees"})
    s = first_decision(game)
    obs = game.make_py_observer()
    info = game.make_py_observer(IIGObservationType(True, True, True))
    for p in range(2):
        obs.set_from(s, p)
        info.set_from(s, p)
        assert obs.tensor.dtype == np.float32 and np.array_equal(obs.tensor, s.observation_tensor(p))
        assert np.array_equal(info.tensor, s.information_state_tensor(p))
        assert obs.string_from(s, p) == s.observation_string(p)
        assert info.string_from(s, p) == s.information_state_string(p)
    C, W, _ = game.engine.observation_shape["planes"]
    assert obs.dict["planes"].shape == (C, W, W) and np.shares_memory(obs.dict["planes"], obs.tensor)
    assert np.array_equal(obs.dict["vector"], s.engine_state.observation_vector(1))
    assert obs.dict["pending"].shape == (8,) and info.dict["fruit_values"].shape == (6, 4)
    assert "pending" not in spiel.load_game("carcassonne").make_py_observer().dict


def test_undo_deserialize_snapshot_are_replays():
    """undo_action, deserialize_state and from_snapshot rebuild the same state (all node kinds)."""
    for params in ({"expansions": "fruit-trees+festival"},
                   {"tileset": "wheel-of-fortune", "expansions": "fortune-teller+fruit-trees", "players": 3}):
        game = spiel.load_game("carcassonne", params)
        rng = np.random.default_rng(4)
        s = game.new_initial_state()
        states = []
        while not s.is_terminal():
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                a = int(acts[rng.choice(len(acts), p=np.asarray(probs))])
            else:
                a = int(rng.choice(s.legal_actions()))
            states.append(s.clone())
            p = s.current_player()
            s.apply_action(a)
            if len(states) % 17 == 0:
                c = s.clone()
                c.undo_action(p, a)
                prev = states[-1]
                assert c.full_history() == prev.full_history() and c.engine_state == prev.engine_state
                assert c.legal_actions() == prev.legal_actions() and c.current_player() == prev.current_player()
        snap = s.snapshot()
        assert len(snap) == 12 + 4 * len(s.history())
        for back in (game.from_snapshot(snap), game.deserialize_state(s.serialize())):
            assert back.full_history() == s.full_history() and back.engine_state == s.engine_state
            assert back.returns() == s.returns()
    with pytest.raises(ValueError, match="snapshot"):
        game.from_snapshot(b"nope")


def test_openspiel_style_loops():
    """The loops of OpenSpiel's evaluate_bots (bots informed of chance actions with PlayerId.CHANCE)
    and rl_environment (observation type chosen from get_type(), per-player legal actions, rewards,
    tensors) run on the game as they are written there."""
    game = spiel.load_game("python_carcassonne", {"players": 3, "tileset": "wheel-of-fortune"})
    t = game.get_type()
    assert t.provides_information_state_tensor and t.provides_observation_tensor
    assert t.dynamics != spiel.GameType.Dynamics.MEAN_FIELD

    class UniformBot:
        def __init__(self, seed):
            self.rng, self.informed = np.random.RandomState(seed), 0

        def inform_action(self, state, player, action):
            self.informed += player == spiel.PlayerId.CHANCE

        def step(self, state):
            return self.rng.choice(state.legal_actions(state.current_player()))

    bots = [UniformBot(i) for i in range(3)]
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choice(outcomes, p=probs)
            for bot in bots:
                bot.inform_action(state, spiel.PlayerId.CHANCE, action)
            state.apply_action(action)
        elif state.is_simultaneous_node():
            pytest.fail("sequential game")
        else:
            player = state.current_player()
            info = state.information_state_tensor(player)
            assert len(info) == game.information_state_tensor_size()
            assert all(state.legal_actions(p) == [] for p in range(3) if p != player)
            assert state.rewards()[player] == 0.0
            state.apply_action(bots[player].step(state))
    assert all(b.informed > 50 for b in bots) and abs(sum(state.rewards())) < 1e-9
