"""A lair's Warehouse: what things take up, what it holds, paying from it, and what a full one loses.

A lair's storage is ``storage`` (counts of resources and Foodstuffs), ``items`` (sets of tools, weapons
and armour, ``{item, quality}``) and ``gems`` (each a gold value). Gold is the usurper's, never stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lairs import Lair, lair_bonus

ITEMS, GEMS = "items", "gems"  # the two groups of things the drop order names besides resources


def item_rules(rules: Mapping[str, Any], item: str) -> Mapping[str, Any]:
    return rules["items"][item]


def item_name(rules: Mapping[str, Any], item: str) -> str:
    return str(item_rules(rules, item)["name"])


def per_slot(rules: Mapping[str, Any], item: str) -> int:
    """How many of ``item`` fill one slot; 0 for things that need no storage (horses, donkeys)."""
    kind = item_rules(rules, item)["kind"]
    table = rules["storage"]["per_slot"]
    return int(table.get(kind, table["item"]))


def slots_for(rules: Mapping[str, Any], item: str, count: int) -> int:
    size = per_slot(rules, item)
    return 0 if size == 0 or count <= 0 else -(-count // size)


def slots_used(rules: Mapping[str, Any], lair: Mapping[str, Any]) -> int:
    counted = sum(slots_for(rules, item, int(n)) for item, n in (lair.get("storage") or {}).items())
    things = sum(slots_for(rules, held["item"], 1) for held in lair.get("items", []))
    return counted + things + len(lair.get("gems", [])) * int(rules["storage"]["per_slot"]["gem"])


def capacity(rules: Mapping[str, Any], lair: Mapping[str, Any]) -> int:
    return lair_bonus(rules, lair, "storage")


def free_slots(rules: Mapping[str, Any], lair: Mapping[str, Any]) -> int:
    return capacity(rules, lair) - slots_used(rules, lair)


def stock(lair: Mapping[str, Any], resource: str) -> int:
    return int((lair.get("storage") or {}).get(resource, 0))


def add(lair: Lair, resource: str, count: int) -> None:
    """Put resources or Foodstuffs in (the end of the week decides what does not fit)."""
    held = lair.setdefault("storage", {})
    held[resource] = int(held.get(resource, 0)) + int(count)


def take(lair: Lair, resource: str, count: int) -> None:
    held = lair.setdefault("storage", {})
    if int(held.get(resource, 0)) < count:
        raise ValueError(f"{lair['id']} holds {held.get(resource, 0)} {resource}, not {count}")
    held[resource] = int(held[resource]) - int(count)


def store_item(lair: Lair, item: str, quality: str = "standard") -> None:
    lair.setdefault("items", []).append({"item": item, "quality": quality})


def short_of(lair: Mapping[str, Any], cost: Mapping[str, int]) -> dict[str, int]:
    """What the lair lacks of a cost in resources, by resource; empty when it can pay."""
    return {r: n - stock(lair, r) for r, n in sorted(cost.items()) if stock(lair, r) < n}


def hq_cost(rules: Mapping[str, Any], cost: Mapping[str, int]) -> dict[str, int]:
    """The same cost paid in high-quality materials: each ordinary resource by the one that replaces it."""
    replaced = {spec["replaces"]: item for item, spec in rules["items"].items() if spec.get("replaces")}
    return {replaced.get(r, r): n for r, n in cost.items()}


def pay(lair: Lair, cost: Mapping[str, int]) -> None:
    for resource, count in sorted(cost.items()):
        take(lair, resource, count)


def gems_for(gems: Sequence[int], value: int) -> tuple[list[int], int] | None:
    """Which gems pay a requirement of ``value`` gold: the fewest, smallest first among equals, and the
    change kept as one gem (two 4-gold gems pay 5 and leave a 3). None when all together fall short."""
    pool = sorted(gems, reverse=True)
    chosen: list[int] = []
    for gem in pool:
        if sum(chosen) >= value:
            break
        chosen.append(gem)
    if sum(chosen) < value:
        return None
    # The last gem taken may be larger than needed: a smaller one left over may cover the rest as well.
    need = value - sum(chosen[:-1])
    smaller = [gem for gem in pool[len(chosen) :] if gem >= need]
    if smaller:
        chosen[-1] = min(smaller)
    return chosen, sum(chosen) - value


def pay_gem(lair: Lair, value: int) -> bool:
    paid = gems_for(lair.get("gems", []), value)
    if paid is None:
        return False
    chosen, change = paid
    for gem in chosen:
        lair["gems"].remove(gem)
    if change:
        lair["gems"].append(change)
    return True


def drop_order(rules: Mapping[str, Any], policy: Sequence[str] | None = None) -> list[str]:
    """The order in which a full Warehouse loses things: the usurper's own first, then the rest of the
    default order (a policy need not name everything)."""
    default = [str(x) for x in rules["storage"]["drop_order"]]
    named = [str(x) for x in policy or () if str(x) in default]
    return [*dict.fromkeys(named), *(x for x in default if x not in named)]


def item_worth(rules: Mapping[str, Any], held: Mapping[str, Any]) -> int:
    """What decides which set goes first when items are lost: its market price and its quality's rank."""
    price = int((rules["market"].get(held["item"]) or {}).get("price", 0))
    ranks = [q["id"] for q in rules["qualities"]]
    quality = held.get("quality", "standard")
    return price * 100 + (ranks.index(quality) if quality in ranks else 0)


def overflow(rules: Mapping[str, Any], lair: Lair, policy: Sequence[str] | None = None) -> dict[str, Any]:
    """End of the week: while the lair holds more than its Warehouse takes, lose things in the drop order;
    a resource twenty at a time (only what frees the slots needed), items cheapest first, gems smallest
    first. Returns what was lost: ``{lumber: 5, items: [...], gems: [...]}``."""
    lost: dict[str, Any] = {}
    for group in drop_order(rules, policy):
        over = slots_used(rules, lair) - capacity(rules, lair)
        if over <= 0:
            break
        if group == ITEMS:
            for held in sorted(lair.get("items", []), key=lambda h: (item_worth(rules, h), h["item"])):
                if slots_used(rules, lair) <= capacity(rules, lair):
                    break
                if slots_for(rules, held["item"], 1):
                    lair["items"].remove(held)
                    lost.setdefault(ITEMS, []).append(dict(held))
        elif group == GEMS:
            for gem in sorted(lair.get("gems", [])):
                if slots_used(rules, lair) <= capacity(rules, lair):
                    break
                lair["gems"].remove(gem)
                lost.setdefault(GEMS, []).append(gem)
        else:
            held = stock(lair, group)
            slots = slots_for(rules, group, held)
            if not slots:
                continue
            keep = max(0, slots - over) * per_slot(rules, group)
            keep = min(keep, held)
            if keep < held:
                lair["storage"][group] = keep
                lost[group] = held - keep
    return lost
