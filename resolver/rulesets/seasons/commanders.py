"""Commanders: a Marshal's attributes, rolled when he is named, and his fate's effects.

A Marshal rolls the attributes of his tier (``commanders.marshal_tiers``: a Star two, one Bigger than
life one) when he is named: a nation's first Marshal, a Star, at the first step of the campaign (his
attributes are ``None`` until then), a Captain promoted Bigger than life when he takes a dead Marshal's
place. Each attribute reads the marshal-attribute check (2d6), then the strength
(3d6) or the weakness (2d6) table; a weapon found on the strength table rolls more attributes, which
are the weapon's (rules.yaml ``checks``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ...core import relations
from ...core.checks import Check, Modifier
from ...core.dice import Roll, roll_label
from ...core.phases import State

WEAPONS = ("minor_weapon", "major_weapon")


EPITHETS = ("", " the Younger", " the Tall", " the Grey", " the Red")


def fresh_name(rules: Mapping[str, Any], state: State) -> str:
    """The first name of ``commanders.names`` no living commander bears, so the same state always gives
    the same name; once every plain name is taken, the list comes round again with an epithet."""
    names = [str(name) for name in rules["commanders"]["names"]]
    taken = {commander.get("name") for commander in state["commanders"].values()}
    for epithet in EPITHETS:
        for name in names:
            if f"{name}{epithet}" not in taken:
                return f"{name}{epithet}"
    return f"{names[0]} of {len(taken) + 1} names"


def display_name(commander: Mapping[str, Any]) -> str:
    """A commander as readers see him: his name, or his id for a record from before commanders had names."""
    return str(commander.get("name") or commander["id"])


def named_with_id(commander: Mapping[str, Any]) -> str:
    """A commander as a player's template names him: "Aldric [red-c1]", the id in brackets for an order
    to name; a record with no name shows its id once."""
    name = display_name(commander)
    return name if name == commander["id"] else f"{name} [{commander['id']}]"


def name_marshals(ctx: Any, state: State) -> None:
    """Every Marshal who has not rolled his attributes yet rolls them now."""
    for cid in sorted(state["commanders"]):
        commander = state["commanders"][cid]
        if commander["rank"] == "marshal" and commander.get("attributes") is None:
            roll_attributes(ctx, commander)


def appoint(ctx: Any, state: State, commander: dict[str, Any]) -> None:
    """A Captain becomes his nation's Marshal and rolls the Marshal's attributes."""
    commander["rank"] = "marshal"
    commander["tier"] = str(ctx.rules["commanders"]["promoted_tier"])
    ctx.emit(
        "promoted",
        actors=[commander["owner"]],
        commander=commander["id"],
        commander_name=display_name(commander),
    )
    roll_attributes(ctx, commander)


def roll_attributes(ctx: Any, commander: dict[str, Any]) -> None:
    """A Marshal's attributes, as many as his tier gives (a hired Marshal's is the one his order named)."""
    commander["attributes"] = list(commander.get("attributes") or [])
    rolls: list[Roll] = []
    spec = ctx.rules["commanders"]
    commander["tier"] = str(commander.get("tier") or spec["first_tier"])  # named at the start: the first
    count = int(spec["marshal_tiers"][commander["tier"]])
    for number in range(1, count + 1):
        _attribute(ctx, commander, ("attribute", commander["id"], number), rolls)
    ctx.emit(
        "marshal_attributes",
        actors=[commander["owner"]],
        # his attributes are his nation's secret where the campaign keeps secrets (fog_of_war), and news
        # in an open one
        visible_to=[commander["owner"]] if ctx.sealed else None,
        rolls=rolls,
        commander=commander["id"],
        commander_name=display_name(commander),
        attributes=list(commander["attributes"]),
        tier=commander["tier"],
        reputation=commander["reputation"],
        weapon=commander.get("weapon"),
    )


def gain_weakness(ctx: Any, commander: dict[str, Any], reason: str) -> None:
    """A roll on the weakness table alone (a Marshal captured and wounded gains one)."""
    rolls: list[Roll] = []
    result = _table(ctx, commander, "weakness", (reason, commander["id"], "weakness"), rolls)
    ctx.emit(
        "weakness_gained",
        actors=[commander["owner"]],
        rolls=rolls,
        commander=commander["id"],
        name=result,
        commander_name=display_name(commander),
    )


def _attribute(ctx: Any, commander: dict[str, Any], label: tuple[Any, ...], rolls: list[Roll]) -> str:
    """One attribute: the marshal-attribute check, then its table; returns the attribute's name."""
    side = Check.from_rules(ctx.rules, "marshal_attribute").roll(
        ctx, roll_label(*label), factions=[commander["owner"]]
    )
    rolls.append(side.roll)
    return _table(ctx, commander, side.result, (*label, side.result), rolls)


def _table(ctx: Any, commander: dict[str, Any], table: str, label: tuple[Any, ...], rolls: list[Roll]) -> str:
    """Roll on the strength or weakness table and give the commander what the row says."""
    result = Check.from_rules(ctx.rules, table).roll(ctx, roll_label(*label), factions=[commander["owner"]])
    rolls.append(result.roll)
    name = result.result
    if result.row.get("split"):  # the strength table's first row names two attributes: one more die
        split = ctx.roll(
            roll_label(*label, "split"), str(result.row.get("split")), factions=[commander["owner"]]
        )
        rolls.append(split)
        name = str(result.row.get("low" if split.total <= int(result.row.get("low_up_to")) else "high"))
    if name in WEAPONS:
        if commander.get("weapon"):
            return "none"  # a bearer carries one weapon only: the row gives nothing more
        commander["weapon"] = f"weapon-{commander['id']}"
        commander["reputation"] = int(commander["reputation"]) + int(result.row.get("reputation", 0))
        carried = [name]  # the weapon's own row and what it rolls go with it to its next bearer
        for extra in range(1, int(result.row.get("attributes", 0)) + 1):
            carried.append(_attribute(ctx, commander, (*label, "weapon", extra), rolls))
        commander["weapon_attributes"] = [attribute for attribute in carried if attribute != "none"]
    if name not in commander["attributes"]:
        commander["attributes"].append(name)
    return name


def weapon_reputation(rules: Mapping[str, Any], attributes: Iterable[str]) -> int:
    """The reputation a weapon's attributes give its bearer (a minor weapon's +1: the strength table's
    ``reputation`` on the weapon's row)."""
    rows = Check.from_rules(rules, "strength").table
    return sum(int(row.get("reputation", 0)) for row in rows if row.result in set(attributes))


def hand_over_weapon(rules: Mapping[str, Any], bearer: dict[str, Any], taker: dict[str, Any]) -> list[str]:
    """A dead bearer's weapon goes to ``taker`` with every attribute it gave (the seed: he becomes a
    bearer "with all the attributes of the Weapon"): the weapon's own row, the attributes rolled for it
    and the reputation it gives; the bearer keeps none of them. Returns the attributes handed over."""
    carried = list(bearer.get("weapon_attributes") or [])
    taker["weapon"], bearer["weapon"] = bearer.get("weapon"), None
    gained = weapon_reputation(rules, carried)
    bearer["attributes"] = [a for a in bearer.get("attributes") or [] if a not in carried]
    bearer["reputation"] = int(bearer["reputation"]) - gained
    bearer.pop("weapon_attributes", None)
    taker["attributes"] = list(taker.get("attributes") or [])
    taker["attributes"] += [a for a in carried if a not in taker["attributes"]]
    taker["reputation"] = int(taker["reputation"]) + gained
    if carried:
        taker["weapon_attributes"] = carried
    return carried


def shaken_marshal(ctx: Any, state: State, commander: Mapping[str, Any], row: Any) -> None:
    """A Marshal who barely came through a won battle has −1 War Rating for the next season: a timed
    effect from now to the end of the next season (the row's ``penalty_seasons``)."""
    seasons = int(row.get("penalty_seasons", 1))
    relations.add_effect(state, "commanders", commander["id"], "war_rating", -1, ctx.turn, seasons + 1)


def out_of_command(ctx: Any, state: State, commander: Mapping[str, Any], name: str, seasons: int) -> None:
    """A Marshal recovering from his wounds (``recovering``) or held captive (``captive``) commands
    nobody for this season and ``seasons`` more: a timed effect, whose end the events announce; his
    army meanwhile follows a stand-in (model.commander)."""
    relations.add_effect(state, "commanders", commander["id"], name, 1, ctx.turn, seasons + 1)


def status_lines(state: State, nation: str) -> list[str]:
    """The nation's commanders kept from command, and until when, for its status and template."""
    reasons = {"recovering": "recovers from his wounds", "captive": "is held captive"}
    lines = []
    for _, effect in sorted((state.get(relations.EFFECTS) or {}).items()):
        if effect["collection"] != "commanders" or effect["name"] not in reasons:
            continue
        commander = state["commanders"].get(effect["target"])
        if commander and commander["owner"] == nation:
            lines.append(
                f"{named_with_id(commander)} {reasons[effect['name']]} "
                f"until the end of turn {effect['until']}; "
                "a Captain leads his army meanwhile."
            )
    return lines


def attribute_modifiers(
    rules: Mapping[str, Any],
    attributes: Iterable[str],
    check_id: str,
    *,
    situation: Iterable[str] = (),
    tests: Mapping[str, str] | None = None,
    opponent: bool = False,
) -> list[Modifier]:
    """The modifiers a commander's attributes give a check, each with its attribute as the source
    (rules.yaml ``attribute_effects``). An effect ``when`` something holds applies only if the caller
    names it in ``situation`` (attacking, defending, first_round …); an effect on the CinC's own unit
    (``unit: cinc``) applies only with ``cinc_unit`` in it. ``when: test_failed`` or
    ``test_passed`` reads the attribute's own test of this battle in ``tests``. ``opponent`` asks for
    the effects an attribute has on the other army's check (Ever ready on the enemy's ambush)."""
    effects = rules.get("attribute_effects") or {}
    holding = set(situation)
    results = tests or {}
    modifiers = []
    for attribute in attributes:
        for effect in effects.get(attribute, []):
            if effect.get("check") != check_id or bool(effect.get("opponent")) != opponent:
                continue
            if effect.get("unit") == "cinc" and "cinc_unit" not in holding:
                continue
            when = str(effect.get("when", ""))
            if when.startswith("test_"):
                if results.get(attribute) != when.removeprefix("test_"):
                    continue
            elif when and when not in holding:
                continue
            modifiers.append(Modifier(attribute, int(effect["modifier"])))
    return modifiers


def attribute_tests(
    ctx: Any, commander: Mapping[str, Any] | None, label: tuple[Any, ...], rolls: list[Roll]
) -> dict[str, str]:
    """The tests some attributes take at the start of a battle (Heavy drinker, Undecided, Friendly with
    foe's foe, Gut feeling): each rolls ``checks.attribute_test`` once, and the effects read whether it
    passed or failed. Returns attribute -> 'passed' or 'failed' and adds the rolls to ``rolls``."""
    if commander is None:
        return {}
    effects = ctx.rules.get("attribute_effects") or {}
    check = Check.from_rules(ctx.rules, "attribute_test")
    results = {}
    for attribute in commander.get("attributes") or []:
        if any(str(effect.get("when", "")).startswith("test_") for effect in effects.get(attribute, [])):
            result = check.roll(
                ctx, roll_label(*label, commander["id"], attribute), factions=[commander["owner"]]
            )
            rolls.append(result.roll)
            results[attribute] = result.result
    return results
