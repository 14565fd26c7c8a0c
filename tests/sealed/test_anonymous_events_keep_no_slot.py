"""A public event that names nobody must not point at its doer by where it stands: the factions act in
turn, so its slot among the others would narrow down who did it. The public record gives such events a
fixed place (after the named events of their phase, sorted by what they say), and the resolve prints
that same record."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from resolver.core import canonical
from resolver.core.events import Event, public_record
from resolver.engine.validate import check_order_file
from resolver.store import resolution, sealing

from .sealed_play import bots_play, full_state, key_file, order_file, public_events, sealed_demo, send_sealed

RAIDER, TARGET = "red-l3", "p-beldale/docks"  # a lieutenant of red's, and a place an NPC faction holds


def unseen_raid(base: Path) -> tuple[Path, str]:
    """A sealed factions campaign whose turn 2 is ready: the bot plays every faction but red, whose
    lieutenant raids stealthily; the sneak check is forced to hold (as a GM re-roll would), so everyone
    sees the raid and nobody sees the raider."""
    root = sealed_demo(base, "factions")
    game, state = full_state(root)
    raid = {"action": "raid", "lieutenant": RAIDER, "location": TARGET, "stealthy": True}
    raw = order_file(root, "red", [raid])
    assert check_order_file(game, state, raw, "orders/red.yaml").ok
    send_sealed(root, "red", raw)
    bots_play(root, [f for f in game.factions if f != "red"])
    return root, f"t2/red/{RAIDER}/raid/sneak"


def resolved_with_posting_order(
    root: Path, first: list[str], forced: dict[str, list[int]]
) -> list[dict[str, Any]]:
    """Resolve the prepared turn with the factions in ``first`` acting first, the others after; the
    turn's public record."""
    game, _ = full_state(root)
    order = [*first, *(f for f in game.factions if f not in first)]
    sealing.use_key_file(key_file(root))
    try:
        resolution.resolve(root, posting_order=order, forced_rolls=forced)
    finally:
        sealing.forget_key()
    return public_events(root, 2)


def anonymous_tail(events: list[dict[str, Any]], phase: str) -> tuple[int, list[dict[str, Any]]]:
    """How many named events a phase holds, and its anonymous events in the order published."""
    during = [e for e in events if e["phase"] == phase]
    named = [i for i, e in enumerate(during) if e["actors"]]
    unnamed = [e for e in during if not e["actors"]]
    assert not named or max(named) < len(during) - len(unnamed), "a named event after an anonymous one"
    return len(named), unnamed


def test_an_unseen_raider_s_deed_has_the_same_place_whoever_acts_first(tmp_path: Path) -> None:
    root, sneak = unseen_raid(tmp_path / "a")
    twin = tmp_path / "b" / root.name
    shutil.copytree(root, twin)
    forced = {sneak: [6, 6, 6]}
    game, _ = full_state(root)
    early = resolved_with_posting_order(root, ["red"], forced)
    late = resolved_with_posting_order(twin, [f for f in game.factions if f != "red"], forced)
    named_early, unnamed_early = anonymous_tail(early, "actions")
    named_late, unnamed_late = anonymous_tail(late, "actions")
    raids = [e for e in unnamed_early if e["kind"] == "raid" and e["data"]["location"] == TARGET]
    assert raids, "the raid is told without its raider"
    # Acting first or last, the anonymous account sits at the same place: after every named action,
    # among the other anonymous ones in an order fixed by what they say.
    assert unnamed_early == unnamed_late and named_early == named_late
    assert unnamed_early == sorted(unnamed_early, key=canonical.dump)


def test_the_public_record_places_anonymous_events_by_what_they_say_alone() -> None:
    named = [Event("press", "actions", ["red"], data={"n": i}) for i in range(3)]
    unseen = Event("raid", "actions", [], place="docks", data={"band": "success"})
    other = Event("raid", "actions", [], place="alley", data={"band": "failure"})
    hidden = Event("build", "actions", ["blue"], visible_to=["blue"])
    later = Event("upkeep", "upkeep", ["red"])
    records = [
        public_record([*named[:slot], unseen, *named[slot:], other, hidden, later]) for slot in range(4)
    ]
    records.append(public_record([other, *named, unseen, later]))
    assert all(record == records[0] for record in records)
    assert [e["kind"] for e in records[0]] == ["press", "press", "press", "raid", "raid", "upkeep"]
    assert [e["place"] for e in records[0][3:5]] == ["alley", "docks"]  # sorted by what they say
    # The GM's own events keep the order of the GM's file.
    said = [Event("gm_narrate", "gm", data={"headline": h}) for h in ("Storm", "Calm")]
    assert [e["data"]["headline"] for e in public_record(said)] == ["Storm", "Calm"]
