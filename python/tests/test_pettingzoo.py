"""carcassonne.pettingzoo against PettingZoo's own conventions, over every rule combination (every
subset of carc.expansion_names() with every tile set of carc.tile_sets()).

`check_api` and `check_seed` are this project's implementation of what PettingZoo's
`pettingzoo.test.api_test` and `seed_test` check (PettingZoo 1.24-1.27): the reward returned by
last() is the agent's reward accumulated in `rewards` since it last acted, terminated agents
leave `agents` through step(None), the key sets of rewards/terminations/truncations/infos equal
`agents`, observations lie in their (Dict of Box) spaces with the spaces' dtypes, the action mask
is int8 and equals the legal actions, and one seed gives one game. When the real `pettingzoo` is
importable, its api_test and seed_test run too."""
import random

import numpy as np
import pytest

import carcassonne as carc
import carcassonne.pettingzoo as pz
from helpers import variant_id, variants


def make(tileset, expansions, players=2, **kw):
    # No skip: a rule combination the engine refuses is a failure here.
    return pz.env(players=players, tileset=tileset, expansions=expansions, **kw)


def check_spaces(env):
    for agent in env.possible_agents:
        ospace, aspace = env.observation_space(agent), env.action_space(agent)
        assert ospace is env.observation_space(agent) and aspace is env.action_space(agent)
        assert set(ospace.keys()) == {"observation", "action_mask"}
        assert ospace["observation"].dtype == np.float32 and ospace["action_mask"].dtype == np.int8
        n = aspace.n
        assert ospace["action_mask"].shape == (n,) and aspace.shape == ()
        assert ospace["observation"].shape == (env.unwrapped.game.observation_tensor_size(),)
        assert ospace == env.observation_space(env.possible_agents[0])
        assert aspace == env.action_space(env.possible_agents[0])


def check_obs(env, agent, obs):
    space = env.observation_space(agent)
    assert isinstance(obs, dict) and isinstance(obs["observation"], np.ndarray)
    for k in ("observation", "action_mask"):
        assert obs[k].dtype == space[k].dtype and obs[k].shape == space[k].shape, k
    assert space.contains(obs), "the observation is outside its observation space"
    assert np.isfinite(obs["observation"]).all()


def check_api(env, seed, cycles=10_000, check_every=1):
    """One game (at most `cycles` agent steps) with PettingZoo's api_test play-loop checks."""
    unwrapped = env.unwrapped
    rng = random.Random(seed)
    env.reset(seed=seed)
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.num_agents == len(env.agents) == len(env.possible_agents) > 0
    assert env.last(observe=False)[0] is None
    check_spaces(env)
    live = set(env.agents)
    finished, seen = set(), set()
    accumulated = {a: 0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter(cycles):
        seen.add(agent)
        assert agent not in finished, "agents cannot resurrect"
        assert agent == env.agent_selection and isinstance(env.infos[agent], dict)
        obs, reward, term, trunc, info = env.last()
        assert isinstance(term, bool) and isinstance(trunc, bool)
        assert term == env.terminations[agent] and trunc == env.truncations[agent] and info == env.infos[agent]
        float(reward)
        # The accumulated-reward rule of PettingZoo's api_test.
        assert accumulated[agent] == reward, "reward returned by last is not the accumulated rewards in its rewards dict"
        accumulated[agent] = 0
        if steps % check_every == 0 or term:
            check_obs(env, agent, obs)
            state = unwrapped.state
            if not term:
                # The mask is exactly the legal actions; other agents' masks are all zero.
                assert np.array_equal(np.flatnonzero(obs["action_mask"]), state.legal_actions())
                for other in env.agents:
                    if other != agent:
                        assert not env.observe(other)["action_mask"].any()
            else:
                assert not obs["action_mask"].any()
            assert env.observe(agent) is obs, "observe() is cached within a step"
        if term or trunc:
            action = None
            live.discard(agent)
            finished.add(agent)
        else:
            assert not any(env.terminations.values())
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            if steps % 2:
                action = np.int32(action)  # PettingZoo's action flexibility
        assert env.step(action) is None, "step() must not return anything"
        for a, r in env.rewards.items():
            accumulated[a] += r
        assert env.num_agents == len(env.agents)
        keys = set(env.agents)
        assert set(env.rewards) == keys, "agents should not be given a reward if they were done last turn"
        assert set(env.terminations) == keys and set(env.truncations) == keys and set(env.infos) == keys
        assert keys <= set(env.possible_agents) and live <= keys
        steps += 1
        if not env.agents:
            break
    assert env.agents == [] and finished == seen == set(env.possible_agents), "not every agent finished"
    return steps


def check_seed(make_env, seed=42, cycles=10_000):
    """PettingZoo's seed_test: two environments reset with one seed, their action spaces seeded
    alike, give the same agents, observations, rewards, terminations, infos, masks and sampled
    actions, step for step."""
    e1, e2 = make_env(), make_env()
    e1.reset(seed=seed)
    e2.reset(seed=seed)
    for env in (e1, e2):
        for i, a in enumerate(env.agents):
            env.action_space(a).seed(seed + i)
            env.observation_space(a).seed(seed + i)
    n = 0
    for a1, a2 in zip(e1.agent_iter(cycles), e2.agent_iter(cycles)):
        assert a1 == a2
        o1, r1, t1, u1, i1 = e1.last()
        o2, r2, t2, u2, i2 = e2.last()
        assert np.array_equal(o1["observation"], o2["observation"])
        assert np.array_equal(o1["action_mask"], o2["action_mask"])
        assert (r1, t1, u1, i1) == (r2, t2, u2, i2)
        if t1 or u1:
            act1 = act2 = None
        else:
            act1 = e1.action_space(a1).sample(o1["action_mask"])
            act2 = e2.action_space(a2).sample(o2["action_mask"])
            assert act1 == act2 and o1["action_mask"][act1] == 1
        e1.step(act1)
        e2.step(act2)
        n += 1
    assert e1.agents == e2.agents == []
    e1.close()
    e2.close()
    return n


@pytest.mark.parametrize("v", variants(), ids=variant_id)
def test_api_cycle(v):
    env = make(*v)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.action_space("player_0").n <= 2 ** 20
    check_api(env, seed=3, check_every=7)
    env.close()
    assert env.unwrapped.state is None


@pytest.mark.parametrize("v", variants(), ids=variant_id)
def test_seed(v):
    assert check_seed(lambda: make(*v)) > 50


def test_three_players_full_checks():
    check_api(make("wheel-of-fortune", ["festival"], players=3), seed=5)
    check_api(make("base", ["fruit-trees", "fortune-teller"], players=3), seed=6)


def test_rewards_follow_pettingzoo():
    """`rewards` holds the last step's rewards (zero-sum returns at the end, zeros before); last()
    gives each agent its own accumulated reward, which its dead step does not repeat."""
    env = make("base", ["festival"], players=3)
    env.reset(seed=8)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term:
            final[agent] = reward
            assert reward == env.unwrapped.state.returns()[env.unwrapped.agent_name_mapping[agent]]
            env.step(None)
            # The dead step clears the rewards of the last step.
            assert all(r == 0 for r in env.rewards.values())
            continue
        assert reward == 0 and all(r == 0 for r in env.rewards.values())
        env.step(env.action_space(agent).sample(obs["action_mask"]))
    assert set(final) == {"player_0", "player_1", "player_2"}
    assert abs(sum(final.values())) < 1e-9 and max(final.values()) > 0


def test_plague_decision_is_that_agents_turn():
    env = pz.env(players=3, tileset="wheel-of-fortune")
    for seed in range(30):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term:
                env.step(None)
                continue
            st = env.unwrapped.state.engine_state
            if st.phase == "plague" and st.plague_player != st.turn_player:
                assert agent == f"player_{st.plague_player}" and info["turn_player"] == st.turn_player
                return
            env.step(env.action_space(agent).sample(obs["action_mask"]))
    pytest.fail("no Plague decision by another player in 30 games")


def test_render_and_errors():
    env = pz.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "turn" in text and "tiles:" in text
    assert pz.env().unwrapped.render() is None
    with pytest.raises(ValueError):
        pz.env(render_mode="human")
    with pytest.raises(ValueError):
        env.step(None)  # the selected agent is not done
    with pytest.raises(ValueError):
        env.step(env.action_space(env.agent_selection).n - 1)  # not legal


def test_observe_is_cached_per_step():
    env = pz.env(players=2)
    env.reset(seed=2)
    a = env.agent_selection
    o = env.observe(a)
    assert env.observe(a) is o and env.last()[0] is o
    other = [x for x in env.agents if x != a][0]
    assert not env.observe(other)["action_mask"].flags.writeable  # the shared all-zero mask
    env.step(int(np.flatnonzero(o["action_mask"])[0]))
    assert env.observe(env.agent_selection) is not o


def test_stand_in_spaces():
    d = pz.Discrete(5)
    d.seed(1)
    assert d.n == 5 and d.contains(4) and not d.contains(5) and not d.contains(-1)
    for mask in (np.array([0, 0, 1, 0, 1], dtype=np.int8), np.array([0, 0, 1, 0, 1], dtype=bool)):
        assert {d.sample(mask) for _ in range(50)} == {2, 4}
    b = pz.Box(0, 1, (3,), np.int8)
    assert b.contains(np.array([0, 1, 1], dtype=np.int8)) and not b.contains(np.array([0, 2, 1]))
    assert not b.contains(np.array([0.0, 1.0, 1.0]))  # float64 does not cast safely to int8
    assert b.contains(b.sample()) and b == pz.Box(0, 1, (3,), np.int8) and b != pz.Box(0, 2, (3,), np.int8)


real = pytest.mark.skipif(not pz.HAVE_PETTINGZOO, reason="pettingzoo is not installed (no Debian package, no PyPI "
                          "here): its api_test/seed_test not run; test_api_cycle/test_seed implement their checks")


@real
@pytest.mark.parametrize("v", variants(), ids=variant_id)
def test_real_pettingzoo_api_test(v):
    from pettingzoo.test import api_test, seed_test

    api_test(make(*v), num_cycles=1000)
    seed_test(lambda: make(*v), num_cycles=1000)
