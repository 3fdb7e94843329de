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
(observation_tensor of carcassonne.spiel, seen by that agent), "action_mask": int8 mask}``, with a
``Dict`` of ``Box`` spaces as PettingZoo's classic environments (chess, connect four).
Rewards follow PettingZoo's AEC convention: ``rewards`` holds every agent's reward of the last
step (the zero-sum returns of ``carcassonne.spiel`` on the step that ends the game, ``returns="score"``
for the final scores; zeros before), ``last()`` the selected agent's reward accumulated since it last
acted, and the dead step ``step(None)`` clears ``rewards``. ``observe()`` is computed once per step and
agent; the action mask is built in C++.

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
        """A uniformly random element; with `mask` (int8 or bool of n entries, as gymnasium's), among
        the entries set."""
        if mask is None:
            return int(self.np_random.integers(self.n))
        mask = np.asarray(mask)
        if mask.shape != (self.n,):
            raise ValueError(f"the mask must have shape ({self.n},), not {mask.shape}")
        if mask.dtype == np.int8 and mask.flags.c_contiguous:
            mask = mask.view(np.bool_)  # the same bytes; numpy scans a bool array several times faster
        idx = np.flatnonzero(mask)
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

    def __eq__(self, other):
        return isinstance(other, Discrete) and other.n == self.n

    __hash__ = None  # type: ignore[assignment]

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
        """True for an array of this shape, of a dtype that casts safely to this one (as gymnasium's
        Box), inside the bounds."""
        a = np.asarray(x)
        if a.shape != self.shape or not np.can_cast(a.dtype, self.dtype):
            return False
        return bool(np.all(a >= self.low)) and bool(np.all(a <= self.high))

    __contains__ = contains

    def __eq__(self, other):
        return isinstance(other, Box) and other.shape == self.shape and other.dtype == self.dtype and \
            np.array_equal(other.low, self.low) and np.array_equal(other.high, self.high)

    __hash__ = None  # type: ignore[assignment]

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

    def __eq__(self, other):
        return isinstance(other, Dict) and other.spaces == self.spaces

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self):
        return "Dict(" + ", ".join(f"{k}: {v}" for k, v in self.spaces.items()) + ")"


def _discrete(n):
    return _spaces.Discrete(n) if _spaces else Discrete(n)


def _box(low, high, shape, dtype):
    return _spaces.Box(low=low, high=high, shape=shape, dtype=dtype) if _spaces else Box(low, high, shape, dtype)


def _dict(d):
    return _spaces.Dict(d) if _spaces else Dict(d)


class _AECStandIn:
    """Stand-in for pettingzoo.AECEnv when pettingzoo is not importable: the generic parts of the
    agent environment cycle with PettingZoo's semantics (``last``, ``agent_iter``, the reward
    bookkeeping ``_clear_rewards``/``_accumulate_rewards`` and ``_was_dead_step``)."""

    agents: list
    possible_agents: list
    agent_selection: str

    @property
    def unwrapped(self):
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

    def _clear_rewards(self) -> None:
        """Sets every agent's reward of the last step to 0."""
        for agent in self.rewards:
            self.rewards[agent] = 0

    def _accumulate_rewards(self) -> None:
        """Adds the rewards of the last step to every agent's reward since it last acted."""
        for agent, reward in self.rewards.items():
            self._cumulative_rewards[agent] += reward

    def agent_iter(self, max_iter: int = 2 ** 63):
        """Yields the selected agent until every agent is done (at most max_iter times)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def last(self, observe: bool = True):
        """(observation, reward accumulated since the selected agent last acted, termination,
        truncation, info) of the selected agent; the observation is None with observe=False."""
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def _was_dead_step(self, action) -> None:
        """step(None) of a terminated or truncated agent: it leaves ``agents`` and the next done agent
        (if any) is selected; the rewards of the last step are cleared."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        assert self.terminations[agent] or self.truncations[agent]
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            if getattr(self, "_skip_agent_selection", None) is None:
                self._skip_agent_selection = agent
            self.agent_selection = dead[0]
        else:
            if getattr(self, "_skip_agent_selection", None) is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self._clear_rewards()


_Base = _pz.AECEnv if _pz else _AECStandIn


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
        self.action_spaces = {a: _discrete(n) for a in self.possible_agents}
        """Per agent: Discrete(num_distinct_actions) (the same object every call, as PettingZoo asks)."""
        self.observation_spaces = {
            a: _dict({"observation": _box(-np.inf, np.inf, (obs,), np.float32),
                      "action_mask": _box(0, 1, (n,), np.int8)})
            for a in self.possible_agents}
        """Per agent: Dict(observation: Box float32, action_mask: Box(0, 1, int8)), as PettingZoo's
        classic environments (chess, connect four)."""
        # The mask of an agent that is not to move: all zero, built once, read-only.
        self._no_mask = np.zeros(n, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._obs_cache: dict = {}
        self.state: _spiel.SpielState | None = None
        self.agents: list[str] = []
        self.rewards: dict = {}
        self._cumulative_rewards: dict = {}
        self.terminations: dict = {}
        self.truncations: dict = {}
        self.infos: dict = {}
        self._rng = np.random.default_rng()

    def action_space(self, agent: str):
        """Discrete(num_distinct_actions) for every agent."""
        return self.action_spaces[agent]

    def observation_space(self, agent: str):
        """Dict(observation: Box float32 (observation_tensor_size,), action_mask: Box int8 (n,))."""
        return self.observation_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Starts a new game; `seed` seeds the chance events (and the action spaces' sample())."""
        self._rng = np.random.default_rng(seed)
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
        self.state = self.game.new_initial_state()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._resolve_chance()
        self._select()

    def _resolve_chance(self):
        s = self.state
        while s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(int(actions[self._rng.choice(len(actions), p=np.asarray(probs))]))

    def _select(self):
        """After a change of the state: the agent to act, the step's rewards (the returns at the end),
        terminations, infos; clears the observation cache."""
        s = self.state
        self._obs_cache = {}
        if s.is_terminal():
            r = s.returns()
            for a in self.agents:
                self.rewards[a] = float(r[self.agent_name_mapping[a]])
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[s.current_player()]
        turn_player = s.engine_state.turn_player
        for a in self.agents:
            self.infos[a] = {"turn_player": turn_player}

    def observe(self, agent: str) -> dict:
        """{'observation': float32 observation seen by `agent`, 'action_mask': int8 mask of its legal
        actions (all zero, read-only, when it is not that agent's turn)}. Computed once per step and
        agent: calls within one step return the same arrays."""
        obs = self._obs_cache.get(agent)
        if obs is None:
            p = self.agent_name_mapping[agent]
            s = self.state
            mask = s.legal_action_mask_array() if s.current_player() == p else self._no_mask
            obs = {"observation": s.observation_tensor(p), "action_mask": mask}
            self._obs_cache[agent] = obs
        return obs

    def step(self, action: int | None) -> None:
        """Applies the selected agent's action; None for an agent that is terminated (it leaves
        ``agents``). PettingZoo's reward rule: ``rewards`` holds every agent's reward of this step,
        and ``last()`` gives the selected agent its rewards accumulated since it last acted."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{a} must act (step(None) only for a done agent)")
        self.state.apply_action(int(action))
        self._cumulative_rewards[a] = 0
        self._clear_rewards()
        self._resolve_chance()
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """With render_mode='ansi': the observation string of the state (None otherwise)."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        return str(self.state)

    def close(self) -> None:
        """Releases the state."""
        self.state = None
        self._obs_cache = {}

    def __str__(self):
        return f"carcassonne_v0({self.game})"


def env(**kwargs) -> raw_env:
    """raw_env(**kwargs), wrapped in PettingZoo's order-enforcing wrapper when pettingzoo is installed."""
    e = raw_env(**kwargs)
    if _wrappers is not None:
        e = _wrappers.OrderEnforcingWrapper(e)
    return e
