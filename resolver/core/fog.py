"""Fog of war: what one faction may know of another's records, declared in the rules data.

A sealed campaign publishes the state as everyone knows it and seals to each faction its own view
(``Ruleset.faction_view``). What a faction sees of the others is data, under ``fog_of_war`` in the
ruleset's rules.yaml, so that the views are cut and the rules page is written from one declaration, and a
campaign's house rules may change it:

    fog_of_war:
      factions:                      # another faction's entry under ``factions``
        label: another nation        # how the rules page names it
        public: {name: its name, color: its colour}
        private: {stock: its resources and population, counters: null}
      pieces:                        # collections of the state whose records carry an ``owner``
        armies:
          label: another nation's army
          public: {id: null, owner: null, location: where it stands, units: its units}
          private: {modifiers: what the GM's modifiers give it}
          parts:                     # a field holding a list of records: what of each one is public
            units: {label: a unit of such an army, public: {id: null, name: its name}, private: {traits: …}}
        projects: {label: another nation's project, public: {}, private: {progress: how far it has come}}
        assets: {label: another house's asset, public: {...}, private: {...}, hidden_when: concealed}

Only the ``public`` fields of another faction's record reach a view; every other field, declared private or
not declared at all, stays with its owner, so a field that a ruleset adds later is secret until someone
declares it public. ``private`` names what the rules page lists as secret, in the words it uses there (null:
bookkeeping it need not name); the tests hold every field of a played state to one of the two lists. A
collection whose ``public`` is empty, or that the data does not name, is not seen by the others at all, and
nor is a piece whose ``concealed`` flag, or whose ``hidden_when`` flag, is set. Everything else in the
state (the turn, the places, records without an owner) is everyone's. Where a field sits in both lists (a
house rule that makes a private field public), public wins.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .issues import CampaignError
from .phases import State
from .rulesdoc import RulesSection, RulesTable
from .words import series

FOG = "fog_of_war"
# A piece with this flag set is hidden from every other faction in any ruleset: the engine's own mark,
# which a GM's place order may set on any piece. A ruleset may name more such flags (``hidden_when``).
CONCEALED = "concealed"

# What a faction's entry shows of it when the rules data declares nothing: who it is, and whether it plays.
DEFAULT_FACTION_FIELDS = {
    "name": "its name",
    "color": "its colour",
    "status": "whether it is still in the game",
}

# Whether a faction (None: everyone) sees another faction's piece of a collection, beyond what the data
# declares: a ruleset where a faction sees only what its own pieces see answers here (``Ruleset.sees``).
Sight = Callable[[str, Mapping[str, Any]], bool]


@dataclass(frozen=True)
class Shown:
    """What the others see of one kind of record: its ``public`` fields, each with the words the rules page
    uses for it (None: not worth naming), and of each list of records in it (``parts``) theirs."""

    label: str
    public: Mapping[str, str | None]
    private: Mapping[str, str | None] = field(default_factory=dict)
    parts: Mapping[str, Shown] = field(default_factory=dict)
    hidden_when: str | None = None  # a flag that, set on a piece, hides it from the others altogether

    @property
    def seen(self) -> bool:
        return bool(self.public)

    def hides(self, record: Mapping[str, Any]) -> bool:
        if not self.seen or record.get(CONCEALED):
            return True
        return bool(self.hidden_when and record.get(self.hidden_when))

    def cut(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The record with its public fields alone; a part keeps every item, each cut to its own."""
        shown: dict[str, Any] = {}
        for key, value in record.items():
            if key not in self.public:
                continue
            part = self.parts.get(key)
            if part is not None and isinstance(value, list):
                shown[key] = [
                    part.cut(item) if isinstance(item, Mapping) else copy.deepcopy(item) for item in value
                ]
            else:
                shown[key] = copy.deepcopy(value)
        return shown

    def declares(self, key: str) -> bool:
        """Whether the declaration says who sees the field: public, private, or the flag that hides."""
        return key in self.public or key in self.private or key == self.hidden_when

    def secret_fields(self) -> tuple[str, ...]:
        """The fields declared private that a house rule has not made public."""
        return tuple(key for key in self.private if key not in self.public)


@dataclass(frozen=True)
class Fog:
    factions: Shown
    pieces: Mapping[str, Shown]

    @classmethod
    def from_rules(cls, rules: Mapping[str, Any]) -> Fog:
        data = rules.get(FOG)
        if data is None:
            return cls(Shown("another faction", DEFAULT_FACTION_FIELDS), {})
        if not isinstance(data, Mapping):
            raise _error(FOG, "must be a mapping with 'factions' and 'pieces'")
        pieces = data.get("pieces") or {}
        if not isinstance(pieces, Mapping):
            raise _error(f"{FOG}.pieces", "must map each collection of the state to what others see of it")
        factions = data.get("factions")
        return cls(
            _shown(factions, f"{FOG}.factions")
            if factions is not None
            else Shown("another faction", DEFAULT_FACTION_FIELDS),
            {str(name): _shown(spec, f"{FOG}.pieces.{name}") for name, spec in pieces.items()},
        )

    def view(self, state: State, faction: str | None, sees: Sight | None = None) -> State:
        """The state as ``faction`` knows it (None: as everyone does): its own entry and pieces in full, what
        the declaration makes public of the others', and every record that has no owner. The view keeps
        the state's shape, so orders are checked and templates written against it as against the state."""
        view: State = {}
        for key, value in state.items():
            if key == "factions" and isinstance(value, Mapping):
                view[key] = {
                    f: copy.deepcopy(entry) if f == faction else self.factions.cut(entry)
                    for f, entry in value.items()
                }
            elif isinstance(value, Mapping) and (key in self.pieces or _holds_pieces(value)):
                view[key] = self._pieces(key, value, faction, sees)
            else:
                view[key] = copy.deepcopy(value)
        return view

    def _pieces(
        self, collection: str, records: Mapping[str, Any], faction: str | None, sees: Sight | None
    ) -> dict[str, Any]:
        shown = self.pieces.get(collection)
        found: dict[str, Any] = {}
        for rid, record in records.items():
            if not isinstance(record, Mapping) or record.get("owner") in (faction, None):
                found[rid] = copy.deepcopy(record)
            elif shown is not None and not shown.hides(record) and (sees is None or sees(collection, record)):
                found[rid] = shown.cut(record)
        return found

    def rows(self) -> list[tuple[str, Shown]]:
        """Every kind of record the declaration speaks of, parts after their piece, for the rules page."""
        found = [("factions", self.factions)]
        for name, shown in self.pieces.items():
            found.append((name, shown))
            found += [(f"{name}.{part}", spec) for part, spec in shown.parts.items()]
        return found


def _holds_pieces(records: Mapping[str, Any]) -> bool:
    return any(isinstance(r, Mapping) and "owner" in r for r in records.values())


def _shown(spec: Any, path: str) -> Shown:
    if not isinstance(spec, Mapping):
        raise _error(path, "must be a mapping with 'label', 'public' and 'private'")
    label = spec.get("label")
    if not isinstance(label, str) or not label.strip():
        raise _error(f"{path}.label", "must name the record in words, such as 'another nation's army'")
    parts = spec.get("parts") or {}
    if not isinstance(parts, Mapping):
        raise _error(f"{path}.parts", "must map a field holding a list of records to what others see of each")
    hidden_when = spec.get("hidden_when")
    if hidden_when is not None and not isinstance(hidden_when, str):
        raise _error(f"{path}.hidden_when", "must be the name of a flag, such as concealed")
    return Shown(
        label.strip(),
        _fields(spec.get("public"), f"{path}.public"),
        _fields(spec.get("private"), f"{path}.private"),
        {str(name): _shown(part, f"{path}.parts.{name}") for name, part in parts.items()},
        hidden_when,
    )


def _fields(value: Any, path: str) -> dict[str, str | None]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(text, str | type(None)) for text in value.values()
    ):
        raise _error(path, "must map each field to the words the rules page uses for it (or null)")
    return {str(key): text for key, text in value.items()}


def _error(path: str, problem: str) -> CampaignError:
    return CampaignError(
        f"the rules data's {path} {problem}",
        "fix it in campaign/rules.yaml (or the ruleset's rules.yaml); the rules page shows the fog of war",
        code=2,
    )


def rules_section(rules: Mapping[str, Any]) -> RulesSection:
    """What a sealed campaign keeps from whom, for the rules page: one row per kind of record."""
    fog = Fog.from_rules(rules)
    intro = (
        "In an open campaign everything is public. In a sealed one (`campaign new --sealed`) each faction "
        "sees its own records in full and, of the others, only what the table below lists under *everyone "
        "sees*; the rest reaches it only through the public events of the chronicle. The site shows what "
        "everyone sees, and each player reads their own part with `campaign view`."
    )
    table = RulesTable(
        "What a sealed campaign shows of the others",
        ("What", "Everyone sees", "Only its owner sees"),
        tuple(
            (_capital(shown.label), _public_words(shown), _private_words(shown)) for _, shown in fog.rows()
        ),
    )
    return RulesSection("What a sealed campaign keeps secret", (intro, table), keys=(FOG,))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _public_words(shown: Shown) -> str:
    if not shown.seen:
        return "nothing: it is not seen at all"
    named = [text for text in shown.public.values() if text]
    said = series(named) if named else "that it exists"
    if shown.hidden_when:
        said += f"; nothing while it is {shown.hidden_when.replace('_', ' ')}"
    return said


def _private_words(shown: Shown) -> str:
    if not shown.seen:
        return "all of it"
    named = [shown.private[key] for key in shown.secret_fields() if shown.private[key]]
    return series(named) if named else "nothing more"
