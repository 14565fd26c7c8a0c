"""``campaign check`` reads a big state's armies in part only when the turn archive vouches for the
state file, and then says exactly what it says with the whole state read: the same echo, errors and
warnings, for valid files, broken ones and files that name other nations' pieces."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.cli import file_json, format_file
from resolver.core import canonical
from resolver.core.canonical_reader import ReadEntries
from resolver.rulesets.nations import model as m
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign, play_bot_turn


@pytest.fixture
def every_state_is_big(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test campaign's state is small; here every state counts as one worth reading in part."""
    monkeypatch.setattr(canonical, "CACHED_SIZE", 1)


@pytest.fixture
def played(tmp_path: Path, every_state_is_big: None) -> Store:
    """A campaign of four nations after one bot turn, whose archive holds the state's digest."""
    new_campaign(tmp_path, "nations", 5, default_factions(4, 5))
    play_bot_turn(tmp_path)
    return Store(tmp_path)


def hostile_orders(state: dict[str, Any], faction: str) -> list[dict[str, Any]]:
    """Orders that name other nations' armies, units and settlements, and pieces that do not exist."""
    others = [a for a in state["armies"].values() if a["owner"] != faction and a["units"]]
    mine = [a for a in state["armies"].values() if a["owner"] == faction and a["units"]]
    foreign_settlement = next(s for s in state["settlements"].values() if s["owner"] != faction)
    enemy, own = others[0], mine[0]
    return [
        {"action": "move", "army": enemy["id"], "path": ["N"]},
        {"action": "move", "army": enemy["name"], "path": ["N"]},
        {"action": "move", "army": "nobody", "path": ["S"]},
        {"action": "attack", "army": own["name"], "target": enemy["owner"]},
        {"action": "attack", "army": own["name"], "target": "Atlantis"},
        {"action": "split", "army": own["name"], "units": [enemy["units"][0]["id"]]},
        {"action": "merge", "army": own["name"], "into": enemy["name"]},
        {"action": "recruit", "settlement": foreign_settlement["name"], "class": "troops", "name": "X"},
        {"action": "road", "location": enemy["location"]},
        {"action": "maraud", "army": own["name"]},
        {"action": "siege", "army": own["name"], "settlement": foreign_settlement["name"]},
    ]


def write_orders(store: Store, state: dict[str, Any]) -> list[Path]:
    """Each nation's bot draft (some of its orders are refused) and a file of hostile orders."""
    game = store.game(state)
    paths = []
    for faction in game.factions:
        draft = game.ruleset.bot_orders(game, state, faction)
        orders = [*draft.get("orders", []), *hostile_orders(state, faction)]
        doc = {"campaign": game.campaign, "turn": state["turn"], "faction": faction, "orders": orders}
        path = store.orders_dir / f"{faction}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        paths.append(path)
    return paths


def outputs(store: Store, state: dict[str, Any], paths: list[Path] | None) -> list[Any]:
    files = store.check(store.game(state), state, paths)
    return [(format_file(of), file_json(of)) for of in files]


@pytest.mark.parametrize("turns", [0, 2])
def test_checking_with_the_armies_read_in_part_says_what_the_whole_state_says(
    tmp_path: Path, every_state_is_big: None, turns: int
) -> None:
    new_campaign(tmp_path, "nations", 5, default_factions(4, 5))
    for _ in range(turns):
        play_bot_turn(tmp_path)
    store = Store(tmp_path)
    paths = write_orders(store, store.state())
    assert isinstance(store.state_to_check()["armies"], ReadEntries)
    for path in paths:
        whole = outputs(store, store.state(), [path])
        assert outputs(store, store.state_to_check(), [path]) == whole
        assert any(not of_json["ok"] for _, of_json in whole)  # the hostile orders were refused
    assert outputs(store, store.state_to_check(), None) == outputs(store, store.state(), None)


def test_an_army_index_over_a_state_read_in_part_finds_what_the_plain_one_finds(played: Store) -> None:
    from resolver.rulesets.nations.plans import sketch_of
    from resolver.rulesets.nations.sketch import SketchArmyIndex, army_index

    store = played
    # The file read whole (the read cache may hold the state in the order the resolver built it).
    plain, in_part = canonical.load((store.campaign_dir / "state.yaml").read_bytes()), store.state_to_check()
    for faction in sorted(plain["factions"]):
        sketch, plain_sketch = sketch_of(in_part, faction), sketch_of(plain, faction)
        assert list(sketch["armies"]) == list(plain_sketch["armies"])
        assert dict(sketch["armies"].items()) == plain_sketch["armies"]
        index = army_index(in_part, sketch, faction)
        plain_index = army_index(plain, plain_sketch, faction)
        assert isinstance(index, SketchArmyIndex) and not isinstance(plain_index, SketchArmyIndex)
        for army in plain["armies"].values():
            assert index.named(army["owner"], army["name"]) == plain_index.named(army["owner"], army["name"])
            assert index.at(army["location"]) == plain_index.at(army["location"])
            assert index.foreign_at(army["location"], faction) == plain_index.foreign_at(
                army["location"], faction
            )
            assert index.owned(army["owner"]) == plain_index.owned(army["owner"])
        assert m.armies_of(sketch, faction) == m.armies_of(plain_sketch, faction)


def test_a_state_the_archive_does_not_vouch_for_is_read_whole(played: Store) -> None:
    store = played
    state_file = store.campaign_dir / "state.yaml"
    # The GM edits the state by hand: a note and a changed stock.
    edited = state_file.read_text().replace("turn: 2\n", "# checked by hand\nturn: 2\n")
    state_file.write_text(edited)
    state = store.state_to_check()
    assert not isinstance(state["armies"], ReadEntries)
    assert state == store.state()


def test_a_tampered_archive_digest_is_not_trusted(played: Store) -> None:
    store = played
    assert isinstance(store.state_to_check()["armies"], ReadEntries)
    digests = store.turns_dir / "0001" / "digest.yaml"
    digests.write_text(digests.read_text().replace("state: ", "state: 0", 1))
    assert not isinstance(store.state_to_check()["armies"], ReadEntries)


def test_before_the_first_turn_the_archived_opening_state_is_the_guard(
    tmp_path: Path, every_state_is_big: None
) -> None:
    new_campaign(tmp_path, "nations", 5, default_factions(3, 5))
    store = Store(tmp_path)
    assert isinstance(store.state_to_check()["armies"], ReadEntries)
    opening = store.turns_dir / "0000" / "state.yaml"
    opening.write_text(opening.read_text() + "# changed\n")
    assert not isinstance(store.state_to_check()["armies"], ReadEntries)


def test_after_a_turn_the_archive_vouches_for_the_world_file(played: Store) -> None:
    world_file = played.campaign_dir / "world.yaml"
    assert played.archived_world_digest() == canonical.digest(world_file.read_bytes())
    world_file.write_text(world_file.read_text() + "# edited\n")
    assert played.archived_world_digest() != canonical.digest(world_file.read_bytes())


def test_before_the_first_turn_the_opening_record_vouches_for_the_world_file(
    tmp_path: Path, every_state_is_big: None
) -> None:
    """A new campaign's first checks read the world in part too: the opening record holds the digest of
    the world the campaign was made with, and a world edited since is read whole."""
    new_campaign(tmp_path, "nations", 5, default_factions(3, 5))
    store = Store(tmp_path)
    world_file = store.campaign_dir / "world.yaml"
    assert store.archived_turns() == []
    assert store.archived_world_digest() == canonical.digest(world_file.read_bytes())
    world_file.write_text(world_file.read_text() + "# edited\n")
    assert store.archived_world_digest() != canonical.digest(world_file.read_bytes())


def test_a_second_check_of_the_same_state_reads_it_from_the_index_the_first_kept(
    played: Store, read_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = played
    paths = write_orders(store, store.state())
    first = [outputs(store, store.state_to_check(), [path]) for path in paths]
    assert len(list(read_cache.glob("*-armies-in-part.json"))) == 1
    monkeypatch.setattr(ReadEntries, "cut", lambda *_: pytest.fail("the state was cut again"))
    monkeypatch.setattr(ReadEntries, "_scan", lambda *_: pytest.fail("a column was scanned again"))
    again = [outputs(store, store.state_to_check(), [path]) for path in paths]
    assert again == first == [outputs(store, store.state(), [path]) for path in paths]
