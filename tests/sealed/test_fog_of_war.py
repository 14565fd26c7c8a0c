"""Fog of war: each ruleset declares, as rules data, what a faction may see of the others' records, and
the views a sealed campaign publishes and seals follow that declaration, turn after turn, for every
ruleset in the registry."""

from __future__ import annotations

import contextlib
import dataclasses
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.cli import main
from resolver.core import canonical
from resolver.core.factions import awaited
from resolver.core.fog import Fog, Shown
from resolver.core.houserules import merge_rules
from resolver.core.issues import CampaignError
from resolver.core.phases import State
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS, Game, Ruleset
from resolver.engine.validate import check_order_file
from resolver.store.store import PUBLIC_STATE, Store

from .demos import full_states, sealed_demo


@dataclasses.dataclass(frozen=True)
class Demo:
    root: Path
    game: Game
    states: list[State]  # every turn's full state, the start first


@pytest.fixture(scope="module", params=RULESETS)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Demo:
    root = sealed_demo(tmp_path_factory.getbasetemp() / "sealed-demos", request.param)
    game, states = full_states(root)
    return Demo(root, game, states)


def owned_records(state: State) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every piece of the state (a record with an owner), with its collection."""
    for collection, records in state.items():
        if collection != "factions" and isinstance(records, Mapping):
            for record in records.values():
                if isinstance(record, Mapping) and record.get("owner") is not None:
                    yield collection, record


def undeclared(shown: Shown, record: Mapping[str, Any], where: str) -> list[str]:
    found = [f"{where}.{key}" for key in record if not shown.declares(key)]
    for key, part in shown.parts.items():
        for item in record.get(key) or []:
            found += undeclared(part, item, f"{where}.{key}")
    return found


def beyond_public(shown: Shown, record: Mapping[str, Any], where: str) -> list[str]:
    """The fields of another faction's record that everyone may not see: declared private, or not public."""
    found = [f"{where}.{key}" for key in record if key not in shown.public or key in shown.secret_fields()]
    for key, part in shown.parts.items():
        for item in record.get(key) or []:
            found += beyond_public(part, item, f"{where}.{key}")
    return found


def others_seen(fog: Fog, view: State, faction: str | None) -> list[str]:
    """What ``view`` shows of factions other than ``faction`` beyond what the fog makes public."""
    found = []
    for other, entry in view["factions"].items():
        if other != faction:
            found += beyond_public(fog.factions, entry, f"factions.{other}")
    for collection, record in owned_records(view):
        if record["owner"] == faction:
            continue
        shown = fog.pieces.get(collection)
        if shown is None or shown.hides(record):
            found.append(f"{collection}.{record.get('id', '?')}: a piece the others never see")
        else:
            found += beyond_public(shown, record, f"{collection}.{record.get('id', '?')}")
    return found


def test_every_field_of_a_played_state_is_declared_public_or_private(demo: Demo) -> None:
    """The rules page lists what is secret from the declaration: a field the declaration forgot would be
    kept secret by the views (only public fields pass) but missing from the page."""
    fog = demo.game.fog
    missing: set[str] = set()
    for state in demo.states:
        for entry in state["factions"].values():
            missing.update(undeclared(fog.factions, entry, "factions"))
        for collection, record in owned_records(state):
            if collection not in fog.pieces:
                missing.add(collection)
            else:
                missing.update(undeclared(fog.pieces[collection], record, collection))
    assert not missing, sorted(missing)
    assert fog.factions.secret_fields(), "a sealed campaign keeps some of each faction's record secret"


def test_the_published_public_states_hold_no_private_field_of_any_faction(demo: Demo) -> None:
    """Read as an attacker reads them: every public-state.yaml of the archive and campaign/state.yaml."""
    fog = demo.game.fog
    published = sorted((demo.root / "campaign" / "turns").glob(f"*/{PUBLIC_STATE}"))
    assert len(published) == len(demo.states)  # the start and every turn
    for path in [*published, demo.root / "campaign" / "state.yaml"]:
        public = canonical.read_yaml(path)
        assert not others_seen(fog, public, None), (path, others_seen(fog, public, None)[:5])
    # Not vacuous: the full states hold private fields of every faction, and pieces to hide fields of.
    last = demo.states[-1]
    assert all(set(fog.factions.secret_fields()) & set(entry) for entry in last["factions"].values())
    assert others_seen(fog, last, None)


def test_a_faction_sees_its_own_secrets_and_checks_its_orders_from_its_view(demo: Demo) -> None:
    """A player's view (what `campaign view` decrypts) holds their own record and pieces in full and no
    private field of anyone else; their template is written, and their orders checked, from it."""
    game, fog = demo.game, demo.game.fog
    store = Store(demo.root)
    for state in demo.states:
        for faction in state["factions"]:
            view = game.ruleset.faction_view(game, state, faction)
            assert view["factions"][faction] == state["factions"][faction]
            assert set(fog.factions.secret_fields()) & set(view["factions"][faction])
            mine = [r for _, r in owned_records(state) if r["owner"] == faction]
            assert mine == [r for _, r in owned_records(view) if r["owner"] == faction]
            assert not others_seen(fog, view, faction), others_seen(fog, view, faction)[:5]
        for faction in awaited(state, game.factions):
            view = game.ruleset.faction_view(game, state, faction)
            assert f"faction: {faction}" in store.render_template(game, view, faction)
            legal = bot_order_file(game, state, faction)  # the bot reads the whole state
            assert legal.ok
            from_view = check_order_file(game, view, legal.raw, f"orders/{faction}.yaml")
            assert from_view.ok, [issue.format() for issue in from_view.errors]


def test_a_house_rule_can_make_a_private_field_public(demo: Demo) -> None:
    game, state = demo.game, demo.states[-1]
    field = game.fog.factions.secret_fields()[0]
    house = {"fog_of_war": {"factions": {"public": {field: "what the house rule shows"}}}}
    opened = dataclasses.replace(game, rules=merge_rules(game.rules, house), house_rules=house)
    before = game.ruleset.faction_view(game, state, None)
    after = opened.ruleset.faction_view(opened, state, None)
    assert all(field not in entry for entry in before["factions"].values())
    assert [entry[field] for entry in after["factions"].values() if field in entry] == [
        entry[field] for entry in state["factions"].values() if field in entry
    ]
    assert field not in opened.fog.factions.secret_fields()


def test_a_ruleset_may_show_a_faction_only_what_its_own_pieces_see(demo: Demo) -> None:
    """The hook the next rulesets need (a faction sees what its units see): a ruleset that answers
    ``sees`` keeps the others' pieces out of a view unless they stand where the faction has one.

    A ruleset whose pieces all live inside their owner's record (usurper: units, leaders and lairs) has
    no piece for the hook to hide: the faction's fog hides them all, which the test then asserts."""
    game, state = demo.game, demo.states[-1]
    if not game.fog.pieces:  # the fog of war declares no collection of owned pieces
        assert not [record for played in demo.states for _, record in owned_records(played)]
        public = game.ruleset.faction_view(game, state, None)
        assert all(set(entry) <= set(game.fog.factions.public) for entry in public["factions"].values()), (
            "the pieces inside a faction's record are private fields of it"
        )
        assert all(set(entry) - set(game.fog.factions.public) for entry in state["factions"].values())
        return

    def sees(self: Any, game: Game, state: State, faction: str | None, collection: str, piece: Any) -> bool:
        own = {r.get("location") for _, r in owned_records(state) if r["owner"] == faction}
        return piece.get("location") in own - {None}

    kind = type(game.ruleset)
    sighted = type("Sighted", (kind,), {"sees": sees, "__module__": kind.__module__})()
    limited = dataclasses.replace(game, ruleset=sighted)
    faction = next(iter(state["factions"]))
    own = {r.get("location") for _, r in owned_records(state) if r["owner"] == faction}
    seen = [
        r
        for _, r in owned_records(limited.ruleset.faction_view(limited, state, faction))
        if r["owner"] != faction
    ]
    # What the view holds without the hook (a ruleset that answers ``sees`` itself is compared with the
    # engine's default, which shows every piece the declaration shows).
    unlimited = type("Unlimited", (kind,), {"sees": Ruleset.sees, "__module__": kind.__module__})()
    everyone_game = dataclasses.replace(game, ruleset=unlimited)
    everyone = [
        r
        for _, r in owned_records(everyone_game.ruleset.faction_view(everyone_game, state, faction))
        if r["owner"] != faction
    ]
    assert all(r.get("location") in own for r in seen)
    assert len(seen) < len(everyone)
    public = [r for _, r in owned_records(limited.ruleset.faction_view(limited, state, None))]
    assert public == []  # nobody's pieces are where "everyone" stands


def test_a_fog_house_rule_of_the_wrong_shape_is_refused_with_its_place_and_a_fix(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        assert (
            main(["new", "--ruleset", "nations", "--seed", "3", "--factions", "2", "--root", str(tmp_path)])
            == 0
        )
    # A list where the data wants a mapping of field to words: merged over the defaults, it replaces them.
    house = {"fog_of_war": {"factions": {"public": ["name", "stock"]}}}
    (tmp_path / "campaign" / "rules.yaml").write_text(yaml.safe_dump(house), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["site", "--no-build", "--root", str(tmp_path)])
    said = out.getvalue()
    assert code == 1, said  # refused like any input with an error, at its line (core.houserules)
    assert "campaign/rules.yaml:4:5: error: fog_of_war.factions.public must be a mapping" in said, said
    assert "Traceback" not in said
    assert not (tmp_path / "site" / "index.md").exists()  # nothing was written
    with pytest.raises(CampaignError, match=r"fog_of_war\.pieces\.armies\.label"):
        Fog.from_rules({"fog_of_war": {"pieces": {"armies": {"public": {"id": None}}}}})
