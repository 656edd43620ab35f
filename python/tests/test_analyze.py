"""The Python table against the `lgame analyze` command, on sampled positions of every 4x4
variant; and the tablebase file between the two."""

from __future__ import annotations

import json
import random

import pytest

import lgame

# Every variant of lgame::variants (all on 4x4) and a few combinations of them.
VARIANTS_4X4 = [rules for rules, _name, _summary in lgame.VARIANTS] + [
    "misere,neutrals=1",
    "symmetry,sudden-death",
    "neutrals=3",
    "scoring,target=5",
]
SAMPLES = 40


def sample_positions(variant: str, count: int, seed: int) -> list[lgame.Position]:
    """Positions met on random walks from the start (through Game, so the scoring variant's
    resets happen), the start and finished positions included."""
    rng = random.Random(seed)
    positions = {}
    while len(positions) < count:
        game = lgame.Game(variant)
        positions[str(game.position)] = game.position
        for _ in range(rng.randrange(1, 30)):
            if game.is_over():
                break
            moves = game.position.legal_moves()
            game.play(moves[rng.randrange(len(moves))])
            positions[str(game.position)] = game.position
    return list(positions.values())[:count]


@pytest.mark.parametrize("variant", VARIANTS_4X4)
def test_values_equal_lgame_analyze(variant, table, lgame_cli):
    rules = lgame.Rules(variant)
    assert (rules.width, rules.height) == (4, 4)
    solved = table(variant)
    positions = sample_positions(variant, SAMPLES, seed=len(variant))
    lines = "".join(f"[{rules}] {p}\n" for p in positions)
    answers = [json.loads(line) for line in lgame_cli("analyze", "-", stdin=lines).splitlines()]
    assert len(answers) == len(positions)
    values = set()
    for position, answer in zip(positions, answers):
        assert "error" not in answer, answer
        where = f"{variant}: {position}"
        assert solved.value(position) == answer["value"], where
        assert solved.plies(position) == answer["plies"], where
        assert len(position.legal_moves()) == answer["legal_moves"], where
        best = [
            m["move"]
            for m in answer["moves"]
            if (m["value"], m["plies"]) == (answer["moves"][0]["value"], answer["moves"][0]["plies"])
        ]
        assert sorted(str(m) for m in solved.best_moves(position)) == sorted(best), where
        values.add(answer["value"])
    # Where decided positions are common, the sample holds both kinds (misère's 120 won
    # positions of 18,368 are rarely met by random play).
    stats = solved.statistics()
    if stats["drawn"] < 0.8 * stats["positions"]:
        assert len(values) >= 2, (variant, values)


@pytest.mark.parametrize("variant", ["classic", "symmetry", "neutrals=3"])
def test_statistics_equal_lgame_solve(variant, table, lgame_cli):
    stats = table(variant).statistics()
    expected = json.loads(lgame_cli("solve", "--json", "--variant", variant))
    for key in ("positions", "classes", "won", "lost", "drawn", "terminal", "trapped"):
        assert stats[key] == expected[key], key
    if variant == "classic":  # analysis.md
        assert (stats["positions"], stats["won"], stats["lost"], stats["drawn"]) == (
            18368, 8048, 232, 10088,
        )


def test_tablebase_file_read_by_lgame(tmp_path, table, lgame_cli):
    solved = table("sudden-death")
    path = tmp_path / "sudden-death.lgtb"
    solved.save(str(path))
    loaded = lgame.Table.load(str(path))
    assert loaded.rules == solved.rules and len(loaded) == len(solved)
    positions = sample_positions("sudden-death", 20, seed=3)
    lines = "".join(f"{p}\n" for p in positions)
    out = lgame_cli("analyze", "--variant", "sudden-death", "--tablebase", str(path), "-", stdin=lines)
    for position, line in zip(positions, out.splitlines()):
        answer = json.loads(line)
        assert loaded.value(position) == solved.value(position) == answer["value"]
        assert loaded.plies(position) == answer["plies"]


def test_table_refuses_a_position_of_other_rules(table):
    with pytest.raises(ValueError):
        table("classic").value(lgame.Rules("misere").start())
