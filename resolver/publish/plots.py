"""Small SVG line charts of the standings over time, written by hand.

matplotlib would add a heavy dependency and fonts; these charts are a few kilobytes,
byte-for-byte deterministic, and use the reader's system font. Lines differ by dash
pattern as well as colour, so they can be told apart without colour vision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

DASHES = ("", "6 3", "2 3", "8 3 2 3", "4 4", "1 2", "10 4", "6 2 2 2 2 2")
GRID = "#d9d4cc"
MAX_POINTS = 160
INK = "#3a342e"


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    values: Sequence[float | None]  # one per turn; None for the turns before a late joiner came in
    dash: str = ""
    strong: bool = True


def nice_ceiling(value: float) -> float:
    """The next 'round' number at or above value (1, 2, 2.5, 5 × a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return step * power
    return 10 * power


def tick_step(span: float, most: int = 5) -> float:
    """The smallest whole round step (1, 2, 5, 10, 20, 25, 50…) that covers span in at most ``most`` steps."""
    power = 1
    while True:
        for base in (1, 2, 5) if power == 1 else (1, 2, 2.5, 5):
            step = base * power
            if span <= step * most:
                return step
        power *= 10


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def line_chart(
    series: Sequence[Series], turns: Sequence[int], title: str, width: int = 360, height: int = 190
) -> str:
    """An SVG document; ``turns`` are the x values shared by every series."""
    left, right, top, bottom = 40, 12, 26, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s.values if v is not None]
    low = min(0.0, min(values, default=0.0))
    step = tick_step(max(values, default=1.0) - low)
    intervals = max(1, math.ceil((max(values, default=1.0) - low) / step))
    high = low + intervals * step
    first, last = (turns[0], turns[-1]) if turns else (0, 1)
    span = max(1, last - first)

    def x(turn: float) -> float:
        return round(left + (turn - first) / span * plot_w, 1)

    def y(value: float) -> float:
        return round(top + plot_h - (value - low) / (high - low) * plot_h, 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif" '
        f'font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="15" font-size="12" font-weight="600" fill="{INK}">{escape(title)}</text>',
    ]
    for i in range(intervals + 1):
        value = low + step * i
        out.append(
            f'<line x1="{left}" y1="{y(value)}" x2="{width - right}" y2="{y(value)}" stroke="{GRID}" '
            'stroke-width="1"/>'
        )
        out.append(
            f'<text x="{left - 5}" y="{y(value) + 4}" text-anchor="end" fill="{INK}">{_fmt(value)}</text>'
        )
    for turn in _x_ticks(first, last):
        out.append(f'<text x="{x(turn)}" y="{height - 8}" text-anchor="middle" fill="{INK}">{turn}</text>')
    # A chart is about 300 pixels wide: past MAX_POINTS turns, every k-th point (and the last) is enough.
    step = max(1, math.ceil(len(turns) / MAX_POINTS))
    keep = sorted({*range(0, len(turns), step), len(turns) - 1}) if turns else []
    # Faint lines first, so the emphasised ones are drawn on top.
    for s in sorted(series, key=lambda s: s.strong):
        known = {i: v for i, v in enumerate(s.values[: len(turns)]) if v is not None}
        # A late joiner's line starts at its first turn, which is kept however the chart is thinned.
        drawn = sorted({*(i for i in keep if i in known), *list(known)[:1]})
        points = " ".join(f"{x(turns[i])},{y(known[i])}" for i in drawn)
        stroke = s.color if s.strong else "#b9b2a8"
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        out.append(
            f'<polyline fill="none" stroke="{stroke}" stroke-width="{2.4 if s.strong else 1.2}" '
            f'stroke-linejoin="round" stroke-linecap="round"{dash} points="{points}"/>'
        )
        if s.strong and len(known) == 1:
            ((only, value),) = known.items()
            out.append(f'<circle cx="{x(turns[only])}" cy="{y(value)}" r="3" fill="{stroke}"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _x_ticks(first: int, last: int) -> list[int]:
    if last <= first:
        return [first]
    step = max(1, int(nice_ceiling((last - first) / 5)))
    ticks = list(range(first - first % step, last + 1, step))
    ticks = [t for t in ticks if t >= first]
    if ticks[-1] != last and last - ticks[-1] > step / 2:
        ticks.append(last)
    return ticks


def describe_series(name: str, column: str, turns: Sequence[int], values: Sequence[float | None]) -> str:
    """The chart in one sentence, for its text alternative. A late joiner's series holds None for the
    turns before it came in: its sentence starts at the turn it joined."""
    known = [(turn, value) for turn, value in zip(turns, values, strict=False) if value is not None]
    if not known:
        return f"No {column} recorded for {name} yet."
    (first_turn, first), (_, last) = known[0], known[-1]
    at, peak = max(known, key=lambda pair: pair[1])  # the first turn of the highest value
    start = "at the start" if first_turn == turns[0] else f"when it joined in turn {first_turn}"
    text = f"{name}, {column}: {_fmt(first)} {start}, {_fmt(last)} after turn {turns[-1]}"
    if peak not in (first, last):
        text += f"; highest {_fmt(peak)} after turn {at}"
    return text + "."
