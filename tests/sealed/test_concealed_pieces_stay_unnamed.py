"""No public event of a sealed campaign names a concealed piece: a deed everyone sees, done by a hidden
piece, is told without its doer; an event that would name one is told to those who took part only. Read
as an attacker reads: the public files and the resolve's output."""

from __future__ import annotations

from pathlib import Path

from resolver.core import canonical
from resolver.engine.validate import check_order_file

from .sealed_play import (
    HIDDEN_LIEUTENANT,
    HIDDEN_LIEUTENANT_NAME,
    full_state,
    hidden_lieutenant_builds,
    order_file,
    place_concealed,
    public_events,
    report,
    resolve,
    sealed_demo,
    send_sealed,
    turn_public_text,
)

ARMY = "marker-army-a55"
ARMY_NAME = "Marker Ninth Host"  # nations' orders and events call an army by its name
RUMOUR = f"They say the {ARMY_NAME} waits in the hills"


def test_a_concealed_lieutenant_works_in_public_without_being_named(tmp_path: Path) -> None:
    """The issue's own case: "House Crane's Lirndale works on …" showed a hidden lieutenant and where."""
    root, owner, build = hidden_lieutenant_builds(tmp_path)
    game, _ = full_state(root)
    printed = resolve(root)
    seen = turn_public_text(root, 3, printed)
    assert HIDDEN_LIEUTENANT not in seen and HIDDEN_LIEUTENANT_NAME not in seen
    # The deed is public, its doer is not: someone works on the building, and the street cannot say who.
    builds = [e for e in public_events(root, 3) if e["kind"] == "build" and e["data"].get("unidentified")]
    ours = [e for e in builds if e["data"]["location"] == build["location"]]
    assert len(ours) == 1 and not ours[0]["actors"] and "faction" not in ours[0]["data"]
    assert "Someone works on a" in printed
    # The lieutenant's own faction reads the whole of it.
    assert f"{game.name_of(owner)}'s {HIDDEN_LIEUTENANT_NAME} works on a" in report(root, 3, owner)


def test_a_concealed_army_marches_unseen_and_a_rumour_about_it_still_runs(tmp_path: Path) -> None:
    """A piece the GM placed concealed (nations has no hiding of its own): its march names it, so only
    its owner hears of it. A rumour naming it is a player's words and is printed as written; holding it
    back would confirm it."""
    root = sealed_demo(tmp_path, "nations")
    army = place_concealed(root, ARMY, name=ARMY_NAME)
    owner = army["owner"]
    game, state = full_state(root)
    marching = [
        order_file(root, owner, [{"action": "move", "army": ARMY_NAME, "path": [way]}])
        for way in ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    ]
    send_sealed(
        root, owner, next(r for r in marching if check_order_file(game, state, r, f"orders/{owner}.yaml").ok)
    )
    gossip = next(f for f in game.factions if f != owner)
    send_sealed(root, gossip, order_file(root, gossip, [], rumors=[RUMOUR]))
    printed = resolve(root)
    with_rumour = turn_public_text(root, 3, printed)
    assert ARMY not in with_rumour
    assert with_rumour.count(ARMY_NAME) == with_rumour.count(RUMOUR)  # the rumour's words, nothing else
    told = [e for e in public_events(root, 3) if ARMY_NAME in canonical.dump(e).decode()]
    assert [e["kind"] for e in told] == ["rumor"]
    game, state = full_state(root)
    assert state["armies"][ARMY]["location"] != army["location"]  # it did march
    assert ARMY_NAME in report(root, 3, owner)
