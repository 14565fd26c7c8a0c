"""The plug-in boundary: what a ruleset provides to the engine.

A ruleset is a small package under ``resolver/rulesets/<id>/`` holding a
``rules.yaml`` (every number, the phase table, the calendar), and code for its
procedures: phases, order checks, a bot, and event texts. The engine, the store,
the CLI and the site only ever talk to this interface.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from ..core import canonical, relations, stillness
from ..core.calendar import Calendar, GameDate
from ..core.fields import ActionSpec, NamesOf
from ..core.fog import Fog
from ..core.houserules import PHASE_TABLE, Limits, check_house_rules
from ..core.issues import CampaignError, Issue
from ..core.orders import OrderFile
from ..core.phases import PhaseFn, Row, State, build_sequence
from ..core.rulesdoc import RulesSection, generic_sections
from ..core.standing import StandingSection
from ..core.words import amount, noun_plural, number_word, plural, tally_names
from ..core.world import World

if TYPE_CHECKING:
    import jinja2

_LEAVES = (str, int, float, type(None))  # what ``entity_names`` need not look into

# ids of the rulesets that ship with the engine
RULESETS = ("nations", "factions", "seasons", "usurper", "overlord", "diplomacy")


RULES_FOLDER = "rules"  # a ruleset of many tables may part its rules data into files, one per chapter


def rules_data(folder: Path) -> dict[str, Any]:
    """A ruleset's rules data: its ``rules.yaml``, and the files of its ``rules/`` folder in name order.
    A section two files both hold must be two lists, which add up (``house_rules``: each chapter keeps its
    house rules beside its numbers), or two mappings with no key in common (``checks``: each chapter
    declares its own); anything else is refused, so that no file silently overrides another. Every
    process reads it, so it comes from the read cache when the files are as they were."""
    paths, raws = _rules_sources(folder)
    twin = canonical.twin_data(folder / RULES_TWIN, raws)  # shipped: a first check parses no rules YAML
    if isinstance(twin, dict):
        return dict(twin)
    return dict(canonical.cached_reading(raws, lambda: _merged_rules(paths)))


RULES_TWIN = "rules.json"  # the JSON twin of a ruleset's rules data (`make rules-twins` writes it)


def _rules_sources(folder: Path) -> tuple[list[Path], list[bytes]]:
    """The files of a ruleset's rules data, and their names and bytes."""
    part_folder = folder / RULES_FOLDER
    paths = [folder / "rules.yaml", *(sorted(part_folder.glob("*.yaml")) if part_folder.is_dir() else ())]
    return paths, [raw for path in paths for raw in (path.name.encode(), path.read_bytes())]


def rules_twin(folder: Path) -> bytes:
    """The JSON twin of the rules data in ``folder``, as ``make rules-twins`` writes it."""
    paths, raws = _rules_sources(folder)
    return canonical.twin_text(raws, _merged_rules(paths))


def write_rules_twins() -> None:
    """Write every shipped ruleset's ``rules.json`` from its rules YAML (``make rules-twins``)."""
    for ruleset_id in RULESETS:
        folder = Path(__file__).parent.parent / "rulesets" / ruleset_id
        (folder / RULES_TWIN).write_bytes(rules_twin(folder))


def _merged_rules(paths: list[Path]) -> dict[str, Any]:
    data = dict(canonical.read_yaml(paths[0]) or {})
    for path in paths[1:]:
        for key, value in (canonical.read_yaml(path) or {}).items():
            held = data.get(key)
            if key not in data:
                data[key] = value
            elif isinstance(held, list) and isinstance(value, list):
                data[key] = [*held, *value]
            elif isinstance(held, dict) and isinstance(value, dict) and not set(held) & set(value):
                data[key] = {**held, **value}
            else:
                both = isinstance(held, dict) and isinstance(value, dict)
                twice = sorted(set(held) & set(value)) if both else []
                where = f"'{key}.{twice[0]}'" if twice else f"'{key}'"
                raise ValueError(f"{path.name}: the rules data already has {where}; declare it in one file")
    return data


class _OtherRulesetsKeys(Mapping[str, str]):
    """The top-level rules of the other rulesets that one ruleset lacks, each with the ruleset it belongs
    to, worked out when first asked: every resolve checks its campaign's house rules, and only a rule this
    ruleset does not know needs the others' rules data (which takes a tenth of a second to load)."""

    def __init__(self, ruleset_id: str, own: Mapping[str, Any]) -> None:
        self._ruleset_id, self._own = ruleset_id, own
        self._keys: dict[str, str] | None = None

    def _found(self) -> dict[str, str]:
        if self._keys is None:
            self._keys = {
                str(key): other
                for other in reversed(RULESETS)
                if other != self._ruleset_id
                for key in get_ruleset(other)._defaults
                if key not in self._own
            }
        return self._keys

    def __getitem__(self, key: str) -> str:
        return self._found()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())


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
    # What hidden starting positions (a late joiner's) are drawn from: the public seed in an open campaign;
    # in a sealed one a seed derived from the campaign key (sealing.setup_seed), so no player can rebuild
    # them from the public seed.
    setup_seed: int | None = None
    # The dates the state recorded turn by turn (its ``dates``), for a ruleset whose turns are not a fixed
    # share of the year: ``calendar`` reads them before counting periods.
    dates: tuple[Any, ...] = ()

    @property
    def hidden_seed(self) -> int:
        return self.seed if self.setup_seed is None else self.setup_seed

    @cached_property
    def calendar(self) -> Calendar:
        return Calendar.from_rules(self.rules["calendar"]).with_recorded(self.dates)

    def date_in(self, state: Mapping[str, Any], turn: int) -> GameDate:
        """The date of ``turn`` as ``state`` records it (a later state than the game's, which knows the
        date of the turn that follows a resolved one), else by the calendar's count."""
        return self.calendar.with_recorded(state.get("dates") or self.dates).date(turn)

    @cached_property
    def phases(self) -> tuple[Row, ...]:
        """The turn table as the rules data declares it: the ruleset's phases and repeated blocks, and
        where it places the engine's steps (``engine.steps.turn_table`` fills those in)."""
        return self.ruleset.phases(self.rules)

    @cached_property
    def actions(self) -> dict[str, ActionSpec]:
        return self.ruleset.actions(self.rules)

    @cached_property
    def fog(self) -> Fog:
        """What a sealed campaign shows a faction of the others (the rules data's ``fog_of_war``)."""
        return Fog.from_rules(self.rules)

    @cached_property
    def standing(self) -> dict[str, StandingSection]:
        """The standing sections an order file may hold besides ``orders`` (policies, programs)."""
        return self.ruleset.standing_sections(self.rules)

    def name_of(self, faction: str) -> str:
        return self.faction_names.get(faction, faction)

    def name_and_id(self, faction: str) -> str:
        """A faction as a template shows it to players: its name, and the id that orders name it by
        ("Thornwyn [red]"), once when the two are the same."""
        name = self.name_of(faction)
        return name if name == faction else f"{name} [{faction}]"

    def factions_in(self, state: State) -> list[str]:
        """The factions ``state`` holds, in the game's order. The game is built from the current state,
        so it lists a faction the GM brought in later (``add_faction``) that an earlier turn's state lacks."""
        held = state["factions"]
        return [faction for faction in self.factions if faction in held]

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


def filled_state(
    partial: Mapping[str, Any], factions: list[str], blank: Mapping[str, Any], records: tuple[str, ...] = ()
) -> State:
    """A copy of a hand-written state (a scenario fixture) with the turn, every faction's record filled
    from ``blank``, and each collection named in ``records`` present, every record in it knowing its key
    as its ``id``. A ruleset's ``fill_state`` then fills in what its own pieces leave out."""
    state = copy.deepcopy(dict(partial))
    state.setdefault("turn", 1)
    fill_factions(state, factions, blank)
    for collection in records:
        for record_id, record in state.setdefault(collection, {}).items():
            record.setdefault("id", record_id)
    return state


MARK_KINDS = (
    "march", "battle", "siege", "capture", "raid", "raze", "founded", "change",
    # A board game's orders (diplomacy): a support or a convoy is an arrow at another move or unit, a hold
    # a ring round the unit; a dislodged, built or disbanded unit a mark.
    "support", "convoy", "hold", "dislodged", "build", "disband",
)  # fmt: skip
# Kinds drawn as lines over the map rather than as a mark beside a place: their sentence joins what stands
# at the end of the line, as a march's does.
DRAWN_KINDS = ("march", "support", "convoy", "hold")
# What became of an order a mark draws: the map draws a succeeded one solid, a failed one dashed and
# crossed out, an illegal one dotted grey and crossed out. None: the mark tells no outcome (as before).
MARK_OUTCOMES = ("succeeded", "failed", "illegal")


@dataclass(frozen=True)
class MapMark:
    """Something that happened in a turn, drawn on the site's map over that turn's pieces.

    ``kind`` is one of ``MARK_KINDS``: a march is an arrow along ``path``; a support or a convoy is an arrow
    from the first place of ``path`` to the middle of the step from its second place to its third (the move
    it helps), or to its second place when ``path`` has two (a unit it helps hold); a hold is a ring round
    the one place of ``path``; the others are a mark on the last place of ``path`` (a battle, a siege, a
    capture, a raid, a razing, a new settlement or holding, a unit dislodged, built or disbanded, and
    "change" for anything else that changed there). ``path`` holds location ids of the world, or ids of the
    ruleset's ``map_areas``. ``owner`` is the faction whose colour it takes (None: unknown), ``text`` the
    sentence a reader sees on it, and ``outcome`` (one of ``MARK_OUTCOMES``, or None) what became of the
    order it draws."""

    kind: str
    path: tuple[str, ...]
    owner: str | None
    text: str
    outcome: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in MARK_KINDS or not self.path:
            raise ValueError(f"a map mark needs a kind from {', '.join(MARK_KINDS)} and a place")
        if self.outcome is not None and self.outcome not in MARK_OUTCOMES:
            raise ValueError(f"a map mark's outcome is one of {', '.join(MARK_OUTCOMES)} or None")
        if self.kind in ("support", "convoy") and len(self.path) not in (2, 3):
            raise ValueError(
                f"a {self.kind} mark names its unit, the unit it helps and maybe where that goes"
            )


class Ruleset:
    """Base class of every ruleset. Subclasses fill in the class attributes and the hooks.

    The hooks default to the ruleset package's modules by name, so a ruleset laid out as the guide says
    overrides only what it does otherwise: ``phases.PHASES``; ``orders.action_specs(rules)`` and
    ``orders.check_orders``; ``setup.generate_world``, ``setup.initial_state`` and ``setup.fill_state``;
    ``bot.orders_for``; ``rulesdoc.introduction(rules)`` and ``rulesdoc.sections(rules)``.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""  # the game the rules come from
    entity_kinds: ClassVar[Mapping[str, str]] = {}  # GM "place"/"remove": kind -> state collection
    demo_turns: ClassVar[int] = 8  # how many turns ``campaign demo`` plays unless told (see demo_over)
    rules_chapters: ClassVar[bool] = False  # the site gives each rules section a page of its own
    can_add_factions: ClassVar[bool] = False  # the GM's add_faction: the ruleset has join_faction
    turn_memory: ClassVar[type[TurnMemory]] = TurnMemory  # what its phases share during a turn
    marked_place_name: ClassVar[str] = "Marked place"  # the legend's words for map_marked_places
    place_kinds: ClassVar[tuple[str, ...]] = ()  # map piece kinds that are places (a page each on the site)
    # Event kinds the chronicle tells under a heading of their own, not their step's: kind -> heading. For
    # what a step does on the side (a Marshal's attributes rolled as the recruiting rolls are counted).
    chronicle_headings: ClassVar[Mapping[str, str]] = {}
    # Fields of a piece that name a record no two pieces may share (an army's commander): the GM template's
    # example of a placed piece, copied from a real one, leaves them out.
    unshared_fields: ClassVar[tuple[str, ...]] = ()

    @cached_property
    def folder(self) -> Path:
        return Path(import_module(type(self).__module__).__file__ or "").parent

    def has_module(self, name: str) -> bool:
        package = import_module(type(self).__module__)
        return hasattr(package, "__path__") and find_spec(f"{package.__name__}.{name}") is not None

    def module(self, name: str) -> ModuleType:
        """The ruleset package's module ``name`` (``phases``, ``orders``…), for the hooks' defaults."""
        if not self.has_module(name):
            raise NotImplementedError(f"the {self.id or type(self).__name__} ruleset has no {name} module")
        return import_module(f"{type(self).__module__}.{name}")

    @cached_property
    def _defaults(self) -> dict[str, Any]:
        return rules_data(self.folder)

    def default_rules(self) -> dict[str, Any]:
        return copy.deepcopy(self._defaults)

    @cached_property
    def house_rule_limits(self) -> Limits:
        """What a campaign's house rules may hold beyond the types of the defaults (``core.houserules``):
        the ruleset's ``limits.yaml``, which a campaign cannot change."""
        path = self.folder / "limits.yaml"
        return Limits.from_data(canonical.read_yaml(path) if path.exists() else None)

    def house_rule_issues(self, raw: bytes, file: str) -> list[Issue]:
        """Every problem of a campaign's house-rule file (``core.houserules``). A rule of another ruleset
        that this one lacks is named as such: a GM who copies house rules between campaigns meets it."""
        own = self._defaults
        elsewhere = _OtherRulesetsKeys(self.id, own)  # read only when a house rule names an unknown key
        readers = {PHASE_TABLE: self.phases}  # the engine refuses a step without code, or code without a step
        return check_house_rules(
            raw, own, self.house_rule_limits, file=file, elsewhere=elsewhere, readers=readers
        )

    @cached_property
    def _event_texts(self) -> dict[str, str]:
        texts = canonical.read_yaml(Path(__file__).parent / "events.yaml")
        path = self.folder / "events.yaml"
        if path.exists():
            texts.update(canonical.read_yaml(path))
        return texts

    @cached_property
    def _event_templates(self) -> tuple[jinja2.Environment, dict[str, jinja2.Template]]:
        """Each event kind's sentence, compiled when first told: a turn tells a few kinds of dozens. The
        compiled code is kept in the read cache, keyed by the sentence's own text, so that the next process
        loads it instead of compiling it again (Jinja2 takes ten milliseconds a sentence)."""
        import jinja2

        texts = self._event_texts

        def source(kind: str) -> tuple[str, str, Callable[[], bool]] | None:
            # The "file name" keys the compiled code, so each ruleset keeps its own sentence of a kind.
            return (
                (str(texts[kind]).strip(), f"{self.id}/events/{kind}", lambda: True)
                if kind in texts
                else None
            )

        kept = _sentence_cache_folder()
        env = _sentence_environment(
            loader=jinja2.FunctionLoader(source),
            bytecode_cache=jinja2.FileSystemBytecodeCache(str(kept)) if kept else None,
        )
        return env, {}

    def _event_template(self, kind: str) -> jinja2.Template | None:
        env, compiled = self._event_templates
        if kind not in compiled:
            if kind not in self._event_texts:
                return None
            compiled[kind] = env.get_template(kind)
        return compiled[kind]

    @cached_property
    def _headline_texts(self) -> dict[str, HeadlineEntry]:
        # The engine's headlines.yaml covers the shared event kinds; a ruleset's own file adds its kinds.
        # An entry's ``text`` is one template or a list of them, worded differently (see ``headline``).
        entries = {"headlines.yaml": canonical.read_yaml(Path(__file__).parent / "headlines.yaml")}
        path = self.folder / "headlines.yaml"
        if path.exists():
            entries[f"{self.id}/headlines.yaml"] = canonical.read_yaml(path) or {}
        env = _sentence_environment()
        found = {}
        for where, texts in entries.items():
            for kind, spec in texts.items():
                options = spec["text"] if isinstance(spec["text"], list) else [spec["text"]]
                found[kind] = HeadlineEntry(
                    int(spec["weight"]),
                    tuple(env.from_string(str(t).strip()) for t in options),
                    _outcome(where, kind, spec),
                )
        return found

    def headline_outcomes(self) -> dict[str, Outcome | None]:
        """How each kind with a headline says whether its deed was done (``Outcome``), or None for a kind
        that tells only of something that happened: what the headlines' templates must follow."""
        return {kind: entry.outcome for kind, entry in self._headline_texts.items()}

    @cached_property
    def _group_texts(self) -> dict[str, tuple[tuple[str, ...], jinja2.Template]]:
        # groups.yaml: a sentence for several events of one kind told together ("musters three Levies").
        return {kind: (same, template) for kind, (same, template, _) in self._group_entries.items()}

    @cached_property
    def _group_entries(self) -> dict[str, tuple[tuple[str, ...], jinja2.Template, bool]]:
        # An entry with ``dice: together`` groups events that have dice of their own too (a nation's
        # winter tests, one a unit): the group is told in one sentence and its dice go in one box.
        texts: dict[str, Any] = {}
        for folder in (Path(__file__).parent, self.folder):
            path = folder / "groups.yaml"
            if path.exists():
                texts.update(canonical.read_yaml(path) or {})
        env = _sentence_environment()
        return {
            kind: (
                tuple(spec.get("same", ())),
                env.from_string(str(spec["text"]).strip()),
                spec.get("dice") == "together",
            )
            for kind, spec in texts.items()
        }

    @cached_property
    def _deeds(self) -> dict[str, DeedRule]:
        # deeds.yaml: events that belong to the deed of an earlier event of the turn (see ``deed_of``).
        found: dict[str, DeedRule] = {}
        env = _sentence_environment()
        for folder in (Path(__file__).parent, self.folder):
            path = folder / "deeds.yaml"
            for kind, spec in (canonical.read_yaml(path) if path.exists() else {}).items():
                alone = spec.get("alone")
                found[kind] = DeedRule(
                    follows=tuple(spec.get("follows", ())),
                    same=tuple(spec.get("same", ())),
                    retells=str(spec.get("retells", "")),
                    alone=env.from_string(str(alone).strip()) if alone else None,
                )
        return found

    def deed_of(
        self, event: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]]
    ) -> tuple[int, bool] | None:
        """Which of the turn's ``earlier`` events began the deed that ``event`` belongs to, by its index,
        and whether ``event`` only retells it; None when it is a deed of its own. A settlement that falls
        to the assault just told, a project that the training just told completes, the street's headline
        of either: one deed, which a log tells on one line. From ``deeds.yaml`` (engine and ruleset)."""
        rule = self._deeds.get(event["kind"])
        if rule is None:
            return None
        for index in range(len(earlier) - 1, -1, -1):  # the latest such event: its deed is under way
            if rule.retells and _retells(rule.retells, event, earlier[index]):
                return index, True
            if not rule.retells and _finishes(rule, event, earlier[index]):
                return index, False
        return None

    def describe_deed(self, event: Mapping[str, Any], game: Game) -> str:
        """The sentence of an event that begins a deed: its own, and the ``alone`` clause of an event that
        usually finishes another's deed but came without it (a settlement that falls to no assault
        fell to an army that met no defender)."""
        sentence = self.describe(event, game)
        rule = self._deeds.get(event["kind"])
        if rule is None or rule.alone is None:
            return sentence
        return f"{sentence} {rule.alone.render(self._text_context(event, game))}"

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
            "count": number_word,
            "tally": tally_names,
            "noun_plural": noun_plural,
            "e": event,
            "d": event.get("data", {}),
            "name": game.name_of,
            "place": game.place_label(event.get("place")),
            "label": game.place_label,
            "actors": ", ".join(game.name_of(a) for a in event.get("actors", [])),
        }

    def phases(self, rules: Mapping[str, Any]) -> tuple[Row, ...]:
        return build_sequence(rules["turn_sequence"], self.phase_functions(), rules)

    def describe(self, event: Mapping[str, Any], game: Game) -> str:
        """One sentence for an archived event, from the event texts in the ruleset's events.yaml."""
        template = self._event_template(event["kind"])
        if template is None:
            return f"{event['kind']}: {event.get('data', {})}"
        return template.render(self._text_context(event, game))

    def groups_with(self, first: Mapping[str, Any], event: Mapping[str, Any]) -> bool:
        """Whether ``event`` may be told in one sentence with ``first`` (see groups.yaml): the same kind,
        doers, place and values of the entry's ``same`` keys, and no dice of its own unless the entry
        puts the group's dice together."""
        entry = self._group_entries.get(first["kind"])
        if entry is None or event["kind"] != first["kind"]:
            return False
        if (event.get("rolls") or first.get("rolls")) and not entry[2]:
            return False
        if event.get("actors") != first.get("actors") or event.get("place") != first.get("place"):
            return False
        data, other = first.get("data", {}), event.get("data", {})
        return all(data.get(key) == other.get(key) for key in entry[0])

    def gathers(self, kind: str) -> bool:
        """Whether the chronicle tells every event of ``kind`` a step gives one doer in one sentence, even
        when other events came between them (groups.yaml's ``dice: together``: a nation's winter tests,
        which the step rolls army by army)."""
        entry = self._group_entries.get(kind)
        return entry is not None and entry[2]

    def describe_group(self, events: list[Mapping[str, Any]], game: Game) -> str:
        """One sentence for events that ``groups_with`` put together; a single event reads as usual."""
        if len(events) == 1 or events[0]["kind"] not in self._group_texts:
            return " ".join(self.describe(e, game) for e in events)
        context = self._text_context(events[0], game)
        context["events"] = [e.get("data", {}) for e in events]
        return self._group_texts[events[0]["kind"]][1].render(context)

    def entity_names(self, game: Game, state: State) -> dict[str, str]:
        """Readers' names for the ids the engine writes in dice and events (``red-u1`` is "Spearmen"):
        factions, and every entity of the state with an ``id`` and a ``name``."""
        names = {f: game.name_of(f) for f in game.factions}

        def walk(value: Any) -> None:
            if isinstance(value, Mapping):
                if isinstance(value.get("id"), str) and isinstance(value.get("name"), str):
                    names.setdefault(value["id"], value["name"])
                items: Iterable[Any] = value.values()
            elif isinstance(value, list):
                items = value
            else:
                return
            for item in items:
                # Most of a state is text and numbers: only what may hold entities is walked into
                # (the site finds the names of every turn's state).
                if not isinstance(item, _LEAVES):
                    walk(item)

        walk({k: v for k, v in state.items() if k != "factions"})
        return names

    def story(self, event: Mapping[str, Any], game: Game, before: State, after: State) -> list[str]:
        """More sentences for an event that deserves a paragraph of its own in the chronicle (a battle,
        round by round), from the event, its dice and the states around the turn; by default none."""
        return []

    def stories(
        self, events: Sequence[Mapping[str, Any]], game: Game, before: State, after: State
    ) -> dict[int, list[str]]:
        """The ``story`` of each of a turn's events that has one, by the event's index. A ruleset whose
        stories look pieces up in the states indexes them here once per turn, not once per event."""
        found = {}
        for index, event in enumerate(events):
            told = self.story(event, game, before, after)
            if told:
                found[index] = told
        return found

    def decision(self, roll: Mapping[str, Any]) -> str:
        """What a roll decided, in words that may name ids (the site puts readers' names in their place):
        by default the note the roll was logged with. A ruleset whose notes carry a verb that must agree
        with a name, or follow the roll's outcome, words them here."""
        return str(roll.get("decided") or "")

    def faction_sections(
        self, game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[str, list[str]]]:
        """More sections for a faction's page on the site, each a title and lines in words (its relations,
        its commanders), from the current state and every turn's public ``events``, each with its
        ``turn``; by default none."""
        return []

    def place_pieces(self, game: Game, state: State, pieces: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The places of a state that get a page each on the site, as map pieces (kind, location, owner,
        label, detail): by default the map's ``pieces`` of one of ``place_kinds``. A ruleset whose every
        province is a place, marked on the map or not, lists them here."""
        return [p for p in pieces if p.get("kind") in self.place_kinds]

    def place_id(self, piece: Mapping[str, Any]) -> str:
        """Which place a map piece of one of ``place_kinds`` is: by default its location, so what stands
        on one tile (a settlement, later its ruins) is one place through the turns."""
        return str(piece.get("location"))

    def headline(self, event: Mapping[str, Any], game: Game, turn: int = 0) -> tuple[int, str] | None:
        """A newspaper headline for a public event and its weight (the most newsworthy first), or None
        when the event is not news. By default from ``headlines.yaml`` (``kind: {weight, text}``) of the
        engine and of the ruleset; a text that renders empty means "not news this time". A kind with
        several texts gets one chosen by a label made of the turn and the event itself: the same event
        always reads the same, rebuild after rebuild, and the next turn's news is worded differently."""
        found = self.headline_options(event, game)
        if found is None:
            return None
        weight, options = found
        return weight, options[choice_of(headline_label(turn, event), len(options))]

    def headline_options(self, event: Mapping[str, Any], game: Game) -> tuple[int, list[str]] | None:
        """Every wording of an event's headline (those that render empty left out), and its weight; None
        when the event is not news."""
        entry = self._headline_texts.get(event["kind"])
        if entry is None:
            return None
        context = self._text_context(event, game)
        context["sentence"] = lambda: self.describe(event, game)  # the event's own sentence (events.yaml)
        rendered = [" ".join(t.render(context).split()) for t in entry.templates]
        options = [text for text in rendered if text]
        return (entry.weight, options) if options else None

    def introduction(self, rules: Mapping[str, Any]) -> str:
        """The rules page's opening paragraph. A ruleset whose summary names numbers fills them from the
        effective rules here (``rulesdoc.introduction``), so a house rule changes the introduction too."""
        return self.module("rulesdoc").introduction(rules) if self.has_module("rulesdoc") else self.summary

    def rules_sections(self, game: Game) -> list[RulesSection]:
        """The ruleset's own part of the rules pages: costs, units, settlements, combat, in words and
        tables (``rulesdoc.sections``). Without a rulesdoc module, a plain table of every block of rules
        data the shared pages do not cover."""
        if self.has_module("rulesdoc"):
            return self.module("rulesdoc").sections(game.rules)
        return generic_sections(game.rules)

    # -- hooks a ruleset must provide (by default from its modules) -----------------------------------

    def phase_functions(self) -> Mapping[str, PhaseFn]:
        return self.module("phases").PHASES

    def actions(self, rules: Mapping[str, Any]) -> dict[str, ActionSpec]:
        return self.module("orders").action_specs(rules)

    def generate_world(self, seed: int, rules: Mapping[str, Any], factions: int) -> World:
        return self.module("setup").generate_world(seed, rules, factions)

    def initial_state(
        self, world: World, rules: Mapping[str, Any], factions: list[FactionSetup], seed: int
    ) -> State:
        return self.module("setup").initial_state(world, rules, factions, seed)

    def awaits(self, game: Game, state: State, faction: str) -> bool:
        """Whether this turn needs orders from ``faction``: a game whose turns give only some players a
        choice (Diplomacy's retreats and adjustments) says no for the others, who then miss no turn. By
        default every active faction is awaited."""
        return True

    def fixed_factions(self, rules: Mapping[str, Any]) -> tuple[FactionSetup, ...]:
        """The factions every campaign of this ruleset has, for a game whose sides are fixed (Diplomacy's
        seven powers); ``campaign new`` and ``campaign demo`` make them without a players file. By default
        none: a campaign has as many factions as asked, with generated names."""
        return ()

    def demo_length(self) -> str:
        """How long ``campaign demo`` plays when not told, in words for its first line ("8 turns")."""
        return plural(self.demo_turns, "turn")

    def demo_over(self, game: Game, state: State, played: int) -> bool:
        """Whether ``campaign demo``, not told how many turns to play, has played enough: ``played`` turns
        are resolved and ``state`` is the state after the last. A ruleset whose turns are no fixed share of
        its year (one turn a phase, empty phases skipped) may stop at a date instead."""
        return played >= self.demo_turns

    def fill_state(self, rules: Mapping[str, Any], partial: State, factions: list[str]) -> State:
        """A whole state from a hand-written part of one (a scenario fixture): each faction and each piece
        gets what the part leaves out (``setup.fill_state``). Without one, a copy with the turn and the
        factions' records filled."""
        if self.has_module("setup") and hasattr(self.module("setup"), "fill_state"):
            return self.module("setup").fill_state(rules, partial, factions)
        return filled_state(
            partial, factions, {"status": "active", "missed_turns": 0, "stock": {}, "counters": {}}
        )

    def check_orders(self, game: Game, state: State, of: OrderFile) -> None:
        """Semantic checks against the state; report through ``of.error``/``of.warn``, fill ``of.echo``."""
        self.module("orders").check_orders(game, state, of)

    def bot_orders(self, game: Game, state: State, faction: str) -> dict[str, Any]:
        """Purposeful orders for a faction nobody plays (demo, tests, civil disorder):
        ``{"orders": [...], "press": [...], "rumors": [...]}``. ``resolver.bots`` makes them legal."""
        return self.module("bot").orders_for(game, state, faction)

    def status_lines(self, game: Game, state: State, faction: str) -> list[str]:
        """What a player needs in front of them when writing orders (template comments, reports)."""
        raise NotImplementedError

    def report_sections(
        self, game: Game, state: State, faction: str, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[str, list[str]]]:
        """More sections for a faction's report of the turn, each a title and its lines in words, from
        the state after the turn and the turn's archived ``events`` the faction saw (public and its own),
        in the turn's order: a ruleset whose report follows its manual's layout (unit by unit, place by
        place) writes it here. By default none."""
        return []

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
        ``label`` (short name), ``detail`` (one line for a popup) and ``size`` (a number for the marker); and
        optionally ``point``, the (x, y) inside its location where it stands when alone there (a fleet on one
        of a province's two coasts), instead of the location's centre."""
        raise NotImplementedError

    def standing_sections(self, rules: Mapping[str, Any]) -> dict[str, StandingSection]:
        """Standing orders the ruleset reads (``core.standing``): sections of the order file kept in the
        state until the faction changes them. None by default."""
        return {}

    def map_events(self, game: Game, events: Sequence[Mapping[str, Any]]) -> list[MapMark]:
        """What a turn's public events (as archived) look like on the map: arrows and marks, from the
        places the events carry. By default nothing."""
        return []

    def map_holders(self, game: Game, state: State) -> dict[str, str | None]:
        """Who holds each location of the world, for a ruleset whose locations are held (provinces): the
        map tints each one in its holder's colour and draws its border. By default none."""
        return {}

    def map_marked_places(self, game: Game) -> frozenset[str]:
        """Locations whose name the map marks with a small ring above it, for places that matter more than
        the others and never change (a board game's supply centres); ``marked_place_name`` says what the
        ring means in the legend. By default none."""
        return frozenset()

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

    def piece_id_problems(
        self, kind: str, piece_id: str, data: Mapping[str, Any], game: Game, state: State
    ) -> list[str]:
        """Problems with the id the GM gives a placed piece (``data``, its fields, as written). Most
        pieces take any new id; a ruleset whose pieces are kept by where they stand (a city by its grid)
        says here which ids can take this one."""
        return []

    def placed_example(
        self, game: Game, state: State, kind: str, piece_id: str, piece: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]] | None:
        """The id and data of the GM template's example of a placed piece, modelled on ``piece``; None
        leaves it to the engine, which copies the piece under the id ``<id>-gm``. A ruleset whose copy
        would not check clean (a piece kept by its grid, a name no two pieces share) writes its own."""
        return None

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

    def judgement_example(self, game: Game, state: State, faction: str, subject: str) -> dict[str, Any]:
        """The mechanical effect of a ruling on ``subject``, for the GM template's example: one that
        ``judgement_problems`` accepts, so that the example checks clean as written."""
        return {}

    def orderable(self, game: Game, state: State, faction: str) -> list[str]:
        """The actions the faction may give this turn, for its template; by default every one."""
        return list(game.actions)

    def concealed_pieces(self, state: State, hidden_from: str | None = None) -> dict[str, Mapping[str, Any]]:
        """The concealed pieces by id, which ``faction_view`` shows their owner alone: every one (what
        the public does not see), or those ``hidden_from`` a faction (the others')."""
        return {
            rid: record
            for key, records in state.items()
            if key != "factions" and isinstance(records, dict)
            for rid, record in records.items()
            if isinstance(record, dict)
            and record.get("owner") not in (None, hidden_from)
            and record.get("concealed")
        }

    def piece_ids(self, state: State) -> set[str]:
        """The ids of every piece in the state (records that carry an ``owner``, as ``faction_view``
        reads them)."""
        return {
            rid
            for key, records in state.items()
            if key != "factions" and isinstance(records, dict)
            for rid, record in records.items()
            if isinstance(record, dict) and "owner" in record
        }

    def faction_view(self, game: Game, state: State, faction: str | None) -> State:
        """The state as one faction knows it (fog of war), or as everyone does (``faction`` None): a
        sealed campaign publishes the second and seals the first to its faction. A faction sees its own
        entry and pieces in full; of the others, what the rules data's ``fog_of_war`` declares public
        (``core.fog``), of the pieces that ``sees`` lets it see. The view keeps the state's shape, so
        orders are checked and templates written against it as against the full state."""

        def sight(collection: str, piece: Mapping[str, Any]) -> bool:
            return self.sees(game, state, faction, collection, piece)

        view = game.fog.view(state, faction, sight)
        effects = state.get(relations.EFFECTS)
        if isinstance(effects, dict):  # timed effects have no owner: each is shown to whom it concerns
            seen = relations.effects_seen_by(
                effects, faction, self.concealed_pieces(state, hidden_from=faction)
            )
            view.pop(relations.EFFECTS, None)
            if seen:
                view[relations.EFFECTS] = copy.deepcopy(seen)
        return view

    def sees(
        self, game: Game, state: State, faction: str | None, collection: str, piece: Mapping[str, Any]
    ) -> bool:
        """Whether ``faction`` (None: everyone) sees another faction's ``piece`` of ``collection`` at
        all, beyond what the fog of war declares: by default every piece the declaration shows. A ruleset
        in which a faction sees only what its own pieces see (or discovers hidden places) answers here;
        the declared fields still decide what it sees of a piece it sees."""
        return True

    def names_of(self, game: Game, state: State) -> NamesOf:
        """The names that order fields take for ids (``Field.names``), by kind, each kind worked out once
        when first asked: see ``names``."""
        found: dict[str, Mapping[str, tuple[str, ...]]] = {}

        def named(kind: str) -> Mapping[str, tuple[str, ...]]:
            if kind not in found:
                # While the state holds still (every file of a turn checked against it), each kind is
                # named once for all the files, not once a file: that grew with the square of the map.
                shared = stillness.table(
                    state, f"names of {kind} in game {id(game)}", lambda _: self.names(kind, game, state)
                )
                found[kind] = shared if shared is not None else self.names(kind, game, state)
            return found[kind]

        return named

    def names(self, kind: str, game: Game, state: State) -> dict[str, tuple[str, ...]]:
        """Each id of a kind of thing with the names players know it by: ``factions`` (their names),
        ``places`` (the world's locations: label and place name), or any collection of the state (its
        records' names, and a place's names for a record that is a place of the world). A ruleset adds
        kinds of its own. What is named must be public, as names reach every player's checker."""
        if kind == "factions":
            records = state.get("factions") or {}
            return {f: _distinct(game.name_of(f), (records.get(f) or {}).get("name")) for f in game.factions}
        locations = game.world.locations
        if kind == "places":
            return {loc.id: _distinct(loc.label, loc.place) for loc in locations.values()}
        records = state.get(kind)
        if not isinstance(records, Mapping):
            return {}
        return {
            str(key): _distinct(
                record.get("name") if isinstance(record, Mapping) else None, *_place_names(locations, key)
            )
            for key, record in records.items()
        }

    def order_examples(self, game: Game, state: State, faction: str) -> list[dict[str, Any]]:
        """Example orders for the faction's template; by default the order models' own examples."""
        return [dict(spec.example) for spec in game.actions.values() if spec.example]


@dataclass(frozen=True)
class DeedRule:
    """How an event joins the deed of an earlier one (an entry of ``deeds.yaml``)."""

    follows: tuple[str, ...]  # the kinds of event whose deed it finishes
    same: tuple[str, ...]  # what must agree with that event: data keys, or "actors"
    retells: str  # the data key naming the kind of event it retells ("" when it retells none)
    alone: jinja2.Template | None  # a clause for its sentence when it finishes no earlier deed


def _retells(key: str, event: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether ``event`` retells ``other``: its ``key`` names other's kind, and the rest of what it says
    (its place, its data) is what other said."""
    data = event.get("data", {})
    if other["kind"] != data.get(key) or other.get("place") != event.get("place"):
        return False
    return all(other.get("data", {}).get(name) == value for name, value in data.items() if name != key)


def _finishes(rule: DeedRule, event: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether ``event`` finishes the deed ``other`` told: a kind it follows, the same in what must agree."""
    return other["kind"] in rule.follows and all(_said(other, key) == _said(event, key) for key in rule.same)


def _said(event: Mapping[str, Any], key: str) -> Any:
    """What an event says of ``key``: its doers for "actors", otherwise that key of its data."""
    return event.get("actors") if key == "actors" else event.get("data", {}).get(key)


def _place_names(locations: Mapping[str, Any], key: Any) -> tuple[str, ...]:
    """A place's names (label, place name) when ``key`` is a place of the world, else none: looked up by
    the id the world keys each place by, rather than naming every place of the world for each kind."""
    loc = locations.get(key)
    return _distinct(loc.label, loc.place) if loc is not None and loc.id == key else ()


def _distinct(*names: Any) -> tuple[str, ...]:
    """The names given, each once, in order, leaving out what is not a name."""
    return tuple(dict.fromkeys(name for name in names if isinstance(name, str) and name))


@dataclass(frozen=True)
class Outcome:
    """Where a headline's event says how its deed ended: the data ``field`` and its values for a deed
    done and for one that failed. A value ``{actor: N}`` stands for the event's N-th actor (a battle won
    by the side that attacked). An event without the field is not judged by it."""

    field: str
    done: tuple[Any, ...]
    failed: tuple[Any, ...]

    def values(self, event: Mapping[str, Any], done: bool) -> list[Any]:
        """The declared values, with ``{actor: N}`` read from the event."""
        actors = list(event.get("actors") or [])
        found = []
        for value in self.done if done else self.failed:
            if isinstance(value, Mapping) and set(value) == {"actor"}:
                index = int(value["actor"])
                found.append(actors[index] if index < len(actors) else None)
            else:
                found.append(value)
        return found


@dataclass(frozen=True)
class HeadlineEntry:
    weight: int
    templates: tuple[jinja2.Template, ...]
    outcome: Outcome | None


def _outcome(where: str, kind: str, spec: Mapping[str, Any]) -> Outcome | None:
    """An entry's ``outcome``: a headline must follow how its deed ended, so every entry says where the
    event tells it, or ``outcome: null`` for an event that only tells of something that happened."""
    if "outcome" not in spec:
        raise ValueError(
            f"{where}: the headline of '{kind}' says nothing of its outcome: add 'outcome: {{field: …, "
            "done: […], failed: […]}' (the event's data field that tells whether the deed was done), "
            "or 'outcome: null' when the event only ever tells of something done"
        )
    spec = spec["outcome"]
    if spec is None:
        return None
    if not isinstance(spec, Mapping) or set(spec) != {"field", "done", "failed"}:
        raise ValueError(f"{where}: the outcome of '{kind}' needs exactly field, done and failed")
    return Outcome(str(spec["field"]), tuple(spec["done"]), tuple(spec["failed"]))


def headline_label(turn: int, event: Mapping[str, Any]) -> str:
    """The stable identity of an event in a turn: its turn, kind, doers, place and data."""
    return f"headline/t{turn}/{event['kind']}/{canonical.data_digest(event.get('data', {}))}/" + "+".join(
        [*map(str, event.get("actors", [])), str(event.get("place", ""))]
    )


def choice_of(label: str, count: int) -> int:
    """One of ``count`` options, fixed by the label (never a random draw, never a counter)."""
    return int(hashlib.sha256(label.encode()).hexdigest()[:12], 16) % count


def get_ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in RULESETS:
        raise CampaignError(
            f"unknown ruleset '{ruleset_id}'", f"choose one of: {', '.join(RULESETS)}", code=2
        )
    return ruleset_at(f"resolver.rulesets.{ruleset_id}")


def ruleset_at(module: str) -> Ruleset:
    """The ruleset of the package ``module`` (its ``RULESET``), wherever the package lives: the shipped
    ones under ``resolver.rulesets``, or a test's own (``tests.clock``), which no campaign can choose."""
    return import_module(module).RULESET


def _sentence_cache_folder() -> Path | None:
    """Where compiled sentences are kept (see ``compiled_template_folder``)."""
    return compiled_template_folder("sentences")


def compiled_template_folder(name: str) -> Path | None:
    """Where compiled Jinja2 code is kept between processes: the read cache's folder ``name``, made when
    first needed; None when the cache is off or cannot be written (then every process compiles its
    templates). Jinja2 keys each entry by the template's name and checks it against the template's
    source, so an edited template is compiled again."""
    folder = canonical.cache_dir()
    if folder is None:
        return None
    try:
        (folder / name).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder / name


def _sentence_environment(**options: Any) -> jinja2.Environment:
    """The environment of the rulesets' sentence files (events, headlines, groups): strict, unescaped
    (the pages escape what they show). Jinja2 is imported on first use: `campaign check` describes no
    event and starts faster without it."""
    import jinja2

    return jinja2.Environment(
        undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False, **options
    )
