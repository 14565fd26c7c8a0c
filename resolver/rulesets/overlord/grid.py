"""The battlefield of an overlord battle: two 3 × 3 grids facing each other, six ranks by three files.

Squares are (rank, file) pairs on the whole field. Rank 0 is the attackers' rear and rank 5 the defenders'
rear, so the attackers' FRONT is rank 2 and the defenders' FRONT rank 3. The armies face each other, so one
side's LEFT stands opposite the other side's RIGHT: the defenders' files are mirrored on the field. Pure
functions, no dice: the battle module decides who moves when.
"""

from __future__ import annotations

from collections.abc import Iterable

Square = tuple[int, int]

RANKS = ("front", "middle", "rear")
FILES = ("left", "center", "right")
# The manual names the middle rank CENTER and the centre file MIDDLE in one passage: both are read here.
RANK_ALIASES = {"center": "middle"}
FILE_ALIASES = {"middle": "center"}
FIELD_RANKS = 6
FIELD_FILES = 3
ATTACKERS = "attackers"
DEFENDERS = "defenders"


def rank_name(word: str) -> str:
    low = word.lower()
    return RANK_ALIASES.get(low, low)


def file_name(word: str) -> str:
    low = word.lower()
    return FILE_ALIASES.get(low, low)


def forward(side: str) -> int:
    """The rank step toward the enemy."""
    return 1 if side == ATTACKERS else -1


def rear_rank(side: str) -> int:
    return 0 if side == ATTACKERS else FIELD_RANKS - 1


def place(side: str, rank: str, file: str) -> Square:
    """The field square of a unit's TACTIC rank and file."""
    depth = RANKS.index(rank_name(rank))  # 0 front, 2 rear
    column = FILES.index(file_name(file))
    if side == ATTACKERS:
        return (2 - depth, column)
    return (3 + depth, FIELD_FILES - 1 - column)


def own_rank(side: str, square: Square) -> int:
    """0 for the side's own front rank, 1 middle, 2 rear; 3 and more for squares beyond its front."""
    return 2 - square[0] if side == ATTACKERS else square[0] - 3


def distance(a: Square, b: Square) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def on_field(square: Square) -> bool:
    return 0 <= square[0] < FIELD_RANKS and 0 <= square[1] < FIELD_FILES


def neighbours(square: Square) -> list[Square]:
    """The adjacent squares (distance 1), rank steps before file steps."""
    rank, column = square
    steps = [(rank + 1, column), (rank - 1, column), (rank, column - 1), (rank, column + 1)]
    return [step for step in steps if on_field(step)]


def nearest(square: Square, others: Iterable[Square]) -> int | None:
    found = [distance(square, other) for other in others]
    return min(found) if found else None


def step_toward(square: Square, goal: Square, blocked: set[Square]) -> Square:
    """One step that brings the square closer to the goal without entering a blocked square (ranks first)."""
    best = square
    for option in neighbours(square):
        if option in blocked:
            continue
        if distance(option, goal) < distance(best, goal):
            best = option
    return best
