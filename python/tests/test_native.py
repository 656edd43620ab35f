"""The native module's own interface: values against `lgame analyze --json`, illegal moves'
kinds, the action encoding (checked against the formula recomputed here), planes, games,
records and the tablebase file."""

from __future__ import annotations

import json
import random
from math import comb

import pytest

import lgame

# Every named variant (all 4x4) and a few combinations, scoring included.
VARIANTS_4X4 = [rules for rules, _name, _summary in lgame.VARIANTS] + [
    "neutrals=1",
    "neutrals=3",
    "misere,neutral-required",
    "scoring,target=4",
]


def walk_positions(variant: str, count: int, seed: int) -> list[lgame.Position]:
    """Distinct positions met on random games from the start (finished ones included)."""
    rng = random.Random(seed)
    seen: dict[str, lgame.Position] = {}
    while len(seen) < count:
        game = lgame.Game(variant)
        for _ in range(rng.randrange(1, 40)):
            seen.setdefault(str(game.position), game.position)
            if game.is_over():
                break
            game.play_action(rng.choice(game.position.legal_actions()))
    return list(seen.values())[:count]


# --- values ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "misere", "sudden-death"])
def test_values_equal_lgame_analyze(variant, table, lgame_cli):
    solved = table(variant)
    positions = walk_positions(variant, 12, seed=17) + [lgame.Rules(variant).start()]
    for position in positions:
        answer = json.loads(
            lgame_cli("analyze", "--json", "--variant", variant, str(position))
        )
        assert solved.value(position) == answer["value"], position
        assert solved.plies(position) == answer["plies"], position
        # Probing by text reads the position under the table's rules.
        assert solved.value(position.cell_list()) == answer["value"]
        # The best moves: those worth what the first (best) one is worth.
        top = answer["moves"][0] if answer["moves"] else None
        best = {
            m["move"]
            for m in answer["moves"]
            if (m["value"], m["plies"]) == (top["value"], top["plies"])
        }
        assert {str(m) for m in solved.best_moves(position)} == best, position


def test_trapped_position_is_lost_at_once(table):
    # lgame_solver's own example: Red to move is trapped.
    trapped = lgame.Position("RRN./RB../RBBB/N... r")
    assert trapped.is_over() and trapped.winner() == "blue"
    assert trapped.legal_moves() == [] and trapped.legal_actions() == []
    assert (table("classic").value(trapped), table("classic").plies(trapped)) == ("loss", 0)


# --- positions, moves and their errors ----------------------------------------------------


def test_both_notations_and_errors():
    start = lgame.Rules().start()
    assert lgame.Position(start.cell_list()) == start == lgame.Position(str(start))
    assert lgame.Position("start", "misere").rules == lgame.Rules("misere")
    assert lgame.Position("start", lgame.Rules("misere")) != start  # other rules
    assert start.turn == "red" and start.scores is None
    assert lgame.Rules("scoring").start().scores == (0, 0)
    for error, make in [
        (lgame.RulesError, lambda: lgame.Rules("misery")),
        (lgame.PositionError, lambda: lgame.Position("NRR./.RB./.RB./.BBN w")),
        (lgame.PositionError, lambda: lgame.Position("NRR./.RB./.RB./.BBN r 1-0")),
        (lgame.MoveError, lambda: lgame.Move("A1,A2,A3")),
        (lgame.RecordError, lambda: lgame.Record("1. not a move")),
    ]:
        with pytest.raises(error) as caught:
            make()
        assert isinstance(caught.value, lgame.LgameError) and isinstance(caught.value, ValueError)
        assert str(caught.value)  # a reason, not an empty message


@pytest.mark.parametrize(
    "move, kind",
    [
        ("A1,A2,A3,B1", "occupied"),  # B1 holds Blue's L (lgame's doc example)
        ("A1,A2,B2,C3", "not_an_l"),
        ("B2,B3,B4,C4", "unchanged"),  # Red's own L
        ("A1,A2,A3,B3 C4-D4", "no_neutral"),
        ("A1,A2,A3,B3 D1-C1", "neutral_target_occupied"),
    ],
)
def test_illegal_move_kind(move, kind):
    start = lgame.Rules().start()
    with pytest.raises(lgame.IllegalMoveError) as caught:
        start.play(move)
    assert caught.value.kind == kind
    with pytest.raises(lgame.IllegalMoveError) as again:
        start.action_of(move)
    assert again.value.kind == kind


def test_game_over_and_neutral_required_kinds():
    with pytest.raises(lgame.IllegalMoveError) as caught:
        lgame.Position("start", "neutral-required").play("A1,A2,A3,B3")
    assert caught.value.kind == "neutral_required"
    game = lgame.Game(turn_limit=1)
    game.play("A1,A2,A3,B3 D1-D2")
    assert game.is_over() and game.result() == "1/2-1/2" and game.termination() == "turn limit"
    with pytest.raises(lgame.IllegalMoveError) as over:
        game.play("C2,C3,C4,D4")
    assert over.value.kind == "game_over"


# --- the action encoding ----------------------------------------------------------------

SHAPE = [(0, 0), (0, 1), (0, 2), (1, 0)]  # (column, row) of one L


def placements(width: int, height: int) -> list[int]:
    """Every L placement as a cell mask (bit row*8 + column), sorted by the mask: the order
    of lgame's placement table (docs/tablebase-format.md)."""
    masks = set()
    for flip in (False, True):
        for turns in range(4):
            cells = [(r, c) if flip else (c, r) for c, r in SHAPE]
            for _ in range(turns):
                cells = [(-r, c) for c, r in cells]
            low_c, low_r = min(c for c, _ in cells), min(r for _, r in cells)
            cells = [(c - low_c, r - low_r) for c, r in cells]
            for dc in range(width):
                for dr in range(height):
                    moved = [(c + dc, r + dr) for c, r in cells]
                    if all(c < width and r < height for c, r in moved):
                        masks.add(sum(1 << (r * 8 + c) for c, r in moved))
    return sorted(masks)


def cells_of(text: str) -> list[tuple[int, int]]:
    """(column, row), 0-based, of a comma-separated cell list like `A1,B3`."""
    return [(ord(cell[0]) - ord("A"), int(cell[1:]) - 1) for cell in text.split(",") if cell]


def expected_action(position: lgame.Position, move: lgame.Move) -> int:
    """The contract's formula, from the move's and the position's text alone."""
    rules = position.rules
    w, h, k = rules.width, rules.height, rules.neutrals
    l_text, *neutral_moves = str(move).split(" ")
    mask = sum(1 << (r * 8 + c) for c, r in cells_of(l_text))
    neutrals_part = [p for p in position.cell_list().split(" ") if p.startswith("N:")]
    neutrals = set(cells_of(neutrals_part[0][2:])) if neutrals_part else set()
    for step in neutral_moves:
        source, target = step.split("-")
        neutrals.remove(cells_of(source)[0])
        neutrals.add(cells_of(target)[0])
    indices = sorted(r * w + c for c, r in neutrals)
    rank = sum(comb(c, i + 1) for i, c in enumerate(indices))
    return placements(w, h).index(mask) * comb(w * h, k) + rank


@pytest.mark.parametrize("variant", VARIANTS_4X4)
def test_action_encoding(variant):
    rules = lgame.Rules(variant)
    count = len(placements(rules.width, rules.height)) * comb(rules.width * rules.height, rules.neutrals)
    assert rules.action_count() == count
    for position in walk_positions(variant, 25, seed=5):
        moves = position.legal_moves()
        mask = position.action_mask()
        assert len(mask) == count and set(mask) <= {0, 1}
        assert sum(mask) == len(moves)
        actions = position.legal_actions()
        assert actions == [a for a, bit in enumerate(mask) if bit]
        for move in moves:
            action = position.action_of(move)
            assert action == expected_action(position, move), (position, move)
            assert position.move_of(action) == move
            assert position.play_action(action) == position.play(move)
        assert sorted(position.action_of(m) for m in moves) == actions


def test_actions_that_are_not_moves():
    start = lgame.Rules().start()
    count = start.rules.action_count()
    with pytest.raises(ValueError):
        start.move_of(count)
    illegal = next(a for a, bit in enumerate(start.action_mask()) if not bit)
    with pytest.raises(ValueError):
        start.move_of(illegal)
    with pytest.raises(ValueError):
        start.play_action(illegal)


def test_planes():
    position = lgame.Position("start").play("A1,A2,A3,B3 D1-D2")  # Blue to move
    w, h = 4, 4
    planes = position.planes()
    assert len(planes) == 3 * w * h

    def plane(i: int) -> set[tuple[int, int]]:
        return {(j % w, j // w) for j in range(w * h) if planes[i * w * h + j]}

    assert plane(0) == set(cells_of("B1,C1,C2,C3"))  # the mover's (Blue's) L
    assert plane(1) == set(cells_of("A1,A2,A3,B3"))  # Red's
    assert plane(2) == set(cells_of("A4,D2"))


# --- games, records, the referee -----------------------------------------------------------


def test_game_record_round_trip():
    game = lgame.Game("classic", repetition=3)
    rng = random.Random(1)
    while not game.is_over() and game.plies < 60:
        game.play_action(rng.choice(game.position.legal_actions()))
    text = game.record()
    replayed = lgame.Record(text).game()
    assert replayed.position == game.position and replayed.plies == game.plies
    judged = lgame.judge(text)
    assert judged.valid and judged.plies == game.plies and judged.error is None
    assert judged.result == game.result()
    assert lgame.judge(text.encode()).valid
    bad = lgame.judge(b"\xff\xfe not a record")
    assert not bad.valid and bad.error
    game.undo()
    assert game.plies == replayed.plies - 1
    with pytest.raises(IndexError):
        lgame.Game().undo()


def test_game_draw_by_repetition():
    game = lgame.Game(repetition=2)
    for move in ["A1,A2,A3,B3", "C1,C2,C3,D3", "B2,B3,B4,C4", "B1,C1,C2,C3"]:
        game.play(move)
    # Back at the start with Red to move: the second occurrence.
    assert game.position == lgame.Rules().start()
    assert (game.result(), game.termination()) == ("1/2-1/2", "repetition")


# --- the table -------------------------------------------------------------------------


def test_tablebase_saved_and_loaded(tmp_path, table):
    solved = table("misere")
    path = tmp_path / "misere.tb"
    solved.save(path)
    loaded = lgame.Table.load(str(path))
    assert loaded.rules == solved.rules and len(loaded) == len(solved)
    for position in walk_positions("misere", 30, seed=9):
        assert loaded.value(position) == solved.value(position)
        assert loaded.plies(position) == solved.plies(position)
        assert loaded.best_moves(position) == solved.best_moves(position)
    stats, again = solved.statistics(), loaded.statistics()
    for key in ("positions", "won", "lost", "drawn", "trapped", "longest_win_plies"):
        assert stats[key] == again[key]
    assert stats["positions"] == len(solved)  # every state is a position
    assert stats["won"] + stats["lost"] + stats["drawn"] == stats["positions"]
    (tmp_path / "junk.tb").write_bytes(b"not a table")
    with pytest.raises(lgame.LgameError):
        lgame.Table.load(str(tmp_path / "junk.tb"))
    with pytest.raises(OSError):
        lgame.Table.load(str(tmp_path / "missing.tb"))


def test_svg():
    start = lgame.Rules().start()
    assert start._repr_svg_().startswith("<svg")
    picture = lgame.solve("classic")._repr_svg_()
    assert picture.startswith("<svg") and "the start is a draw" in picture


def test_pickle_and_copy():
    import copy
    import pickle

    position = lgame.Position("start", "scoring,target=4").play("A1,A2,A3,B3")
    for value in (position, position.rules, lgame.Move("A1,A2,A3,B3 D1-D2")):
        again = pickle.loads(pickle.dumps(value))
        assert again == value and type(again) is type(value)
        assert copy.deepcopy(value) == value
    game = lgame.Game("classic", turn_limit=5)
    game.play("A1,A2,A3,B3")
    twin = copy.deepcopy(game)
    twin.play("C1,C2,C3,D3")
    assert (game.plies, twin.plies) == (1, 2)
    assert twin.record() != game.record()
