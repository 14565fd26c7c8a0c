"""An NPC faction brought in by the GM never holds up ``campaign resolve --if-due`` (issue 10 point 6)."""

from __future__ import annotations

from resolver.core import canonical

from .gitsim import Campaign, cli

ADD_RAIDERS = b"""\
campaign: test-run
turn: 1
faction: gm
orders:
  - action: add_faction
    id: raiders
    name: The Sea Raiders
    kind: npc
"""


def test_an_npc_faction_is_played_by_the_bot_and_never_waited_for(world: Campaign) -> None:
    campaign = canonical.read_yaml(world.ci / "campaign/campaign.yaml")["campaign"]
    world.submit("gm", ADD_RAIDERS.replace(b"test-run", campaign.encode()))
    for faction in ("red", "blue", "green"):
        world.submit(faction)
    first = world.resolve("--if-due", "--commit")
    assert first.code == 0, first.err
    state = world.state()
    assert state["factions"]["raiders"]["kind"] == "npc"
    assert not (world.ci / "orders/templates/raiders.yaml").exists()  # nobody writes its orders

    for faction in ("red", "blue", "green"):
        world.submit(faction)
    second = world.resolve("--if-due", "--commit")
    assert second.code == 0, second.err
    assert "Turn 2 is due: every active faction has sent orders for turn 2" in second.out
    folder = world.ci / "campaign/turns/0002"
    inputs = canonical.read_yaml(folder / "inputs.yaml")
    assert inputs["missing"] == []
    assert (folder / "npc-orders/raiders.yaml").exists()
    kinds = [e["kind"] for e in canonical.read_yaml(folder / "events.yaml")["events"]]
    assert "orders_missing" not in kinds
    assert world.state()["factions"]["raiders"]["missed_turns"] == 0
    verified = cli("verify", "--root", world.ci, "--all")
    assert verified.code == 0, verified.out + verified.err
