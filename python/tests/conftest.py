"""Shared fixtures: the `lgame` command (to cross-check against) and solved tables."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import lgame

REPO = Path(__file__).resolve().parents[2]


def lgame_command() -> list[str]:
    """How to run the `lgame` binary: $LGAME, else a built one in the target directory,
    else `cargo run`."""
    if os.environ.get("LGAME"):
        return [os.environ["LGAME"]]
    targets = [Path(os.environ["CARGO_TARGET_DIR"])] if os.environ.get("CARGO_TARGET_DIR") else []
    targets.append(REPO / "target")
    for target in targets:
        for profile in ("release", "debug"):
            binary = target / profile / "lgame"
            if binary.is_file() and os.access(binary, os.X_OK):
                return [str(binary)]
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("no lgame binary: set LGAME, build it (cargo build -p lgame-cli) or install cargo")
    return [cargo, "run", "-q", "--release", "-p", "lgame-cli", "--manifest-path", str(REPO / "Cargo.toml"), "--"]


@pytest.fixture(scope="session")
def lgame_cli():
    """Runs `lgame ARGS` with optional stdin; returns its stdout, failing the test on an error."""
    command = lgame_command()

    def run(*args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [*command, *args], input=stdin, capture_output=True, text=True, cwd=REPO
        )
        if done.returncode != 0:
            pytest.fail(f"lgame {' '.join(args)} exited {done.returncode}: {done.stderr}")
        return done.stdout

    return run


_TABLES: dict[str, lgame.Table] = {}


@pytest.fixture(scope="session")
def table():
    """`table(variant)`: the solved table, solved once per session."""

    def get(variant: str) -> lgame.Table:
        key = str(lgame.Rules(variant))
        if key not in _TABLES:
            _TABLES[key] = lgame.solve(key)
        return _TABLES[key]

    return get
