"""Trains OpenSpiel's tabular Q-learner on the L game by self-play, scored by the solved game.

    python -P python/train_qlearning.py [--variant classic] [--minutes 12] [--seed 0]
        [--eval-every 30] [--eval-games 60] [--final-games 200]
        [--csv curve.csv] [--plot docs/python/learning-curve.png]

Two ``open_spiel.python.algorithms.tabular_qlearner.QLearner`` agents, one per colour, learn
from self-play (as OpenSpiel's tic-tac-toe example does), for --minutes of wall time. The
game is the one ``lgame.openspiel`` registers, stepped through ``lgame.Game`` directly: each
step hands the learners OpenSpiel ``TimeStep`` objects whose information state is the
position's text (the game is of perfect information), without the per-step observation
tensors that ``rl_environment`` would compute and the learner would only turn into a string.

Every --eval-every seconds of training, the greedy agent (the learner of the colour to move,
exploration off) plays --eval-games games against a random agent in ``lgame.agent_accuracy``,
which scores every one of its moves against the solved table: the share that keep the
position's value. At the end it plays --final-games games against each computer level. The
curve (accuracy against training steps) goes to --csv and, with matplotlib, to --plot.

The learner's epsilon-greedy choice is OpenSpiel's, drawn without building a 5,760-entry
probability vector per move (its ``_get_action_probs`` is the documented hook for this); the
Q-learning update is OpenSpiel's own.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from dataclasses import dataclass

import numpy as np
from open_spiel.python import rl_environment, rl_tools
from open_spiel.python.algorithms import tabular_qlearner

import lgame
import lgame.openspiel as los
from lgame.env import DEFAULT_REPETITION, DEFAULT_TURN_LIMIT
from lgame.oracle import agent_accuracy, level_agent

LEVELS = ["random", "beginner", "intermediate", "perfect"]


class QLearner(tabular_qlearner.QLearner):
    """OpenSpiel's tabular Q-learner with its epsilon-greedy choice made in O(legal moves):
    with chance epsilon a uniformly random legal action, else one of the greedy ones."""

    def __init__(self, *args, seed: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self._rng = random.Random(seed)

    def _get_action_probs(self, info_state, legal_actions, epsilon):
        q = self._q_values[info_state]
        if epsilon > 0 and self._rng.random() < epsilon:
            return self._rng.choice(legal_actions), None
        values = [q[a] for a in legal_actions]
        best = max(values)
        greedy = [a for a, v in zip(legal_actions, values) if v == best]
        return self._rng.choice(greedy), None


def time_step(game: lgame.Game, rewards: list[float] | None) -> rl_environment.TimeStep:
    """The OpenSpiel time step of a game for both players (the position's text as each
    one's information state)."""
    over = game.is_over()
    key = str(game.position)
    legal = [] if over else game.position.legal_actions()
    player = {"red": 0, "blue": 1}[game.position.turn]
    return rl_environment.TimeStep(
        observations={
            "info_state": [key, key],
            "legal_actions": [legal if player == 0 else [], legal if player == 1 else []],
            "current_player": player,
        },
        rewards=rewards,
        discounts=[1.0, 1.0],
        step_type=rl_environment.StepType.LAST if over else rl_environment.StepType.MID,
    )


_RETURNS = {"1-0": [1.0, -1.0], "0-1": [-1.0, 1.0]}


def self_play_episode(rules: lgame.Rules, agents: list[QLearner]) -> int:
    """One training game; returns its plies."""
    game = lgame.Game(rules, turn_limit=DEFAULT_TURN_LIMIT, repetition=DEFAULT_REPETITION)
    step = time_step(game, None)
    while not step.last():
        player = step.observations["current_player"]
        action = agents[player].step(step).action
        game.play_action(int(action))
        rewards = _RETURNS.get(game.result() or "", [0.0, 0.0]) if game.is_over() else [0.0, 0.0]
        step = time_step(game, rewards)
    for agent in agents:
        agent.step(step)
    return game.plies


def greedy_agent(agents: list[QLearner]):
    """The learners as an ``agent_accuracy`` agent: the greedy choice of the colour to move."""

    def agent(observation, action_mask, *, position: lgame.Position) -> int:
        player = 0 if position.turn == "red" else 1
        step = rl_environment.TimeStep(
            observations={
                "info_state": [str(position), str(position)],
                "legal_actions": [position.legal_actions()] * 2,
                "current_player": player,
            },
            rewards=None,
            discounts=None,
            step_type=rl_environment.StepType.MID,
        )
        return int(agents[player].step(step, is_evaluation=True).action)

    return agent


@dataclass
class Point:
    seconds: float
    episodes: int
    steps: int
    states: int
    accuracy: float
    games: str


def train(
    variant: str = "classic",
    minutes: float = 12.0,
    seed: int = 0,
    eval_every: float = 30.0,
    eval_games: int = 60,
    step_size: float = 0.2,
    epsilon: float = 0.2,
    log=print,
) -> tuple[list[QLearner], list[Point], lgame.Table]:
    """Self-play training for `minutes`, scored every `eval_every` seconds of training."""
    rules = lgame.Rules(variant)
    game = los.load_game(variant)  # the registered game: its action count for the learners
    table = lgame.solve(rules)
    num_actions = game.num_distinct_actions()
    agents = [
        QLearner(
            player,
            num_actions,
            step_size=step_size,
            epsilon_schedule=rl_tools.ConstantSchedule(epsilon),
            seed=seed * 2 + player,
        )
        for player in range(2)
    ]
    curve: list[Point] = []

    def evaluate(trained: float, episodes: int, steps: int) -> None:
        report = agent_accuracy(
            greedy_agent(agents), rules, games=eval_games, table=table, seed=seed + len(curve)
        )
        states = sum(len(a._q_values) for a in agents)
        point = Point(trained, episodes, steps, states, report.accuracy,
                      f"+{report.wins} -{report.losses} ={report.draws}")
        curve.append(point)
        log(f"{trained:7.0f} s {episodes:8d} games {steps:10d} steps {states:7d} states "
            f"accuracy {point.accuracy:.1%} vs random {point.games}")

    evaluate(0.0, 0, 0)
    trained = 0.0
    episodes = steps = 0
    budget = minutes * 60
    while trained < budget:
        chunk = min(eval_every, budget - trained)
        start = time.perf_counter()
        while time.perf_counter() - start < chunk:
            steps += self_play_episode(rules, agents)
            episodes += 1
        trained += time.perf_counter() - start
        evaluate(trained, episodes, steps)
    return agents, curve, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--minutes", type=float, default=12.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-every", type=float, default=30.0, help="seconds of training")
    parser.add_argument("--eval-games", type=int, default=60)
    parser.add_argument("--final-games", type=int, default=200)
    parser.add_argument("--csv", help="write the curve here")
    parser.add_argument("--plot", help="draw the curve as a PNG here (needs matplotlib)")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    np.random.seed(args.seed)
    started = time.perf_counter()
    agents, curve, table = train(
        args.variant, args.minutes, args.seed, args.eval_every, args.eval_games
    )
    print(f"trained {curve[-1].seconds:.0f} s: {curve[-1].episodes} games, "
          f"{curve[-1].steps} steps, {curve[-1].states} positions in the Q tables")
    for level in LEVELS:
        report = agent_accuracy(
            greedy_agent(agents), args.variant, games=args.final_games, table=table,
            opponent=level_agent(level, seed=args.seed),
        )
        print(f"against {level:12s}: {report}")
    print(f"done in {time.perf_counter() - started:.0f} s")
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["seconds", "games", "steps", "states", "accuracy", "vs_random"])
            for p in curve:
                out.writerow([f"{p.seconds:.1f}", p.episodes, p.steps, p.states,
                              f"{p.accuracy:.4f}", p.games])
    if args.plot:
        plot(curve, args.plot, args.variant, args.eval_games)
    return 0


def plot(curve: list[Point], path: str, variant: str, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    ax.plot([p.steps for p in curve], [100 * p.accuracy for p in curve], marker="o", ms=3)
    ax.set_xlabel("training steps (moves of self-play)")
    ax.set_ylabel("moves keeping the value (%)")
    ax.set_title(f"Tabular Q-learning (OpenSpiel), {variant}: greedy play vs random, "
                 f"{games} games a point", fontsize=9)
    ax.set_ylim(0, 100)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
