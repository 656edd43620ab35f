"""Steps per second of lgame.vector.VectorEnv with random legal actions.

    python -P python/bench_vector.py [--variant classic] [--steps 2000000] [--threads N]
        [--repetition 3]

For N = 1, 64, 1,024 and 8,192 games, with dense masks off and on, runs
``env.step(env.random_legal_actions())`` for about --steps game steps (at least 20 calls)
and prints the game steps per second (wall time) and the time of one call. A game step is
one game advanced by one call: a move, or the start of a new game after one ended (Gymnasium's
next-step autoreset); the moves alone are counted beside it. --threads: the threads that step
the games (default: one per core). The machine may be shared, so the share of a core the
process had (CPU time over wall time) is printed too, and the steps per second of CPU time
(steps/cpu-s: with one thread, the rate on a core of its own).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

from lgame.vector import VectorEnv


def bench(n: int, dense: bool, variant: str, steps: int, threads: int | None, repetition: int):
    env = VectorEnv(n, variant, seed=1, action_mask=dense, threads=threads, repetition=repetition)
    env.reset(seed=1)
    calls = max(steps // n, 20)
    # A short warm-up: page in the arrays, start the threads.
    for _ in range(min(calls, 5)):
        env.step(env.random_legal_actions())
    moves = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(calls):
        # A game awaiting its reset does not move at this step.
        waiting = int(env._terminations.sum() + env._truncations.sum())
        env.step(env.random_legal_actions())
        moves += n - waiting
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return n * calls / wall, moves / wall, wall / calls, cpu / wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--steps", type=int, default=2_000_000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--repetition", type=int, default=3, help="the repetition draw's count (0: none)"
    )
    args = parser.parse_args()
    print(
        f"lgame.vector.VectorEnv, {args.variant}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores, threads={args.threads or 'one per core'}, "
        f"repetition={args.repetition or 'off'}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'N':>6} {'masks':>6} {'steps/s':>12} {'moves/s':>12} {'time/step':>12} "
        f"{'cpu/wall':>9} {'steps/cpu-s':>12}"
    )
    for n in (1, 64, 1024, 8192):
        for dense in (False, True):
            rate, moves, per_call, load = bench(
                n, dense, args.variant, args.steps, args.threads, args.repetition
            )
            if per_call < 1e-3:
                shown = f"{per_call * 1e6:.1f} us"
            else:
                shown = f"{per_call * 1e3:.2f} ms"
            print(
                f"{n:>6} {'on' if dense else 'off':>6} {rate:>12,.0f} {moves:>12,.0f} "
                f"{shown:>12} {load:>9.2f} {rate / load:>12,.0f}"
            )


if __name__ == "__main__":
    main()
