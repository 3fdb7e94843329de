"""PettingZoo conventions for Carcassonne: the AEC (agent environment cycle) API.

Code written for a PettingZoo AEC environment runs on Carcassonne by changing the constructor::

    from carcassonne.pettingzoo import env as make_env     # instead of: from pettingzoo.classic import chess_v6
    env = make_env(players=2, expansions=["festival"])
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
    env.close()

Agents are ``"player_0"`` .. ``"player_{n-1}"``. Chance (tile draws, fruit values revealed by a
harvest) is resolved inside the environment with a generator seeded by ``reset(seed=...)``; the
agent selected is the one who decides next, which during the Plague (Wheel of Fortune) may be a
player other than the turn player. Actions are the flat space of ``carcassonne.spiel`` (at most
2**20 for every rule combination; with the Fruit-Bearing Trees a move with several legal fruit
parts is two steps of the same agent). ``observe(agent)`` returns ``{"observation": float32
(observation_tensor of carcassonne.spiel, seen by that agent), "action_mask": int8 mask}``.
Rewards come at the end: the zero-sum returns of ``carcassonne.spiel`` (``returns="score"`` for
the final scores).

``env()`` wraps ``raw_env`` in PettingZoo's order-enforcing wrapper when ``pettingzoo`` is
importable; without pettingzoo/gymnasium, ``raw_env`` is a plain class and the spaces are stand-ins
with the same attributes (``n``, ``shape``, ``dtype``, ``sample(mask)``, ``contains``, ``seed``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from . import spiel as _spiel

try:  # the real thing when it is installed (not packaged by Debian)
    import gymnasium as _gym  # type: ignore
    from gymnasium import spaces as _spaces  # type: ignore
except ImportError:  # pragma: no cover - depends on the machine
    _gym = None
    _spaces = None
try:
    import pettingzoo as _pz  # type: ignore
    from pettingzoo.utils import wrappers as _wrappers  # type: ignore
except ImportError:  # pragma: no cover - depends on the machine
    _pz = None
    _wrappers = None

HAVE_GYMNASIUM = _gym is not None
"""True when gymnasium is importable (its spaces are used)."""
HAVE_PETTINGZOO = _pz is not None
"""True when pettingzoo is importable (raw_env subclasses pettingzoo.AECEnv)."""


class Discrete:
    """Stand-in for gymnasium.spaces.Discrete: the integers 0 .. n-1."""

    def __init__(self, n: int, seed: int | None = None):
        self.n = int(n)
        self.start = 0
        self.shape: tuple = ()
        self.dtype = np.dtype(np.int64)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: int | None = None) -> list:
        """Reseeds sample()."""
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self, mask: np.ndarray | None = None) -> int:
        """A uniformly random element; with `mask` (int8 of n entries), among the entries set to 1."""
        if mask is None:
            return int(self.np_random.integers(self.n))
        idx = np.flatnonzero(np.asarray(mask))
        if len(idx) == 0:
            return 0  # as gymnasium: start when the mask allows nothing
        return int(idx[self.np_random.integers(len(idx))])

    def contains(self, x: Any) -> bool:
        """True for an integer in 0 .. n-1."""
        try:
            v = int(x)
        except (TypeError, ValueError):
            return False
        return v == x and 0 <= v < self.n

    __contains__ = contains

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """Stand-in for gymnasium.spaces.Box: arrays of `shape` and `dtype` between low and high."""

    def __init__(self, low: float, high: float, shape: tuple, dtype=np.float32, seed: int | None = None):
        self.low = np.full(shape, low, dtype=dtype)
        self.high = np.full(shape, high, dtype=dtype)
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed: int | None = None) -> list:
        """Reseeds sample()."""
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def sample(self, mask: Any = None) -> np.ndarray:
        """A random array inside the bounds (uniform; bounded to [-1, 1] where a bound is infinite)."""
        lo = np.where(np.isfinite(self.low), self.low, -1).astype(np.float64)
        hi = np.where(np.isfinite(self.high), self.high, 1).astype(np.float64)
        x = self.np_random.uniform(lo, hi)
        if np.issubdtype(self.dtype, np.integer):
            x = np.floor(x + 0.5)
        return x.astype(self.dtype)

    def contains(self, x: Any) -> bool:
        """True for an array of this shape inside the bounds."""
        a = np.asarray(x)
        return a.shape == self.shape and bool(np.all(a >= self.low)) and bool(np.all(a <= self.high))

    __contains__ = contains

    def __repr__(self):
        return f"Box({self.low.flat[0]}, {self.high.flat[0]}, {self.shape}, {self.dtype})"


class Dict:
    """Stand-in for gymnasium.spaces.Dict: a dict of spaces."""

    def __init__(self, spaces: dict):
        self.spaces = dict(spaces)
        self.shape = None
        self.dtype = None

    def __getitem__(self, key):
        return self.spaces[key]

    def keys(self):
        """The keys."""
        return self.spaces.keys()

    def seed(self, seed: int | None = None) -> list:
        """Reseeds every subspace."""
        return [s.seed(seed) for s in self.spaces.values()]

    def sample(self, mask: Any = None) -> dict:
        """A sample of every subspace."""
        return {k: s.sample() for k, s in self.spaces.items()}

    def contains(self, x: Any) -> bool:
        """True for a dict with the same keys whose values each subspace contains."""
        return isinstance(x, dict) and x.keys() == self.spaces.keys() and all(
            self.spaces[k].contains(v) for k, v in x.items())

    __contains__ = contains

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k}: {v}" for k, v in self.spaces.items()) + ")"


def _discrete(n):
    return _spaces.Discrete(n) if _spaces else Discrete(n)


def _box(low, high, shape, dtype):
    return _spaces.Box(low=low, high=high, shape=shape, dtype=dtype) if _spaces else Box(low, high, shape, dtype)


def _dict(d):
    return _spaces.Dict(d) if _spaces else Dict(d)


_Base = _pz.AECEnv if _pz else object


class raw_env(_Base):  # noqa: N801  (PettingZoo's name)
    """The AEC environment (see the module docstring). Keyword arguments: players, tileset,
    expansions, radius, returns (as carcassonne.spiel.load_game), render_mode (None or 'ansi')."""

    metadata = {"render_modes": ["ansi"], "name": "carcassonne_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, tileset: str = "base", expansions: list[str] | str = (),
                 radius: int = _spiel._DEFAULTS["radius"], returns: str = "win", render_mode: str | None = None):
        if _pz:
            super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        if not isinstance(expansions, str):
            expansions = "+".join(expansions)
        self.game = _spiel.load_game(_spiel.GAME_NAME, {"players": players, "tileset": tileset,
                                                          "expansions": expansions, "radius": radius,
                                                          "returns": returns})
        """The carcassonne.spiel game behind the environment."""
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n = self.game.num_distinct_actions()
        obs = self.game.observation_tensor_size()
        self._action_spaces = {a: _discrete(n) for a in self.possible_agents}
        self._observation_spaces = {
            a: _dict({"observation": _box(-np.inf, np.inf, (obs,), np.float32),
                      "action_mask": _box(0, 1, (n,), np.int8)})
            for a in self.possible_agents}
        self.state: _spiel.SpielState | None = None
        self.agents: list[str] = []
        self._rng = np.random.default_rng()

    if not _pz:
        @property
        def unwrapped(self) -> "raw_env":
            """The environment itself (as pettingzoo.AECEnv.unwrapped)."""
            return self

        @property
        def num_agents(self) -> int:
            """Agents still in the game."""
            return len(self.agents)

        @property
        def max_num_agents(self) -> int:
            """len(possible_agents)."""
            return len(self.possible_agents)

    def action_space(self, agent: str):
        """Discrete(num_distinct_actions) for every agent."""
        return self._action_spaces[agent]

    def observation_space(self, agent: str):
        """Dict(observation: Box float32 (observation_tensor_size,), action_mask: Box int8 (n,))."""
        return self._observation_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a new game; `seed` seeds the chance events (and the action spaces' sample())."""
        self._rng = np.random.default_rng(seed)
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self._action_spaces[a].seed(seed + i)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._resolve_chance()
        self._select()

    def _resolve_chance(self):
        s = self.state
        while s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(actions[self._rng.choice(len(actions), p=np.asarray(probs))]))

    def _select(self):
        s = self.state
        if s.is_terminal():
            r = s.returns()
            for a in self.agents:
                self.rewards[a] = float(r[self.agent_name_mapping[a]])
                self.terminations[a] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[s.current_player()]
        for a in self.agents:
            self.infos[a] = {"turn_player": s.engine_state.turn_player, "legal_moves": None}
        self._accumulate_rewards()

    def _accumulate_rewards(self):
        for a, r in self.rewards.items():
            self._cumulative_rewards[a] += r

    def observe(self, agent: str) -> dict:
        """{'observation': float32 observation seen by `agent`, 'action_mask': int8 mask of its legal
        actions (all zero when it is not that agent's turn)}."""
        p = self.agent_name_mapping[agent]
        obs = self.state.observation_tensor(p)
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if self.state.current_player() == p:
            mask[self.state.legal_actions()] = 1
        return {"observation": obs, "action_mask": mask}

    def last(self, observe: bool = True):
        """(observation, cumulative reward, termination, truncation, info) of the selected agent."""
        a = self.agent_selection
        obs = self.observe(a) if observe else None
        return obs, self._cumulative_rewards[a], self.terminations[a], self.truncations[a], self.infos[a]

    def agent_iter(self, max_iter: int = 2 ** 63):
        """Yields the selected agent until every agent is done (at most max_iter times)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action: int | None) -> None:
        """Applies the selected agent's action; None for an agent that is terminated (removes it)."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None:
                raise ValueError(f"{a} is done: step(None) removes it")
            self._was_dead_step(a)
            return
        if action is None:
            raise ValueError(f"{a} must act (step(None) only for a done agent)")
        self._cumulative_rewards[a] = 0.0
        for k in self.rewards:
            self.rewards[k] = 0.0
        self.state.apply_action(int(action))
        self._resolve_chance()
        self._select()

    def _was_dead_step(self, agent):
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]

    def render(self) -> str | None:
        """With render_mode='ansi': the observation string of the state (None otherwise)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        """Releases the state."""
        self.state = None

    def __str__(self):
        return f"carcassonne_v0({self.game})"


def env(**kwargs) -> raw_env:
    """raw_env(**kwargs), wrapped in PettingZoo's order-enforcing wrapper when pettingzoo is installed."""
    e = raw_env(**kwargs)
    if _wrappers is not None:
        e = _wrappers.OrderEnforcingWrapper(e)
    return e
