"""The factions domain: lieutenants, units, static assets, locations and NPC factions, over plain state.

State keeps only what changes; what an asset *is* (its kind, competencies, upkeep) comes from its type in
the rules data, so a GM-placed asset needs no more than an owner, a type and a location.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.factions import active, next_id
from ...core.phases import State

Asset = dict[str, Any]
Rules = Mapping[str, Any]

BANDS = ("complete_failure", "failure", "success", "complete_success")
KINDS = ("lieutenant", "unit", "static")


# -- assets --------------------------------------------------------------------------------------------


def asset_type(rules: Rules, asset: Mapping[str, Any]) -> Mapping[str, Any]:
    return rules["asset_types"][asset["type"]]


def kind_of(rules: Rules, asset: Mapping[str, Any]) -> str:
    return str(asset_type(rules, asset)["kind"])


def level_of(rules: Rules, asset: Mapping[str, Any]) -> int:
    return int(asset.get("level", asset_type(rules, asset).get("level", 1)))


def rating_of(asset: Mapping[str, Any], rating: str | None) -> int:
    return int(asset.get("ratings", {}).get(rating, 0)) if rating else 0


def competencies(rules: Rules, asset: Mapping[str, Any]) -> list[str]:
    return list(asset.get("competencies", asset_type(rules, asset).get("competencies", [])))


def name_of(rules: Rules, asset: Mapping[str, Any]) -> str:
    return str(asset.get("name") or asset_type(rules, asset)["name"])


def price_of(rules: Rules, type_name: str) -> int:
    return int(rules["asset_types"][type_name].get("price", 0))


def assets_of(state: State, rules: Rules, faction: str, kind: str | None = None) -> list[Asset]:
    return [
        a
        for _, a in sorted(state["assets"].items())
        if a["owner"] == faction and (kind is None or kind_of(rules, a) == kind)
    ]


def assets_at(state: State, location: str) -> list[Asset]:
    return [a for _, a in sorted(state["assets"].items()) if a["location"] == location]


def known_at(state: State, location: str, owner: str | None) -> list[Asset]:
    """The owner's assets at a location that are not concealed: what anyone may know to be there."""
    return [a for a in assets_at(state, location) if a["owner"] == owner and not a.get("concealed")]


def assets_in_locale(state: State, locale: str) -> list[Asset]:
    return [a for _, a in sorted(state["assets"].items()) if locale_of(state, a["location"]) == locale]


def describe_asset(rules: Rules, asset: Mapping[str, Any]) -> str:
    """A short label such as 'Thugs (red-u1, level 1, fight)'."""
    kind = kind_of(rules, asset)
    if kind == "static":
        return f"{name_of(rules, asset)} ({asset['id']})"
    if kind == "lieutenant":
        ratings = ", ".join(f"{r} {rating_of(asset, r):+d}" for r in rules["ratings"])
        return f"{name_of(rules, asset)} ({asset['id']}, level {level_of(rules, asset)}; {ratings})"
    skills = ", ".join(competencies(rules, asset))
    return f"{name_of(rules, asset)} ({asset['id']}, level {level_of(rules, asset)}, {skills})"


def projects_of(state: State, owner: str) -> list[dict[str, Any]]:
    return [p for _, p in sorted(state["projects"].items()) if p["owner"] == owner]


def new_id(state: State, faction: str, letter: str) -> str:
    """The next free id of a kind of thing (l, u, s, p)."""
    return next_id(state, faction, letter, lambda aid: aid in state["assets"] or aid in state["projects"])


def add_asset(
    state: State, rules: Rules, faction: str, type_name: str, location: str, **fields: Any
) -> Asset:
    kind = rules["asset_types"][type_name]["kind"]
    aid = new_id(state, faction, {"lieutenant": "l", "unit": "u", "static": "s"}[kind])
    asset: Asset = {"id": aid, "owner": faction, "type": type_name, "location": location, **fields}
    if kind == "unit":
        asset.setdefault("level", int(rules["asset_types"][type_name].get("level", 1)))
    state["assets"][aid] = asset
    return asset


# -- locations and locales ------------------------------------------------------------------------------


def locale_of(state: State, location: str) -> str:
    return str(state["locations"][location]["locale"])


def locations_in(state: State, locale: str) -> list[str]:
    return [lid for lid, loc in sorted(state["locations"].items()) if loc["locale"] == locale]


def holder_of(state: State, location: str) -> str | None:
    return state["locations"][location].get("holder")


def location_label(state: State, location: str) -> str:
    loc = state["locations"].get(location)
    return str(loc["name"]) if loc else location


def holdings_of(state: State, holder: str) -> list[str]:
    return [lid for lid, loc in sorted(state["locations"].items()) if loc.get("holder") == holder]


def is_npc(rules: Rules, who: str | None) -> bool:
    return who is not None and who in rules["npc_factions"]


def npc_name(rules: Rules, npc: str) -> str:
    return str(rules["npc_factions"][npc]["name"])


def npc_label(rules: Rules, npc: str) -> str:
    """An NPC faction as a template shows it: its name and the id orders name it by."""
    return f"{npc_name(rules, npc)} [{npc}]"


def influence_with(state: State, faction: str, npc: str) -> int:
    return int(state["factions"][faction].get("influence", {}).get(npc, 0))


def allied(state: State, faction: str, npc: str) -> bool:
    return npc in state["factions"][faction].get("allies", [])


def admits(state: State, rules: Rules, location: str, faction: str) -> bool:
    """Whether a faction's minions may end an action at a location."""
    holder = holder_of(state, location)
    if holder is None or holder == faction:
        return True
    if is_npc(rules, holder):
        return allied(state, faction, holder) or influence_with(state, faction, holder) >= int(
            rules["influence"]["admits_at"]
        )
    return False


def influencers(state: State, npc: str, besides: str) -> list[str]:
    """The other factions with influence over an NPC faction: they hear of dealings with it."""
    return sorted(
        f
        for f, data in state["factions"].items()
        if f != besides
        and data.get("status", "active") == "active"
        and data.get("influence", {}).get(npc, 0) > 0
    )


def cohesion(state: State, faction: str) -> int:
    f = state["factions"][faction]
    return int(f.get("cohesion", 0)) + int(f.get("modifiers", {}).get("cohesion", 0))


def income_of(rules: Rules, state: State, faction: str) -> dict[str, int]:
    """What a faction's static assets and held locations pay each turn."""
    income = {stock: 0 for stock in rules["stock"]}
    for asset in assets_of(state, rules, faction, "static"):
        for stock, n in asset_type(rules, asset).get("income", {}).items():
            income[stock] += int(n)
    for lid in holdings_of(state, faction):
        kind = state["locations"][lid].get("kind")
        for stock, n in rules["location_kinds"].get(kind, {}).get("income", {}).items():
            income[stock] += int(n)
    return income


def upkeep_of(rules: Rules, asset: Mapping[str, Any]) -> dict[str, int]:
    return {k: int(v) for k, v in asset_type(rules, asset).get("upkeep", {}).items()}


def upkeep_total(rules: Rules, state: State, faction: str) -> dict[str, int]:
    """What all of a faction's assets cost each turn, by stock."""
    total = {stock: 0 for stock in rules["stock"]}
    for asset in assets_of(state, rules, faction):
        for stock, n in upkeep_of(rules, asset).items():
            total[stock] += n
    return total


def spend(state: State, faction: str, costs: Mapping[str, Any]) -> None:
    """Take costs ({capital, reach, influence: {npc: n}}) from a faction; the caller checked they can pay."""
    f = state["factions"][faction]
    for stock, n in costs.items():
        if stock == "influence":
            for npc, k in n.items():
                gain_influence(state, faction, npc, -int(k))
        else:
            f["stock"][stock] = f["stock"].get(stock, 0) - int(n)


def can_pay(state: State, faction: str, costs: Mapping[str, Any]) -> str:
    """What is missing to pay the costs, in words; empty when they can be paid."""
    f = state["factions"][faction]
    for stock, n in costs.items():
        if stock == "influence":
            for npc, k in n.items():
                have = int(f.get("influence", {}).get(npc, 0))
                if have < int(k):
                    return f"{k} influence with {npc} (you have {have})"
        elif int(f["stock"].get(stock, 0)) < int(n):
            return f"{n} {stock} (you have {f['stock'].get(stock, 0)})"
    return ""


def add_costs(*costs: Mapping[str, Any]) -> dict[str, Any]:
    total: dict[str, Any] = {}
    for cost in costs:
        for stock, n in cost.items():
            if stock == "influence":
                merged = total.setdefault("influence", {})
                for npc, k in n.items():
                    merged[npc] = merged.get(npc, 0) + int(k)
            elif int(n):
                total[stock] = total.get(stock, 0) + int(n)
    if "influence" in total:
        total["influence"] = {npc: k for npc, k in total["influence"].items() if k}
        if not total["influence"]:
            del total["influence"]
    return total


def cost_text(costs: Mapping[str, Any], rules: Rules | None = None) -> str:
    parts = [f"{n} {stock}" for stock, n in sorted(costs.items()) if stock != "influence"]
    for npc, k in sorted(costs.get("influence", {}).items()):
        parts.append(f"{k} influence with {npc_name(rules, npc) if rules else npc}")
    return ", ".join(parts) or "nothing"


def _add(store: dict[str, int], key: str, n: int) -> int:
    """Add to an amount (negative: take, never below zero); returns the change actually made."""
    have = int(store.get(key, 0))
    change = max(n, -have)
    store[key] = have + change
    return change


def gain(state: State, faction: str, stock: str, n: int) -> int:
    return _add(state["factions"][faction]["stock"], stock, n)


def gain_influence(state: State, faction: str, npc: str, n: int) -> int:
    influence = state["factions"][faction].setdefault("influence", {})
    change = _add(influence, npc, n)
    if not influence[npc]:
        del influence[npc]
    return change


def active_factions(state: State) -> list[str]:
    return active(state, sorted(state["factions"]))
