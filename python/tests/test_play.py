"""Perfect play in the environment, and the oracle that scores agents against it."""

from __future__ import annotations

import numpy as np
import pytest

import lgame
from lgame.oracle import Accuracy, perfect_agent, random_agent


def play_game(env, players, rng):
    """One game through the AEC API; players maps an agent to "perfect" (a table) or None
    (random). Returns the rewards each agent saw at the end and the plies played."""
    env.reset()
    rewards = {}
    plies = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            rewards[agent] = reward
            env.step(None)
            continue
        table = players[agent]
        if table is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            position = env.unwrapped.position
            best = table.best_moves(position)
            action = position.action_of(best[int(rng.integers(len(best)))])
            assert obs["action_mask"][action] == 1
        env.step(action)
        plies += 1
    return rewards, plies


@pytest.mark.parametrize("variant", ["classic", "misere", "sudden-death"])
def test_perfect_play_never_loses_to_random(variant, table):
    solved = table(variant)
    env = lgame.env(variant)
    rng = np.random.default_rng(17)
    results = {"win": 0, "draw": 0, "loss": 0}
    for game in range(100):
        perfect = "red" if game % 2 == 0 else "blue"
        random_side = "blue" if perfect == "red" else "red"
        rewards, plies = play_game(env, {perfect: solved, random_side: None}, rng)
        assert plies > 0
        assert rewards[perfect] == -rewards[random_side]
        results[{1: "win", 0: "draw", -1: "loss"}[rewards[perfect]]] += 1
    assert results["loss"] == 0, results
    if variant == "sudden-death":
        # Most positions are decisive in sudden death (analysis.md): random play gets caught.
        assert results["win"] > 50, results


def test_oracle_perfect_agent_keeps_every_value(table):
    solved = table("sudden-death")
    report = lgame.agent_accuracy(
        perfect_agent(solved, seed=1), "sudden-death", games=20, table=solved
    )
    assert isinstance(report, Accuracy)
    assert report.games == 20 and report.losses == 0
    assert report.won_moves > 0 and report.drawn_moves > 0
    assert report.kept == report.scored and report.accuracy == 1.0
    assert report.wins + report.draws + report.losses == 20


def test_oracle_random_agent_is_below_perfect(table):
    solved = table("classic")
    report = lgame.agent_accuracy(random_agent(seed=2), "classic", games=20, table=solved)
    assert report.scored > 0
    assert 0.0 < report.accuracy < 1.0
    assert report.moves == report.won_moves + report.drawn_moves + report.lost_moves


def test_oracle_counts_match_a_replay(table):
    # Re-score a random agent's moves independently: replay the same seeded games by hand.
    solved = table("sudden-death")
    report = lgame.agent_accuracy(
        random_agent(seed=5), "sudden-death", games=6, table=solved, opponent=random_agent(seed=6),
        turn_limit=40, repetition=3,
    )
    mine, theirs = random_agent(seed=5), random_agent(seed=6)
    kept = scored = 0
    for game in range(6):
        g = lgame.Game("sudden-death", turn_limit=40, repetition=3)
        ours = "red" if game % 2 == 0 else "blue"
        while not g.is_over():
            position = g.position
            mask = np.frombuffer(position.action_mask(), dtype=np.int8)
            player = mine if position.turn == ours else theirs
            action = player(None, mask)
            before = solved.value(position)
            g.play_action(action)
            if position.turn == ours and before != "loss":
                scored += 1
                after = solved.value(g.position)
                kept += (after == "loss") if before == "win" else (after != "win")
    assert (report.kept, report.scored) == (kept, scored)


def test_oracle_refuses_a_table_of_other_rules(table):
    with pytest.raises(ValueError, match="table"):
        lgame.agent_accuracy(random_agent(), "misere", games=1, table=table("classic"))
