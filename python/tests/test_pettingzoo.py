"""carcassonne.pettingzoo in the style of PettingZoo's API test, over every rule combination:
agents, spaces, observations inside their spaces, action masks equal to the legal actions,
rewards only at the end, terminated agents removed by step(None), determinism by seed."""
import numpy as np
import pytest

from helpers import carc, variant_id, variants

pz = pytest.importorskip("carcassonne.pettingzoo")


def make(tileset, expansions, players=2, **kw):
    try:
        return pz.env(players=players, tileset=tileset, expansions=expansions, **kw)
    except ValueError as e:
        pytest.skip(f"engine rejects {tileset}+{expansions}: {e}")


def play(env, seed, check=True):
    env.reset(seed=seed)
    actions = []
    n = env.action_space(env.possible_agents[0]).n
    for steps, agent in enumerate(env.agent_iter()):
        assert agent in env.agents and agent == env.agent_selection
        obs, reward, term, trunc, info = env.last()
        if check and (steps % 13 == 0 or term):
            assert env.observation_space(agent).contains(obs)
            assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
            legal = env.unwrapped.state.legal_actions() if not term else []
            assert np.array_equal(np.flatnonzero(obs["action_mask"]), legal)
            other = [a for a in env.agents if a != agent]
            if other and not term:
                assert not env.observe(other[0])["action_mask"].any()
        if term or trunc:
            assert all(env.terminations.values())
            action = None
        else:
            assert reward == 0 and not any(env.terminations.values()) and not any(env.truncations.values())
            action = env.action_space(agent).sample(obs["action_mask"])
            assert env.action_space(agent).contains(action) and obs["action_mask"][action] == 1
        actions.append(action)
        env.step(action)
        assert steps < 5000
    assert env.agents == []
    return actions


@pytest.mark.parametrize("v", variants(), ids=variant_id)
def test_api(v):
    env = make(*v)
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    assert env.possible_agents == ["player_0", "player_1"]
    n = env.action_space("player_0").n
    assert n <= 2 ** 20 and env.action_space("player_0").shape == ()
    assert env.observation_space("player_1")["action_mask"].shape == (n,)
    rewards = {}

    env.reset(seed=3)
    assert env.agents == env.possible_agents and env.agent_selection in env.agents
    assert set(env.rewards) == set(env.terminations) == set(env.truncations) == set(env.infos) == set(env.agents)
    a1 = play(env, seed=3)
    a2 = play(env, seed=3, check=False)
    assert a1 == a2, "not deterministic for one seed"
    env.close()
    assert raw.state is None


def test_rewards_at_the_end_are_the_returns():
    env = pz.env(players=3, expansions=["festival"])
    env.reset(seed=8)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term:
            final[agent] = reward
            env.step(None)
            continue
        assert reward == 0
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


def test_stand_in_spaces():
    d = pz.Discrete(5)
    d.seed(1)
    assert d.n == 5 and d.contains(4) and not d.contains(5) and not d.contains(-1)
    mask = np.array([0, 0, 1, 0, 1], dtype=np.int8)
    assert {d.sample(mask) for _ in range(50)} == {2, 4}
    b = pz.Box(0, 1, (3,), np.int8)
    assert b.contains(np.array([0, 1, 1], dtype=np.int8)) and not b.contains(np.array([0, 2, 1]))
    assert b.contains(b.sample())
