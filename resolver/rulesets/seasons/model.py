"""Reading the seasons state: nations, units, commanders and the numbers derived from them (no dice)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.factions import active, is_npc

# The timed effects of a Marshal's fate that keep him from command (commanders.py sets them).
UNAVAILABLE = ("recovering", "captive")

Rules = Mapping[str, Any]
State = dict[str, Any]


def nations(state: State) -> list[str]:
    """The active nations, in id order: the player nations and an NPC realm such as Alweg, which holds
    land, recruits and defends it like a nation (the Piorad and any other NPC people excluded)."""
    return [
        f for f in active(state, sorted(state["factions"])) if not is_npc(state, f) or is_npc_realm(state, f)
    ]


def npcs(state: State) -> list[str]:
    """The NPC peoples who raid from their home (the Piorad); an NPC realm is not one of them."""
    return [
        f for f in active(state, sorted(state["factions"])) if is_npc(state, f) and not is_npc_realm(state, f)
    ]


def is_npc_realm(state: State, faction: str) -> bool:
    """An NPC faction played by the bot as a non-Nation (Alweg): Captains only, no Marshal."""
    return is_npc(state, faction) and bool(state["factions"][faction].get("realm"))


def rep(rules: Rules, unit: Mapping[str, Any]) -> int:
    return next(int(level["rep"]) for level in rules["morale_levels"] if level["name"] == unit["morale"])


def morale_step(rules: Rules, morale: str, step: int) -> str | None:
    """The morale level ``step`` levels away; None below Poor (the unit is gone)."""
    names = [str(level["name"]) for level in rules["morale_levels"]]
    index = names.index(morale) + step
    return None if index < 0 else names[min(index, len(names) - 1)]


def morale_rank(rules: Rules, morale: str) -> int:
    return [str(level["name"]) for level in rules["morale_levels"]].index(morale)


def skills(rules: Rules, unit: Mapping[str, Any]) -> list[str]:
    return list(rules["units"][unit["code"]]["skills"])


def mounted(rules: Rules, unit: Mapping[str, Any]) -> bool:
    return bool(rules["units"][unit["code"]]["mounted"])


def armies_of(state: State, owner: str) -> list[dict[str, Any]]:
    return [army for _, army in sorted(state["armies"].items()) if army["owner"] == owner]


def armies_at(state: State, province: str) -> list[dict[str, Any]]:
    return [army for _, army in sorted(state["armies"].items()) if army["location"] == province]


def provinces_of(state: State, owner: str) -> list[str]:
    return [pid for pid, p in sorted(state["provinces"].items()) if p["owner"] == owner]


def commander(state: State, army: Mapping[str, Any]) -> dict[str, Any] | None:
    """The army's CinC: its own commander, or while he is recovering or a captive the stand-in, his
    nation's best available Captain who leads no other army (house rule); None if there is none."""
    own = state["commanders"].get(army.get("commander") or "")
    if own is None or available(own):
        return own
    leading = {a.get("commander") for a in state["armies"].values() if a is not army}
    stand_ins = sorted(
        (
            c
            for c in state["commanders"].values()
            if c["owner"] == own["owner"]
            and c["rank"] == "captain"
            and not c.get("levy")
            and available(c)
            and c["id"] not in leading
        ),
        key=lambda c: (-int(c["reputation"]), c["id"]),
    )
    return stand_ins[0] if stand_ins else None


def available(commander_: Mapping[str, Any]) -> bool:
    """A commander recovering from his wounds or held captive (timed effects of his fate) commands
    nobody and lends his War Rating to nothing."""
    modifiers = commander_.get("modifiers", {})
    return not any(modifiers.get(name) for name in UNAVAILABLE)


def marshal_of(state: State, nation: str) -> dict[str, Any] | None:
    return next(
        (
            c
            for _, c in sorted(state["commanders"].items())
            if c["owner"] == nation and c["rank"] == "marshal"
        ),
        None,
    )


def leader_of(state: State, nation: str) -> dict[str, Any] | None:
    """Whose War Rating the nation recruits with: its Marshal, or for a faction with none (Alweg has
    Captains only) its best available Captain; None if it has neither."""
    marshal = marshal_of(state, nation)
    if marshal is not None:
        return marshal
    captains = sorted(
        (
            c
            for c in state["commanders"].values()
            if c["owner"] == nation and c["rank"] == "captain" and not c.get("levy") and available(c)
        ),
        key=lambda c: (-int(c["reputation"]), c["id"]),
    )
    return captains[0] if captains else None


def attributes(commander_: Mapping[str, Any] | None) -> list[str]:
    """A commander's attributes (none for no commander, or a Marshal who has not rolled them yet)."""
    return list(commander_.get("attributes") or []) if commander_ else []


def war_rating(commander_: Mapping[str, Any] | None) -> int:
    """WR is the reputation, changed by a weapon, a levy's penalty or a timed effect (a Marshal's fate);
    never below one die."""
    if commander_ is None:
        return 1
    bonus = (1 if commander_.get("weapon") else 0) + int(commander_.get("modifiers", {}).get("war_rating", 0))
    return max(1, int(commander_["reputation"]) + bonus - int(commander_.get("wr_penalty", 0)))


def zone_of_command(commander_: Mapping[str, Any]) -> int:
    """3 × reputation; Charisma makes it 4 ×, Poor charisma 2 ×; Unremarkable takes 2 off."""
    attributes = commander_.get("attributes", [])
    factor = 4 if "charisma" in attributes else 2 if "poor_charisma" in attributes else 3
    return max(0, factor * int(commander_["reputation"]) - (2 if "unremarkable" in attributes else 0))


def at_war(state: State, nation: str, other: str) -> bool:
    return other in state["factions"][nation]["wars"]


def neighbours_of(world: Any, state: State, nation: str) -> set[str]:
    """Nations (and peoples) holding a province next to one of ``nation``'s."""
    owners = set()
    for pid in provinces_of(state, nation):
        for near in world.neighbours(pid):
            owner = state["provinces"][near]["owner"]
            if owner and owner != nation:
                owners.add(owner)
    return owners


def upkeep_halves(rules: Rules, unit: Mapping[str, Any]) -> int:
    """A unit's upkeep in half resources: mounted 2, foot 1; Light halves it (rounded up)."""
    cost = rules["maintenance"]
    halves = int(cost["mounted"] if mounted(rules, unit) else cost["foot"])
    return (halves + 1) // 2 if "light" in skills(rules, unit) else halves


def tally(state: State, nation: str, key: str, amount: int = 1) -> None:
    """Count something this season (battles won, provinces lost) for the morale steps."""
    season = state["factions"][nation]["season"]
    season[key] = int(season.get(key, 0)) + amount


def count(state: State, nation: str, key: str) -> int:
    return int(state["factions"][nation]["season"].get(key, 0))


def is_piorad(rules: Rules, faction: str) -> bool:
    return faction == str(rules["piorad"]["id"])


def fighting_rep(rules: Rules, unit: Mapping[str, Any]) -> int:
    """REP in battle: a unit tired by foraging fights one level lower in its next battle."""
    return max(1, rep(rules, unit) - (1 if unit.get("exhausted") else 0))


def unit_label(rules: Mapping[str, Any], unit: Mapping[str, Any]) -> str:
    """A unit as readers see it: its kind's name and code ("Peasant levy (PC)"), never its id."""
    return f"{rules['units'][unit['code']]['name']} ({unit['code']})"
