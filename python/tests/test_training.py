"""python/train_qlearning.py: a short run of the training recipe, scored by the oracle; and
the computer levels as opponents of the oracle."""

from __future__ import annotations

import importlib.util
import sys

import lgame
from lgame.oracle import agent_accuracy, level_agent

from conftest import REPO


def load_script():
    spec = importlib.util.spec_from_file_location("train_qlearning", REPO / "python" / "train_qlearning.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_twenty_seconds_of_self_play_beat_a_random_player(table):
    script = load_script()
    lines = []
    agents, curve, solved = script.train(
        "classic", minutes=1 / 3, seed=0, eval_every=10, eval_games=30, log=lines.append
    )
    assert len(curve) == len(lines) >= 3
    assert curve[0].steps == 0 and all(a.steps < b.steps for a, b in zip(curve, curve[1:]))
    assert all(0.0 <= p.accuracy <= 1.0 for p in curve)
    assert curve[-1].states > 10_000, "self-play reached most positions"
    report = agent_accuracy(script.greedy_agent(agents), "classic", games=30, table=solved, seed=7)
    assert report.wins > 2 * report.losses, str(report)


def test_the_perfect_level_keeps_every_value_and_the_random_level_does_not(table):
    solved = table("classic")
    perfect = agent_accuracy(level_agent("perfect", seed=1), games=10, table=solved)
    assert perfect.accuracy == 1.0 and perfect.losses == 0
    random = agent_accuracy(level_agent("random", seed=1), games=10, table=solved)
    assert random.accuracy < 0.6
