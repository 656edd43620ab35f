"""The solved game as an oracle: how often an agent's moves keep the position's value.

>>> import lgame
>>> table = lgame.solve("classic")
>>> report = lgame.agent_accuracy(lgame.oracle.random_agent(seed=1), table=table, games=20)
>>> report.accuracy < 1.0
True

An agent is a callable ``agent(observation, action_mask) -> action``: the two arrays the
environment gives (``obs["observation"]``, ``obs["action_mask"]`` of ``env.last()``), the
action an int in the environment's action space. An agent that also takes a ``position``
keyword parameter (``agent(observation, action_mask, position=...)``) is given the
``lgame.Position`` too: a search or a table lookup needs it.

A move *keeps the value* when the position after it is still what it was for the player who
moved: a won position stays won (the opponent is left lost, however slowly the win goes), a
drawn one is not lost. In a lost position every move keeps the value, so those moves are
counted (``lost_moves``) but not scored.
"""

from __future__ import annotations

import inspect
import random
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ._lgame import Player, Position, Rules, Table, solve
from .env import DEFAULT_REPETITION, DEFAULT_TURN_LIMIT, raw_env

__all__ = ["agent_accuracy", "Accuracy", "level_agent", "perfect_agent", "random_agent"]

Agent = Callable[..., Any]


@dataclass(frozen=True)
class Accuracy:
    """What ``agent_accuracy`` found."""

    games: int
    #: the agent's games won, lost and drawn (a draw includes one cut short by the draw rules)
    wins: int
    losses: int
    draws: int
    #: the agent's moves in won positions, and how many of them kept the win
    won_moves: int
    won_kept: int
    #: the agent's moves in drawn positions, and how many of them kept the draw
    drawn_moves: int
    drawn_kept: int
    #: the agent's moves in lost positions (not scored: any move keeps a loss)
    lost_moves: int

    @property
    def moves(self) -> int:
        """Every move the agent made."""
        return self.won_moves + self.drawn_moves + self.lost_moves

    @property
    def scored(self) -> int:
        """The moves scored: those in won or drawn positions."""
        return self.won_moves + self.drawn_moves

    @property
    def kept(self) -> int:
        """The scored moves that kept the value."""
        return self.won_kept + self.drawn_kept

    @property
    def accuracy(self) -> float:
        """``kept / scored``: 1.0 for perfect play; NaN if no move was scored."""
        return self.kept / self.scored if self.scored else float("nan")

    def __str__(self) -> str:
        return (
            f"{self.kept}/{self.scored} moves kept the value ({self.accuracy:.1%}): "
            f"wins kept {self.won_kept}/{self.won_moves}, draws kept "
            f"{self.drawn_kept}/{self.drawn_moves}, {self.lost_moves} moves in lost positions; "
            f"games +{self.wins} -{self.losses} ={self.draws}"
        )


def random_agent(seed: int | None = None) -> Agent:
    """An agent playing a uniformly random legal action."""
    rng = random.Random(seed)

    def agent(observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action: the action mask is all zeros")
        return int(legal[rng.randrange(legal.size)])

    return agent


def perfect_agent(table: Table, seed: int | None = None) -> Agent:
    """An agent playing one of the table's best moves (chosen at random among equals)."""
    rng = random.Random(seed)

    def agent(observation: np.ndarray, action_mask: np.ndarray, *, position: Position) -> int:
        best = table.best_moves(position)
        if not best:
            raise ValueError(f"no legal move in {position}")
        return position.action_of(best[rng.randrange(len(best))])

    return agent


def level_agent(spec: str, seed: int = 0) -> Agent:
    """An agent playing as a computer level (``random``, ``beginner``, ``intermediate``,
    ``perfect``, optionally with a strength: ``beginner:40``), seeded: an opponent for
    ``agent_accuracy``."""
    player = Player(spec, seed)

    def agent(observation: np.ndarray, action_mask: np.ndarray, *, position: Position) -> int:
        move = player.choose(position)
        if move is None:
            raise ValueError(f"no legal move in {position}")
        return position.action_of(move)

    return agent


def _wants_position(agent: Agent) -> bool:
    try:
        parameters = inspect.signature(agent).parameters
    except (TypeError, ValueError):  # some builtins have no signature
        return False
    return "position" in parameters


def agent_accuracy(
    agent: Agent,
    variant: str | Rules = "classic",
    games: int = 100,
    table: Table | None = None,
    opponent: Agent | None = None,
    seed: int | None = 0,
    turn_limit: int | None = DEFAULT_TURN_LIMIT,
    repetition: int | None = DEFAULT_REPETITION,
) -> Accuracy:
    """Play ``games`` games of ``agent`` against ``opponent`` (a random agent seeded with
    ``seed`` by default), the agent Red in even-numbered games and Blue in odd ones, and score
    each of the agent's moves against the solved ``table`` (solved here when not given).

    The games run in ``lgame.env.raw_env`` with the given draw rules, so the agent sees
    exactly the environment's observations. An illegal action raises ``IllegalMoveError``.
    """
    if games < 0:
        raise ValueError(f"games must be at least 0, not {games}")
    rules = variant if isinstance(variant, Rules) else Rules(str(variant))
    if table is None:
        table = solve(rules)
    elif table.rules != rules:
        raise ValueError(f"the table is for {table.rules}, not {rules}")
    if opponent is None:
        opponent = random_agent(seed)
    players = (agent, opponent)
    wants = (_wants_position(agent), _wants_position(opponent))

    env = raw_env(rules, turn_limit=turn_limit, repetition=repetition)
    wins = losses = draws = 0
    won_moves = won_kept = drawn_moves = drawn_kept = lost_moves = 0
    for game in range(games):
        env.reset()
        agent_colour = "red" if game % 2 == 0 else "blue"
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            mover = env.agent_selection
            ours = mover == agent_colour
            player = 0 if ours else 1
            position = env.position
            obs = env.observe(mover)
            if wants[player]:
                action = players[player](obs["observation"], obs["action_mask"], position=position)
            else:
                action = players[player](obs["observation"], obs["action_mask"])
            before = table.value(position) if ours else None
            env.step(action)  # raises IllegalMoveError if illegal
            if ours:
                # The game's position after the move (under scoring, a trap resets the
                # pieces), valued for the player who moved: the opposite of the opponent's.
                after = table.value(env.position)
                kept_for_mover = {"loss": "win", "draw": "draw", "win": "loss"}[after]
                if before == "win":
                    won_moves += 1
                    won_kept += kept_for_mover == "win"
                elif before == "draw":
                    drawn_moves += 1
                    drawn_kept += kept_for_mover != "loss"
                else:
                    lost_moves += 1
        reward = env.rewards[agent_colour]
        if reward > 0:
            wins += 1
        elif reward < 0:
            losses += 1
        else:
            draws += 1
    return Accuracy(
        games=games,
        wins=wins,
        losses=losses,
        draws=draws,
        won_moves=won_moves,
        won_kept=won_kept,
        drawn_moves=drawn_moves,
        drawn_kept=drawn_kept,
        lost_moves=lost_moves,
    )
