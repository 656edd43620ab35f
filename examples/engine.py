#!/usr/bin/env python3
"""A small L game engine: the classic 4x4 game over the engine protocol (LGP).

An example for engine authors, written from docs/engine-protocol.md alone, with the standard
library only and move generation of its own. It wins at once when it can, otherwise plays a
random move (from --seed N, default 1) after which the opponent cannot trap it at once.
It declares the clock extension (`features clock`) and reads both clocks from `go`, but
plays at once all the same; --no-clock makes it an engine from before that extension.

    lgame match --red level:random --blue "python3 examples/engine.py --seed 7" --games 4
    lgame bot --server http://127.0.0.1:8080 --token-file token --engine "python3 examples/engine.py"
"""

import random
import sys

SIZE = 4
COLUMNS = "ABCD"


def cell_index(name):
    """'B3' -> 0..15, counted from A1 along the rows."""
    if len(name) != 2 or name[0].upper() not in COLUMNS or name[1] not in "1234":
        raise ValueError(f"'{name}' is not a cell of the 4x4 board")
    return (int(name[1]) - 1) * SIZE + COLUMNS.index(name[0].upper())


def cell_name(index):
    return COLUMNS[index % SIZE] + str(index // SIZE + 1)


def cells_of(mask):
    return [i for i in range(SIZE * SIZE) if mask >> i & 1]


def l_placements():
    """Every placement of an L on the board, as a bit mask of its four cells."""
    shape = [(0, 0), (0, 1), (0, 2), (1, 0)]
    shapes = set()
    for _ in range(4):
        shape = [(y, -x) for x, y in shape]  # a quarter turn
        for s in (shape, [(-x, y) for x, y in shape]):  # and its mirror image
            low_x = min(x for x, _ in s)
            low_y = min(y for _, y in s)
            shapes.add(tuple(sorted((x - low_x, y - low_y) for x, y in s)))
    masks = []
    for s in sorted(shapes):
        for dx in range(SIZE):
            for dy in range(SIZE):
                if all(x + dx < SIZE and y + dy < SIZE for x, y in s):
                    masks.append(sum(1 << ((y + dy) * SIZE + x + dx) for x, y in s))
    return masks


PLACEMENTS = l_placements()
assert len(PLACEMENTS) == 48


class Position:
    """Both Ls and the neutrals as bit masks, and whose turn it is (0 Red, 1 Blue)."""

    def __init__(self, ls, neutrals, turn):
        self.ls = ls
        self.neutrals = neutrals
        self.turn = turn

    @staticmethod
    def parse(text):
        words = text.split()
        if len(words) == 2 and "/" in words[0]:
            ls, neutrals = [0, 0], []
            rows = words[0].split("/")
            if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
                raise ValueError("this engine plays the 4x4 board only")
            for r, row in enumerate(rows):
                for c, piece in enumerate(row.upper()):
                    index = (SIZE - 1 - r) * SIZE + c
                    if piece in "RB":
                        ls["RB".index(piece)] |= 1 << index
                    elif piece == "N":
                        neutrals.append(index)
                    elif piece != ".":
                        raise ValueError(f"unexpected '{piece}' in the board")
        elif len(words) in (3, 4) and words[0].upper().startswith("R:"):
            # The cell-list form: R:B4,C4,B3,B2 B:C3,C2,C1,B1 N:A4,D1 r
            lists = {}
            for word in words[:-1]:
                piece, _, cells = word.partition(":")
                lists[piece.upper()] = [cell_index(c) for c in cells.split(",") if c]
            ls = [sum(1 << i for i in lists.get(p, [])) for p in "RB"]
            neutrals = lists.get("N", [])
        else:
            raise ValueError(f"'{text}' is not a classic position")
        side = words[-1].lower()
        if side not in ("r", "b"):
            raise ValueError(f"side to move must be 'r' or 'b', found '{words[-1]}'")
        if any(mask not in PLACEMENTS for mask in ls) or len(neutrals) != 2:
            raise ValueError(f"'{text}' is not a classic position")
        return Position(ls, sum(1 << i for i in neutrals), "rb".index(side))

    def occupied(self):
        return self.ls[0] | self.ls[1] | self.neutrals

    def l_moves(self):
        """The placements the side to move can put its L on."""
        mine, theirs = self.ls[self.turn], self.ls[1 - self.turn]
        blocked = theirs | self.neutrals
        return [p for p in PLACEMENTS if p != mine and not p & blocked]

    def legal_moves(self):
        """Every legal move as (L mask, neutral from, neutral to), from and to None for an L
        move alone."""
        theirs = self.ls[1 - self.turn]
        moves = []
        for placement in self.l_moves():
            moves.append((placement, None, None))
            empty = ~(placement | theirs | self.neutrals) & 0xFFFF
            for source in cells_of(self.neutrals):
                for target in cells_of(empty):
                    moves.append((placement, source, target))
        return moves

    def play(self, move):
        placement, source, target = move
        ls = list(self.ls)
        ls[self.turn] = placement
        neutrals = self.neutrals
        if source is not None:
            neutrals = neutrals & ~(1 << source) | 1 << target
        return Position(ls, neutrals, 1 - self.turn)

    def read_move(self, text):
        """A move in notation, checked against this position."""
        words = text.split()
        if not words or len(words) > 2:
            raise ValueError(f"'{text}' is not a classic move")
        placement = sum(1 << cell_index(c) for c in words[0].split(","))
        source = target = None
        if len(words) == 2:
            source, _, target = words[1].partition("-")
            source, target = cell_index(source), cell_index(target)
        move = (placement, source, target)
        if move not in self.legal_moves():
            raise ValueError(f"'{text}' is not a legal move")
        return move


def move_text(move):
    placement, source, target = move
    cells = sorted(cells_of(placement), key=lambda i: (i % SIZE, i // SIZE))
    text = ",".join(cell_name(i) for i in cells)
    if source is not None:
        text += f" {cell_name(source)}-{cell_name(target)}"
    return text


def choose(position, rng):
    """A move that traps the opponent, else a random one after which the opponent cannot
    trap us at once (else any)."""
    moves = position.legal_moves()
    safe = []
    for move in moves:
        after = position.play(move)
        if not after.l_moves():
            return move
        if all(after.play(reply).l_moves() for reply in after.legal_moves()):
            safe.append(move)
    return rng.choice(safe or moves)


def main():
    seed = 1
    if "--seed" in sys.argv:
        seed = int(sys.argv[sys.argv.index("--seed") + 1])
    rng = random.Random(seed)
    clocks = "--no-clock" not in sys.argv
    position = None

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    while True:
        line = sys.stdin.readline()
        if not line:
            return
        command, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if command == "":
            continue
        elif command == "lgp":
            say("id name python example")
            say("id author the lgame authors")
            say("variants classic")
            if clocks:
                say("features clock")
            say("lgpok")
        elif command == "isready":
            say("readyok")
        elif command == "newgame":
            position = None
        elif command == "rules":
            if rest != "classic":
                say(f"error rules '{rest}': this engine plays classic only")
        elif command == "drawrules":
            pass  # The controller ends drawn games; this engine plays on regardless.
        elif command == "position":
            start, _, moves = rest.partition(" moves ")
            try:
                position = Position.parse(start)
                for text in filter(None, (m.strip() for m in moves.split(";"))):
                    position = position.play(position.read_move(text))
            except ValueError as e:
                position = None
                say(f"error position: {e}")
        elif command == "go":
            if position is None:
                say("error go before a position")
            elif not position.l_moves():
                say("bestmove none")
            else:
                words = rest.split()
                fields = dict(zip(words[::2], words[1::2]))
                if clocks and "wtime" in fields:
                    # Red is "w", Blue "b", as in UCI; this engine needs no time, but says
                    # what it was given, as an engine that budgets its time would read it.
                    own = "wtime" if position.turn == 0 else "btime"
                    say(f"info time left {fields[own]} ms")
                say("bestmove " + move_text(choose(position, rng)))
        elif command == "quit":
            return
        else:
            say(f"error unknown command '{command}'")


if __name__ == "__main__":
    main()
