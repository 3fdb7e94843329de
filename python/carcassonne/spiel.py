"""OpenSpiel conventions for Carcassonne: ``load_game(params)`` and its states.

Code written for an OpenSpiel game runs on Carcassonne by changing the constructor::

    import carcassonne.spiel as spiel          # instead of: import pyspiel as spiel
    game = spiel.load_game("carcassonne", {"players": 2, "expansions": "festival"})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    print(state.returns())

Every random event is an explicit chance node (``current_player() == CHANCE_PLAYER_ID``): each
tile draw (outcome = tile type index, probability = count left / bag size; a drawn tile with no
legal place is discarded and the state stays at a chance node), and the value of a fruit token
revealed by a harvest (Fruit-Bearing Trees; outcome ``num_tile_types + value - 2``, probability =
share of that value among the tokens left on the tree). So a state is a function of its action
history, and ``serialize()`` is that history (as OpenSpiel's default).

Actions are the flat space of ``carcassonne._flat`` (at most 2**20 for every rule combination):
with the Fruit-Bearing Trees a move with several legal fruit parts is two decisions of the same
player, the placement first and then its fruit part. Players decide in the engine's order: a
Plague take-back by a player who is not the turn player is that player's decision.

Returns (``returns="win"``, the default): zero-sum, +1 for the sole winner, -1/(n-1) for each
other player; players tied for the top score share the winner's part. ``returns="score"``: the
final scores (general sum). Rewards come only at the end (``rewards() == returns()`` there).

The game type uses OpenSpiel's enums: ``get_type().reward_model is GameType.RewardModel.TERMINAL`` and so
on, with ``GameType``/``PlayerId`` pyspiel's own when ``pyspiel`` is importable (so OpenSpiel's Python
algorithms accept the game unchanged) and same-named real enums otherwise. ``register()`` registers
the game with OpenSpiel as ``python_carcassonne``, the name ``load_game`` accepts too (``carcassonne`` is
an alias). ``make_py_observer`` is OpenSpiel's observation API; ``snapshot()``/``from_snapshot`` a
compact form for replay buffers; ``make_evaluator`` the engine's MCTS evaluator hook in these terms.
"""
from __future__ import annotations

import bisect
import enum
import re
from typing import Any, Iterable, NamedTuple

import numpy as np

from . import _core
from ._flat import FlatSpace

try:  # OpenSpiel, when it is installed (no Debian package): its own enums and player ids
    import pyspiel as _pyspiel  # type: ignore
except ImportError:  # pragma: no cover - depends on the machine
    _pyspiel = None

HAVE_PYSPIEL = _pyspiel is not None
"""True when pyspiel is importable: get_type() is then a pyspiel.GameType with pyspiel's enums."""

CHANCE_PLAYER_ID = -1
"""current_player() at a chance node (as OpenSpiel's kChancePlayerId)."""
SIMULTANEOUS_PLAYER_ID = -2
"""Never returned (the game is sequential); OpenSpiel's kSimultaneousPlayerId."""
INVALID_PLAYER_ID = -3
"""OpenSpiel's kInvalidPlayer."""
TERMINAL_PLAYER_ID = -4
"""current_player() at the end (as OpenSpiel's kTerminalPlayerId)."""
INVALID_ACTION = -1
"""OpenSpiel's kInvalidAction."""

GAME_NAME = "python_carcassonne"
"""The name the game is registered under with OpenSpiel (register()) and accepted by load_game()."""
GAME_ALIASES = ("python_carcassonne", "carcassonne")
"""Names load_game() accepts for this game."""
_DEFAULTS = {"players": 2, "tileset": "base", "expansions": "", "radius": _core.DEFAULT_RADIUS, "returns": "win"}
_FRUIT_VALUES = (2, 3, 4, 5)
# Entries appended to the engine observation with the Fruit-Bearing Trees: the pending two-step
# decision and fruit reveal (see SpielState.observation_tensor).
_PENDING_NAMES = ["spiel_fruit_stage", "spiel_pending_crown", "spiel_pending_x", "spiel_pending_y",
                  "spiel_pending_rotation", "spiel_pending_option", "spiel_pending_choice", "spiel_fruit_reveal"]
_SNAPSHOT_MAGIC = b"CSS1"


class _StandInGameType:
    """Stand-in for pyspiel.GameType when pyspiel is not importable: the same constructor keywords,
    fields and nested enums (real ``enum.Enum`` classes with OpenSpiel's member names and values,
    compared by identity like pyspiel's: ``t.reward_model is GameType.RewardModel.TERMINAL``)."""

    class Dynamics(enum.Enum):
        """OpenSpiel's GameType::Dynamics."""
        SIMULTANEOUS = 0
        SEQUENTIAL = 1
        MEAN_FIELD = 2

    class ChanceMode(enum.Enum):
        """OpenSpiel's GameType::ChanceMode."""
        DETERMINISTIC = 0
        EXPLICIT_STOCHASTIC = 1
        SAMPLED_STOCHASTIC = 2

    class Information(enum.Enum):
        """OpenSpiel's GameType::Information."""
        ONE_SHOT = 0
        PERFECT_INFORMATION = 1
        IMPERFECT_INFORMATION = 2

    class Utility(enum.Enum):
        """OpenSpiel's GameType::Utility."""
        ZERO_SUM = 0
        CONSTANT_SUM = 1
        GENERAL_SUM = 2
        IDENTICAL = 3

    class RewardModel(enum.Enum):
        """OpenSpiel's GameType::RewardModel."""
        REWARDS = 0
        TERMINAL = 1

    def __init__(self, short_name: str, long_name: str, dynamics, chance_mode, information, utility, reward_model,
                 max_num_players: int, min_num_players: int, provides_information_state_string: bool,
                 provides_information_state_tensor: bool, provides_observation_string: bool,
                 provides_observation_tensor: bool, parameter_specification: dict | None = None,
                 default_loadable: bool = True, provides_factored_observation_string: bool = False):
        self.short_name = short_name
        self.long_name = long_name
        self.dynamics = dynamics
        self.chance_mode = chance_mode
        self.information = information
        self.utility = utility
        self.reward_model = reward_model
        self.max_num_players = max_num_players
        self.min_num_players = min_num_players
        self.provides_information_state_string = provides_information_state_string
        self.provides_information_state_tensor = provides_information_state_tensor
        self.provides_observation_string = provides_observation_string
        self.provides_observation_tensor = provides_observation_tensor
        self.parameter_specification = dict(parameter_specification or {})
        self.default_loadable = default_loadable
        self.provides_factored_observation_string = provides_factored_observation_string

    def __repr__(self):
        return (f"<GameType {self.short_name} {self.dynamics.name} {self.chance_mode.name} {self.information.name} "
                f"{self.utility.name} {self.reward_model.name}>")


class _StandInPlayerId(enum.IntEnum):
    """Stand-in for pyspiel.PlayerId (OpenSpiel's player id constants; integers)."""
    DEFAULT_PLAYER_ID = 0
    INVALID = INVALID_PLAYER_ID
    TERMINAL = TERMINAL_PLAYER_ID
    CHANCE = CHANCE_PLAYER_ID
    MEAN_FIELD = -5
    SIMULTANEOUS = SIMULTANEOUS_PLAYER_ID


GameType = _pyspiel.GameType if _pyspiel else _StandInGameType
"""pyspiel.GameType when pyspiel is importable, else the stand-in with the same enums."""
PlayerId = _pyspiel.PlayerId if _pyspiel else _StandInPlayerId
"""pyspiel.PlayerId when pyspiel is importable, else an IntEnum with the same names and values."""


def _game_type(returns: str):
    return GameType(
        short_name=GAME_NAME,
        long_name="Python Carcassonne",
        dynamics=GameType.Dynamics.SEQUENTIAL,
        chance_mode=GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=GameType.Information.IMPERFECT_INFORMATION,
        utility=GameType.Utility.ZERO_SUM if returns == "win" else GameType.Utility.GENERAL_SUM,
        reward_model=GameType.RewardModel.TERMINAL,
        max_num_players=6,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(_DEFAULTS),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class PlayerAction(NamedTuple):
    """One entry of ``full_history()``: who acted (CHANCE_PLAYER_ID for chance) and the action."""

    player: int
    action: int


def _parse_params(name_or_params: Any, params: dict | None) -> dict:
    out = dict(_DEFAULTS)
    if isinstance(name_or_params, dict):
        params, name = name_or_params, GAME_NAME
    else:
        name = str(name_or_params)
        m = re.fullmatch(r"\s*([\w-]+)\s*(?:\((.*)\))?\s*", name)
        if not m:
            raise ValueError(f"bad game string '{name}' (e.g. 'carcassonne(players=3,expansions=festival)')")
        name = m.group(1)
        if m.group(2):
            inline = {}
            for part in m.group(2).split(","):
                if not part.strip():
                    continue
                k, eq, v = part.partition("=")
                if not eq:
                    raise ValueError(f"bad parameter '{part}' in '{name_or_params}' (key=value)")
                inline[k.strip()] = v.strip()
            params = {**inline, **(params or {})}
    if name not in GAME_ALIASES:
        raise ValueError(f"unknown game '{name}' (this module provides '{GAME_NAME}', also called 'carcassonne')")
    for k, v in (params or {}).items():
        if k not in _DEFAULTS:
            raise ValueError(f"unknown parameter '{k}' (known: {', '.join(_DEFAULTS)})")
        out[k] = v
    exp = out["expansions"]
    if isinstance(exp, str):
        exp = [e for e in re.split(r"[+,; ]", exp) if e]
    out["expansions"] = "+".join(exp)
    out["players"] = int(out["players"])
    out["radius"] = int(out["radius"])
    if out["returns"] not in ("win", "score"):
        raise ValueError(f"returns must be 'win' or 'score', not '{out['returns']}'")
    return out


def load_game(name_or_params: Any = GAME_NAME, params: dict | None = None) -> "SpielGame":
    """The game for OpenSpiel-style parameters: ``load_game("carcassonne", {"players": 3})``,
    ``load_game("carcassonne(players=3,expansions=festival+fruit-trees)")`` or ``load_game({...})``.
    Parameters: players (2..6), tileset ('base', 'wheel-of-fortune'), expansions (names joined by
    '+' or a list), radius (action/observation window, default 20), returns ('win' or 'score')."""
    return SpielGame(_parse_params(name_or_params, params))


class SpielGame:
    """An OpenSpiel-style game: sizes, the type, and the factory of states (``load_game`` makes it)."""

    def __init__(self, params: dict):
        self._params = params
        expansions = [e for e in params["expansions"].split("+") if e]
        self.engine = _core.Game(players=params["players"], tileset=params["tileset"], expansions=expansions,
                                 radius=params["radius"])
        """The engine ``carcassonne.Game`` behind it."""
        self.flat = FlatSpace(self.engine)
        """The flat action space (``carcassonne._flat.FlatSpace``)."""
        self.num_tile_types = len(self.engine.tile_ids)
        self._tile_index = {t: i for i, t in enumerate(self.engine.tile_ids)}
        self._fruit = self.flat.fruit
        self._obs_size = int(self.engine.observation_shape["flat"][0]) + (len(_PENDING_NAMES) if self._fruit else 0)
        self._info_size = self._obs_size + (len(_core.FRUIT_TYPES) * len(_FRUIT_VALUES) if self._fruit else 0)
        self._type = _game_type(params["returns"])

    def get_type(self):
        """The static description: a ``GameType`` (pyspiel's own when pyspiel is importable) with
        dynamics SEQUENTIAL, chance_mode EXPLICIT_STOCHASTIC, information IMPERFECT_INFORMATION,
        reward_model TERMINAL, utility ZERO_SUM (returns='win') or GENERAL_SUM (returns='score'),
        all enum members (``GameType.RewardModel.TERMINAL``...)."""
        return self._type

    def get_parameters(self) -> dict:
        """The parameters the game was made with (defaults filled in)."""
        return dict(self._params)

    def num_players(self) -> int:
        """Number of players."""
        return self._params["players"]

    def num_distinct_actions(self) -> int:
        """Size of the flat action space (player actions are 0 .. num_distinct_actions() - 1)."""
        return self.flat.size

    def max_chance_outcomes(self) -> int:
        """Chance actions are 0 .. max_chance_outcomes() - 1: tile types, then fruit values 2..5."""
        return self.num_tile_types + (len(_FRUIT_VALUES) if self._fruit else 0)

    def max_game_length(self) -> int:
        """An upper bound on the player decisions of a game: per tile a placement, a fruit part, a
        Choose and a Plague decision per player."""
        per_tile = 1 + (1 if self._fruit else 0) + (1 + self.num_players() if self.engine.has_wheel else 0)
        return self.engine.total_tiles * per_tile

    def max_chance_nodes_in_history(self) -> int:
        """An upper bound on the chance nodes of a game: a draw per tile (up to 4 with the Fortune
        Teller, whose unchosen tiles go back to the bag), a reveal per fruit token."""
        draws = 4 if self.engine.rules.fortune_teller else 1
        return self.engine.total_tiles * draws + (len(_core.FRUIT_TYPES) * 4 if self._fruit else 0)

    def max_history_length(self) -> int:
        """max_game_length() + max_chance_nodes_in_history()."""
        return self.max_game_length() + self.max_chance_nodes_in_history()

    def min_utility(self) -> float:
        """Lowest possible return."""
        return -1.0 / (self.num_players() - 1) if self._params["returns"] == "win" else 0.0

    def max_utility(self) -> float:
        """Highest possible return (an upper bound on a score with returns='score')."""
        return 1.0 if self._params["returns"] == "win" else 1000.0

    def utility_sum(self) -> float | None:
        """0 for the zero-sum returns ('win'), None for scores."""
        return 0.0 if self._params["returns"] == "win" else None

    def observation_tensor_shape(self) -> list[int]:
        """[size] of observation_tensor(): the engine observation (docs/python.md) plus, with the
        Fruit-Bearing Trees, 8 entries for a pending two-step decision or fruit reveal."""
        return [self._obs_size]

    def observation_tensor_size(self) -> int:
        """Product of observation_tensor_shape()."""
        return self._obs_size

    def information_state_tensor_shape(self) -> list[int]:
        """[size] of information_state_tensor(): the observation plus, with the Fruit-Bearing Trees,
        the tokens of each value left per fruit type (public, from the revealed values)."""
        return [self._info_size]

    def information_state_tensor_size(self) -> int:
        """Product of information_state_tensor_shape()."""
        return self._info_size

    def observation_tensor_names(self) -> list[str]:
        """Names of the observation entries (planes flattened as 'plane[y][x]' are not named: the
        planes come first, then the engine's vector names, then the pending entries)."""
        return list(self.engine.observation_vector_names) + (_PENDING_NAMES if self._fruit else [])

    def new_initial_state(self, seed: int = 0) -> "SpielState":
        """The state before the first draw (a chance node); `seed` only seeds the engine's own
        generator, which chance nodes here never use."""
        return SpielState(self, self.engine.new_initial_state(seed=seed), seed=seed)

    def _replayed(self, actions: list[int], seed: int = 0) -> "SpielState":
        s = SpielState(self, self.engine.new_initial_state(seed=seed), seed=seed)
        players, first, reveal = s._s.flat_replay(actions)
        s._history = list(actions)
        s._players = players
        s._first, s._reveal = first, reveal
        return s

    def deserialize_state(self, text: str) -> "SpielState":
        """The state whose serialize() is `text` (its action history, one action per line), replayed
        in C++ (State.flat_replay): well under a millisecond for a whole game (docs/performance.md)."""
        try:
            actions = [int(x) for x in text.split()]
        except ValueError:
            for n, line in enumerate(text.splitlines(), 1):
                if line.strip():
                    try:
                        int(line)
                    except ValueError:
                        raise ValueError(f"deserialize_state: line {n}: '{line.strip()}' is not an action number") \
                            from None
            raise
        try:
            return self._replayed(actions)
        except ValueError as e:
            raise ValueError(f"deserialize_state: {e}") from None

    def from_snapshot(self, data: bytes) -> "SpielState":
        """The state of a SpielState.snapshot() (its compact bytes form), replayed in C++."""
        data = bytes(data)
        if data[:4] != _SNAPSHOT_MAGIC:
            raise ValueError("not a carcassonne.spiel snapshot")
        seed = int.from_bytes(data[4:12], "little")
        actions = np.frombuffer(data, dtype="<i4", offset=12).tolist()
        try:
            return self._replayed(actions, seed)
        except ValueError as e:
            raise ValueError(f"from_snapshot: {e}") from None

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        """OpenSpiel's observation API (``open_spiel.python.observation``): an observer whose
        ``tensor`` (float32) and ``dict`` (named views into it) ``set_from(state, player)`` fills, and
        ``string_from(state, player)``. ``iig_obs_type`` with ``perfect_recall=True`` gives the
        information state (information_state_tensor/string), otherwise the observation."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        info = bool(iig_obs_type is not None and getattr(iig_obs_type, "perfect_recall", False))
        return Observer(self, info)

    def __str__(self):
        p = self._params
        return f"{GAME_NAME}(players={p['players']},tileset={p['tileset']},expansions={p['expansions']}," \
               f"radius={p['radius']},returns={p['returns']})"

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, SpielGame) and self._params == other._params

    def __hash__(self):
        return hash(str(self))

    def __reduce__(self):
        return (load_game, (GAME_NAME, dict(self._params)))


class Observer:
    """OpenSpiel's py observer (SpielGame.make_py_observer): ``tensor`` (float32, the observation or
    information-state tensor), ``dict`` (named views into ``tensor``: ``planes`` (C, W, W), ``vector``,
    with the Fruit-Bearing Trees ``pending`` and for the information state ``fruit_values``),
    ``set_from(state, player)``, ``string_from(state, player)``. Accepts this module's states and
    the states of the game registered with pyspiel."""

    def __init__(self, game: "SpielGame", info_state: bool = False):
        self.info_state = info_state
        n = game.information_state_tensor_size() if info_state else game.observation_tensor_size()
        self.tensor = np.zeros(n, np.float32)
        shape = game.engine.observation_shape
        C, W, _ = shape["planes"]
        k = C * W * W
        v = shape["vector"][0]
        self.dict = {"planes": self.tensor[:k].reshape(C, W, W), "vector": self.tensor[k:k + v]}
        m = game.observation_tensor_size()
        if game._fruit:
            self.dict["pending"] = self.tensor[k + v:m]
            if info_state:
                self.dict["fruit_values"] = self.tensor[m:].reshape(len(_core.FRUIT_TYPES), len(_FRUIT_VALUES))

    def set_from(self, state, player: int) -> None:
        """Fills ``tensor`` (and so ``dict``) with what `player` sees in `state`."""
        st = getattr(state, "inner", state)
        if self.info_state:
            st.information_state_tensor(player, out=self.tensor)
        else:
            st.observation_tensor(player, out=self.tensor)

    def string_from(self, state, player: int) -> str:
        """The observation (information state) string of `player` in `state`."""
        st = getattr(state, "inner", state)
        return st.information_state_string(player) if self.info_state else st.observation_string(player)


class SpielState:
    """An OpenSpiel-style state over an engine ``carcassonne.State`` (``engine_state``)."""

    __slots__ = ("_game", "_s", "_seed", "_history", "_players", "_first", "_reveal", "_legal")

    def __init__(self, game: SpielGame, engine_state: "_core.State", seed: int = 0):
        self._game = game
        self._s = engine_state
        self._seed = seed
        self._history: list[int] = []
        self._players: list[int] = []
        self._first = -1           # a first decision waiting for its fruit part, or -1
        self._reveal = -1          # a harvest (engine action) waiting for its fruit value, or -1
        self._legal = None         # cache: (sorted first decisions, {first: sorted fruit parts} or None)

    # --- who acts ---
    @property
    def engine_state(self) -> "_core.State":
        """The engine state (do not change it directly: the history would no longer describe it)."""
        return self._s

    def get_game(self) -> SpielGame:
        """The game this state belongs to."""
        return self._game

    def current_player(self) -> int:
        """The player to decide, CHANCE_PLAYER_ID (-1) at a chance node, TERMINAL_PLAYER_ID (-4) at the end."""
        if self._reveal >= 0:
            return CHANCE_PLAYER_ID
        s = self._s
        if s.is_terminal():
            return TERMINAL_PLAYER_ID
        if s.is_chance_node():
            return CHANCE_PLAYER_ID
        return s.current_player()

    def is_chance_node(self) -> bool:
        """True at a tile draw or a fruit-value reveal."""
        return self._reveal >= 0 or (self._s.is_chance_node() and not self._s.is_terminal())

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._reveal < 0 and self._s.is_terminal()

    def is_player_node(self) -> bool:
        """True when a player decides."""
        return self.current_player() >= 0

    def is_simultaneous_node(self) -> bool:
        """Always False (sequential game)."""
        return False

    def is_mean_field_node(self) -> bool:
        """Always False."""
        return False

    def num_players(self) -> int:
        """Number of players."""
        return self._game.num_players()

    def num_distinct_actions(self) -> int:
        """The game's num_distinct_actions()."""
        return self._game.flat.size

    # --- chance ---
    def _reveal_fruit(self) -> tuple[str, list[int]]:
        fruit = self._s.action_to_move(self._reveal).harvest
        return fruit, self._s.fruit_values_left(fruit)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[(chance action, probability)] at a chance node (sorted by action, probabilities sum to 1);
        [] elsewhere."""
        if self._reveal >= 0:
            values = self._reveal_fruit()[1]
            T = self._game.num_tile_types
            return [(T + v - 2, values.count(v) / len(values)) for v in sorted(set(values))]
        return self._s.flat_chance_outcomes()

    # --- decisions ---
    def _legal_tables(self):
        if self._legal is None:
            self._legal = self._s.legal_flat_actions()
        return self._legal

    def _fruit_parts(self, first: int) -> list[int] | None:
        """The legal fruit parts of a first decision (Fruit-Bearing Trees), None when it is not legal."""
        firsts, starts, parts = self._legal_tables()
        i = bisect.bisect_left(firsts, first)
        if i == len(firsts) or firsts[i] != first:
            return None
        return parts[starts[i]:starts[i + 1]]

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted legal actions of the player to move (the outcome actions at a chance node); [] for
        another player or at the end."""
        cp = self.current_player()
        if player is not None and player != cp:
            return []
        if cp == TERMINAL_PLAYER_ID:
            return []
        if cp == CHANCE_PLAYER_ID:
            return [a for a, _ in self.chance_outcomes()]
        firsts = self._legal_tables()[0]
        if self._first >= 0:
            base = self._game.flat.f_fruit
            return [base + f for f in self._fruit_parts(self._first)]
        return list(firsts)

    def legal_actions_mask(self, player: int | None = None) -> list[int]:
        """0/1 list of num_distinct_actions() entries (max_chance_outcomes() at a chance node)."""
        cp = self.current_player()
        n = self._game.max_chance_outcomes() if cp == CHANCE_PLAYER_ID else self._game.flat.size
        mask = np.zeros(n, dtype=np.int8)
        mask[self.legal_actions(player)] = 1
        return mask.tolist()

    def legal_action_mask_array(self, out: np.ndarray | None = None, dtype=np.int8) -> np.ndarray:
        """The player's legal actions as a numpy array of num_distinct_actions() entries (all zero at a
        chance node or the end), built in C++ (State.legal_flat_mask): `dtype` int8 (the default, as
        PettingZoo's action masks) or bool (the same buffer, no copy). `out` (an int8 or bool array of
        that size) is filled instead of a new array."""
        n = self._game.flat.size
        if out is not None:
            if out.shape != (n,) or out.dtype not in (np.int8, np.bool_) or not out.flags.c_contiguous:
                raise ValueError(f"out must be a contiguous int8 or bool array of shape ({n},)")
            target = out.view(np.bool_)
        else:
            target = None
        if self._first >= 0 and self._reveal < 0:
            mask = np.zeros(n, np.bool_) if target is None else target
            mask[:] = False
            mask[self.legal_actions()] = True
        else:
            mask = self._s.legal_flat_mask(target) if self._reveal < 0 else np.zeros(n, np.bool_)
            if target is not None and mask is not target:
                target[:] = mask
                mask = target
        if out is not None:
            return out
        return mask if np.dtype(dtype) == np.bool_ else mask.view(np.int8)

    def apply_action(self, action: int) -> None:
        """Applies a chance outcome or a player action (ValueError when it is not legal here)."""
        action = int(action)
        legal = self._legal
        if legal is not None and legal[1] is not None and self._reveal < 0:
            # Fruit-Bearing Trees with the legal table at hand: the engine action without a new move
            # generation (flat_step would generate the legal moves again).
            flat = self._game.flat
            if self._first >= 0:
                parts = self._fruit_parts(self._first)
                if action - flat.f_fruit not in parts:
                    raise ValueError(f"action {action} is not a legal fruit part here ({self.legal_actions()})")
                player, first, reveal = self._s.flat_apply_engine(flat.join(self._first, action - flat.f_fruit))
            else:
                parts = self._fruit_parts(action)
                if parts is None:
                    raise ValueError(f"action {action} is not legal here (see legal_actions())")
                if len(parts) > 1:
                    player, first, reveal = self._s.current_player(), action, -1
                else:
                    player, first, reveal = self._s.flat_apply_engine(flat.join(action, parts[0]))
        else:
            player, first, reveal = self._s.flat_step(self._first, self._reveal, action)
        self._history.append(action)
        self._players.append(player)
        self._first, self._reveal = first, reveal
        if first < 0:
            self._legal = None

    def child(self, action: int) -> "SpielState":
        """A copy with `action` applied."""
        c = self.clone()
        c.apply_action(action)
        return c

    def undo_action(self, player: int, action: int) -> None:
        """Takes back the last action (which must be `action` by `player`): the history without it is
        replayed in C++ (State.flat_replay), well under a millisecond for a whole game."""
        if not self._history or self._history[-1] != action or self._players[-1] != player:
            raise ValueError(f"the last action is not ({player}, {action})")
        back = self._game._replayed(self._history[:-1], self._seed)
        for k in SpielState.__slots__:
            setattr(self, k, getattr(back, k))

    # --- results ---
    def returns(self) -> list[float]:
        """Per player: 0 before the end; at the end the game's returns ('win': zero-sum +1 for the
        winner, -1/(n-1) for the others, ties share; 'score': final scores)."""
        n = self.num_players()
        if not self.is_terminal():
            return [0.0] * n
        scores = self._s.scores()
        if self._game._params["returns"] == "score":
            return [float(x) for x in scores]
        top = max(scores)
        k = scores.count(top)
        return [((1.0 / k if x == top else 0.0) - 1.0 / n) * n / (n - 1) for x in scores]

    def rewards(self) -> list[float]:
        """Rewards of the last transition: the returns at the end, zeros before (terminal rewards)."""
        return self.returns()

    def player_return(self, player: int) -> float:
        """returns()[player]."""
        return self.returns()[player]

    def player_reward(self, player: int) -> float:
        """rewards()[player]."""
        return self.rewards()[player]

    # --- history ---
    def history(self) -> list[int]:
        """Every action so far, chance outcomes included."""
        return list(self._history)

    def full_history(self) -> list[PlayerAction]:
        """[(player, action)] so far (player CHANCE_PLAYER_ID for chance outcomes)."""
        return [PlayerAction(p, a) for p, a in zip(self._players, self._history)]

    def history_str(self) -> str:
        """The history as ', '-joined numbers."""
        return ", ".join(map(str, self._history))

    def move_number(self) -> int:
        """Player actions applied so far."""
        return sum(1 for p in self._players if p >= 0)

    def serialize(self) -> str:
        """The action history, one action per line (SpielGame.deserialize_state reads it)."""
        return "".join(f"{a}\n" for a in self._history)

    def snapshot(self) -> bytes:
        """A compact form of the state for replay buffers: 12 bytes of header and 4 bytes per action of
        the history (about 1 KB for a whole base game, against some 92 KB for the engine state in memory);
        SpielGame.from_snapshot(data) restores it (C++ replay, docs/performance.md)."""
        return _SNAPSHOT_MAGIC + int(self._seed).to_bytes(8, "little") + \
            np.asarray(self._history, dtype="<i4").tobytes()

    def clone(self) -> "SpielState":
        """An independent copy."""
        c = SpielState.__new__(SpielState)
        c._game = self._game
        c._s = self._s.clone()
        c._seed = self._seed
        c._history = list(self._history)
        c._players = list(self._players)
        c._first = self._first
        c._reveal = self._reveal
        c._legal = self._legal
        return c

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_from_snapshot, (self._game, self.snapshot()))

    # --- observations ---
    def _pending_entries(self) -> list[float]:
        fs = self._game.flat
        out = [0.0] * len(_PENDING_NAMES)
        out[7] = 1.0 if self._reveal >= 0 else 0.0
        if self._first < 0:
            return out
        W = 2 * self._game.engine.radius + 1
        R = self._game.engine.radius
        crown = self._first >= fs.f_crown
        q = self._first - fs.f_crown if crown else self._first
        K = _core.NUM_CROWN_OPTIONS if crown else _core.NUM_OPTIONS
        option, rest = q % K, q // K
        rotation, rest = rest % 4, rest // 4
        cell, choice = rest % (W * W), rest // (W * W)
        out[0:7] = [1.0, float(crown), float(cell % W - R), float(cell // W - R), float(rotation), float(option),
                    float(choice)]
        return out

    def _observer(self, player):
        if player is None:
            cp = self.current_player()
            player = cp if cp >= 0 else self._s.turn_player
        if not 0 <= player < self.num_players():
            raise ValueError(f"player {player} out of range 0..{self.num_players() - 1}")
        return player

    def observation_tensor(self, player: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """float32 array of observation_tensor_shape(): the engine observation seen by `player` (default:
        the player to move), then with the Fruit-Bearing Trees the pending entries (a first decision
        waiting for its fruit part: its x, y, rotation, follower option, tile choice; a fruit reveal
        pending). `out`: a float32 array of that shape to fill instead of a new one."""
        p = self._observer(player)
        n = self._game._obs_size
        if out is None:
            out = np.empty(n, dtype=np.float32)
        elif out.shape != (n,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({n},)")
        m = n - (len(_PENDING_NAMES) if self._game._fruit else 0)
        self._s.observation(p, out=out[:m])
        if self._game._fruit:
            out[m:] = self._pending_entries()
        return out

    def information_state_tensor(self, player: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        """float32 array of information_state_tensor_shape(): observation_tensor(player) and, with the
        Fruit-Bearing Trees, the tokens of each value 2..5 left on each fruit type's stack (public: the
        revealed values are known). Every chance outcome is public, so this summarises the player's
        information. `out` as for observation_tensor."""
        p = self._observer(player)
        n = self._game._info_size
        if out is None:
            out = np.empty(n, dtype=np.float32)
        elif out.shape != (n,) or out.dtype != np.float32:
            raise ValueError(f"out must be a float32 array of shape ({n},)")
        m = self._game._obs_size
        self.observation_tensor(p, out=out[:m])
        if self._game._fruit:
            k = m
            for f in _core.FRUIT_TYPES:
                left = self._s.fruit_values_left(f)
                for v in _FRUIT_VALUES:
                    out[k] = left.count(v)
                    k += 1
        return out

    def observation_string(self, player: int | None = None) -> str:
        """A text of what `player` sees: the engine's summary, the board's tiles and followers, the
        pending decision."""
        self._observer(player)
        s = self._s
        lines = [str(s), "tiles: " + " ".join(f"{t}@{x},{y}r{r}" for x, y, t, r in s.tiles()),
                 "followers: " + " ".join(f"p{p}@{x},{y}:{loc}" for p, x, y, loc, _ in s.followers()),
                 "supply: " + " ".join(map(str, s.supply()))]
        if self._first >= 0:
            lines.append("choosing the fruit part of " + self.action_to_string(self.current_player(), self._first))
        if self._reveal >= 0:
            lines.append(f"revealing a {self._reveal_fruit()[0]} token")
        return "\n".join(lines)

    def information_state_string(self, player: int | None = None) -> str:
        """observation_string(player) and the action history (everything is public)."""
        return self.observation_string(player) + "\nhistory: " + self.history_str()

    def action_to_string(self, player: int, action: int | None = None) -> str:
        """The action in words (a chance outcome for player CHANCE_PLAYER_ID). With one argument, the
        action of the player to move."""
        if action is None:
            player, action = self.current_player(), player
        g = self._game
        if player == CHANCE_PLAYER_ID:
            if 0 <= action < g.num_tile_types:
                return f"draw {g.engine.tile_ids[action]}"
            return f"fruit token worth {action - g.num_tile_types + 2}"
        fs = g.flat
        if fs.is_fruit_part(action):
            f = action - fs.f_fruit
            stack, act = divmod(f, _core.NUM_FRUIT_ACTIONS)
            parts = [f"stack {_core.FRUIT_TYPES[stack - 1]}" if stack else "no stack"]
            if 1 <= act <= len(_core.FRUIT_TYPES):
                parts.append(f"harvest {_core.FRUIT_TYPES[act - 1]}")
            elif act > len(_core.FRUIT_TYPES):
                parts.append("sell " + "+".join(_core.SELL_SETS[act - 1 - len(_core.FRUIT_TYPES)]))
            return "fruit: " + ", ".join(parts)
        try:
            if self.current_player() >= 0 and self._first < 0:
                self._legal_tables()
                fruits = (self._fruit_parts(action) or [0]) if self._game._fruit else [0]
                return self._s.describe(self._s.action_to_move(fs.join(action, max(fruits[0], 0))))
        except ValueError:
            pass
        return f"action {action}"

    def __str__(self):
        return self.observation_string(self._observer(None)) if not self.is_terminal() else str(self._s)

    def __repr__(self):
        return f"<carcassonne.spiel.SpielState {self._game} history of {len(self._history)}>"


def _deserialize(game: SpielGame, text: str) -> SpielState:
    return game.deserialize_state(text)


def _from_snapshot(game: SpielGame, data: bytes) -> SpielState:
    return game.from_snapshot(data)


class EvaluatorBatch(NamedTuple):
    """What a research evaluator (make_evaluator) receives for B leaves of the search."""

    states: list
    """B SpielState views of the leaves (copies; no action history: history() is empty)."""
    players: np.ndarray
    """int64 (B,): current_player() of each leaf (CHANCE_PLAYER_ID at a chance node)."""
    observations: np.ndarray | None
    """float32 (B, observation_tensor_size()): observation_tensor() of the player to move (the turn player
    at a chance node); None with make_evaluator(..., observations=False). A buffer reused by the next
    call: copy what must outlive this one."""
    masks: np.ndarray
    """bool (B, num_distinct_actions()): the legal first decisions of the flat action space (all False at a
    chance node). Reused by the next call like ``observations``."""


def make_evaluator(game: "SpielGame", fn, observations: bool = True):
    """Adapts a research evaluator to the engine's MCTS hook: ``Player("mcts:iterations=N",
    evaluator=make_evaluator(game, fn), batch=B)``.

    ``fn(batch: EvaluatorBatch) -> (priors, values)``, called once per batch of leaves of the search:
    ``priors`` a (B, num_distinct_actions()) array of non-negative weights over the flat action space
    (or None, or a None row: uniform), ``values`` (B, num_players()) in [0, 1] (the search's reward:
    1 for a win). A move's prior is its first decision's weight, times (Fruit-Bearing Trees, when
    the move's first decision has several fruit parts) its fruit part's share among them, read at
    ``num_distinct_actions() - 441 + part``; so one policy head over the flat space serves both
    decisions. The adapter returns the engine's priors over ``legal_moves()`` order."""
    if game.engine.radius != _core.DEFAULT_RADIUS:
        raise ValueError(f"the engine's search hands over states with the default radius {_core.DEFAULT_RADIUS}")
    flat = game.flat
    n_obs = game.observation_tensor_size()
    n_act = flat.size

    buffers = {}

    def hook(engine_states):
        B = len(engine_states)
        states = [SpielState(game, st) for st in engine_states]
        players = np.fromiter((s.current_player() for s in states), np.int64, B)
        if buffers.get("rows", 0) < B:  # reused between calls: valid until the next call
            buffers.update(rows=B, masks=np.empty((B, n_act), np.bool_),
                           obs=np.empty((B, n_obs), np.float32) if observations else None)
        obs = buffers["obs"][:B] if observations else None
        masks = buffers["masks"][:B]
        for i, s in enumerate(states):
            if obs is not None:
                s.observation_tensor(None, out=obs[i])
            if players[i] >= 0:
                s._s.legal_flat_mask(masks[i])
            else:
                masks[i] = False
        priors, values = fn(EvaluatorBatch(states, players, obs, masks))
        out = []
        for i, st in enumerate(engine_states):
            row = None if priors is None else priors[i]
            if row is None or players[i] < 0:
                out.append(None)
                continue
            row = np.asarray(row, dtype=np.float64)
            firsts, parts = st.flat_moves()
            p = np.where(firsts >= 0, row[np.maximum(firsts, 0)], 0.0)
            if flat.fruit:
                # Moves sharing a first decision split its weight by their fruit parts' weights.
                w = row[flat.f_fruit + np.maximum(parts, 0)]
                uniq, inv = np.unique(firsts, return_inverse=True)
                tot = np.bincount(inv, weights=w, minlength=len(uniq))
                cnt = np.bincount(inv, minlength=len(uniq))
                share = np.where(tot[inv] > 0, w / np.where(tot[inv] > 0, tot[inv], 1), 1.0 / cnt[inv])
                p = p * np.where(cnt[inv] > 1, share, 1.0)
            out.append(p.tolist() if p.sum() > 0 else None)
        return out, [list(map(float, v)) for v in values]

    return hook


def registered_game_names() -> list[str]:
    """The names load_game() knows (OpenSpiel's registered_names())."""
    return [GAME_NAME]


def register() -> bool:
    """Registers the game with OpenSpiel under GAME_NAME ("python_carcassonne", parameters as
    load_game): ``pyspiel.load_game("python_carcassonne(players=3)")`` then works and OpenSpiel's
    algorithms run on it. Returns False when pyspiel is not importable (checked when this module
    was imported)."""
    if _pyspiel is None:
        return False
    from . import _pyspiel_glue

    _pyspiel_glue.register(_pyspiel)
    return True
