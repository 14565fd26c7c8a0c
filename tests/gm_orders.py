"""A campaign to try the GM's orders on, and the GM's order file written into it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from resolver.store.store import Store


def new(run, root: Path, ruleset: str, *options: str | Path) -> Path:
    code, _, err = run(
        "new", "--root", root, "--ruleset", ruleset, "--seed", "5", "--factions", "3",
        *(options if "--sealed" in options else (*options, "--open")),  # usurper's are sealed by default
    )  # fmt: skip
    assert code == 0, err
    return root


def write_gm(root: Path, orders: list[dict[str, Any]]) -> Path:
    store = Store(root)
    envelope = {"campaign": store.config()["campaign"], "turn": store.state()["turn"], "faction": "gm"}
    path = root / "orders/gm.yaml"
    path.write_text(yaml.safe_dump({**envelope, "orders": orders}, sort_keys=False, allow_unicode=True))
    return path
