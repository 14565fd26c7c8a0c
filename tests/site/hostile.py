"""Campaigns whose every player-chosen name and text is hostile, in every ruleset, and their built sites.

Each probe is a piece of text that means something to one of the layers a name passes through on its way
to a page: Jinja (and branca, which renders folium's output a second time), HTML and Markdown. A page is
sound when each probe shows as the very text the player wrote: ``Probe {{ 6*7 }}``, never ``Probe 42``,
and never an element, a link or emphasis. The scripts set ``window.ckHostile``, so a browser can tell
whether any of them ran.

Short fields (a settlement or unit name has a length limit) get one probe each, in turn; long fields
(press, rumours, profiles, GM tales, faction names) get all of them at once.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from resolver import workflow
from resolver.engine import gm
from resolver.publish.site import SiteReport, build_site
from resolver.rulesets.overlord.setup import new_unit
from resolver.rulesets.usurper.setup import UNSETTLED

from .demo import no_campaign_key, play_campaign

# Each probe is told apart by its first word (``PROBE_MARKS``): wherever that word shows on a page,
# the whole probe must show, unchanged.
PROBES = (
    "Probe {{ 6*7 }}",
    "Broken {{ {% {# }}",
    "Rawtext {% raw %} | *em* __b__ `c`",
    "<script>window.ckHostile=1</script>",
    "<img src=x onerror=window.ckHostile=2>",
    "[Linkprobe](javascript:window.ckHostile=3)",
)
PROBE_MARKS = ("Probe", "Broken", "Rawtext", "ckHostile=1", "ckHostile=2", "Linkprobe")
EVERY_PROBE = " ".join(PROBES)
# Articles may use a little formatting (``*emphasis*``): their probes keep every layer's syntax but the
# emphasis, which is told apart by its own first word and checked in test_site_prose.py.
FORMATTED = "Formatted {% raw %} | *em* __b__ `c` {{ 6*7 }}"
ARTICLE = " ".join([*(p for p in PROBES if not p.startswith("Rawtext")), FORMATTED])
HEADLINE = " ".join(PROBES[:4])  # press and GM headlines are limited to 120 characters
TURNS = 3
SEED = 5


def probes() -> Iterator[str]:
    """Each probe in turn, numbered after the first round: a settlement's name must be unique."""
    for round_number in itertools.count(1):
        for probe in PROBES:
            yield probe if round_number == 1 else f"{probe} {round_number}"


def sides(ruleset: str) -> list[str]:
    """The ids of the campaign's four player factions: generated ones (red, blue, green, gold), or where the
    ruleset's sides are fixed its first four (diplomacy's powers), which then take the hostile names."""
    return [setup.id for setup in workflow.ruleset_factions(ruleset, 4, SEED)]


def first_side(ruleset: str) -> str:
    """The faction with the longest name, the profile, and the GM's gifts."""
    return sides(ruleset)[0]


def players(ruleset: str) -> dict[str, Any]:
    first, second, third, fourth = sides(ruleset)
    return {
        "factions": {
            # The bots put faction names in their headlines, which are limited to 120 characters.
            first: {
                "name": " ".join(PROBES[:3]),
                "color": "#c0392b",
                "profile": f"{EVERY_PROBE}\n\n{EVERY_PROBE}",
            },
            second: {"name": PROBES[3], "color": "#2e6fbd", "profile": PROBES[1]},
            third: {"name": PROBES[4], "color": "#2e8b57"},
            fourth: {"name": PROBES[5], "color": "#b8860b"},
        }
    }


def _name_player_fields(orders: list[Any], names: Iterator[str], ruleset: str) -> None:
    """Every free name or text a player's order may carry gets a probe. An order written as a line of the
    game's notation (diplomacy's 'A PAR - BUR') names only units and provinces, which the reader refuses
    unless they are the board's: such a player's texts are the press, the rumours and the power's name."""
    if ruleset == "overlord":
        _overlord_lines(orders, names)
        return
    for order in orders:
        if not isinstance(order, dict):
            continue
        for field in ("name", "trait"):  # nations: recruit (unit name, trait), build (settlement name)
            if field in order:
                order[field] = next(names)
        # A nations advance and every usurper action carry a note of the player's own.
        if order.get("action") == "advance" or ruleset == "usurper":
            order["note"] = EVERY_PROBE


def _overlord_lines(orders: list[dict[str, Any]], names: Iterator[str]) -> None:
    """Overlord's names and texts are lines of the manual's order language, in quotes: the faction
    takes its own name again (so that the chronicle tells the renaming), each unit the bot orders takes
    a probe for a name and a description of every probe, and one of them would christen the structure
    it owns (the line waits in its queue until it owns one)."""
    blocks = [order for order in orders if order.get("action") == "unit"]
    for number, block in enumerate(blocks):
        extra = [f'NAME "{next(names)}"', f'DESCRIBE "{EVERY_PROBE}"']
        if number == 0:
            extra.append(f'CHRISTEN "{EVERY_PROBE}"')
        block["orders"] = [*extra, *block.get("orders", [])]


def _overlord_gm(game: Any, state: Any) -> list[dict[str, Any]]:
    """The GM sets down a band of red's beside its first unit for each probe (and one for them all), in
    the last month: the bots' orders of the months before would have renamed them."""
    home = next(unit["location"] for unit in state["units"].values() if unit["owner"] == "red")
    first = int(state["next_ids"]["unit"]) + 500  # far above the ids the month gives its new units
    return [
        {
            "action": "place",
            "kind": "unit",
            "id": f"U{first + i}",
            "data": {**new_unit(game.rules, "red", name, "man", 5, home), "description": EVERY_PROBE},
        }
        for i, name in enumerate([EVERY_PROBE, *PROBES])
    ]


def _nations_gm(game: Any, state: Any) -> list[dict[str, Any]]:
    """The GM names an army, its units and a settlement, tells a tale, grants and gives items."""
    taken = {s["location"] for s in state["settlements"].values()} | {
        a["location"] for a in state["armies"].values()
    }
    free = [loc.id for loc in game.world.locations.values() if loc.terrain != "water" and loc.id not in taken]
    unit = {"class": "troops", "attack": 1, "defence": 1, "hp": 1, "move": 1, "attacks": 1}
    orders: list[dict[str, Any]] = [
        {
            "action": "place",
            "kind": "settlement",
            "id": f"red-hostile-s{i}",
            "data": {"owner": "red", "location": free[i], "type": "standard", "level": 1, "name": name},
        }
        for i, name in enumerate([EVERY_PROBE, *PROBES])
    ]
    orders.append(
        {
            "action": "place",
            "kind": "army",
            "id": "red-hostile-a1",
            "data": {
                "owner": "red",
                "location": free[len(PROBES) + 1],
                "name": EVERY_PROBE,
                "units": [
                    {**unit, "id": f"red-hostile-u{i}", "name": name, "traits": [name]}
                    for i, name in enumerate(PROBES)
                ],
            },
        }
    )
    return orders


def _factions_gm(game: Any, state: Any) -> list[dict[str, Any]]:
    """The GM names lieutenants and places of the city."""
    locales = list(game.world.locations)
    kinds = list(game.rules["location_kinds"])
    orders: list[dict[str, Any]] = []
    for i, name in enumerate([EVERY_PROBE, *PROBES]):
        orders.append(
            {
                "action": "place",
                "kind": "location",
                "id": f"{locales[i % len(locales)]}/hostile-{i}",
                "data": {
                    "locale": locales[i % len(locales)],
                    "kind": kinds[0],
                    "name": name,
                    "holder": "red",
                },
            }
        )
        home = state["factions"]["red"]["home"]
        orders.append(
            {
                "action": "place",
                "kind": "asset",
                "id": f"red-hostile-l{i}",
                "data": {
                    "owner": "red",
                    "type": "lieutenant",
                    "location": home,
                    "name": name,
                    "level": 1,
                    "ratings": {"charm": 1},
                },
            }
        )
    return orders


def _usurper_gm(game: Any, state: Any) -> list[dict[str, Any]]:
    """The GM raises cities, which everyone sees on the map and on the places' pages, and renames a
    landmark (taken away and set down again where its rules put it)."""
    taken = set(state.get("cities") or {}) | set(state.get("landmarks") or {})
    taken |= {
        lair["grid"] for record in state["factions"].values() for lair in (record.get("lairs") or {}).values()
    }
    free = [grid for grid in game.world if grid not in taken and game.world[grid].terrain not in UNSETTLED]
    sizes, races = list(game.rules["city_sizes"]), ["humans", "dwarves"]
    orders: list[dict[str, Any]] = [
        {
            "action": "place",
            "kind": "city",
            "id": free[i * 3],  # apart, so that each city has its own marker and name on the map
            "data": {"name": name, "size": sizes[0], "races": list(races)},
        }
        for i, name in enumerate([EVERY_PROBE, *PROBES])
    ]
    grid, landmark = sorted(state["landmarks"].items())[0]
    orders += [
        {"action": "remove", "kind": "landmark", "id": grid},
        {
            "action": "place",
            "kind": "landmark",
            "id": grid,
            "data": {"id": landmark["id"], "name": EVERY_PROBE},
        },
    ]
    return orders


def _gm_orders(game: Any, state: Any) -> list[dict[str, Any]]:
    first = first_side(game.ruleset.id)
    common = [
        {"action": "narrate", "headline": HEADLINE, "text": f"{EVERY_PROBE}\n\n{EVERY_PROBE}"},
        {"action": "give_item", "faction": first, "item": EVERY_PROBE, "reason": EVERY_PROBE},
    ]
    if "grant" in gm.actions(game):  # a ruleset that keeps stocks (diplomacy keeps none)
        common.insert(
            1,
            {
                "action": "grant",
                "faction": first,
                "resource": game.ruleset.stock_names(game)[0],
                "amount": 1,
                "reason": EVERY_PROBE,
            },
        )
    # The seasons' pieces (provinces and armies) and diplomacy's units carry no name a player or the GM
    # chooses: only the nations' or powers' names, the press, rumours and the GM's common orders are
    # hostile there.
    own = {"nations": _nations_gm, "factions": _factions_gm, "usurper": _usurper_gm}.get(
        game.ruleset.id, lambda game, state: []
    )
    return [*common, *own(game, state)]


def make_hostile_campaign(root: Path, ruleset: str, turns: int = TURNS) -> None:
    names = probes()

    def edit(turn: int, faction: str, doc: dict[str, Any]) -> None:
        _name_player_fields(doc.get("orders", []), names, ruleset)
        if ruleset == "overlord" and turn == 1:  # the faction takes the name it has again, by an order
            name = players(ruleset)["factions"][faction]["name"]
            doc.setdefault("orders", []).insert(0, {"action": "faction", "orders": [f'NAME "{name}"']})
        doc["press"] = [{"headline": HEADLINE, "body": f"{ARTICLE}\n\n{ARTICLE}"}]
        doc["rumors"] = [EVERY_PROBE]

    play_campaign(
        root,
        ruleset,
        SEED,
        "Hostile names",
        players(ruleset),
        turns,
        edit,
        lambda turn, game, state: [
            *(_gm_orders(game, state) if turn == 1 else []),
            *(_overlord_gm(game, state) if ruleset == "overlord" and turn == turns else []),
        ],
    )


@dataclass(frozen=True)
class HostileSite:
    ruleset: str
    root: Path
    public: Path
    report: SiteReport


_BUILT: dict[str, HostileSite] = {}


def hostile_site(base: Path, ruleset: str) -> HostileSite:
    """Build once per test session and ruleset, whichever test folder asks first."""
    if ruleset not in _BUILT:
        root = base / f"hostile-{ruleset}"
        shutil.rmtree(root, ignore_errors=True)  # what an earlier, failed build left
        make_hostile_campaign(root, ruleset)
        with no_campaign_key():
            report = build_site(root)
        assert report.out is not None
        _BUILT[ruleset] = HostileSite(ruleset, root, report.out, report)
    return _BUILT[ruleset]
