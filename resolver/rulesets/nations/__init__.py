"""The nations ruleset (seed 003, Trektek's "Cost Actions").

Nations on an 8-neighbour square grid spend action points each turn on
advancements, recruits, settlements and upgrades, march armies in posting order,
fight with d10s, and besiege, capture, raid or raze settlements.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.phases import State
from ...core.standing import StandingSection
from ...core.stillness import holding_still
from ...core.words import amount
from ...engine.ruleset import FactionSetup, Game, MapMark, Ruleset
from . import agreements, policies, setup, story
from . import model as m
from .memory import NationsTurn

GRANT_KEYS = ("income", "attack", "defence", "settlement_defence", "unlock")


class Nations(Ruleset):
    id = "nations"
    title = "Nations"
    summary = (
        "Nations on a square grid spend action points each turn to research, recruit, found and "
        "upgrade settlements; armies march in posting order, fight with dice and besiege settlements."
    )
    source = "Trektek, “Cost Actions” (seed 003)"
    entity_kinds: ClassVar[Mapping[str, str]] = {"army": "armies", "settlement": "settlements"}
    can_add_factions = True
    turn_memory = NationsTurn
    place_kinds: ClassVar[tuple[str, ...]] = ("settlement", "ruin")

    def entity_names(self, game: Game, state: State) -> dict[str, str]:
        names = super().entity_names(game, state)
        for army in state["armies"].values():  # names repeat between nations: say whose it is
            names[army["id"]] = f"{game.name_of(army['owner'])} army {army['name']}"
            for unit in army["units"]:
                names[unit["id"]] = f"{game.name_of(army['owner'])}'s {unit['name']}"
        return names

    def decision(self, roll: Mapping[str, Any]) -> str:
        """A shot of a battle is logged as "red-u1 hits blue-u2": a unit's name may be plural ("Spearmen"),
        so the site says "A hit by … on …", and the verdict comes from the roll's own success."""
        shot = story.SHOT.fullmatch(str(roll.get("decided") or ""))
        if shot is None or "success" not in roll:
            return super().decision(roll)
        return f"{'A hit' if roll['success'] else 'A miss'} by {shot['shooter']} on {shot['target']}"

    def story(self, event: Mapping[str, Any], game: Game, before: State, after: State) -> list[str]:
        return self.stories([event], game, before, after).get(0, [])

    def stories(
        self, events: Sequence[Mapping[str, Any]], game: Game, before: State, after: State
    ) -> dict[int, list[str]]:
        battles = [(index, e) for index, e in enumerate(events) if e["kind"] in ("battle", "assault")]
        if not battles:
            return {}
        units = story.units_by_id((before, after))  # once per turn: a big turn has a battle per nation
        found = {}
        for index, event in battles:
            told = story.battle_story(event, game, units)
            if told:
                found[index] = told
        return found

    def standing_sections(self, rules: Mapping[str, Any]) -> dict[str, StandingSection]:
        return policies.sections(rules)

    def join_problems(self, game: Game, state: State, faction: str) -> list[str]:
        if setup.late_home(game.world, game.rules, state) is None:
            return ["no free land is left on the map for a new capital"]
        return []

    def join_faction(self, game: Game, state: State, faction: str, name: str, color: str, kind: str) -> str:
        return setup.join(
            game.world, game.rules, state, game.hidden_seed, FactionSetup(faction, name, color), kind
        )

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        rules = game.rules
        f = state["factions"][faction]
        stock = f["stock"]
        lines = [
            f"Stock: {stock.get('resources', 0)} resources, {stock.get('population', 0)} population; "
            f"{rules['actions']['per_turn']} action points a turn."
        ]
        for s in sorted(m.settlements_of(state, faction), key=lambda s: s["name"]):
            siege = s.get("siege")
            under = (
                f", besieged by {game.name_and_id(siege['owner'])} for {siege['turns']} turn(s)"
                if siege
                else ""
            )
            lines.append(
                f"Settlement {s['name']}: {s['type']} level {s['level']} at "
                f"{game.world[s['location']].label}{under}."
            )
        for a in sorted(m.armies_of(state, faction), key=lambda a: a["name"]):
            units = ", ".join(
                f"{u['id']} {u['name']} ({u['class']} {u['attack']}/{u['defence']}, move {u['move']}"
                f"{', ' + ', '.join(u['traits']) if u['traits'] else ''})"
                for u in a["units"]
            )
            lines.append(
                f"Army {a['name']} at {game.place_label(a['location'])}, speed "
                f"{m.army_speed(a, rules, state)}: {units}."
            )
        for p in sorted(m.projects_of(state, faction), key=lambda p: p["id"]):
            lines.append(
                f"Project {p['name']}: {p['title']}, {p['progress']} of {p['needed']} done"
                f"{'; needs 1 action each turn' if p['kind'] == 'recruit' else ''}."
            )
        for name, adv in sorted(f.get("advancements", {}).items()):
            lines.append(
                f"Advancement {name} level {adv['level']}"
                f"{' (awaiting the GM ruling)' if adv.get('pending') else ''}."
            )
        if f.get("contacts"):
            lines.append("In contact with: " + ", ".join(game.name_and_id(c) for c in f["contacts"]) + ".")
        for agreement in agreements.agreements_of(state, faction):
            partner = game.name_and_id(next(p for p in agreement["parties"] if p != faction))
            if agreement["kind"] == "alliance":
                lines.append(f"Alliance with {partner} since turn {agreement['since']}.")
                continue
            gives = agreement["gives"]
            route = "–".join(agreement["route"])
            received = sum(v for p, v in gives.items() if p != faction)
            lines.append(
                f"Trade with {partner} until turn {agreement['until']}: you send {gives[faction]} and "
                f"receive {received} resources a turn along {route}."
            )
        return lines

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """Each nation's numbers, best first. Given a sealed campaign's public view, which holds no
        nation's stock, the rows leave out resources and population."""
        rows = []
        with holding_still(state):  # each nation's pieces are looked up in tables built once, not by scans
            for faction in game.factions_in(state):
                f = state["factions"][faction]
                settlements = m.settlements_of(state, faction)
                row = {
                    "faction": faction,
                    "name": game.name_of(faction),
                    "status": f.get("status", "active"),
                    "settlements": len(settlements),
                    "levels": sum(s["level"] for s in settlements),
                    "units": sum(len(a["units"]) for a in m.armies_of(state, faction)),
                }
                if "stock" in f:
                    row["resources"] = f["stock"].get("resources", 0)
                    row["population"] = f["stock"].get("population", 0)
                rows.append(row)
        return sorted(rows, key=lambda r: (-r["levels"], -r["units"], -r.get("population", 0), r["faction"]))

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        pieces: list[dict[str, Any]] = []
        for s in sorted(state["settlements"].values(), key=lambda s: s["id"]):
            siege = s.get("siege")
            detail = f"{s['type']} settlement, level {s['level']}" + (
                f", besieged by {game.name_of(siege['owner'])}" if siege else ""
            )
            pieces.append(_piece("settlement", s["location"], s["owner"], s["name"], detail, s["level"]))
        for a in sorted(state["armies"].values(), key=lambda a: a["id"]):
            classes: dict[str, int] = {}
            for u in a["units"]:
                classes[u["class"]] = classes.get(u["class"], 0) + 1
            label = f"{game.name_of(a['owner'])} army {a['name']}"
            detail = ", ".join(amount(n, c) for c, n in sorted(classes.items()))
            pieces.append(_piece("army", a["location"], a["owner"], label, detail, len(a["units"])))
        for location, ruin in sorted(state.get("ruins", {}).items()):
            razed = f"razed by {game.name_of(ruin['razed_by'])} in turn {ruin['turn']}"
            pieces.append(_piece("ruin", location, None, f"Ruins of {ruin['name']}", razed))
        for location, builder in sorted(state.get("roads", {}).items()):
            pieces.append(_piece("road", location, builder, "Road", f"built by {game.name_of(builder)}"))
        return pieces

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        marks = []
        for event in events:
            data, place = event.get("data", {}), event.get("place")
            kind = MAP_MARKS.get(event["kind"])
            if event["kind"] == "settlement_falls":
                kind = FALL_MARKS.get(data.get("choice"), "capture")
            if kind is None or not place:
                continue
            path = (
                (data["start"], *data.get("path", ())) if kind == "march" and data.get("start") else (place,)
            )
            actors = event.get("actors") or [None]
            owner = data.get("attacker") or data.get("besieger") or actors[0]
            marks.append(MapMark(kind, tuple(path), owner, self.describe(event, game)))
        return marks

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        problems = []
        owner = data.get("owner")
        if owner not in game.factions:
            problems.append(f"'owner' must be one of: {', '.join(game.factions)}")
        if not isinstance(data.get("location"), str) or data["location"] not in game.world:
            problems.append("'location' must be a tile id such as C4")
        if kind == "army":
            units = data.get("units")
            if not isinstance(units, list) or not units:
                return [*problems, "an army needs 'units': a list of units with id, class, name and stats"]
            taken = {unit["id"] for army in state["armies"].values() for unit in army["units"]}
            for unit in units:
                if not isinstance(unit, dict) or unit.get("class") not in game.rules["unit_classes"]:
                    problems.append(
                        f"each unit needs a 'class' from: {', '.join(game.rules['unit_classes'])}"
                    )
                    break
                missing = [k for k in ("id", "name", *m.STATS) if k not in unit]
                if missing:
                    problems.append(f"a unit is missing: {', '.join(missing)}")
                    break
                if any(isinstance(unit[s], bool) or not isinstance(unit[s], int) for s in m.STATS):
                    problems.append(f"a unit's {', '.join(m.STATS)} must be whole numbers")
                    break
                traits = unit.get("traits", [])
                if not isinstance(traits, list) or not all(isinstance(t, str) for t in traits):
                    problems.append("a unit's 'traits' must be a list of names")
                    break
                if unit["id"] in taken:  # battles and reports tell units apart by id
                    problems.append(
                        f"the unit id '{unit['id']}' belongs to another unit already; give a new one"
                    )
                    break
                taken.add(unit["id"])
            leaders = sum(1 for u in units if isinstance(u, dict) and u.get("class") == "leader")
            leaders += sum(
                1 for a in m.armies_of(state, str(owner)) for u in a["units"] if u["class"] == "leader"
            )
            if leaders > int(game.rules["unit_classes"]["leader"].get("limit", 1)):
                problems.append("a nation has at most one leader")
            if "name" not in data:
                problems.append("an army needs a 'name', e.g. \"7\"")
        elif kind == "settlement":
            stype, level = data.get("type"), data.get("level", 0)
            if not isinstance(stype, str) or stype not in game.rules["settlements"]:
                problems.append(f"'type' must be one of: {', '.join(game.rules['settlements'])}")
            elif isinstance(level, bool) or not isinstance(level, int):
                problems.append("'level' must be a whole number")
            elif not 1 <= level <= int(game.rules["settlements"][stype]["max_level"]):
                problems.append("'level' is out of range for that type")
            if not data.get("name") or m.settlement_named(state, str(data.get("name"))):
                problems.append("a settlement needs a new, unique 'name'")
            location = data.get("location")
            if isinstance(location, str) and location in game.world and m.settlement_at(state, location):
                problems.append("that tile already has a settlement")
        return problems

    def judgement_subjects(self, game: Game, state: State, faction: str) -> list[str]:
        advs = state["factions"][faction].get("advancements", {})
        return [f"advancement:{name}" for name, adv in sorted(advs.items()) if adv.get("pending")]

    def judgement_problems(self, game: Game, subject: str, grants: Mapping[str, Any]) -> list[str]:
        problems = []
        for key, value in grants.items():
            if key not in GRANT_KEYS:
                problems.append(
                    f"'{key}' is not something an advancement can grant; use: {', '.join(GRANT_KEYS)}"
                )
            elif key == "income":
                stock = game.rules["stock"]
                if not isinstance(value, dict) or any(
                    k not in stock or not isinstance(v, int) for k, v in value.items()
                ):
                    problems.append(
                        f"'income' must map {' or '.join(stock)} to a whole number, e.g. {{resources: 1}}"
                    )
            elif key == "unlock":
                if not isinstance(value, str):
                    problems.append("'unlock' is the name of what it unlocks, as text")
            elif isinstance(value, bool) or not isinstance(value, int):
                problems.append(f"'{key}' must be a whole number")
        return problems

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        armies = sorted(m.armies_of(state, faction), key=lambda a: a["name"])
        settlements = sorted(
            m.settlements_of(state, faction), key=lambda s: (s["type"] != "capital", s["name"])
        )
        examples: list[dict[str, Any]] = []
        if armies:
            army = armies[0]
            step = next(
                (
                    d
                    for d in game.world.directions()
                    if (t := game.world.step(army["location"], d)) and m.passable(game.world, game.rules, t)
                ),
                None,
            )
            if step:
                examples.append({"action": "move", "army": army["name"], "path": [step]})
            examples.append({"action": "explore", "army": army["name"]})
        if settlements:
            examples.append(
                {
                    "action": "recruit",
                    "settlement": settlements[0]["name"],
                    "class": "troops",
                    "name": "Archers",
                    "trait": "stealth",
                }
            )
        for p in sorted(m.projects_of(state, faction), key=lambda p: p["id"])[:1]:
            examples.append({"action": "work", "project": p["name"], "actions": 1})
        return examples

    def apply_judgement(
        self, game: Game, state: State, faction: str, subject: str, grants: Mapping[str, Any]
    ) -> str:
        name = subject.split(":", 1)[1]
        adv = state["factions"][faction]["advancements"][name]
        adv["grants"] = {k: v for k, v in grants.items() if k in GRANT_KEYS}
        adv.pop("pending", None)
        return ", ".join(f"{k} {v}" for k, v in sorted(adv["grants"].items())) or "no mechanical effect"


def _piece(
    kind: str, location: str, owner: str | None, label: str, detail: str, size: int = 1
) -> dict[str, Any]:
    """One piece on the site's map, in the shape ``Ruleset.map_pieces`` hands over."""
    return {
        "kind": kind,
        "location": location,
        "owner": owner,
        "label": label,
        "detail": detail,
        "size": size,
    }


# How the map shows each kind of public event (kinds not listed leave no mark).
MAP_MARKS = {
    "march": "march",
    "battle": "battle",
    "assault": "battle",
    "assault_repulsed": "siege",
    "siege_laid": "siege",
    "siege_tightens": "siege",
    "siege_lifted": "change",
    "settlement_falls": "capture",
    "maraud": "raid",
    "settlement_founded": "founded",
    "settlement_upgraded": "change",
    "road_built": "change",
    "road_destroyed": "raze",
}
FALL_MARKS = {"capture": "capture", "raid": "raid", "raze": "raze"}

RULESET = Nations()
