"""Steps per second with random legal actions, in one Python process.

    python python/bench_env.py [--variant classic] [--moves 200000]

Measures, each over about --moves moves (games restart when they end):
  env        lgame.env(): the wrapped AEC environment, as a training loop uses it
             (agent_iter, last(), a random legal action from the mask, step)
  raw_env    the same loop on the unwrapped environment (no PettingZoo wrappers)
  raw_env*   raw_env stepping without observe(): the game logic alone behind the AEC API
  Game       lgame.Game.play_action with the draw rules, a random action of legal_actions()
  Position   Position.play_action, a random action of legal_actions() (no draw rules)
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

import lgame
from lgame.env import raw_env


def bench_aec(env, moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < moves:
        env.reset()
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(legal.size)]))
            done += 1
    return done, time.perf_counter() - start


def bench_raw_no_observe(env, moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < moves:
        env.reset()
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            legal = env.position.legal_actions()
            env.step(legal[rng.randrange(len(legal))])
            done += 1
    return done, time.perf_counter() - start


def bench_game(variant: str, moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while done < moves:
        game = lgame.Game(variant, turn_limit=200, repetition=3)
        while not game.is_over():
            legal = game.position.legal_actions()
            game.play_action(legal[rng.randrange(len(legal))])
            done += 1
    return done, time.perf_counter() - start


def bench_position(variant: str, moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    start_position = lgame.Rules(variant).start()
    done = 0
    start = time.perf_counter()
    while done < moves:
        position = start_position
        for _ in range(200):  # as the turn limit; no repetition check
            if position.is_over():
                break
            legal = position.legal_actions()
            position = position.play_action(legal[rng.randrange(len(legal))])
            done += 1
    return done, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--moves", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"variant {args.variant}, Python {platform.python_version()}, {platform.machine()}")
    runs = [
        ("env", lambda: bench_aec(lgame.env(args.variant), args.moves, args.seed)),
        ("raw_env", lambda: bench_aec(raw_env(args.variant), args.moves, args.seed)),
        ("raw_env*", lambda: bench_raw_no_observe(raw_env(args.variant), args.moves, args.seed)),
        ("Game", lambda: bench_game(args.variant, args.moves, args.seed)),
        ("Position", lambda: bench_position(args.variant, args.moves, args.seed)),
    ]
    for name, run in runs:
        moves, seconds = run()
        print(f"{name:<9} {moves / seconds:>12,.0f} moves/s  ({moves:,} moves in {seconds:.2f} s)")


if __name__ == "__main__":
    main()
