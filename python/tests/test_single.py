"""lgame.single_agent_env: Gymnasium's checker, and the opponent it promises."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import lgame


@pytest.mark.parametrize("opponent", ["beginner", "random", "intermediate:30"])
def test_gymnasiums_check_env_passes(opponent):
    env = lgame.single_agent_env(opponent=opponent, variant="classic")
    check_env(env, skip_render_check=True)


def test_check_env_passes_for_a_blue_agent_and_a_python_opponent_in_a_variant():
    first = lambda position: position.legal_actions()[0]  # noqa: E731
    env = lgame.single_agent_env(opponent=first, variant="misere", agent="blue")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert info["plies"] == 1, "Red, the opponent, has moved"
    assert env.game.position.turn == "blue"


def play(env, seed: int) -> float:
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return reward


def test_the_perfect_opponent_never_loses_to_a_random_agent_from_the_drawn_start(table):
    assert table("classic").value(lgame.Rules("classic").start()) == "draw"
    env = lgame.single_agent_env(opponent="perfect")
    rewards = [play(env, seed) for seed in range(15)]
    assert max(rewards) <= 0 and min(rewards) == -1


def test_the_same_seed_gives_the_same_opponent_moves():
    env = lgame.single_agent_env(opponent="random")
    records = []
    for _ in range(2):
        play(env, 4)
        records.append(env.game.record())
    assert records[0] == records[1]
    play(env, 5)
    assert env.game.record() != records[0]


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = lgame.single_agent_env()
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(ValueError, match="unknown level"):
        lgame.single_agent_env(opponent="grandmaster")
