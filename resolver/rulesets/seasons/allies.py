"""Allied armies fighting together (house rule ``allies`` in rules.yaml).

The seed says only that a large battle with allies may bring several Marshals and many Captains onto one
field. Read here: an ally at war with the same enemy whose invade order names a province an ally already
invades joins that invasion; the holder's armies and its allies' armies standing in an invaded province
all defend it. Each side's units fight as one side under the leading army's CinC (the invader's army, the
holder's army), and every other CinC leads his own unit and zone of command. After the battle each army
does its own recovery, results, loot, going home and tallies.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from . import diplomacy
from . import model as m
from .battle import Side

State = dict[str, Any]


def joins_invasion(state: State, nation: str, invasion: Mapping[str, Any]) -> bool:
    """Whether ``nation``'s invasion of a province already invaded this season joins that invasion: the
    leading invader is its ally and the province's holder an enemy of both."""
    leader = str(invasion["attacker"])
    owner = state["provinces"][invasion["province"]]["owner"]
    return (
        leader != nation
        and leader in diplomacy.allies_of(state, nation)
        and m.at_war(state, nation, owner)
        and m.at_war(state, leader, owner)
    )


def invading_allies(state: State, nation: str, owner: str) -> list[str]:
    """The allies of ``nation`` at war with ``owner``: those whose invasion its own may join."""
    return [ally for ally in diplomacy.allies_of(state, nation) if m.at_war(state, ally, owner)]


def defends_with(state: State, army: Mapping[str, Any], owner: str, attacker: str) -> bool:
    """Whether an army standing in ``owner``'s invaded province fights for it: the holder's own, or an
    ally of the holder's at war with the invader. A levy or an army shut in a fort or holding a siege
    stands apart (the fort and the siege are fought on their own)."""
    if not army["units"] or army.get("in_fort") or army.get("besieging"):
        return False
    if army["owner"] == owner:
        return True
    return army["owner"] in diplomacy.allies_of(state, owner) and m.at_war(state, army["owner"], attacker)


def defending_armies(state: State, province: str, owner: str, attacker: str) -> list[dict[str, Any]]:
    """The armies defending an invaded province, the holder's first, then its allies', each by id (the
    first leads the side)."""
    armies = [a for a in m.armies_at(state, province) if defends_with(state, a, owner, attacker)]
    return sorted(armies, key=lambda a: a["owner"] != owner)


def together(lead: Side, others: list[Side]) -> Side:
    """One side of a battle from several armies: the leading army's units first, then each ally's; the
    lead's CinC is the side's (its WR, attributes and retreat), each other CinC leads his own unit and
    zone of command."""
    units, led, zoned = list(lead.units), set(lead.allied_cinc_units), set(lead.allied_zone_units)
    for other in others:
        units += other.units
        if other.cinc and other.units:
            led.add(str(other.units[0]["id"]))
            zoned.update(str(u["id"]) for u in other.units[: other.zone])
    side = replace(lead, allied_cinc_units=frozenset(led), allied_zone_units=frozenset(zoned))
    side.units = units
    return side


def nearest_own(ctx: Any, state: State, nation: str, province: str) -> str | None:
    """Where an allied army goes when it leaves a province it does not hold: its nation's nearest
    province (by steps, then id), None if it holds none."""
    world = ctx.game.world
    reach = set(world.within(province, len(world)))
    own = [p for p in m.provinces_of(state, nation) if p != province and p in reach]
    return min(own, key=lambda p: (world.distance(province, p), p), default=None)
