"""The targets of issue 26, as ``make bench`` judges them: each a measured figure set against its limit.

Every bench that measures a target prints its own block ("Targets (issue 26):") and, given a file
(``--targets FILE``), adds its targets to it as JSON lines. ``make bench`` ends with
``python -m resolver.bench.targets FILE``, which prints every target of the run in one block.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

TITLE = "Targets (issue 26):"


@dataclass(frozen=True)
class Target:
    """One target: ``value`` (a ratio, or megabytes with ``unit`` "MB") against ``limit``; ``below``: the
    value must stay strictly under the limit rather than at or under it. ``met`` is decided by the bench,
    which may demand more than the value shows (every round within the limit, say); ``detail`` says how
    the value was taken."""

    name: str
    value: float
    limit: float
    met: bool
    unit: str = "×"
    below: bool = False
    detail: str = ""

    def line(self) -> str:
        sign = "<" if self.below else "≤"
        figure = f"{self.value:6.2f}×" if self.unit == "×" else f"{self.value:6.0f} {self.unit}"
        limit = f"{self.limit:g}×" if self.unit == "×" else f"{self.limit:g} {self.unit}"
        detail = f"  ({self.detail})" if self.detail else ""
        return f"{figure} (target {sign} {limit}): {'met' if self.met else 'NOT MET'}{detail}"


def within(value: float, limit: float, *, below: bool = False) -> bool:
    return value < limit if below else value <= limit


def block(targets: list[Target]) -> list[str]:
    """The lines of a "Targets (issue 26):" block."""
    width = max((len(t.name) for t in targets), default=0)
    return [TITLE, *(f"  {t.name:<{width}}  {t.line()}" for t in targets)]


def record(path: Path | None, targets: list[Target]) -> None:
    """Add ``targets`` to the run's file of targets, if there is one."""
    if path is None:
        return
    with path.open("a", encoding="utf-8") as out:
        for target in targets:
            out.write(json.dumps(asdict(target), ensure_ascii=False) + "\n")


def read(path: Path) -> list[Target]:
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [Target(**json.loads(line)) for line in lines if line.strip()]


def main(argv: list[str] | None = None) -> int:
    """Print every target the run recorded in ``FILE``, and how many are met. Exits 0 either way: the
    bench reports, it does not gate."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m resolver.bench.targets FILE", file=sys.stderr)
        return 2
    targets = read(Path(args[0]))
    print()
    if not targets:
        print(f"{TITLE} none were recorded in {args[0]}")
        return 0
    print("\n".join(block(targets)))
    met = sum(t.met for t in targets)
    print(f"  {met} of {len(targets)} met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
