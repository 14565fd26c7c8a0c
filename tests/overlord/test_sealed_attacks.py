"""Attacks on a sealed overlord campaign by a player who holds every public file: the committed campaign
files (public states, public events with their dice, digests, world, players), every sealed file and its
length, and the built site. No unit, queue, fund, stance or setting of a faction can be read from them, and
no unit of a faction is named or numbered there.

The campaign is the sealed demo (tests/sealed/demos.py): the bots work, study, draw coins, travel and
write press for eight months. The campaign key is used here only to learn the truth the attacker must not
reach."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jinja2
import pytest

from resolver import workflow
from resolver.core import canonical, roll_log
from resolver.core.events import public_record, visible
from resolver.core.phases import State
from resolver.engine.absence import AbsentPolicy
from resolver.engine.ruleset import Game
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.overlord import report, stances
from resolver.store import replay, sealing
from resolver.store.resolution import order_commitments
from resolver.store.store import PUBLIC_EVENTS, PUBLIC_STATE, Store
from resolver.store.views import render_reports
from tests.sealed.demos import sealed_site, with_key

KIT = Path(__file__).resolve().parents[2]
# What a faction's record keeps to itself, and what each of its units does (the fog of war's data).
PRIVATE_FACTION_FIELDS = ("fund", "stances", "settings", "press_reward")


@dataclasses.dataclass(frozen=True)
class Secrets:
    """What one faction keeps from the others, over the whole campaign."""

    ids: set[str]  # of its units
    names: set[str]  # of its units
    queues: set[str]  # every order line any of its units carried
    funds: list[int]


@dataclasses.dataclass(frozen=True)
class Campaign:
    root: Path
    game: Game
    replayed: list[replay.Replayed]  # every turn, replayed with the key
    states: list[State]  # the start, then every turn's result
    texts: dict[str, str]  # every public file as text, by path: campaign files and the built site

    def secrets(self, faction: str) -> Secrets:
        units = [
            (unit_id, unit)
            for state in self.states
            for unit_id, unit in (state.get("units") or {}).items()
            if unit.get("owner") == faction
        ]
        return Secrets(
            ids={unit_id for unit_id, _ in units},
            names={str(unit["name"]) for _, unit in units if unit.get("name")},
            queues={str(line) for _, unit in units for line in unit.get("orders") or []},
            funds=[int(state["factions"][faction].get("fund", 0)) for state in self.states],
        )


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    site = sealed_site(tmp_path_factory.getbasetemp() / "sealed-demos", "overlord")
    root = site.parent
    with with_key(root):
        store = Store(root)
        replayed = list(replay.replay_archive(store, store.archived_turns()[-1], render_reports=False))
    assert all(r.result is not None and not r.problems for r in replayed)
    states = [replayed[0].state_before, *(r.result.state for r in replayed if r.result is not None)]
    game = replayed[-1].game
    assert game is not None
    return Campaign(root, game, replayed, states, _public_texts(root))


def _public_texts(root: Path) -> dict[str, str]:
    """Every file the attacker reads as text: each plain file of the campaign folder, and each page, data
    file and script of the built site that is not the kit's own asset copied as it is."""
    texts = {}
    for path in sorted((root / "campaign").rglob("*")):
        if path.is_file() and not path.name.endswith(sealing.SUFFIX):
            texts[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8")
    kit_assets = {p.read_bytes() for p in (KIT / "templates" / "site").rglob("*") if p.is_file()}
    for path in sorted((root / "public").rglob("*")):
        readable = path.suffix in (".html", ".json", ".xml", ".js", ".yaml", ".svg", ".txt", ".csv")
        if readable and path.read_bytes() not in kit_assets:
            texts[path.relative_to(root).as_posix()] = path.read_text(encoding="utf-8", errors="replace")
    return texts


def _named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def _players(campaign: Campaign) -> list[str]:
    return [f for f in campaign.game.factions if campaign.states[-1]["factions"][f].get("kind") == "player"]


def test_the_demo_holds_secrets_worth_attacking(campaign: Campaign) -> None:
    """Not vacuous: every player faction has named units with queues and a fund that changes; the months
    paid wages and upkeep, drew coins, and rolled the places' dice."""
    kinds = {
        event["kind"]
        for r in campaign.replayed
        if r.result is not None
        for event in r.result.events_data()["events"]
    }
    assert {"wages", "upkeep", "withdrew", "places_changed"} <= kinds, kinds
    for faction in _players(campaign):
        secrets = campaign.secrets(faction)
        assert secrets.ids and secrets.names, faction
        assert len(set(secrets.funds)) > 1, faction
    assert any(campaign.secrets(faction).queues for faction in _players(campaign))


def test_no_unit_of_a_faction_is_named_or_numbered_in_any_public_file(campaign: Campaign) -> None:
    """The rules pages print the whole rules data, the lists that starting heroes' and the creatures'
    names are drawn from among it: there a name is one of a public list, which tells nothing of who bears
    it or where."""
    assert any(path.startswith("public/") for path in campaign.texts)  # the site was read too
    rules_text = canonical.dump(dict(campaign.game.rules)).decode()
    listed = {
        name for f in campaign.game.factions for name in campaign.secrets(f).names if name in rules_text
    }
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        for path, text in campaign.texts.items():
            found = sorted(word for word in secrets.ids | secrets.names if _named(word, text))
            if path.startswith("public/rules/"):
                found = [word for word in found if word not in listed]
            elif path == "public/search/search_index.json":  # the rules pages' text is searched too
                found = [word for word in found if word not in listed or _named(word, _unruled(text))]
            assert not found, (faction, path, found)


def test_no_queue_or_fund_of_a_faction_is_in_any_public_file(campaign: Campaign) -> None:
    for faction in _players(campaign):
        secrets = campaign.secrets(faction)
        for path, text in campaign.texts.items():
            if path.startswith("public/rules/"):
                # The rules pages are printed from the rules data alone, and teach with the manual's own
                # examples (`10 STUDY cmbt 1`): a faction writing the same line leaks nothing there.
                continue
            if path.endswith("search_index.json"):
                text = _unruled(text)
            queued = sorted(line for line in secrets.queues if " " in line and line in text)
            assert not queued, (faction, path, queued)
    for path in sorted((campaign.root / "campaign" / "turns").glob(f"*/{PUBLIC_STATE}")):
        state = canonical.read_yaml(path)
        for faction, entry in state["factions"].items():
            assert not set(entry) & set(PRIVATE_FACTION_FIELDS), (path, faction)


def test_the_public_states_hold_only_what_everyone_sees(campaign: Campaign) -> None:
    """Each published state holds the factions' public fields, the places, and no unit or structure of
    anyone (the public stands nowhere, so it sees none); a title there names the faction, not the unit."""
    public_fields = set(campaign.game.fog.factions.public)
    published = sorted((campaign.root / "campaign" / "turns").glob(f"*/{PUBLIC_STATE}"))
    assert len(published) == len(campaign.states)
    for path in [*published, campaign.root / "campaign" / "state.yaml"]:
        state = canonical.read_yaml(path)
        for faction, entry in state["factions"].items():
            assert set(entry) <= public_fields, (path, faction, sorted(set(entry) - public_fields))
        assert not state.get("units") and not state.get("structures"), path
        for place in (state.get("places") or {}).values():
            assert not (place.get("title") or {}).get("holder"), path


def _unruled(index: str) -> str:
    """The site's search index without its entries for the rules pages."""
    docs = json.loads(index)["docs"]
    return json.dumps([doc for doc in docs if not str(doc.get("location", "")).startswith("rules/")])


def test_public_events_and_their_dice_name_nothing_private(campaign: Campaign) -> None:
    """Every public event of every turn (its data, each roll's label and the words it decided) holds no
    unit id or name, and no faction's fund or queue."""
    words: set[str] = set()
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        words |= secrets.ids | secrets.names
    rolls = 0
    for r in campaign.replayed:
        folder = campaign.root / "campaign" / "turns" / f"{r.turn:04d}"
        for event in canonical.read_yaml(folder / PUBLIC_EVENTS)["events"]:
            assert not {"fund", "orders", "stances", "items"} & set(_keys(event.get("data") or {})), event
            text = canonical.dump(event).decode()
            found = {word for word in words if _named(word, text)}
            assert not found, (r.turn, event["kind"], found)
            rolls += len(event.get("rolls") or [])
    assert rolls, "the months' dice are drawn in public"


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _perturbed(state: State, faction: str) -> State:
    """The state with a faction's secrets changed as an attacker's wrong guess would have them: other unit
    names, another fund, other coins in its units' purses. Its orders still read."""
    changed = copy.deepcopy(state)
    changed["factions"][faction]["fund"] = int(changed["factions"][faction].get("fund", 0)) + 3
    for unit in (changed.get("units") or {}).values():
        if unit.get("owner") == faction:
            unit["name"] = f"Guessed {unit['name']}"
            unit.setdefault("items", {})["coin"] = int(unit["items"].get("coin", 0)) + 1
    return changed


def test_a_guess_at_a_factions_secrets_cannot_be_confirmed_from_the_public_record(campaign: Campaign) -> None:
    """The attacker guesses a faction's secrets and asks whether the public record would differ. It does
    not: each turn replayed from a state whose secrets are changed publishes the same events, the same dice
    and the same state."""
    store = Store(campaign.root)
    tried = 0
    with with_key(campaign.root):
        for r in campaign.replayed:
            if r.game is None:
                continue
            folder = store.turns_dir / f"{r.turn:04d}"
            inputs = canonical.read_yaml(folder / "inputs.yaml")
            archived = canonical.load(store.read_secret(folder / "orders.yaml") or b"")
            for faction in _players(campaign):
                state = _perturbed(r.state_before, faction)
                files = {
                    f: check_order_file(r.game, state, canonical.dump(entry), f"orders/{f}.yaml")
                    for f, entry in sorted((archived.get("orders") or {}).items())
                }
                assert all(of.ok for of in files.values()), r.turn
                result = resolve_turn(
                    r.game, state, files, list(inputs["posting_order"]),
                    absent=AbsentPolicy.from_data(inputs.get("absent_players"), "inputs.yaml"),
                    rumors=list(archived.get("rumors") or []), salt=str(inputs.get("salt") or ""),
                    refused=archived.get("refused") or {},
                    commitments=order_commitments(store.keyed_commitments(r.turn), files), sealed=True,
                )  # fmt: skip
                events = roll_log.logged(
                    {"turn": result.turn, "events": public_record(result.events)}, r.game.rules
                )
                assert canonical.dump(events) == (folder / PUBLIC_EVENTS).read_bytes(), (r.turn, faction)
                assert store.public_view(r.game, result.state) == (folder / PUBLIC_STATE).read_bytes()
                tried += 1
    assert tried == len(_players(campaign)) * len(campaign.replayed)


def test_every_sealed_file_is_padded_no_more_than_its_kind_allows(campaign: Campaign) -> None:
    """Lengths are public: a sealed file's padded size is the common size of its kind in the turn (views,
    reports, receipts), or the Padmé size of its own text (the turn's events, orders and state)."""
    key = sealing.read_key_text((campaign.root / workflow.DEMO_KEY).read_text(encoding="utf-8"))
    identities = sealing.identities_of([key])
    store = Store(campaign.root)
    checked = 0
    for folder in sorted(store.turns_dir.glob("[0-9]*")):
        opened = {
            path: sealing.decrypt_sized(path.read_bytes(), identities)
            for path in sorted(folder.rglob(f"*{sealing.SUFFIX}"))
        }
        for path, (text, padded) in opened.items():
            if path.parent != folder:
                kind = [t for p, (t, _) in opened.items() if p.parent == path.parent]
                assert padded == max(sealing.padme(_framed(t)) for t in kind), path
            else:
                assert padded == sealing.padme(_framed(text)), path
            checked += 1
    assert checked


def _framed(text: bytes) -> int:
    """The length of a text with the padding's frame around it (sealing.pad)."""
    return len(sealing.PAD_MAGIC) + len(str(len(text))) + 1 + len(text)


# -- titles: public, but not the unit that holds one ----------------------------------------------------


def _titled(game: Game, state: State) -> State:
    """The last state with a title held by one of the first faction's units, in a place of the world."""
    state = copy.deepcopy(state)
    faction = next(
        f for f in _players_of(game, state) if any(u["owner"] == f for u in state["units"].values())
    )
    unit_id, unit = next((uid, u) for uid, u in state["units"].items() if u["owner"] == faction)
    place = state["places"].setdefault(unit["location"], {})
    place["title"] = {"tag": "shrf", "holder": unit_id, "faction": unit["owner"]}
    unit["title"] = {"tag": "shrf", "location": unit["location"]}
    return state


def _players_of(game: Game, state: State) -> list[str]:
    return [f for f in game.factions if state["factions"][f].get("kind") == "player"]


def test_a_title_is_public_and_its_holding_unit_is_not(campaign: Campaign) -> None:
    game = campaign.game
    state = _titled(game, campaign.states[-1])
    where, title = next(
        (loc, p["title"]) for loc, p in state["places"].items() if (p.get("title") or {}).get("holder")
    )
    holder = title["holder"]
    owner = state["units"][holder]["owner"]
    other = next(f for f in _players_of(game, state) if f != owner)
    everyone = game.ruleset.faction_view(game, state, None)
    assert everyone["places"][where]["title"] == {"tag": "shrf", "faction": owner}
    assert holder not in canonical.dump(everyone).decode()
    # Its own faction sees its unit hold it; another faction sees the unit only where it stands beside it.
    assert game.ruleset.faction_view(game, state, owner)["places"][where]["title"]["holder"] == holder
    apart = game.ruleset.faction_view(game, state, other)
    if holder not in (apart.get("units") or {}):
        assert apart["places"][where]["title"] == {"tag": "shrf", "faction": owner}
    # The standings count the title alike from the full state and from what everyone sees.
    full = {row["faction"]: row for row in game.ruleset.standings(game, state)}
    seen = {row["faction"]: row for row in game.ruleset.standings(game, everyone)}
    assert full[owner]["titles"] == seen[owner]["titles"] == 1
    assert "units" in full[owner] and "units" not in seen[owner]
    assert all(set(row) == set(seen[owner]) for row in seen.values())


# -- how others regard you: told only across a contact ------------------------------------------------


def _regards(lines: list[str]) -> list[str]:
    """The lines of a report's faction section that tell how another faction regards the reader."""
    return [line for line in lines if line.startswith("- Attitude of ") and " to you is " in line]


def _unmet_stances_changed(game: Game, state: State, faction: str, met: list[str]) -> State:
    """The state with every faction out of contact with ``faction`` holding it another stance."""
    changed = copy.deepcopy(state)
    for other in changed["factions"]:
        if other != faction and other not in met:
            held = stances.stance(state, game.rules, other, faction)
            changed["factions"][other].setdefault("stances", {})[faction] = (
                "enemy" if held != "enemy" else "ally"
            )
    return changed


def test_a_report_tells_how_others_regard_the_faction_only_for_the_factions_in_contact(
    campaign: Campaign,
) -> None:
    """Spec 1.6.3: a faction's sealed report names the stance toward it of each faction in contact, and
    of no other: every month, changing the stances of all the others toward it changes nothing in it. The
    sentence is in no public file."""
    game = campaign.game
    reports = contacts = 0
    for r in campaign.replayed:
        assert r.result is not None
        state, events = r.result.state, [e.to_data() for e in r.result.events]
        for faction in _players(campaign):
            seen = visible(events, faction)
            met = report.contacts(game.rules, state, faction)
            sections = report.sections(game, state, faction, seen)
            told = _regards(dict(sections)["Your faction"])
            assert len(told) == len(met), (r.turn, faction, told, met)
            changed = _unmet_stances_changed(game, state, faction, met)
            assert report.sections(game, changed, faction, seen) == sections, (r.turn, faction)
            reports += 1
            contacts += len(met)
    assert reports and contacts, "the demo's factions meet"
    for path, text in campaign.texts.items():
        assert " to you is " not in text, path
    # Not vacuous: two players' units side by side are in contact, and each reads the other's stance.
    state = copy.deepcopy(campaign.states[-1])
    first, second = _players(campaign)[:2]
    theirs = next(uid for uid, u in sorted(state["units"].items()) if u["owner"] == second)
    mine = next(u for _, u in sorted(state["units"].items()) if u["owner"] == first)
    state["units"][theirs].update(location=mine["location"], structure=mine.get("structure"), stack=None,
                                  moving=None, settings={"announce": True})  # fmt: skip
    mine.setdefault("settings", {})["announce"] = True
    state["factions"][second].setdefault("stances", {})[first] = "hostile"
    assert second in report.contacts(game.rules, state, first)
    lines = dict(report.sections(game, state, first, []))["Your faction"]
    assert f"- Attitude of {game.name_and_id(second)} to you is Hostile." in lines


# -- a stealthy unit: seen by nobody but its own faction, through no channel -----------------------------

SPY_NAME = "Quietfoot Veylan"  # a name no list of the rules data holds, so any sight of it is a leak


def _spy_month(campaign: Campaign, hidden: bool) -> tuple[Game, State, str, str, str, TurnResult]:
    """A month after the demo's last: a leader of one player faction slips into a place where another
    player faction stands, and stays there. ``hidden``: with 3rd stealth, above every watcher's
    observation there; else plainly. Returns the game, the state before, the spy, its faction, the
    faction it watches, and the month resolved sealed."""
    game = campaign.game
    state = copy.deepcopy(campaign.states[-1])
    units = state["units"]
    players = _players_of(game, state)
    watched = next(
        (uid, u)
        for uid, u in sorted(units.items())
        if u["owner"] in players
        and not u.get("moving")
        and not u.get("structure")
        and u["location"] in game.world
        and game.world[u["location"]].parent
    )
    where, watcher = str(watched[1]["location"]), str(watched[1]["owner"])
    spy_faction = next(f for f in players if f != watcher)
    spy = next(
        uid
        for uid, u in sorted(units.items())
        if u["owner"] == spy_faction and u["race"] in ("hero", "ldr") and not u.get("moving")
    )
    for other in units.values():
        if other.get("stack") == spy:
            other["stack"] = None  # its men stay where they stood
    outer = game.world[where].parent
    units[spy].update(name=SPY_NAME, location=outer, stack=None, structure=None, title=None, settings={})
    units[spy]["skills"] = {"scou": 15, "stea": 450} if hidden else {}
    state["factions"][spy_faction].setdefault("settings", {}).pop("announce", None)
    for other in units.values():  # nobody else there spots beyond the manual's plain hero
        if other["owner"] != spy_faction and other["location"] in (where, outer):
            for tag in ("obse", "fowk"):
                (other.get("skills") or {}).pop(tag, None)
    order = {"action": "unit", "unit": spy, "orders": [f"MOVE {where}"]}
    doc = {"campaign": game.campaign, "turn": int(state["turn"]), "faction": spy_faction, "orders": [order]}
    files = {spy_faction: check_order_file(game, state, canonical.dump(doc), f"orders/{spy_faction}.yaml")}
    assert files[spy_faction].ok, [issue.format() for issue in files[spy_faction].errors]
    result = resolve_turn(game, state, files, sealed=True)
    after = result.state
    assert after["units"][spy]["location"] == where and not after["units"][spy].get("moving")
    assert any(u["owner"] == watcher and u["location"] == where for u in after["units"].values())
    return game, state, spy, spy_faction, watcher, result


def _what_others_read(game: Game, result: TurnResult, spy_faction: str) -> dict[str, str]:
    """Every text a faction other than the spy's, or the public, is given of the month: each faction's
    report and sealed view, the events it saw, its map; the public state, events, map and profiles."""
    templates = jinja2.Environment(loader=jinja2.FileSystemLoader(str(KIT / "templates")),
                                   undefined=jinja2.StrictUndefined, keep_trailing_newline=True)  # fmt: skip
    events = [e.to_data() for e in result.events]
    reports = render_reports(templates, game, result, events)
    everyone = game.ruleset.faction_view(game, result.state, None)
    published = public_record(result.events)
    texts = {
        "public state": canonical.dump(everyone).decode(),
        "public events": canonical.dump(published).decode(),
        "public map": canonical.dump(game.ruleset.map_pieces(game, everyone)).decode(),
        "public profiles": repr(
            [game.ruleset.faction_sections(game, everyone, f, published) for f in game.factions]
        ),
    }
    for faction in game.factions:
        if faction == spy_faction:
            continue
        view = game.ruleset.faction_view(game, result.state, faction)
        texts[f"{faction} report"] = reports[faction]
        texts[f"{faction} view"] = canonical.dump(view).decode()
        texts[f"{faction} events"] = canonical.dump(visible(events, faction)).decode()
        texts[f"{faction} map"] = canonical.dump(game.ruleset.map_pieces(game, view)).decode()
    return texts


def test_a_stealthy_unit_leaks_through_no_report_view_event_map_or_public_page(campaign: Campaign) -> None:
    game, _, spy, spy_faction, watcher, result = _spy_month(campaign, hidden=True)
    texts = _what_others_read(game, result, spy_faction)
    leaks = sorted(where for where, text in texts.items() if _named(spy, text) or SPY_NAME in text)
    assert not leaks, leaks
    # The watcher's map counts the spy's faction at the place without it (the spy stands there alone).
    view = game.ruleset.faction_view(game, result.state, watcher)
    where = result.state["units"][spy]["location"]
    assert not [
        p for p in game.ruleset.map_pieces(game, view) if p["location"] == where and p["owner"] == spy_faction
    ]
    # Its own faction knows it all: the report lists it there, its view holds it.
    events = [e.to_data() for e in result.events]
    templates = jinja2.Environment(loader=jinja2.FileSystemLoader(str(KIT / "templates")),
                                   undefined=jinja2.StrictUndefined, keep_trailing_newline=True)  # fmt: skip
    assert SPY_NAME in render_reports(templates, game, result, events)[spy_faction]
    assert spy in game.ruleset.faction_view(game, result.state, spy_faction)["units"]


def test_the_same_unit_unhidden_is_seen_so_the_channels_were_open(campaign: Campaign) -> None:
    """Not vacuous: without its stealth the same unit, the same month, reaches the watcher's report, view,
    events and map (but never the public's)."""
    game, _, spy, spy_faction, watcher, result = _spy_month(campaign, hidden=False)
    texts = _what_others_read(game, result, spy_faction)
    for channel in ("report", "view", "events"):
        assert SPY_NAME in texts[f"{watcher} {channel}"], channel
    # Seen, but whose it is the watcher cannot tell (observation short of its stealth plus the margin):
    # its view holds the unit with no owner, so its map counts no force of the spy's faction for it.
    view = game.ruleset.faction_view(game, result.state, watcher)
    where = result.state["units"][spy]["location"]
    assert view["units"][spy]["owner"] is None
    assert not [
        p for p in game.ruleset.map_pieces(game, view) if p["location"] == where and p["owner"] == spy_faction
    ]
    # Advertising, it is known: the view names its faction and the map counts it there.
    result.state["units"][spy]["settings"] = {"advertise": True}
    view = game.ruleset.faction_view(game, result.state, watcher)
    assert view["units"][spy]["owner"] == spy_faction
    assert [
        p for p in game.ruleset.map_pieces(game, view) if p["location"] == where and p["owner"] == spy_faction
    ]
    public = [text for where, text in texts.items() if where.startswith("public")]
    assert not [text for text in public if _named(spy, text) or SPY_NAME in text]
