"""Attacks on a sealed usurper campaign by a player who holds every public file: the committed campaign files
(public states, public events with their dice, digests, world, players), every sealed file and its length,
and the built site. Issue 23: no lair, stock or scouted square of another usurper can be read or confirmed.

The campaign is the sealed demo of twelve weeks (tests/sealed/demos.py): the bots scout, harvest, store,
trade, fight and pay upkeep, and the Victory Points are counted once. The campaign key is used here only to
learn the truth the attacker must not reach."""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from resolver import workflow
from resolver.core import canonical, roll_log
from resolver.core.events import public_record
from resolver.core.phases import State
from resolver.engine.absence import AbsentPolicy
from resolver.engine.ruleset import Game
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.rulesets.usurper import scoring
from resolver.store import replay, sealing
from resolver.store.resolution import order_commitments
from resolver.store.store import PUBLIC_EVENTS, PUBLIC_STATE, Store
from tests.sealed.demos import sealed_site, with_key

from .scoring_support import context, usurper, usurper_rules

RULES = usurper_rules()

KIT = Path(__file__).resolve().parents[2]
GRID = re.compile(r"\b[A-Z]{1,2}[0-9]{1,2}\b")


@dataclasses.dataclass(frozen=True)
class Secrets:
    """What one usurper keeps from the others, over the whole campaign."""

    lair_grids: set[str]
    scouted: set[str]
    names: set[str]  # of its units and leaders
    ids: set[str]  # of its units, leaders and lairs
    gold: list[int]
    stock: list[dict[str, int]]  # each lair's storage, turn after turn


@dataclasses.dataclass(frozen=True)
class Campaign:
    root: Path
    game: Game
    replayed: list[replay.Replayed]  # every turn, replayed with the key
    states: list[State]  # the start, then every turn's result
    texts: dict[str, str]  # every public file as text, by path: campaign files and the built site

    def secrets(self, faction: str) -> Secrets:
        records = [state["factions"][faction] for state in self.states]
        people = [
            person
            for record in records
            for key in ("units", "leaders")
            for person in (record.get(key) or {}).values()
        ]
        lairs = [lair for record in records for lair in (record.get("lairs") or {}).values()]
        return Secrets(
            lair_grids={lair["grid"] for lair in lairs},
            scouted={grid for record in records for grid in (record.get("known") or {}).get("scouted") or []},
            names={person["name"] for person in people},
            ids={person["id"] for person in people} | {lair["id"] for lair in lairs},
            gold=[int(record.get("gold", 0)) for record in records],
            stock=[dict(lair.get("storage") or {}) for lair in lairs],
        )

    def publicly_placed(self) -> set[str]:
        """Grids the public files name for what sits there in plain sight: cities, landmarks, and a lair
        whose usurper challenged the world from it (Victory by Tenacity is an open challenge)."""
        found: set[str] = set()
        for state in self.states:
            found |= set(state.get("cities") or {}) | set(state.get("landmarks") or {})
            found |= {c["grid"] for c in (state.get("challenges") or {}).values() if c.get("grid")}
        return found


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    public = sealed_site(tmp_path_factory.getbasetemp() / "sealed-demos", "usurper")
    root = public.parent
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


def _world_listings(campaign: Campaign) -> set[str]:
    """The public files that name every grid of the world (the world file and its map): naming a grid
    there says nothing of what stands on it."""
    every = {campaign.game.world[loc].label for loc in campaign.game.world}
    return {path for path, text in campaign.texts.items() if every <= set(GRID.findall(text))}


def test_the_demo_holds_secrets_worth_attacking(campaign: Campaign) -> None:
    """Not vacuous: lairs, scouted grids, units with names, gold and stored goods, fights, a VP count."""
    kinds = {
        event["kind"]
        for r in campaign.replayed
        if r.result is not None
        for event in r.result.events_data()["events"]
    }
    assert {"scouted", "harvested", "combat", "upkeep", "vp_tally", "diplomacy"} <= kinds, kinds
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        assert secrets.lair_grids and secrets.scouted and secrets.names and secrets.gold
    stored = [s for f in campaign.game.factions for s in campaign.secrets(f).stock if any(s.values())]
    assert stored, "some usurper stored goods in its lair at some turn"


def test_no_lair_or_scouted_grid_of_a_usurper_is_named_in_any_public_file(campaign: Campaign) -> None:
    listings = _world_listings(campaign)
    # The world's listings are the world file and its map page, written from the public seed alone.
    assert listings == {"campaign/world.yaml", "public/map/world.html"}, listings
    plain_sight = campaign.publicly_placed()
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        hidden = (secrets.lair_grids | secrets.scouted) - plain_sight
        assert secrets.lair_grids <= hidden, "no lair of the demo stands in a city or is challenged"
        for path, text in campaign.texts.items():
            if path not in listings:
                named = hidden & set(GRID.findall(text))
                assert not named, (faction, path, sorted(named))


def test_no_unit_leader_or_lair_of_a_usurper_is_named_or_numbered_in_public(campaign: Campaign) -> None:
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        for path, text in campaign.texts.items():
            for word in secrets.names | secrets.ids:
                assert not re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text), (faction, path, word)


def test_the_public_states_hold_no_gold_stock_or_category_points(campaign: Campaign) -> None:
    """What each published state holds of a usurper: its public fields, and at the count only its total
    and the categories it leads. A category's points could betray its stock (Economy counts gold and
    stored resources), so they stay in its own record."""
    public_fields = set(campaign.game.fog.factions.public)
    published = sorted((campaign.root / "campaign" / "turns").glob(f"*/{PUBLIC_STATE}"))
    assert len(published) == len(campaign.states)
    counted = False
    for path in [*published, campaign.root / "campaign" / "state.yaml"]:
        state = canonical.read_yaml(path)
        for faction, entry in state["factions"].items():
            assert set(entry) <= public_fields, (path, faction, sorted(set(entry) - public_fields))
        for faction, score in (state.get("scores") or {}).items():
            assert set(score) <= {"total", "history", "leads"}, (path, faction, sorted(score))
            counted = counted or bool(score.get("leads") is not None)
    assert counted, "the demo's count is published"
    last = campaign.states[-1]
    assert all("victory_points" in record for record in last["factions"].values())


def test_public_events_and_their_dice_name_nothing_private(campaign: Campaign) -> None:
    """Every public event of every turn: its data, each roll's label and the words it decided, and the
    public dice log of the turn hold no grid, id, name, gold or stock of a usurper."""
    plain_sight = campaign.publicly_placed()
    words: set[str] = set()
    for faction in campaign.game.factions:
        secrets = campaign.secrets(faction)
        words |= (secrets.lair_grids | secrets.scouted) - plain_sight
        words |= secrets.names | secrets.ids
    # What a usurper's record holds under these names ("leaders" is left out: the count names the leaders
    # of each category, which is public).
    private_keys = {"gold", "lairs", "units", "known", "storage", "scouted", "categories", "victory_points"}
    rolls = 0
    for r in campaign.replayed:
        folder = campaign.root / "campaign" / "turns" / f"{r.turn:04d}"
        for event in canonical.read_yaml(folder / PUBLIC_EVENTS)["events"]:
            assert not private_keys & set(_keys(event.get("data") or {})), event
            text = canonical.dump(event).decode()
            found = {w for w in words if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}
            assert not found, (r.turn, event["kind"], found)
            rolls += len(event.get("rolls") or [])
    assert rolls, "the months' events are drawn in public"


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _perturbed(state: State, faction: str) -> State:
    """The state with a usurper's secrets changed as an attacker's wrong guess would have them: other
    names, other gold, other stock, other scouted grids, its lair elsewhere. Its orders still read."""
    changed = copy.deepcopy(state)
    record = changed["factions"][faction]
    for key in ("units", "leaders"):
        for person in (record.get(key) or {}).values():
            person["name"] = f"Guessed {person['name']}"
    record["gold"] = int(record.get("gold", 0)) + 3
    for lair in (record.get("lairs") or {}).values():
        lair["storage"]["lumber"] = int(lair["storage"].get("lumber", 0)) + 2
    known = record.setdefault("known", {})
    known["scouted"] = sorted({*(known.get("scouted") or []), "A1"})
    return changed


def test_a_guess_at_a_usurpers_secrets_cannot_be_confirmed_from_the_public_record(campaign: Campaign) -> None:
    """The attacker guesses a usurper's secrets and asks whether the public record would differ. It does
    not: each turn (the count's turn aside, whose published totals are public by the rules) replayed from
    a state whose secrets are changed publishes the same events, the same dice and the same state."""
    store = Store(campaign.root)
    tally_turns = {
        r.turn
        for r in campaign.replayed
        if r.result is not None and any(e["kind"] == "vp_tally" for e in r.result.events_data()["events"])
    }
    tried = 0
    with with_key(campaign.root):
        for r in campaign.replayed:
            if r.turn in tally_turns or r.game is None:
                continue
            folder = store.turns_dir / f"{r.turn:04d}"
            inputs = canonical.read_yaml(folder / "inputs.yaml")
            archived = canonical.load(store.read_secret(folder / "orders.yaml") or b"")
            for faction in campaign.game.factions:
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
    assert tried >= len(campaign.game.factions) * (len(campaign.replayed) - len(tally_turns))


def test_every_sealed_file_is_padded_no_more_than_its_kind_allows(campaign: Campaign) -> None:
    """Lengths are public: a sealed file's padded size is the common size of its kind in the turn (views,
    reports, receipts), or the Padmé size of its own text (the turn's events, orders and state), which
    leaks at most a few bits; never a length that follows the text more closely."""
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
            if path.parent != folder:  # one of a kind: every faction's as long as the longest needs
                kind = [t for p, (t, _) in opened.items() if p.parent == path.parent]
                assert padded == max(sealing.padme(_framed(t)) for t in kind), path
            else:
                assert padded == sealing.padme(_framed(text)), path
            checked += 1
    assert checked


def _framed(text: bytes) -> int:
    """The length of a text with the padding's frame around it (sealing.pad)."""
    return len(sealing.PAD_MAGIC) + len(str(len(text))) + 1 + len(text)


# -- the count's publication, as a house rule -------------------------------------------------------------


def _two_usurpers() -> State:
    return {"turn": 8, "factions": {"red": usurper("red"), "blue": usurper("blue")}}


def test_the_count_publishes_totals_and_leaders_and_keeps_the_categories_in_the_record() -> None:
    state = _two_usurpers()
    scoring.tally(context(RULES, 8), state)
    red = state["scores"]["red"]
    assert set(red) == {"total", "history", "leads"}
    own = state["factions"]["red"]["victory_points"]
    assert own["turn"] == 8 and own["total"] == red["total"] == sum(own["categories"].values())
    assert set(own["categories"]) == set(RULES["scoring"]["category_order"])
    assert scoring.own_lines(RULES, state["factions"]["red"]) == [
        f"Victory Points at the count of turn 8: {red['total']} ("
        + ", ".join(
            f"{RULES['scoring']['categories'][name]['name']} {points}"
            for name, points in own["categories"].items()
        )
        + ")."
    ]


def test_a_house_rule_publishes_the_categories_beside_the_total() -> None:
    rules = copy.deepcopy(dict(RULES))
    rules["scoring"] = {**rules["scoring"], "categories_public": True}
    state = _two_usurpers()
    scoring.tally(context(rules, 8), state)
    assert state["scores"]["red"]["categories"] == state["factions"]["red"]["victory_points"]["categories"]
    # Turned back off, the next count takes them out of the public scores again.
    scoring.tally(context(RULES, 16), state)
    assert "categories" not in state["scores"]["red"]
