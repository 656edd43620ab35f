"""Types of the native module lgame._lgame (crates/lgame-py), re-exported by lgame."""

from __future__ import annotations

import os
from typing import Any, Union, final


__all__ = [
    "LgameError",
    "RulesError",
    "PositionError",
    "MoveError",
    "IllegalMoveError",
    "RecordError",
    "Rules",
    "Move",
    "Position",
    "Game",
    "Record",
    "Judgement",
    "Table",
    "judge",
    "solve",
    "VARIANTS",
]

class LgameError(Exception):
    """The base of lgame's errors."""

class RulesError(LgameError, ValueError):
    """Rules text that is not a variant."""

class PositionError(LgameError, ValueError):
    """Position text that cannot be read or is not legal under the rules (or a position
    probed in a table of other rules)."""

class MoveError(LgameError, ValueError):
    """Move text that cannot be read."""

class IllegalMoveError(LgameError, ValueError):
    """An illegal move."""

    kind: str
    """The reason as the library's serde ``kind``: ``occupied``, ``not_an_l``, ``unchanged``,
    ``off_board``, ``game_over``, ``no_neutral``, ``neutral_target_occupied``,
    ``neutral_required``, ``too_many_neutral_moves``, ``neutral_after_symmetry_win``."""

class RecordError(LgameError, ValueError):
    """A game record that cannot be read or replayed."""

VARIANTS: list[tuple[str, str, str]]
"""(rules text, name, summary) of each named variant, classic first."""

@final
class Rules:
    """A variant's rules, read from its text: ``"classic"``, ``"board=5x5,neutrals=3"``.
    Rules, positions and moves are immutable, hashable and picklable."""

    def __new__(cls, text: str = "classic") -> Rules: ...
    def __str__(self) -> str: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def neutrals(self) -> int: ...
    @property
    def scoring_target(self) -> int | None: ...
    def start(self) -> Position:
        """The start position (standard setup, or the text's ``setup=``)."""
    def action_count(self) -> int:
        """Size of the fixed action space: len(placements) * C(width*height, neutrals)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Move:
    """A move in notation.md's form: ``"A1,A2,A3,B3 D1-D2"``."""

    def __new__(cls, text: str) -> Move: ...
    def __str__(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Position:
    """A legal position under a variant's rules, read from either notation form."""

    def __new__(cls, text: str, rules: Rules | str = "classic") -> Position: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def turn(self) -> str:
        """``"red"`` or ``"blue"``."""
    @property
    def scores(self) -> tuple[int, int] | None:
        """(red, blue) under scoring, else None."""
    def __str__(self) -> str:
        """The one-line rows form, e.g. ``NRR./.RB./.RB./.BBN r``."""
    def cell_list(self) -> str:
        """The cell-list form, e.g. ``R:B2,B3,B4,C4 B:B1,C1,C2,C3 N:A4,D1 r``."""
    def legal_moves(self) -> list[Move]: ...
    def play(self, move: Move | str) -> Position:
        """The position after a move; IllegalMoveError (with ``kind``) or MoveError."""
    def is_over(self) -> bool: ...
    def winner(self) -> str | None:
        """``"red"``/``"blue"`` once over, else None."""
    def canonical(self) -> Position: ...
    def diagram(self) -> str:
        """The board as text, without colour."""
    def _repr_svg_(self) -> str: ...
    def action_mask(self) -> bytes:
        """rules.action_count() bytes, 1 where the action is a legal move here."""
    def legal_actions(self) -> list[int]:
        """The legal moves' actions, ascending."""
    def action_of(self, move: Move | str) -> int:
        """The action naming a legal move; IllegalMoveError if it is not legal here."""
    def move_of(self, action: int) -> Move:
        """The legal move an action names; IllegalMoveError or ValueError if none."""
    def play_action(self, action: int) -> Position: ...
    def planes(self) -> bytes:
        """3*height*width bytes of 0/1: the mover's L, the opponent's L, the neutrals, each
        row-major with index [row-1][column], row 1 first."""
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@final
class Game:
    """A game with optional draw rules (for truncation)."""

    def __new__(
        cls,
        rules: Rules | str = "classic",
        turn_limit: int | None = None,
        repetition: int | None = None,
    ) -> Game: ...
    @property
    def position(self) -> Position: ...
    @property
    def plies(self) -> int: ...
    def play(self, move: Move | str) -> None:
        """IllegalMoveError (kind ``game_over`` once over) or MoveError."""
    def play_action(self, action: int) -> None: ...
    def undo(self) -> None:
        """Takes back the last move; IndexError at the start."""
    def is_over(self) -> bool:
        """Over on the board or drawn by the draw rules."""
    def result(self) -> str | None:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or None while the game goes on."""
    def termination(self) -> str | None:
        """``trapped``, ``symmetry``, ``score target``, ``turn limit``, ``repetition``."""
    def record(self) -> str:
        """The game record text (notation.md)."""
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    @staticmethod
    def from_record(text: str) -> Game:
        """The game a record replays, with its draw rules; RecordError if it cannot."""
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its record."""

@final
class Player:
    """A computer player: ``random``, ``beginner``, ``intermediate``, ``perfect``, with an
    optional strength (``beginner:40``), as ``lgame play`` names them; seeded."""

    def __new__(cls, spec: str, seed: int = 0) -> Player: ...
    def choose(self, game: Game | Position) -> Move | None:
        """Its move in the game or position (None once over); a table it needs is solved at
        first use."""

@final
class VectorCore:
    """The native half of ``lgame.vector.VectorEnv`` (use that)."""

    def __new__(
        cls,
        num_envs: int,
        rules: Rules | str,
        seed: int,
        dense: bool,
        turn_limit: int,
        repetition: int,
        threads: int,
    ) -> VectorCore: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def max_legal(self) -> int: ...
    def buffers(self) -> dict[str, tuple[int, tuple[int, ...], str]]: ...
    def reset_all(self, seed: int | None = None) -> None: ...
    def step(self) -> None: ...
    def random_legal_actions(self) -> None: ...
    def legal_actions(self) -> None: ...
    def position(self, env: int) -> Position: ...

@final
class Record:
    """A game record (notation.md)."""

    def __new__(cls, text: str) -> Record: ...
    def game(self) -> Game:
        """The replayed game; RecordError if a move is illegal."""
    def __str__(self) -> str: ...

@final
class Judgement:
    """What the referee found in a record."""

    @property
    def valid(self) -> bool: ...
    @property
    def plies(self) -> int:
        """Plies replayed validly."""
    @property
    def result(self) -> str | None:
        """The true result of the replayed game, None if unfinished."""
    @property
    def error(self) -> str | None:
        """The first problem, if any."""

def judge(record: str | bytes) -> Judgement:
    """Judges a record from untrusted text or bytes (lgame::referee::judge_bytes)."""

@final
class Table:
    """A solved variant; probing reads the Rust table in place."""

    @property
    def rules(self) -> Rules: ...
    def value(self, position: Position | str) -> str:
        """``"win"``, ``"loss"`` or ``"draw"`` for the player to move."""
    def plies(self, position: Position | str) -> int | None:
        """Plies to the end with best play; None if drawn."""
    def best_moves(self, position: Position | str) -> list[Move]:
        """The moves that keep the position's value."""
    def statistics(self) -> dict[str, Any]:
        """lgame_solver::Statistics as a dict: positions, won, lost, drawn, trapped,
        longest_win_plies, longest_win, by_plies, start_value, …"""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the tablebase file of docs/tablebase-format.md."""
    @staticmethod
    def load(path: Union[str, os.PathLike[str]]) -> Table: ...
    def __len__(self) -> int:
        """The number of states."""
    def _repr_svg_(self) -> str:
        """The start position's diagram with its value in the title."""

def solve(rules: Rules | str = "classic") -> Table:
    """Solves a variant (the interpreter is released meanwhile)."""
