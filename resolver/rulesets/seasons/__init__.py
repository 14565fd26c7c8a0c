"""The seasons ruleset (seed 004): the campaign layer of a miniatures wargame.

A year is four turns, one per season, each with its own steps: nations recruit in spring, make war
from spring to fall, and in winter face the Piorad's raid, the disband-or-not test and diplomacy.
Most tests roll a few d6 and count those showing 1–3 (``core.checks``, ``read: successes``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.phases import State
from ...core.standing import StandingSection
from ...core.words import plural
from ...engine.ruleset import Game, MapMark, Ruleset
from . import chronicles, commanders, diplomacy, forces, mapmarks, naming, orders, phases, placing, rulesdoc
from . import model as m
from .forces import army_called, army_name

_POOL = re.compile(r"^(\d+) dice\b(.*)$", re.S)


class Seasons(Ruleset):
    id = "seasons"
    title = "Seasons"
    summary = rulesdoc.SUMMARY
    source = "“Campaign Rules Update” (seed 004)"
    entity_kinds: ClassVar[Mapping[str, str]] = {"army": "armies"}
    unshared_fields: ClassVar[tuple[str, ...]] = ("commander",)
    place_kinds: ClassVar[tuple[str, ...]] = ("province",)  # every province has its page on the site
    turn_memory = phases.SeasonTurn
    # A Marshal's attributes are rolled as the recruiting rolls are counted (his War Rating counts), as he
    # is hired or promoted; the chronicle tells them apart from those steps' own news.
    chronicle_headings: ClassVar[Mapping[str, str]] = {"marshal_attributes": "Marshals' attributes"}

    def _text_context(self, event: Mapping[str, Any], game: Game) -> dict[str, Any]:
        """The event sentences name a check's result or an attribute by ``said`` (rules data
        ``result_names``), so the chronicle and the rules page's tables use the same words."""
        context = super()._text_context(event, game)
        context["said"] = lambda key: naming.said(game.rules, key)
        return context

    def standing_sections(self, rules: Mapping[str, Any]) -> dict[str, StandingSection]:
        return orders.standing_sections(rules)

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        return placing.army_problems(game, state, data)

    def orderable(self, game: Game, state: State, faction: str) -> list[str]:
        return orders.allowed(game, state)

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """Only what this season allows goes into the template."""
        can = orders.allowed(game, state)
        return [dict(spec.example) for name, spec in game.actions.items() if name in can and spec.example]

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        record = state["factions"][faction]
        season = orders.season_of(game, state)
        lines = [
            f"{season}: you may order {', '.join(orders.allowed(game, state)) or 'nothing'}.",
            f"Resources {record['stock']['resources']}, recruiting rolls {record.get('rolls', 0)}, "
            f"national morale {record['morale']}"
            + (f" (shaken ×{record['shaken']})" if record.get("shaken") else "")
            + (", in unrest" if record.get("unrest") else "")
            + ".",
            "At war with: " + (", ".join(game.name_and_id(n) for n in record["wars"]) or "nobody") + ".",
            *diplomacy.status_lines(state, faction, game.name_and_id),
            *commanders.status_lines(state, faction),
        ]
        for army in m.armies_of(state, faction):
            commander = m.commander(state, army)
            # names for the reader, each with the id an order must name in brackets ("Name [id]")
            led = ""
            if commander:
                led = f" under {commanders.named_with_id(commander)} (WR {m.war_rating(commander)})"
            units = ", ".join(f"{u['id']} {u['code']} {u['morale']}" for u in army["units"])
            where = f"{game.place_label(army['location'])} [{army['location']}]"
            lines.append(f"{own_army_label(game, army)} [{army['id']}] at {where}{led}: {units}.")
        lines += forces.status_lines(game, state, faction)
        held = m.provinces_of(state, faction)
        lines.append("Provinces: " + ", ".join(f"{game.place_label(p)} [{p}]" for p in held) + ".")
        return lines

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """Each nation's numbers, best first. Given a sealed campaign's public view, which holds neither
        a nation's resources nor its morale, the rows leave those out."""
        rows = []
        for faction in game.factions_in(state):
            record = state["factions"][faction]
            row = {
                "faction": faction,
                "name": game.name_of(faction),
                "status": record.get("status", "active"),
                "provinces": len(m.provinces_of(state, faction)),
                "units": sum(len(a["units"]) for a in m.armies_of(state, faction)),
            }
            if "stock" in record:
                row["resources"] = record["stock"]["resources"]
            if "morale" in record:
                row["morale"] = record["morale"]
            rows.append(row)
        return sorted(
            rows, key=lambda r: (-r["provinces"], -r["units"], -r.get("resources", 0), r["faction"])
        )

    def entity_names(self, game: Game, state: State) -> dict[str, str]:
        """Commanders by name, and armies, which have none, as readers know them: "Westmark army 2", or a
        lord's levy by the province that raised it."""
        names = super().entity_names(game, state)
        for army in state["armies"].values():
            names[army["id"]] = army_name(game, army)
        return names

    def decision(self, roll: Mapping[str, Any]) -> str:
        """A melee pool's note counts its dice ("3 dice and active +1"): one die is "1 die"."""
        decided = str(roll.get("decided") or "")
        # A table's result is named as the sentences name it ("check: war success no attack" reads
        # "check: eager for war next year, ..."); the ruleset's own names, as the hook sees no campaign.
        result = roll.get("result")
        if isinstance(result, str) and decided.endswith(": " + result.replace("_", " ")):
            decided = decided[: -len(result)] + naming.said(self._defaults, result)
        found = _POOL.match(decided)
        return f"{plural(int(found[1]), 'die', 'dice')}{found[2]}" if found else decided

    def faction_sections(
        self, game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[str, list[str]]]:
        return chronicles.faction_sections(game, state, faction, events)

    def place_pieces(self, game: Game, state: State, pieces: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Every province, fort or not: who holds it, and what stands there (a capital, a fort, a siege)."""
        sieges = set(state.get("sieges") or {})  # keyed by the province besieged
        places = []
        for pid, province in sorted(state["provinces"].items()):
            owner = province.get("owner")
            marks = [word for word in ("capital", "fort", "pole") if province.get(word)]
            held = f"held by {game.name_of(owner)}" if owner else "held by nobody"
            places.append(
                {
                    "kind": "province",
                    "location": pid,
                    "owner": owner,
                    "label": game.place_label(pid),
                    "detail": ", ".join([*marks, held] + (["under siege"] if pid in sieges else [])),
                }
            )
        return places

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        pieces = []
        for pid, province in sorted(state["provinces"].items()):
            marks = [word for word in ("capital", "fort", "pole") if province[word]]
            if marks:
                owner = province["owner"]
                pieces.append(
                    {
                        "kind": "fort" if province["fort"] else "capital",
                        "location": pid,
                        "owner": owner,
                        "label": game.place_label(pid),
                        "detail": ", ".join(marks) + (f" of {game.name_of(owner)}" if owner else ""),
                        "size": 1,
                    }
                )
        for _, army in sorted(state["armies"].items()):
            pieces.append(
                {
                    "kind": "army",
                    "location": army["location"],
                    "owner": army["owner"],
                    "label": army_name(game, army),
                    "detail": f"{plural(len(army['units']), 'unit')} of {game.name_of(army['owner'])}",
                    "size": len(army["units"]),
                }
            )
        return pieces

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        return mapmarks.map_events(events, lambda event: self.describe(event, game))

    def map_holders(self, game: Game, state: State) -> dict[str, str | None]:
        return mapmarks.map_holders(state)


RULESET = Seasons()


def own_army_label(game: Game, army: Mapping[str, Any]) -> str:
    """An army as its own nation's template names it: "Army 2", or "Levy of Beldale", without the
    nation's name (the template is the nation's own, and a name there always carries its id)."""
    called = army_called(army)
    if "number" in called:
        return f"Army {called['number']}"
    if "levy_of" in called:
        return f"Levy of {game.place_label(called['levy_of'])}"
    return "An army"
