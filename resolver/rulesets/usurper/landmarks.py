"""Landmark rituals (spec §6.6): a leader's Diplomacy at a landmark reads its band on the landmark's table.

The Diplomacy roll itself is the diplomacy action's (d100 with the leader, Negotiator and the rest, no size
or attitude bonus); this module takes its band and gives the reward, once per band and usurper, falling to
the next lower band not yet won. The landmarks are public places (``state["landmarks"]``: grid -> id and
name); what a usurper has won there is its own (``faction["landmarks"]``: id -> bands won).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.checks import Check
from ...core.dice import Modifier, roll_label
from ...engine.context import TurnContext
from .acting import told
from .bands import band_name
from .bands import bands as bands_of

State = dict[str, Any]


def places(rules: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """The landmarks as the map shows them, by grid."""
    return {
        str(data["grid"]): {"id": key, "name": str(data["name"])} for key, data in rules["landmarks"].items()
    }


def at(rules: Mapping[str, Any], grid: str) -> str | None:
    """The landmark at a grid, if any."""
    return next((key for key, data in rules["landmarks"].items() if data["grid"] == grid), None)


def band_won(rules: Mapping[str, Any], rolled: str, won: list[str]) -> str | None:
    """The band a ritual gives: the rolled one (a better one reads as the best of the table) if not yet won,
    else the next lower not yet won; None below the table's lowest band (a Partial counts as failure)."""
    bands = list(rules["ritual"]["bands"])
    order = bands_of(rules)
    if rolled not in order or order.index(rolled) < order.index(bands[0]):
        return None
    top = min(order.index(rolled), order.index(bands[-1]))
    for band in reversed(bands):
        if order.index(band) <= top and band not in won:
            return band
    return None


def _best_units(record: Mapping[str, Any], count: int, named: list[str]) -> list[dict[str, Any]]:
    units = record.get("units") or {}
    chosen = [units[u] for u in named if u in units]
    rest = sorted(
        (u for key, u in units.items() if key not in named),
        key=lambda u: (-int(u.get("level", 0)), -int(u.get("xp", 0)), str(u["id"])),
    )
    return (chosen + rest)[:count]


def ritual(
    ctx: TurnContext,
    state: State,
    faction: str,
    leader_id: str,
    grid: str,
    rolled: str,
    order: Mapping[str, Any],
    rolls: list[Any] | None = None,
) -> dict[str, Any]:
    """Give the reward of the band a leader's ritual rolled at the landmark on ``grid``; returns what it
    gave (also told, privately, as an event, with the ritual's ``rolls``)."""
    shown = list(rolls or [])
    rules = ctx.rules
    landmark = at(rules, grid)
    if landmark is None:
        raise ValueError(f"no landmark stands at {grid}")
    record = state["factions"][faction]
    won = record.setdefault("landmarks", {}).setdefault(landmark, [])
    band = band_won(rules, rolled, won)
    outcome: dict[str, Any] = {
        "landmark": rules["landmarks"][landmark]["name"],
        "rolled": rolled,
        "band": band,
        "band_name": band_name(rules, band) if band else None,  # what a reader sees: the table's name
    }
    if band is None:
        ctx.emit(
            "ritual", actors=[faction], visible_to=told(ctx, faction), place=grid, rolls=shown, **outcome
        )
        return outcome
    won.append(band)
    reward = rules["landmarks"][landmark]["rewards"][band]
    leader = record["leaders"][leader_id]
    if "leader_ability" in reward:
        _give(leader, reward["leader_ability"])
        outcome["ability"], outcome["holder"] = (
            _ability_name(rules, reward["leader_ability"]),
            leader.get("name"),
        )
    if "unit_ability" in reward:
        named = [str(u) for u in order.get("units") or []]
        units = _best_units(record, 1, named)
        if units:
            _give(units[0], reward["unit_ability"])
            outcome["ability"], outcome["holder"] = (
                _ability_name(rules, reward["unit_ability"]),
                units[0].get("name"),
            )
    if "usurper_ability" in reward:
        _give(record, reward["usurper_ability"])
        outcome["ability"] = _ability_name(rules, reward["usurper_ability"])
    if "tokens" in reward:
        tokens = reward["tokens"]
        held = record.setdefault("oracle_tokens", [])
        for _ in range(int(tokens["count"])):
            held.append(
                {
                    "value": int(tokens["value"]),
                    "from": ctx.turn + 1,
                    "until": ctx.turn + int(tokens["weeks"]),
                }
            )
        outcome["tokens"], outcome["token_value"] = int(tokens["count"]), int(tokens["value"])
    if reward.get("loyalty"):
        outcome["units"] = _test_units(ctx, state, faction, landmark, reward, order)
    ctx.emit("ritual", actors=[faction], visible_to=told(ctx, faction), place=grid, rolls=shown, **outcome)
    return outcome


def _give(holder: dict[str, Any], ability: str) -> None:
    abilities = holder.setdefault("abilities", [])
    if ability not in abilities:
        abilities.append(ability)


def _ability_name(rules: Mapping[str, Any], ability: str) -> str:
    return str(rules["abilities"][ability]["name"])


def _test_units(
    ctx: TurnContext,
    state: State,
    faction: str,
    landmark: str,
    reward: Mapping[str, Any],
    order: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Bugrem: each chosen unit tests its loyalty; one that passes gains the band's experience and trait,
    one that fails leaves the usurper."""
    rules = ctx.rules
    record = state["factions"][faction]
    named = [str(u) for u in order.get("units") or []]
    check = Check.from_rules(rules, str(rules["ritual"]["loyalty_check"]))
    results = []
    for unit in _best_units(record, int(reward["units"]), named):
        tested = check.roll(
            ctx, roll_label("ritual", landmark, faction, unit["id"], "loyalty"), factions=[faction]
        )
        passed = tested.total >= int(rules["ritual"]["loyalty_pass"])
        result: dict[str, Any] = {"unit": unit.get("name"), "passed": passed}
        if not passed:
            del record["units"][unit["id"]]
        else:
            unit["xp"] = int(unit.get("xp", 0)) + int(reward.get("leveling_xp", 0))
            if reward.get("skill_xp"):
                unit["skill_xp_pending"] = int(unit.get("skill_xp_pending", 0)) + int(reward["skill_xp"])
            if reward.get("unique"):
                unit["unique"] = {"trait": _trait(ctx, faction, landmark, unit, str(reward["unique"]), order)}
                result["trait"] = unit["unique"]["trait"]
        results.append(result)
    return results


def _trait(
    ctx: TurnContext, faction: str, landmark: str, unit: Mapping[str, Any], how: str, order: Mapping[str, Any]
) -> str:
    traits = list(ctx.rules["ritual"]["traits"].get(unit.get("race"), ["generalist"]))
    if how == "chosen":
        return str(order["trait"]) if order.get("trait") in traits else traits[0]
    drawn = ctx.roll(roll_label("ritual", landmark, faction, unit["id"], "trait"), f"1d{len(traits)}")
    return traits[drawn.total - 1]


def ability_modifiers(
    rules: Mapping[str, Any],
    record: Mapping[str, Any],
    action: str,
    leaders: list[Mapping[str, Any]],
    units: list[Mapping[str, Any]],
    combat: bool = False,
) -> list[Modifier]:
    """What the landmarks' gifts add to an action's roll: the usurper's own, the leaders' taking part and
    the units' taking part (those that need a tool only with it equipped)."""
    data = rules["abilities"]
    found: list[Modifier] = []

    def applies(ability: str) -> bool:
        entry = data.get(ability) or {}
        if entry.get("non_combat"):
            return not combat
        return entry.get("action") == action and "value" in entry

    for ability in record.get("abilities") or []:
        if applies(ability):
            found.append(Modifier(str(data[ability]["name"]), int(data[ability]["value"])))
    for leader in leaders:
        for ability in leader.get("abilities") or []:
            if applies(ability):
                found.append(Modifier(str(data[ability]["name"]), int(data[ability]["value"])))
    for unit in units:
        tools = {t.get("item") if isinstance(t, Mapping) else t for t in unit.get("tools") or []}
        for ability in unit.get("abilities") or []:
            needs = data.get(ability, {}).get("tool")
            if applies(ability) and (needs is None or needs in tools):
                found.append(Modifier(str(data[ability]["name"]), int(data[ability]["value"])))
    return found


def spend_token(rules: Mapping[str, Any], record: dict[str, Any], turn: int) -> Modifier | None:
    """Spend the oracle token of the greatest value usable this week, if any; the ledger names it as the
    dice chapter says (``action_roll.sources.oracle_token``)."""
    usable = [t for t in record.get("oracle_tokens") or [] if t["from"] <= turn <= t["until"]]
    if not usable:
        return None
    best = max(usable, key=lambda t: (t["value"], -t["until"]))
    record["oracle_tokens"].remove(best)
    return Modifier(str(rules["action_roll"]["sources"]["oracle_token"]), int(best["value"]))
