"""The campaign's history for the site: every resolved turn, replayed from the archive.

The site never stores per-turn snapshots: it replays the archive (the same walk as
``campaign verify``) and keeps, per turn, only what the pages show through the ruleset
interface: public events, standings and map pieces.
"""

from __future__ import annotations

import colorsys
import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import canonical, roll_log
from ..core import factions as faction_records
from ..core.calendar import GameDate
from ..core.issues import CampaignError
from ..core.orders import OrderFile
from ..core.phases import State
from ..engine.ruleset import Game
from ..store.replay import replay_archive
from ..store.store import PUBLIC_EVENTS, PUBLIC_STATE, Store, turn_dir_name
from .text import Names


@dataclass(frozen=True)
class TurnRecord:
    turn: int  # 0 is the starting position, before any turn
    date: GameDate | None
    events: list[dict[str, Any]]  # the public events, as archived
    standings: list[dict[str, Any]]
    pieces: list[dict[str, Any]]
    # Readers' names of the ids in the turn's dice and events (units, armies, lieutenants, factions).
    names: Mapping[str, str] = field(default_factory=Names)
    # Each faction's orders as the engine read them: the lines `campaign check` prints.
    orders: dict[str, list[str]] = field(default_factory=dict)
    # More sentences for some events (a battle, round by round), by the event's index in ``events``.
    stories: dict[int, list[str]] = field(default_factory=dict)
    # Who holds each location after the turn (``Ruleset.map_holders``), for the map.
    holders: dict[str, str | None] = field(default_factory=dict)
    # The places the turn left, each a page on the site (Ruleset.place_pieces).
    places: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class History:
    game: Game
    state: State  # the current state (the turn being ordered now)
    start: TurnRecord
    turns: list[TurnRecord]  # resolved turns, in order
    colors: dict[str, str]
    config: dict[str, Any]
    sealed: bool = False  # built from a sealed campaign's public files only

    def standings(self) -> list[dict[str, Any]]:
        """The current standings. A sealed campaign's come from its public view, so they hold only what
        every faction can see: the ruleset leaves out each number that the view keeps secret."""
        return self.game.ruleset.standings(self.game, self.state)

    @property
    def records(self) -> list[TurnRecord]:
        return [self.start, *self.turns]

    @property
    def last(self) -> TurnRecord:
        return self.turns[-1] if self.turns else self.start

    @property
    def current_turn(self) -> int:
        return int(self.state["turn"])


# Colours for factions that have none of their own: the demo palette's first eight.
FALLBACK_COLORS = ("#c0392b", "#2e6fbd", "#2e8b57", "#b8860b", "#8e44ad", "#138d75", "#d35400", "#5d6d7e")


_COLOR = re.compile(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}")


def _public(events: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e.get("visibility") == "public"]


def load_sealed_history(store: Store) -> History:
    """A sealed campaign's history from its public files alone: the site never opens a sealed file,
    even where the key is at hand. Each turn's public events and the public view of the state it left
    give the turn's standings (what everyone can see), its pieces, and the readers' names of the ids in
    its dice."""
    state = store.public_state()
    game = store.game(state)
    ruleset = game.ruleset

    def public_state(turn: int) -> State | None:
        # A campaign sealed in mid-game (campaign seal-campaign) has open turns before its sealed ones.
        folder = store.turns_dir / turn_dir_name(turn)
        if (folder / PUBLIC_STATE).is_file():
            return canonical.read_yaml(folder / PUBLIC_STATE)
        if turn == 0 and (folder / "state.yaml").is_file():
            return ruleset.faction_view(game, canonical.read_yaml(folder / "state.yaml"), None)
        return None

    def record(turn: int, before: State | None) -> tuple[TurnRecord, State | None]:
        folder = store.turns_dir / turn_dir_name(turn)
        events: list[dict[str, Any]] = []
        for name in (PUBLIC_EVENTS, "events.yaml"):
            if turn and (folder / name).is_file():
                events = roll_log.in_full(canonical.read_yaml(folder / name), name)["events"]
                break
        after = public_state(turn)
        public = _public(events)
        # Units lost in the turn are named only in the state before it, a concealed piece only by the
        # public events that name it.
        names = Names({**names_in_events(public), **named(before), **named(after)})
        stories = ruleset.stories(public, game, before, after) if before and after else {}
        pieces = ruleset.map_pieces(game, after) if after is not None else []
        return (
            TurnRecord(
                turn,
                game.calendar.date(turn) if turn else None,
                public,
                ruleset.standings(game, after) if after is not None else [],
                pieces,
                names,
                stories=stories,
                holders=ruleset.map_holders(game, after) if after is not None else {},
                places=ruleset.place_pieces(game, after, pieces) if after is not None else [],
            ),
            after,
        )

    def named(public: State | None) -> dict[str, str]:
        return ruleset.entity_names(game, public) if public is not None else {}

    start, before = record(0, None)
    turns = []
    for turn in store.archived_turns():
        rec, before = record(turn, before)
        turns.append(rec)
    return History(game, state, start, turns, faction_colors(store, game, state), store.config(), sealed=True)


def names_in_events(events: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The names that events give the ids they carry: ``lieutenant_id`` beside ``lieutenant``, or
    ``unit`` beside ``unit_name``. A sealed campaign's site names from them what its public view does not
    hold (a concealed lieutenant whose deed was public, a unit lost in the turn)."""
    found: dict[str, str] = {}
    for event in events:
        data = event.get("data") or {}
        for key, value in data.items():
            if not isinstance(value, str):
                continue
            name = data.get(key.removesuffix("_id")) if key.endswith("_id") else data.get(f"{key}_name")
            if isinstance(name, str) and name and name != value:
                found.setdefault(value, name)
    return found


def faction_colors(store: Store, game: Game, state: State) -> dict[str, str]:
    """Each faction's colour: the players file's, else the one its record holds (a late joiner the GM
    brought in with ``add_faction`` has one there, and may not be in the players file), else a spare one.

    No two factions share a colour: an NPC people keeps the colour its rules give it, and a faction whose
    colour is unusable or already taken (a player who picked an NPC's, or two players the same) gets the
    first spare colour nobody holds."""
    players = store.players().get("factions", {}) or {}
    records = state.get("factions") or {}
    wanted = {}
    for f in game.factions:
        color = str((players.get(f) or {}).get("color") or (records.get(f) or {}).get("color") or "")
        # Colours go into style attributes and SVG: anything but #rgb or #rrggbb is replaced.
        wanted[f] = color if _COLOR.fullmatch(color) else ""
    npcs = [f for f in game.factions if f in records and faction_records.is_npc(state, f)]
    colors: dict[str, str] = {}
    taken: set[str] = set()
    for f in [*npcs, *(f for f in game.factions if f not in npcs)]:
        color = wanted[f]
        if not color or _same_color(color) in taken:
            color = next(c for c in _spare_colors() if _same_color(c) not in taken)
        colors[f] = color
        taken.add(_same_color(color))
    return {f: colors[f] for f in game.factions}


def _same_color(color: str) -> str:
    """A colour in one spelling, #rrggbb in lower case, so that #C03 and #cc0033 count as one."""
    digits = color.lstrip("#").lower()
    return "#" + ("".join(c * 2 for c in digits) if len(digits) == 3 else digits)


def _spare_colors() -> Iterator[str]:
    """The palette's colours, then as many more as a campaign needs: hues a golden angle apart, in turn
    darker and lighter, so that each is new."""
    yield from FALLBACK_COLORS
    for i in itertools.count():
        hue = (i * 137.508) % 360 / 360
        lightness = (0.38, 0.5, 0.3, 0.58)[(i // 24) % 4]
        red, green, blue = colorsys.hls_to_rgb(hue, lightness, 0.55)
        yield f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def load_history(store: Store, progress: Callable[[Iterable[Any]], Iterable[Any]] = lambda xs: xs) -> History:
    store.require()
    if store.sealed:
        return load_sealed_history(store)
    state = store.state()
    game = store.game(state)
    start_path = store.turns_dir / turn_dir_name(0) / "state.yaml"
    if not start_path.exists():
        raise CampaignError("the initial state (campaign/turns/0000/state.yaml) is missing")
    start_state = canonical.read_yaml(start_path)
    ruleset = game.ruleset
    # The state a turn leaves is the next turn's state before: its names are found once, not twice.
    named: list[tuple[State, dict[str, str]]] = []

    def entity_names(state: State) -> dict[str, str]:
        if not named or named[-1][0] is not state:
            named[:] = [(state, ruleset.entity_names(game, state))]
        return named[-1][1]

    def record(
        turn: int,
        events: list[dict[str, Any]],
        after: State,
        before: State | None = None,
        orders: Mapping[str, OrderFile] | None = None,
    ) -> TurnRecord:
        # Units lost in the turn are named only in the state before it.
        names = Names({**entity_names(before), **entity_names(after)} if before else {})
        public = _public(events)
        stories = ruleset.stories(public, game, before, after) if before else {}
        pieces = ruleset.map_pieces(game, after)
        return TurnRecord(
            turn,
            game.calendar.date(turn) if turn > 0 else None,
            public,
            ruleset.standings(game, after),
            pieces,
            names,
            {faction: of.echo_lines() for faction, of in sorted((orders or {}).items())},
            stories,
            ruleset.map_holders(game, after),
            ruleset.place_pieces(game, after, pieces),
        )

    turns = []
    archived = store.archived_turns()
    # The site shows no report: the replay checks the archived reports' digests without rendering them.
    for replayed in progress(replay_archive(store, archived[-1] if archived else 0, render_reports=False)):
        if replayed.problems or replayed.result is None:
            raise CampaignError(
                f"turn {replayed.turn} does not replay from the archive: {'; '.join(replayed.problems)}",
                "run campaign verify to see every mismatch; the site is only built from a sound archive",
            )
        events = [e.to_data() for e in replayed.result.events]
        turns.append(
            record(replayed.turn, events, replayed.result.state, replayed.state_before, replayed.orders)
        )
    return History(
        game, state, record(0, [], start_state), turns, faction_colors(store, game, state), store.config()
    )
