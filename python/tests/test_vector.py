"""lgame.vector.VectorEnv against lgame.env, game by game, and its own promises: the
autoreset, the seeding, the compact legal actions, the refusal of an illegal action."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import lgame
from lgame.env import raw_env
from lgame.vector import VectorEnv

NAMED = [rules for rules, _name, _summary in lgame.VARIANTS]
GAMES = 1000


@pytest.mark.parametrize("variant", NAMED)
def test_observations_masks_and_rewards_equal_the_aec_environments_on_1000_random_games(variant):
    # Each of GAMES games runs in the vector environment and in its own raw_env with the
    # same (random legal) actions, until its first game ends; every step compares the
    # mover's observation, the mask, the rewards, the player to move and the ending.
    venv = VectorEnv(GAMES, variant, seed=11, action_mask=True)
    obs, info = venv.reset(seed=11)
    envs = [raw_env(variant) for _ in range(GAMES)]
    for e in envs:
        e.reset()
    live = np.ones(GAMES, dtype=bool)
    seen_obs = np.zeros_like(obs["observation"])
    seen_mask = np.zeros_like(obs["action_mask"])
    seen_rewards = np.zeros((GAMES, 2), dtype=np.float32)
    seen_ends = np.zeros((GAMES, 2), dtype=bool)
    seen_mover = np.zeros(GAMES, dtype=np.int8)
    moves = 0
    while live.any():
        now = np.flatnonzero(live)
        for i in now:
            e = envs[i]
            agent = e.agent_selection
            seen = e.observe(agent)
            seen_obs[i] = seen["observation"]
            seen_mask[i] = seen["action_mask"]
            seen_mover[i] = 0 if agent == "red" else 1
        assert np.array_equal(info["to_move"][now], seen_mover[now])
        assert np.array_equal(obs["observation"][now], seen_obs[now])
        assert np.array_equal(obs["action_mask"][now], seen_mask[now])
        actions = venv.random_legal_actions()
        chosen = actions.tolist()
        obs, rewards, terminations, truncations, info = venv.step(actions)
        for i in now:
            e = envs[i]
            e.step(chosen[i])
            seen_rewards[i] = (e.rewards["red"], e.rewards["blue"])
            seen_ends[i] = (e.terminations["red"], e.truncations["red"])
        moves += now.size
        assert np.array_equal(rewards[now], seen_rewards[now])
        assert np.array_equal(terminations[now], seen_ends[now, 0])
        assert np.array_equal(truncations[now], seen_ends[now, 1])
        for i in np.flatnonzero(live & (terminations | truncations)):
            # The end as the AEC environment shows it: the mover's planes, no legal move.
            seen = envs[i].observe(envs[i].agent_selection)
            assert np.array_equal(obs["observation"][i], seen["observation"])
            assert not obs["action_mask"][i].any() and not seen["action_mask"].any()
            live[i] = False
    assert moves >= GAMES


def test_a_finished_game_starts_again_at_the_next_step_ignoring_its_action():
    env = VectorEnv(64, seed=5)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = env.reset(seed=5)
    start = obs["observation"][0].copy()
    start_mask = obs["action_mask"][0].copy()
    for _ in range(400):
        obs, rewards, terminations, truncations, info = env.step(env.random_legal_actions())
        ended = np.flatnonzero(terminations | truncations)
        if ended.size:
            break
    else:
        pytest.fail("no game ended in 400 steps")
    i = int(ended[0])
    assert not obs["action_mask"][i].any(), "a finished game has no legal action"
    assert env.legal_actions().counts[i] == 0
    actions = env.random_legal_actions().copy()
    assert actions[i] == 0
    actions[i] = 5759  # ignored: the game starts again
    obs, rewards, terminations, truncations, info = env.step(actions)
    np.testing.assert_array_equal(obs["observation"][i], start)
    np.testing.assert_array_equal(obs["action_mask"][i], start_mask)
    assert tuple(rewards[i]) == (0.0, 0.0)
    assert not terminations[i] and not truncations[i]
    assert info["to_move"][i] == 0
    assert env.position(i) == lgame.Rules("classic").start()


def trajectory(env: VectorEnv, seed: int, steps: int) -> list[np.ndarray]:
    obs, _ = env.reset(seed=seed)
    seen = [obs["observation"].copy()]
    for _ in range(steps):
        actions = env.random_legal_actions().copy()
        obs, rewards, terminations, truncations, _ = env.step(actions)
        seen += [actions, obs["observation"].copy(), rewards.copy(), terminations | truncations]
    return seen


def test_the_same_seed_gives_the_same_games_on_any_number_of_threads():
    one = trajectory(VectorEnv(300, seed=1, action_mask=False, threads=1), 42, 150)
    two = trajectory(VectorEnv(300, seed=2, action_mask=False, threads=2), 42, 150)
    again = trajectory(VectorEnv(300, seed=3, action_mask=False, threads=2), 42, 150)
    other = trajectory(VectorEnv(300, seed=4, action_mask=False, threads=1), 43, 150)
    for a, b, c in zip(one, two, again):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
    assert any(not np.array_equal(a, b) for a, b in zip(one, other))
    # Some games ended and started again within the run.
    assert sum(int(done.sum()) for done in one[4::4]) > 0


def test_a_seed_at_construction_seeds_the_actions_until_reset_reseeds():
    a, b = VectorEnv(8, seed=9), VectorEnv(8, seed=9)
    for _ in range(30):
        np.testing.assert_array_equal(a.random_legal_actions(), b.random_legal_actions())
        a.step(a._actions)
        b.step(b._actions)


@pytest.mark.parametrize("variant", NAMED)
def test_the_compact_legal_actions_are_the_positions_legal_actions_and_the_mask(variant):
    env = VectorEnv(50, variant, seed=3)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        counts, ids = env.legal_actions()
        assert counts.max() <= env.max_legal == ids.shape[1]
        for i in range(env.num_envs):
            row = ids[i, : counts[i]]
            assert len(set(row.tolist())) == counts[i], "each move once"
            if counts[i]:
                assert sorted(row.tolist()) == env.position(i).legal_actions()
            assert sorted(row.tolist()) == np.flatnonzero(obs["action_mask"][i]).tolist()
        obs, *_ = env.step(env.random_legal_actions())


def test_an_illegal_action_is_refused_before_any_game_moves():
    env = VectorEnv(4, seed=0)
    env.reset(seed=0)
    before = [env.position(i) for i in range(4)]
    actions = env.random_legal_actions().copy()
    actions[2] = 0  # not a legal move from the start
    with pytest.raises(ValueError, match="game 2: action 0"):
        env.step(actions)
    assert [env.position(i) for i in range(4)] == before
    actions[2] = -1
    with pytest.raises(ValueError, match="game 2: action -1 is negative"):
        env.step(actions)
    actions[2] = 10**6
    with pytest.raises(ValueError, match="out of range"):
        env.step(actions)
    with pytest.raises(ValueError, match="shape"):
        env.step(actions[:3])
    with pytest.raises(ValueError):
        VectorEnv(0)
    with pytest.raises(lgame.RulesError):
        VectorEnv(2, "no-such-variant")


def test_the_spaces_and_arrays_have_gymnasiums_vector_shapes():
    env = VectorEnv(3, "neutrals=1", seed=0)
    obs, info = env.reset()
    assert env.single_action_space.n == lgame.Rules("neutrals=1").action_count()
    assert env.observation_space.contains(obs)
    assert obs["observation"].dtype == np.int8 and obs["observation"].shape == (3, 4, 4, 3)
    obs, rewards, terminations, truncations, info = env.step(env.random_legal_actions())
    assert rewards.shape == (3, 2) and rewards.dtype == np.float32
    assert terminations.dtype == np.bool_ and truncations.shape == (3,)
    assert info["to_move"].tolist() == [1, 1, 1]
    lean = VectorEnv(3, seed=0, action_mask=False)
    obs, _ = lean.reset()
    assert set(obs) == {"observation"}
    assert lean.observation_space.contains(obs)
