"""The plug-in boundary: what a ruleset provides to the engine.

A ruleset is a small package under ``resolver/rulesets/<id>/`` holding a
``rules.yaml`` (every number, the phase table, the calendar), and code for its
procedures: phases, order checks, a bot, and event texts. The engine, the store,
the CLI and the site only ever talk to this interface.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from .core import canonical
from .core.calendar import Calendar
from .core.fields import ActionSpec
from .core.issues import CampaignError
from .core.orders import OrderFile
from .core.phases import Phase, PhaseFn, State, build_table
from .core.rulesdoc import RulesSection, generic_sections
from .core.standing import StandingSection
from .core.words import amount, plural
from .core.world import World

if TYPE_CHECKING:
    import jinja2

RULESETS = ("nations", "factions")  # ids of the rulesets that ship with the engine


@dataclass(frozen=True)
class FactionSetup:
    id: str
    name: str
    color: str


@dataclass(frozen=True)
class Game:
    """Everything about a campaign that does not change from turn to turn."""

    campaign: str
    name: str
    seed: int
    ruleset: Ruleset
    rules: dict[str, Any]  # the ruleset's defaults with the campaign's house rules merged in
    house_rules: dict[str, Any]
    world: World
    factions: tuple[str, ...]
    faction_names: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def calendar(self) -> Calendar:
        return Calendar.from_rules(self.rules["calendar"])

    @cached_property
    def phases(self) -> tuple[Phase, ...]:
        return self.ruleset.phases(self.rules)

    @cached_property
    def actions(self) -> dict[str, ActionSpec]:
        return self.ruleset.actions(self.rules)

    @cached_property
    def standing(self) -> dict[str, StandingSection]:
        """The standing sections an order file may hold besides ``orders`` (policies, programs)."""
        return self.ruleset.standing_sections(self.rules)

    def name_of(self, faction: str) -> str:
        return self.faction_names.get(faction, faction)

    def place_label(self, loc: str | None) -> str:
        if not loc:
            return ""
        if loc in self.world:
            location = self.world[loc]
            return (
                f"{location.label} ({location.place})"
                if location.place and location.place != location.label
                else location.label
            )
        return loc


@dataclass
class TurnMemory:
    """What the phases of one turn tell each other, never saved. A ruleset declares its own subclass with
    typed fields (armies that moved, units assigned...) and names it in ``Ruleset.turn_memory``."""


def fill_factions(state: State, factions: list[str], blank: Mapping[str, Any]) -> None:
    """Give each faction the blank record, a name and a colour, under what ``state`` already says of it
    (mappings such as ``stock`` merge one level deep)."""
    given = state.setdefault("factions", {})
    for faction in factions:
        merged = copy.deepcopy(dict(blank))
        merged.update({"name": faction.capitalize(), "color": "#888888"})
        for key, value in (given.get(faction) or {}).items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
        given[faction] = merged


MARK_KINDS = ("march", "battle", "siege", "capture", "raid", "raze", "founded", "change")


@dataclass(frozen=True)
class MapMark:
    """Something that happened in a turn, drawn on the site's map over that turn's pieces.

    ``kind`` is one of ``MARK_KINDS``: a march is an arrow along ``path``; the others are a mark on the
    last place of ``path`` (a battle, a siege, a capture, a raid, a razing, a new settlement or holding,
    and "change" for anything else that changed there). ``path`` holds location ids of the world, or ids
    of the ruleset's ``map_areas``. ``owner`` is the faction whose colour it takes (None: unknown), and
    ``text`` the sentence a reader sees on it."""

    kind: str
    path: tuple[str, ...]
    owner: str | None
    text: str

    def __post_init__(self) -> None:
        if self.kind not in MARK_KINDS or not self.path:
            raise ValueError(f"a map mark needs a kind from {', '.join(MARK_KINDS)} and a place")


def merge_rules(defaults: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge house rules over defaults; mappings merge, anything else replaces."""
    merged = copy.deepcopy(dict(defaults))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge_rules(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


class Ruleset:
    """Base class of every ruleset. Subclasses fill in the class attributes and the hooks."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""  # the game the rules come from
    entity_kinds: ClassVar[Mapping[str, str]] = {}  # GM "place"/"remove": kind -> state collection
    can_add_factions: ClassVar[bool] = False  # the GM's add_faction: the ruleset has join_faction
    turn_memory: ClassVar[type[TurnMemory]] = TurnMemory  # what its phases share during a turn

    @cached_property
    def folder(self) -> Path:
        return Path(import_module(type(self).__module__).__file__ or "").parent

    @cached_property
    def _defaults(self) -> dict[str, Any]:
        return canonical.read_yaml(self.folder / "rules.yaml")

    def default_rules(self) -> dict[str, Any]:
        return copy.deepcopy(self._defaults)

    @cached_property
    def _event_texts(self) -> dict[str, jinja2.Template]:
        texts = canonical.read_yaml(Path(__file__).parent / "events.yaml")
        path = self.folder / "events.yaml"
        if path.exists():
            texts.update(canonical.read_yaml(path))
        import jinja2  # imported on first use: `campaign check` describes no event and starts faster

        env = jinja2.Environment(
            undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False
        )
        return {kind: env.from_string(text.strip()) for kind, text in texts.items()}

    @cached_property
    def _headline_texts(self) -> dict[str, tuple[int, jinja2.Template]]:
        # The engine's headlines.yaml covers the shared event kinds; a ruleset's own file adds its kinds.
        texts = canonical.read_yaml(Path(__file__).parent / "headlines.yaml")
        path = self.folder / "headlines.yaml"
        if path.exists():
            texts.update(canonical.read_yaml(path) or {})
        import jinja2

        env = jinja2.Environment(
            undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False
        )
        return {
            kind: (int(spec["weight"]), env.from_string(str(spec["text"]).strip()))
            for kind, spec in texts.items()
        }

    @cached_property
    def _tallies(self) -> dict[str, tuple[str, str]]:
        # The engine's tallies.yaml names the shared event kinds; a ruleset's own file adds its kinds.
        texts = canonical.read_yaml(Path(__file__).parent / "tallies.yaml")
        path = self.folder / "tallies.yaml"
        if path.exists():
            texts.update(canonical.read_yaml(path) or {})
        return {kind: (str(one), str(many)) for kind, (one, many) in texts.items()}

    def tally(self, kind: str, count: int) -> str:
        """A count of events of one kind in words, for summaries: tally('order_failed', 2) is
        '2 orders failed'. A kind without an entry in tallies.yaml still reads as words."""
        words = kind.replace("_", " ")
        one, many = self._tallies.get(kind, (f"{words} event", f"{words} events"))
        return plural(count, one, many)

    def _text_context(self, event: Mapping[str, Any], game: Game) -> dict[str, Any]:
        return {
            "plural": plural,
            "amount": amount,
            "e": event,
            "d": event.get("data", {}),
            "name": game.name_of,
            "place": game.place_label(event.get("place")),
            "label": game.place_label,
            "actors": ", ".join(game.name_of(a) for a in event.get("actors", [])),
        }

    def phases(self, rules: Mapping[str, Any]) -> tuple[Phase, ...]:
        return build_table(rules["turn_sequence"], self.phase_functions())

    def describe(self, event: Mapping[str, Any], game: Game) -> str:
        """One sentence for an archived event, from the event texts in the ruleset's events.yaml."""
        template = self._event_texts.get(event["kind"])
        if template is None:
            return f"{event['kind']}: {event.get('data', {})}"
        return template.render(self._text_context(event, game))

    def headline(self, event: Mapping[str, Any], game: Game) -> tuple[int, str] | None:
        """A newspaper headline for a public event and its weight (the most newsworthy first), or None
        when the event is not news. By default from ``headlines.yaml`` (``kind: {weight, text}``) of the
        engine and of the ruleset; a text that renders empty means "not news this time"."""
        entry = self._headline_texts.get(event["kind"])
        if entry is None:
            return None
        weight, template = entry
        text = " ".join(template.render(self._text_context(event, game)).split())
        return (weight, text) if text else None

    def introduction(self, rules: Mapping[str, Any]) -> str:
        """The rules page's opening paragraph. A ruleset whose summary names numbers fills them from the
        effective rules here, so a house rule changes the introduction too."""
        return self.summary

    def rules_sections(self, game: Game) -> list[RulesSection]:
        """The ruleset's own part of the rules pages: costs, units, settlements, combat, in words and
        tables. By default a plain table of every block of rules data the shared pages do not cover."""
        return generic_sections(game.rules)

    # -- hooks a ruleset must provide ---------------------------------------------------------------

    def phase_functions(self) -> Mapping[str, PhaseFn]:
        raise NotImplementedError

    def actions(self, rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
        raise NotImplementedError

    def generate_world(self, seed: int, rules: Mapping[str, Any], factions: int) -> World:
        raise NotImplementedError

    def initial_state(
        self, world: World, rules: Mapping[str, Any], factions: list[FactionSetup], seed: int
    ) -> State:
        raise NotImplementedError

    def fill_state(self, rules: Mapping[str, Any], partial: State, factions: list[str]) -> State:
        """A whole state from a hand-written part of one (a scenario fixture): each faction and each piece
        gets what the part leaves out. By default a copy with the turn and the factions' records filled."""
        state = copy.deepcopy(dict(partial))
        state.setdefault("turn", 1)
        fill_factions(state, factions, {"status": "active", "missed_turns": 0, "stock": {}, "counters": {}})
        return state

    def check_orders(self, game: Game, state: State, of: OrderFile) -> None:
        """Semantic checks against the state; report through ``of.error``/``of.warn``, fill ``of.echo``."""
        raise NotImplementedError

    def bot_orders(self, game: Game, state: State, faction: str) -> dict[str, Any]:
        """Purposeful orders for a faction nobody plays (demo, tests, civil disorder):
        ``{"orders": [...], "press": [...], "rumors": [...]}``. ``resolver.bots`` makes them legal."""
        raise NotImplementedError

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        """What a player needs in front of them when writing orders (template comments, reports)."""
        raise NotImplementedError

    def places_lines(self, game: Game, state: State, faction: str) -> list[str]:
        """The places an order may name and who holds them, for the faction's order template; by
        default nothing (a ruleset whose map is in the template's status lines needs no more)."""
        return []

    def standings(self, game: Game, state: State) -> list[dict[str, Any]]:
        """One row per faction, best first: {"faction", ...numbers}."""
        raise NotImplementedError

    def map_pieces(self, game: Game, state: State) -> list[dict[str, Any]]:
        """What stands on the map, for the site's maps: one mapping per piece with
        ``kind`` (e.g. settlement, army), ``location`` (a location id), ``owner`` (a faction id or None),
        ``label`` (short name), ``detail`` (one line for a popup) and ``size`` (a number for the marker)."""
        raise NotImplementedError

    def standing_sections(self, rules: Mapping[str, Any]) -> dict[str, StandingSection]:
        """Standing orders the ruleset reads (``core.standing``): sections of the order file kept in the
        state until the faction changes them. None by default."""
        return {}

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        """What a turn's public events (as archived) look like on the map: arrows and marks, from the
        places the events carry. By default nothing."""
        return []

    def map_areas(self, game: Game, state: State) -> list[dict[str, Any]]:
        """Places inside the world's locations that the map draws as parts of them: one mapping per area
        with ``id``, ``location`` (the world location it lies in) and ``label``. A piece whose mapping
        has ``area`` stands in that part. By default none."""
        return []

    def stock_names(self, game: Game) -> tuple[str, ...]:
        """The stocks GM orders grant and take; by default the rules data's ``stock`` list."""
        return tuple(game.rules.get("stock", ()))

    def stock_account(self, state: State, faction: str, stock: str) -> tuple[dict[str, int], str]:
        """Where a faction keeps one of ``stock_names``: the mapping and its key. A ruleset with stocks
        kept elsewhere (influence per NPC faction, say) points GM grants at them here."""
        return state["factions"][faction]["stock"], stock

    def check_entity(self, kind: str, data: Mapping[str, Any], game: Game, state: State) -> list[str]:
        """Problems with a GM-placed entity; an empty list means it may be placed."""
        return []

    def apply_judgement(
        self, game: Game, state: State, faction: str, subject: str, grants: Mapping[str, Any]
    ) -> str:
        """Apply a GM ruling on something the rules leave open; return what it did, in words."""
        raise CampaignError(f"the {self.id} ruleset has no judgements for '{subject}'")

    def join_problems(self, game: Game, state: State, faction: str) -> list[str]:
        """Why a new faction cannot join now (no room left on the map, say); empty when it can."""
        return []

    def join_faction(self, game: Game, state: State, faction: str, name: str, color: str, kind: str) -> str:
        """Add a faction mid-campaign (GM ``add_faction``): its record, made by ``core.factions.new_faction``,
        and its starting pieces. Returns what it was given, in words. Only with ``can_add_factions``."""
        raise CampaignError(f"the {self.id} ruleset cannot add a faction mid-campaign")

    def judgement_subjects(self, game: Game, state: State, faction: str) -> list[str]:
        return []

    def judgement_problems(self, game: Game, subject: str, grants: Mapping[str, Any]) -> list[str]:
        """Problems with the mechanical effect of a GM ruling; an empty list means it can be applied."""
        return []

    # What every faction may know of another: the rest of a faction's entry (stocks, influence,
    # counters) is its own business in a sealed campaign.
    public_faction_keys: ClassVar[tuple[str, ...]] = ("name", "color", "status", "home", "archetype")

    def faction_view(self, game: Game, state: State, faction: str | None) -> State:
        """The state as one faction knows it (fog of war), or as everyone does (``faction`` None): a
        sealed campaign publishes the second and encrypts the first to its faction. By default a
        faction sees its own entry and pieces in full; of others, their public keys
        (``public_faction_keys``) and every piece that is not ``concealed``. Pieces are the records,
        in any top-level mapping of the state, that carry an ``owner``. The view keeps the state's
        shape, so orders are checked and templates written against it as against the full state."""
        view: State = {}
        for key, value in state.items():
            if key == "factions":
                view[key] = {
                    f: copy.deepcopy(entry)
                    if f == faction
                    else {k: copy.deepcopy(v) for k, v in entry.items() if k in self.public_faction_keys}
                    for f, entry in value.items()
                }
            elif isinstance(value, dict) and any(
                isinstance(r, dict) and "owner" in r for r in value.values()
            ):
                view[key] = {
                    rid: copy.deepcopy(record)
                    for rid, record in value.items()
                    if not isinstance(record, dict)
                    or record.get("owner") in (faction, None)
                    or not record.get("concealed")
                }
            else:
                view[key] = copy.deepcopy(value)
        return view

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """Example orders for the faction's template; by default the order models' own examples."""
        return [dict(spec.example) for spec in game.actions.values() if spec.example]


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in RULESETS:
        raise CampaignError(
            f"unknown ruleset '{ruleset_id}'", f"choose one of: {', '.join(RULESETS)}", code=2
        )
    module = import_module(f"resolver.rulesets.{ruleset_id}")
    return module.RULESET
