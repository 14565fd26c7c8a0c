"""Playing a sealed campaign in tests, and reading it as an attacker does: from its public files only.

The attacker holds the whole public repository and CI's log, never the campaign key. ``public_text``
is everything such a reader gets of a campaign folder: every file under ``campaign/`` that is not
sealed, plus whatever the resolve printed.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from resolver import workflow
from resolver.cli import main
from resolver.core import canonical
from resolver.core.fog import Fog
from resolver.core.orders import GM
from resolver.engine import gm
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import Game
from resolver.engine.validate import check_order_file
from resolver.store import sealing
from resolver.store.store import Store


def run(*args: str | Path) -> tuple[int, str]:
    """A CLI command as CI runs it: its exit code, and its output (standard output and error)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main([str(a) for a in args])
    return code, out.getvalue()


def sealed_demo(base: Path, ruleset: str, turns: int = 1) -> Path:
    """A sealed demo campaign of ``ruleset`` after ``turns`` bot turns; its key is in the demo folder."""
    root = base / f"sealed-{ruleset}"
    code, out = run("demo", "--ruleset", ruleset, "--sealed", "--turns", turns, "--root", root, "--quiet")
    assert code == 0, out
    return root


def key_file(root: Path) -> Path:
    return root / workflow.DEMO_KEY


@contextlib.contextmanager
def holding_key(root: Path) -> Iterator[Store]:
    """The GM's side: the store of a campaign whose key this process holds for the block."""
    sealing.use_key_file(key_file(root))
    try:
        yield Store(root)
    finally:
        sealing.forget_key()


def full_state(root: Path) -> tuple[Game, dict[str, Any]]:
    with holding_key(root) as store:
        state = store.state()
        return store.game(state), state


def send_gm_orders(root: Path, orders: list[dict[str, Any]]) -> None:
    """The GM writes orders for the next turn and seals them with ``campaign seal`` (which checks them
    first); the plain draft is then deleted, as it never leaves the GM's machine."""
    game, state = full_state(root)
    plain = root / "orders" / f"{GM}.yaml"
    data = {"campaign": game.campaign, "turn": int(state["turn"]), "faction": GM, "orders": orders}
    plain.write_bytes(canonical.dump(data))
    code, out = run("seal", "--root", root, "--key-file", key_file(root), plain)
    plain.unlink()
    assert code == 0, out


def send_sealed(root: Path, faction: str, raw: bytes) -> None:
    """A faction's sealed order file as it reaches the branch (sealed by hand: it may be one that
    ``campaign seal`` would refuse)."""
    store = Store(root)
    sealed = sealing.encrypt(raw, store.recipients([faction]))
    (root / "orders" / f"{faction}.yaml{sealing.SUFFIX}").write_bytes(sealed)


def resolve(root: Path) -> str:
    """Resolve the next turn with the key, as CI does; what it printed (CI's public log)."""
    code, out = run("resolve", "--root", root, "--key-file", key_file(root))
    assert code == 0, out
    return out


def public_text(root: Path, printed: str = "") -> str:
    """Everything the attacker reads: each plain file under campaign/, and the resolve's output."""
    files = sorted(
        p for p in (root / "campaign").rglob("*") if p.is_file() and not p.name.endswith(sealing.SUFFIX)
    )
    return "\n".join([*(p.read_text(encoding="utf-8") for p in files), printed])


def turn_public_text(root: Path, turn: int, printed: str) -> str:
    """What the public learns of one turn: its public events and public state, and the resolve's output."""
    folder = Store(root).turns_dir / f"{turn:04d}"
    files = (folder / "public-events.yaml", folder / "public-state.yaml")
    return "\n".join([*(p.read_text(encoding="utf-8") for p in files), printed])


def public_events(root: Path, turn: int) -> list[dict[str, Any]]:
    folder = Store(root).turns_dir / f"{turn:04d}"
    return list(canonical.read_yaml(folder / "public-events.yaml")["events"])


def report(root: Path, turn: int, faction: str) -> str:
    """A faction's sealed report, opened with the campaign key (what that faction alone reads)."""
    with holding_key(root) as store:
        path = store.turns_dir / f"{turn:04d}" / "reports" / f"{faction}.md"
        return (store.read_secret(path) or b"").decode()


def printed_events(out: str) -> list[str]:
    """The event lines of a resolve's output, without their bullet."""
    return [line.removeprefix("  - ") for line in out.splitlines() if line.startswith("  - ")]


def order_file(root: Path, faction: str, orders: list[dict[str, Any]], **more: Any) -> bytes:
    """An order file of ``faction`` for the campaign's next turn."""
    game, state = full_state(root)
    data = {"campaign": game.campaign, "turn": int(state["turn"]), "faction": faction, "orders": orders}
    return canonical.dump({**data, **more})


def bots_play(root: Path, factions: list[str]) -> None:
    """The bot writes and seals the orders of ``factions``, as their players would."""
    game, state = full_state(root)
    for faction in factions:
        send_sealed(root, faction, bot_order_file(game, state, faction).raw)


def place_concealed(root: Path, piece: str, **data: Any) -> dict[str, Any]:
    """The GM secretly places a concealed copy of the ruleset's first piece (its owner's, where it
    stands), then the turn is resolved; the piece as the full state now holds it."""
    game, state = full_state(root)
    example = next(o for o in gm.examples(game, state) if o["action"] == "place")
    send_gm_orders(root, [{**example, "id": piece, "data": {**example["data"], "concealed": True, **data}}])
    resolve(root)
    game, state = full_state(root)
    collection = game.ruleset.entity_kinds[example["kind"]]
    return dict(state[collection][piece])


HIDDEN_LIEUTENANT = "marker-lt-lirndale-0e6"
HIDDEN_LIEUTENANT_NAME = "Marker Lirndale"


def hidden_lieutenant_builds(base: Path) -> tuple[Path, str, dict[str, Any]]:
    """A sealed factions campaign where the GM hid a new lieutenant in turn 2, and in turn 3 (not yet
    resolved) that lieutenant works on a building, in public, while the bot plays every other faction.
    The campaign, the lieutenant's faction and its order."""
    root = sealed_demo(base, "factions")
    owner = place_concealed(root, HIDDEN_LIEUTENANT, name=HIDDEN_LIEUTENANT_NAME)["owner"]
    game, state = full_state(root)
    example = next(o for o in game.ruleset.order_examples(game, state, owner) if o["action"] == "build")
    build = {**example, "lieutenant": HIDDEN_LIEUTENANT}
    raw = order_file(root, owner, [build])
    assert check_order_file(game, state, raw, f"orders/{owner}.yaml").ok
    send_sealed(root, owner, raw)
    bots_play(root, [f for f in game.factions if f != owner])
    return root, owner, build


# What the engine keeps in every faction's record for itself (absences, the bot's counters): private, but
# alike in every record, so no secret of the game.
BOOKKEEPING = frozenset({"missed_turns", "counters"})


def hides_holdings(rules: Mapping[str, Any]) -> bool:
    """Whether a sealed campaign of these rules keeps some of what a faction holds from the others: a
    private field of its record beyond the engine's bookkeeping, a private field of its pieces, or pieces
    nobody else sees. Diplomacy keeps none: every power sees the whole board, and its seal keeps the
    orders until the turn resolves, each power's report, and who wrote the press."""
    declared = Fog.from_rules(rules)
    return bool(set(declared.factions.secret_fields()) - BOOKKEEPING) or any(
        shown.secret_fields() or not shown.seen for shown in declared.pieces.values()
    )
