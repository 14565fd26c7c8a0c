"""What keeps a big campaign linear: reports of what a faction alone saw, lookups built once per
checked state, a world serialised once per replay, a check that loads no template engine, and a
benchmark set-up that works at any size. Timings live in `make bench`; these test behaviour."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from resolver.bench import engine as bench
from resolver.core import canonical
from resolver.core.stillness import holding_still
from resolver.core.world import World
from resolver.engine.turn import resolve_turn
from resolver.engine.validate import check_order_file
from resolver.publish import text
from resolver.publish.history import load_history
from resolver.publish.pages import SitePages
from resolver.rulesets.nations import model as m
from resolver.rulesets.nations import story
from resolver.store.replay import verify
from resolver.store.resolution import resolve
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign, play_bot_turn


def played(tmp_path: Path, turns: int, factions: int = 4) -> Path:
    root = tmp_path / "camp"
    new_campaign(root, "nations", 2, default_factions(factions, 2))
    for _ in range(turns):
        play_bot_turn(root)
    return root


def test_a_report_holds_what_its_faction_alone_saw_and_points_to_the_chronicle(tmp_path: Path) -> None:
    root = played(tmp_path, 2)
    folder = root / "campaign/turns/0002"
    events = canonical.read_yaml(folder / "events.yaml")["events"]
    store = Store(root)
    game = store.game()
    public = [e for e in events if e["visibility"] == "public"]
    assert public, "the bots' turn has public events"
    for faction in game.factions:
        report = (folder / "reports" / f"{faction}.md").read_text()
        for event in public:
            assert f"- {game.ruleset.describe(event, game)}\n" not in report
        for event in events:
            if event["visibility"] != "public" and faction in event["visibility"]:
                assert game.ruleset.describe(event, game) in report
        assert f"{len(public)} public event" in report and "`chronicle/turn-2/`" in report


def test_checks_inside_a_held_still_state_equal_checks_outside(tmp_path: Path) -> None:
    root = tmp_path / "bench"
    bench.build(root, 6, 60, 1)
    store = Store(root)
    state = store.state()
    game = store.game(state)
    # A few wrong orders too, so that errors naming other nations' armies and tiles are compared.
    raws = {p.name: p.read_bytes() for p in store.order_paths()}
    first = next(iter(raws))
    other = next(a for a in state["armies"].values() if a["owner"] != first.removesuffix(".yaml"))
    raws[first] = raws[first].replace(b'army: "2"', f"army: {other['id']}".encode(), 1)

    def results() -> list[tuple[bool, list[str], dict[int, str]]]:
        checked = [check_order_file(game, state, raw, f"orders/{name}") for name, raw in raws.items()]
        return [(of.ok, [i.format() for i in of.issues], dict(of.echo)) for of in checked]

    outside = results()
    with holding_still(state):
        inside = results()
    assert inside == outside
    assert any("belongs to" in issue for _, issues, _ in outside for issue in issues)


def test_checking_every_file_indexes_each_army_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each nation's sketch indexes its own armies; the others come from one table of the state held
    # still. Indexing every army for every file made checking a whole turn grow with the square.
    root = tmp_path / "bench"
    bench.build(root, 8, 80, 1)
    store = Store(root)
    state = store.state()
    added: list[str] = []
    add = m.ArmyIndex.add
    monkeypatch.setattr(m.ArmyIndex, "add", lambda index, army: added.append(army["id"]) or add(index, army))
    files = store.check(store.game(state), state)
    assert len(files) == 8 and all(of.ok for of in files)
    marches = sum(1 for of in files for order in of.orders if order.action == "move")
    # Each army indexed once by its own nation's sketch, and once more for each march it makes there.
    assert set(added) == set(state["armies"]) and len(added) == len(state["armies"]) + marches


def test_a_nations_turn_asks_no_scan_of_every_army_for_its_new_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every recruit opens a project with a new id, which must not be any of the nation's unit ids; the
    # orders phase looks among the nation's own armies (its index), not through every army of the map.
    root = tmp_path / "bench"
    bench.build(root, 6, 60, 1)
    store = Store(root)
    state = store.state()
    game = store.game(state)
    files = {of.faction: of for of in store.check(game, state) if of.faction}
    asked: list[bool] = []
    in_use = m._id_in_use

    def counted(state: dict, nation: str, piece: str, unit_ids: object = None, owned: object = None) -> bool:
        asked.append(unit_ids is not None or owned is not None)
        return in_use(state, nation, piece, unit_ids, owned)  # type: ignore[arg-type]

    monkeypatch.setattr(m, "_id_in_use", counted)
    result = resolve_turn(game, state, files)
    assert sum(1 for e in result.events if e.kind == "work") >= 6 and asked and all(asked)


@pytest.mark.parametrize("factions,armies", [(1, 1), (2, 4), (3, 30), (5, 100)])
def test_the_bench_campaign_builds_and_checks_at_small_sizes(
    tmp_path: Path, factions: int, armies: int
) -> None:
    root = tmp_path / "bench"
    bench.build(root, factions, armies, 1)
    store = Store(root)
    state = store.state()
    files = store.check(store.game(state), state)
    assert len(files) == factions and all(of.ok for of in files), [of.errors[:1] for of in files]


def test_a_replay_serialises_the_world_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = played(tmp_path, 4)
    calls = []
    to_data = World.to_data
    monkeypatch.setattr(World, "to_data", lambda world: calls.append(1) or to_data(world))
    checks = verify(root)
    assert all(c.ok for c in checks) and len(checks) == 5
    assert len(calls) <= 1


def test_check_loads_neither_the_template_engine_nor_the_progress_bar(campaign: Path) -> None:
    program = (
        "import sys; from resolver.cli import main; code = main(['check', '--root', sys.argv[1]]); "
        "print(code, sorted(m for m in ('jinja2', 'tqdm') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", program, str(campaign)], capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "0 []", done.stderr


@pytest.fixture(scope="module")
def resolved_bench(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bench campaign of six nations, each attacking the next, with its first turn resolved: a turn
    with a battle for every nation, the shape that made the site grow with the square of its size."""
    root = tmp_path_factory.mktemp("site-scale") / "bench"
    bench.build(root, 6, 60, 1)
    resolve(root)
    return root


def test_a_turns_battle_stories_index_its_units_once(
    resolved_bench: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    units_by_id = story.units_by_id
    monkeypatch.setattr(story, "units_by_id", lambda states: calls.append(1) or units_by_id(states))
    history = load_history(Store(resolved_bench))
    (turn,) = history.turns
    battles = [i for i, e in enumerate(turn.events) if e["kind"] == "battle"]
    assert len(battles) >= 3 and set(battles) <= set(turn.stories)
    assert len(calls) == 1
    # Told together or one by one, each battle reads the same.
    store = Store(resolved_bench)
    before = canonical.read_yaml(resolved_bench / "campaign/turns/0000/state.yaml")
    game = history.game
    for index in battles:
        assert game.ruleset.story(turn.events[index], game, before, store.state()) == turn.stories[index]


def test_a_turns_names_make_their_pattern_once_for_all_its_dice(
    resolved_bench: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = load_history(Store(resolved_bench))
    calls = []
    make = text._id_pattern
    monkeypatch.setattr(text, "_id_pattern", lambda ids: calls.append(1) or make(ids))
    files = SitePages(Store(resolved_bench), history, "").build()
    chronicle = files["chronicle/turn-1.md"].decode()
    assert "or more needed" in chronicle  # the battles' dice are told, with readers' names
    assert len(calls) <= len(history.turns)


def test_readers_names_replace_whole_ids_of_any_shape() -> None:
    names = text.Names({"red": "Stermere", "red-u1": "Spearmen", "red.1": "First Banner", "a b": "Two Words"})
    for given in (names, dict(names)):
        said = text.readable("red-u1 hits red.1; red reduced a b; red-u10 and red.10", given)
        assert said == "Spearmen hits First Banner; Stermere reduced Two Words; red-u10 and Stermere.10"


def test_each_factions_page_lists_its_latest_deeds(resolved_bench: Path) -> None:
    store = Store(resolved_bench)
    pages = SitePages(store, load_history(store), "")
    game = pages.game
    (turn,) = pages.history.turns
    for faction in game.factions:
        own = [
            e
            for e in turn.events
            if faction in (e.get("actors") or []) and e["kind"] not in ("press", "rumor")
        ]
        assert own
        expected = [{"turn": 1, "text": game.ruleset.describe(e, game)} for e in own[: pages.DEEDS]]
        assert pages.deeds(faction) == expected


def test_the_sites_templates_and_standings_read_as_outside_a_held_still_state(resolved_bench: Path) -> None:
    store = Store(resolved_bench)
    history = load_history(store)
    files = SitePages(store, history, "").build()
    game, state = history.game, history.state
    for faction in game.factions:
        assert files[f"play/templates/{faction}.yaml"].decode() == store.render_template(game, state, faction)
    # The standings, counted from tables, against a plain count of each nation's pieces.
    for row in history.standings():
        armies = [a for a in state["armies"].values() if a["owner"] == row["faction"]]
        settlements = [s for s in state["settlements"].values() if s["owner"] == row["faction"]]
        assert (row["units"], row["settlements"]) == (sum(len(a["units"]) for a in armies), len(settlements))
