"""The factions ruleset (seed 002, "Faction Turn").

The organisations behind a role-playing campaign (guilds, cults, noble houses) compete for a city of
locales. Each lieutenant takes one action a turn, aided by units up to the faction's Cohesion; 2d6 plus
a modifier decides it in four bands; forces combine by doubling; projects, stealth, influence with NPC
factions and upkeep in capital and reach shape the rest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core.phases import State
from ...engine.ruleset import Game, MapMark, Ruleset
from . import model as m
from .plans import FactionsTurn

INFLUENCE = "influence:"  # GM grants of influence name the NPC faction: influence:watch


# How the map shows each kind of public event (kinds not listed leave no mark; claims and builds only
# when they change hands or finish).
MAP_MARKS = {
    "attack": "battle",
    "raid": "raid",
    "steal": "raid",
    "claim": "capture",
    "build": "founded",
    "move_minion": "march",
    "asset_exposed": "change",
}


class Factions(Ruleset):
    id = "factions"
    title = "Factions"
    summary = (
        "Guilds, cults and noble houses compete for a city: lieutenants act once a turn with units at their "
        "side, dice decide in bands of success, forces combine by doubling, and influence, stealth and "
        "upkeep shape the rest."
    )
    source = "“Faction Turn” (seed 002)"
    entity_kinds: ClassVar[Mapping[str, str]] = {"asset": "assets", "location": "locations"}
    turn_memory = FactionsTurn
    place_kinds: ClassVar[tuple[str, ...]] = ("holding",)

    def place_id(self, piece: Mapping[str, Any]) -> str:
        return str(piece["label"])  # a locale has several places (a manor, a tavern…), each named once

    def headline(self, event: Mapping[str, Any], game: Game, turn: int = 0) -> tuple[int, str] | None:
        """The newspaper prints the turn's interpretation (headlines.yaml); the engine's own kinds keep
        their headlines. The street's lines lead by how newsworthy their deed is (the rules data's
        ``interpretation.newsworthy``), and of two equally newsworthy deeds the one that was done leads:
        a month of failed work on a guildhall is not the first thing the city talks of."""
        found = super().headline(event, game, turn)
        if found is None or event["kind"] != "headline":
            return found
        spec = game.rules["interpretation"]
        data = event.get("data", {})
        newsworthy = int(spec["newsworthy"].get(data.get("topic"), 0))
        outcome = self.headline_outcomes()["headline"]
        done = outcome is None or data.get(outcome.field) not in outcome.failed
        return int(spec["headline_weight"]) + 2 * newsworthy + int(done), found[1]

    def names(self, kind: str, game: Game, state: State) -> dict[str, tuple[str, ...]]:
        """Besides the engine's kinds, ``npc_factions``: the city's powers that orders name (``npc``)."""
        if kind == "npc_factions":
            return {npc: (m.npc_name(game.rules, npc),) for npc in game.rules["npc_factions"]}
        return super().names(kind, game, state)

    # -- stocks: capital and reach, and influence per NPC faction ------------------------------------------

    def stock_names(self, game: Game) -> tuple[str, ...]:
        return (*game.rules["stock"], *(f"{INFLUENCE}{npc}" for npc in game.rules["npc_factions"]))

    def stock_account(self, state: State, faction: str, stock: str) -> tuple[dict[str, int], str]:
        if stock.startswith(INFLUENCE):
            return state["factions"][faction]["influence"], stock.removeprefix(INFLUENCE)
        return state["factions"][faction]["stock"], stock

    # -- what players and readers see --------------------------------------------------------------------

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        rules, f = game.rules, state["factions"][faction]
        stock = f["stock"]
        upkeep = m.upkeep_total(rules, state, faction)
        income = m.income_of(rules, state, faction)
        lines = [
            f"Capital {stock.get('capital', 0)}, reach {stock.get('reach', 0)}; "
            f"Cohesion {m.cohesion(state, faction)}. "
            f"Income {income['capital']} capital and {income['reach']} reach a turn; "
            f"upkeep {upkeep['capital']} capital and {upkeep['reach']} reach.",
        ]
        influence = ", ".join(
            f"{m.npc_label(rules, n)} {k}" for n, k in sorted(f.get("influence", {}).items())
        )
        lines.append(
            f"Influence: {influence or 'none'}."
            + (
                f" Allied with: {', '.join(m.npc_label(rules, n) for n in f['allies'])}."
                if f.get("allies")
                else ""
            )
        )
        for asset in m.assets_of(state, rules, faction):
            hidden = ", concealed" if asset.get("concealed") else ""
            lines.append(
                f"{m.describe_asset(rules, asset)} at {m.location_label(state, asset['location'])} "
                f"[{asset['location']}]{hidden}."
            )
        held = m.holdings_of(state, faction)
        if held:
            lines.append(
                "Holdings: " + ", ".join(f"{m.location_label(state, lid)} [{lid}]" for lid in held) + "."
            )
        for p in m.projects_of(state, faction):
            where = f" [{p['location']}]" if p.get("location") else ""  # the place its title names, by id
            lines.append(
                f"Project {p['id']}: {p['title']}{where}, {p['progress']} of {p['needed']} successes"
                + ("" if p.get("pausable", True) else "; must be worked on every turn")
                + "."
            )
        if f.get("items"):
            lines.append(
                "Items: " + ", ".join(f"{name} ×{n}" for name, n in sorted(f["items"].items())) + "."
            )
        return lines

    def places_lines(self, game: Game, state: State, faction: str) -> list[str]:
        """One line per locale: its locations by id and who holds each, so orders can name them."""
        by_locale: dict[str, list[str]] = {}
        for lid, location in sorted(state["locations"].items()):
            holder = location.get("holder")
            if holder is None:
                who = "public"
            elif holder == faction:
                who = "yours"
            elif m.is_npc(game.rules, holder):
                who = m.npc_label(game.rules, holder)
            else:
                who = game.name_and_id(holder)
            by_locale.setdefault(location["locale"], []).append(f"{lid} ({who})")
        return [f"{locale}: {', '.join(places)}." for locale, places in by_locale.items()]

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """Each faction's numbers, best first. Given a sealed campaign's public view, the rows count the
        assets that are not concealed and leave out capital, reach and influence, which it does not hold."""
        rows = []
        for faction in game.factions_in(state):
            f, rules = state["factions"][faction], game.rules
            row = {
                "faction": faction,
                "name": game.name_of(faction),
                "status": f.get("status", "active"),
                "holdings": len(m.holdings_of(state, faction)),
                "lieutenants": len(m.assets_of(state, rules, faction, "lieutenant")),
                "units": len(m.assets_of(state, rules, faction, "unit")),
                "static_assets": len(m.assets_of(state, rules, faction, "static")),
            }
            if "stock" in f:
                row["capital"] = f["stock"].get("capital", 0)
                row["reach"] = f["stock"].get("reach", 0)
                row["influence"] = sum(f.get("influence", {}).values())
            rows.append(row)
        return sorted(
            rows,
            key=lambda r: (
                -r["holdings"],
                -(r["units"] + r["static_assets"]),
                -r.get("capital", 0),
                r["faction"],
            ),
        )

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        rules, pieces = game.rules, []
        for _, loc in sorted(state["locations"].items()):
            holder = loc.get("holder")
            if holder is None:
                continue
            npc = m.is_npc(rules, holder)
            pieces.append(
                {
                    "kind": "holding",
                    "location": loc["locale"],
                    "owner": None if npc else holder,
                    "area": loc["id"],
                    "label": loc["name"],
                    "detail": f"held by {m.npc_name(rules, holder) if npc else game.name_of(holder)}",
                    "size": 1,
                }
            )
        for _, asset in sorted(state["assets"].items()):
            if asset.get("concealed"):
                continue  # concealed assets are not on the public map
            kind = m.kind_of(rules, asset)
            where = f"at the {m.location_label(state, asset['location'])}"
            if kind == "lieutenant" and "ratings" in asset:
                ratings = ", ".join(f"{r} {m.rating_of(asset, r):+d}" for r in rules["ratings"])
                detail = f"lieutenant, level {m.level_of(rules, asset)} ({ratings}), {where}"
            elif kind == "lieutenant":  # a sealed campaign's public view keeps the ratings secret
                detail = f"lieutenant, level {m.level_of(rules, asset)}, {where}"
            elif kind == "unit":
                skills = ", ".join(m.competencies(rules, asset))
                detail = f"{m.name_of(rules, asset)}, level {m.level_of(rules, asset)} ({skills}), {where}"
            else:
                detail = f"{m.asset_type(rules, asset)['name']} {where}"
            pieces.append(
                {
                    "kind": kind,
                    "location": m.locale_of(state, asset["location"]),
                    "area": asset["location"],
                    "owner": asset["owner"],
                    "label": m.name_of(rules, asset),
                    "detail": detail,
                    "size": m.level_of(rules, asset) if kind != "static" else 1,
                }
            )
        return pieces

    def map_areas(self, game: Game, state: State) -> list[dict[str, Any]]:
        """Each locale's locations, drawn as parts of it."""
        return [
            {"id": lid, "location": loc["locale"], "label": loc["name"]}
            for lid, loc in sorted(state["locations"].items())
        ]

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        marks = []
        for event in events:
            data = event.get("data", {})
            kind = MAP_MARKS.get(event["kind"])
            if event["kind"] == "claim" and not data.get("claimed"):
                kind = None  # only a claim that changes hands changes the map
            elif event["kind"] == "build":
                kind = "founded" if data.get("completed") else None
            where = data.get("location") or event.get("place")
            if kind is None or not where:
                continue
            path = (data["start"], where) if kind == "march" and data.get("start") else (where,)
            marks.append(MapMark(kind, path, data.get("faction"), self.describe(event, game)))
        return marks

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """A few orders that make a valid file together: each for its own lieutenant."""
        rules = game.rules
        free = m.assets_of(state, rules, faction, "lieutenant")
        examples: list[dict[str, Any]] = []

        def locations_near(lt: m.Asset, hops: int) -> list[str]:
            around = game.world.within(m.locale_of(state, lt["location"]), hops)
            return [lid for lid in sorted(state["locations"]) if m.locale_of(state, lid) in around]

        for lt in free[:1]:
            here = [lid for lid in locations_near(lt, 0) if m.holder_of(state, lid) in (None, faction)]
            for lid in here[:1]:
                examples.append(
                    {"action": "build", "lieutenant": lt["id"], "asset_type": "guildhall", "location": lid}
                )
        for lt in free[1:2]:
            there = [
                lid
                for lid in locations_near(lt, 1)
                if m.locale_of(state, lid) != m.locale_of(state, lt["location"])
                and m.admits(state, rules, lid, faction)
            ]
            units = [u["id"] for u in m.assets_at(state, lt["location"]) if m.kind_of(rules, u) == "unit"]
            for lid in there[:1]:
                examples.append(
                    {
                        "action": "move_minion",
                        "lieutenant": lt["id"],
                        "to": lid,
                        "units": units[: m.cohesion(state, faction)],
                    }
                )
        for lt in free[2:3]:
            npcs = [h for lid in locations_near(lt, 0) if m.is_npc(rules, h := m.holder_of(state, lid))]
            for npc in npcs[:1]:
                examples.append({"action": "influence", "lieutenant": lt["id"], "npc": npc, "stealthy": True})
        return examples

    # -- GM orders ----------------------------------------------------------------------------------------

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        rules, problems = game.rules, []
        if kind == "asset":
            if data.get("owner") not in game.factions:
                problems.append(f"'owner' must be one of: {', '.join(game.factions)}")
            if not isinstance(data.get("type"), str) or data["type"] not in rules["asset_types"]:
                problems.append(f"'type' must be one of: {', '.join(rules['asset_types'])}")
            if not isinstance(data.get("location"), str) or data["location"] not in state["locations"]:
                problems.append("'location' must be a location id such as p-varnel/tavern")
            if data.get("type") == "lieutenant":
                level = data.get("level")
                if isinstance(level, bool) or not isinstance(level, int) or level < 1:
                    problems.append("a lieutenant needs a 'level' of 1 or more")
                ratings = data.get("ratings")
                if (
                    not isinstance(ratings, dict)
                    or set(ratings) - set(rules["ratings"])
                    or any(isinstance(v, bool) or not isinstance(v, int) for v in ratings.values())
                ):
                    problems.append(
                        f"a lieutenant needs 'ratings' among: {', '.join(rules['ratings'])}, as whole numbers"
                    )
        elif kind == "location":
            if not isinstance(data.get("locale"), str) or data["locale"] not in game.world:
                problems.append("'locale' must be a locale id of the world, such as p-varnel")
            if not isinstance(data.get("kind"), str) or data["kind"] not in rules["location_kinds"]:
                problems.append(f"'kind' must be one of: {', '.join(rules['location_kinds'])}")
            if not data.get("name"):
                problems.append("a location needs a 'name'")
            holder = data.get("holder")
            holders = (*game.factions, *rules["npc_factions"])
            if holder is not None and (not isinstance(holder, str) or holder not in holders):
                problems.append("'holder' must be a faction, an NPC faction or null")
        return problems

    def judgement_subjects(self, game: Game, state: State, faction: str) -> list[str]:
        lieutenants = m.assets_of(state, game.rules, faction, "lieutenant")
        return ["upkeep", *(f"plan:{a['id']}" for a in lieutenants)]

    def judgement_problems(self, game: Game, subject: str, grants: Mapping[str, Any]) -> list[str]:
        if subject == "upkeep":
            leave = grants.get("leave_first")
            if (
                set(grants) - {"leave_first"}
                or not isinstance(leave, list)
                or not all(isinstance(a, str) for a in leave)
            ):
                return [
                    "an upkeep ruling grants 'leave_first': the asset ids to leave first if reach runs short"
                ]
            return []
        limit = int(game.rules["custom_modifiers"]["plan_limit"])
        bonus = grants.get("bonus")
        if (
            set(grants) - {"bonus"}
            or isinstance(bonus, bool)
            or not isinstance(bonus, int)
            or abs(bonus) > limit
        ):
            return [f"a ruling on a plan grants 'bonus': a whole number from -{limit} to {limit}"]
        return []

    def judgement_example(self, game: Game, state: State, faction: str, subject: str) -> dict[str, Any]:
        if subject == "upkeep":  # the units first, the ones the reach rule would send away last
            return {"leave_first": [a["id"] for a in m.assets_of(state, game.rules, faction, "unit")][-1:]}
        return {"bonus": 1}

    def apply_judgement(
        self, game: Game, state: State, faction: str, subject: str, grants: Mapping[str, Any]
    ) -> str:
        if subject == "upkeep":
            state["factions"][faction]["upkeep_ruling"] = list(grants["leave_first"])
            return "if reach runs short this turn, first to leave: " + ", ".join(grants["leave_first"])
        lieutenant = state["assets"][subject.removeprefix("plan:")]
        lieutenant.setdefault("modifiers", {})["plan"] = int(grants["bonus"])
        return f"{int(grants['bonus']):+d} to {lieutenant['id']}'s action this turn"


RULESET = Factions()
