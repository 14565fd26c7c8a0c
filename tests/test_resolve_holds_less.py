"""What a resolve no longer recomputes or holds (issue 26) still gives what it gave.

- The world's digest is taken from the archive only when campaign/world.yaml is exactly the file the
  archive records; an edited world is digested from its data, as before.
- A resolve lets go of the state it began from before archiving: a state the GM edited by hand is still
  archived as state-before.yaml, and the turn still verifies.
- The read cache checks a state's JSON a part at a time: what it keeps reads back equal, and data JSON
  would change (numbers as keys, tuples) is not kept.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.engine.turn import TurnResult, resolve_turn
from resolver.store import beside
from resolver.store import store as store_module
from resolver.store.replay import verify
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign, play_bot_turn


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    new_campaign(tmp_path, "nations", 5, default_factions(3, 5))
    return tmp_path


def fresh_world(root: Path) -> object:
    store_module._WORLDS.clear()  # the parsed world is shared by path, mtime and size: read it again
    return Store(root).world()


def test_the_world_file_the_archive_records_gives_the_digest_of_its_data(campaign: Path) -> None:
    world = fresh_world(campaign)
    recorded = Store(campaign).archived_world_digest()
    assert "digest" in vars(world)  # taken from the archive, not computed
    assert world.digest == recorded == canonical.data_digest(world.to_data())


def test_an_edited_world_is_digested_from_its_data(campaign: Path) -> None:
    recorded = Store(campaign).archived_world_digest()
    path = campaign / "campaign/world.yaml"
    data = canonical.read_yaml(path)
    data["locations"][0]["label"] = "Somewhere else"
    canonical.write_yaml(path, data)
    world = fresh_world(campaign)
    assert "digest" not in vars(world)
    assert world.digest == canonical.data_digest(data) != recorded


def test_a_world_laid_out_by_hand_keeps_the_digest_of_its_data(campaign: Path) -> None:
    path = campaign / "campaign/world.yaml"
    path.write_bytes(b"# laid out by hand\n" + path.read_bytes())
    world = fresh_world(campaign)
    assert "digest" not in vars(world)
    assert world.digest == Store(campaign).archived_world_digest()  # the same data, so the same digest


def test_vouching_needs_the_very_bytes(campaign: Path) -> None:
    world = fresh_world(campaign)
    other = canonical.digest(b"another world")
    assert not world.vouch_digest(other, b"not that world")
    assert world.digest != other


def test_a_hand_edited_state_is_archived_as_before_and_verifies(campaign: Path) -> None:
    play_bot_turn(campaign)
    path = campaign / "campaign/state.yaml"
    state = canonical.read_yaml(path)
    state["factions"]["red"]["stock"]["resources"] += 7  # the GM's edit between turns
    path.write_bytes(canonical.dump(state))
    play_bot_turn(campaign)
    before = campaign / "campaign/turns/0002/state-before.yaml"
    assert (
        canonical.read_yaml(before)["factions"]["red"]["stock"]["resources"]
        == (state["factions"]["red"]["stock"]["resources"])
    )
    assert not (campaign / "campaign/turns/0001/state-before.yaml").exists()
    checks = verify(campaign)
    assert checks and all(check.ok for check in checks), [check for check in checks if not check.ok]


def test_an_archive_without_the_state_or_its_bytes_is_refused(campaign: Path) -> None:
    store = Store(campaign)
    with pytest.raises(ValueError, match="state before the turn"):
        store.archive(store.game(store.state()), None, _resolved(campaign), {}, [])
    assert not (campaign / "campaign/turns/0001").exists()


def _resolved(root: Path) -> TurnResult:
    """The first turn resolved with nobody's orders, as a resolve makes it."""
    store = Store(root)
    state = store.state()
    return resolve_turn(store.game(state), state, {})


def test_the_read_cache_keeps_a_big_state_that_reads_back_equal(campaign: Path, read_cache: Path) -> None:
    raw = (campaign / "campaign/state.yaml").read_bytes()
    state = canonical.load(raw)
    padded = raw + b" " * canonical.CACHED_SIZE  # big enough to be kept; the key is the bytes' digest
    canonical.remember(padded, state)
    kept = read_cache / f"{canonical.digest(padded)}.json"
    assert json.loads(kept.read_bytes()) == state
    assert kept.read_bytes() == json.dumps(state, ensure_ascii=False).encode()


@pytest.mark.parametrize(
    "changed",
    [
        {"armies": {1: {"id": "a"}}},  # a number as a key, in a collection
        {"armies": {"a": {"units": {2: "x"}}}},  # deeper than the parts
        {"armies": {"a": {"units": (1, 2)}}},  # a tuple reads back as a list
        {3: {}},  # at the top
    ],
)
def test_the_read_cache_keeps_nothing_json_would_change(read_cache: Path, changed: dict) -> None:
    raw = b"x" * canonical.CACHED_SIZE
    canonical.remember(raw, changed)
    assert not list(read_cache.glob("*.json"))


def played(root: Path, turns: int) -> dict[str, bytes]:
    new_campaign(root, "nations", 5, default_factions(3, 5))
    for _ in range(turns):
        play_bot_turn(root)
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted((root / "campaign").rglob("*")) + sorted((root / "orders").rglob("*"))
        if path.is_file()
    }


def test_the_player_aids_written_beside_the_archive_are_the_ones_written_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    beside_files = played(tmp_path / "beside", 2)
    monkeypatch.setattr(beside, "FORKING", False)
    in_turn = played(tmp_path / "in-turn", 2)
    assert any(name.startswith("orders/templates/") for name in in_turn)
    assert beside_files == in_turn


@pytest.mark.skipif(not beside.FORKING, reason="no fork on this system")
def test_what_the_child_could_not_write_the_resolve_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = played(tmp_path / "expected", 1)
    parent = os.getpid()
    own = Store.stage_player_aids

    def failing_in_the_child(self: Store, game: object, state: object) -> None:
        if os.getpid() != parent:
            (self.orders_dir / "templates" / store_module.STAGING).mkdir(parents=True, exist_ok=True)
            (self.orders_dir / "templates" / store_module.STAGING / "red.yaml").write_text("half a template")
            raise OSError("disk full")
        own(self, game, state)

    monkeypatch.setattr(Store, "stage_player_aids", failing_in_the_child)
    assert played(tmp_path / "again", 1) == expected


def test_a_failed_resolve_leaves_no_aid_the_child_was_writing(
    campaign: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise KeyboardInterrupt  # after the child began the aids

    monkeypatch.setattr(canonical, "remember", broken)
    store = Store(campaign)
    state = store.state()
    with pytest.raises(KeyboardInterrupt):
        store.archive(store.game(state), state, _resolved(campaign), {}, [])
    assert not (campaign / "orders/templates" / store_module.STAGING).exists()
    assert not (campaign / "campaign/turns/0001").exists()


def test_a_template_edited_since_it_was_compiled_is_compiled_again(campaign: Path, read_cache: Path) -> None:
    own = campaign / "templates" / "orders.yaml.j2"
    own.parent.mkdir()
    for text in ("first {{ faction }}\n", "second {{ faction }}\n"):
        own.write_text(text)
        store_module._TEMPLATE_ENVIRONMENTS.clear()  # a new process: only the compiled code is kept
        rendered = Store(campaign).templates().get_template("orders.yaml.j2").render(faction="red")
        assert rendered == text.replace("{{ faction }}", "red")
    assert list((read_cache / "templates").iterdir())  # the compiled code was kept


def checked(files: list) -> list[tuple]:
    return [
        (
            of.path,
            [issue.format() for issue in of.issues],
            dict(of.echo),
            [(o.action, dict(o.args)) for o in of.orders],
        )
        for of in files
    ]


def test_files_checked_together_read_as_each_file_checked_alone(tmp_path: Path) -> None:
    # Together, the state holds still: the sketches lay their copies over the shared armies and the
    # names are worked out once; alone, each file makes its own. Both must read every file the same.
    from resolver.engine.validate import check_order_file
    from resolver.workflow import write_bot_orders

    new_campaign(tmp_path, "nations", 3, default_factions(6, 3))
    play_bot_turn(tmp_path)
    write_bot_orders(tmp_path)
    store = Store(tmp_path)
    state = store.state()
    game = store.game(state)
    paths = store.order_paths()
    # One file names another nation by its name, which the checker reads as its id.
    first = paths[0]
    other = next(f for f in game.factions if f != first.stem)
    first.write_text(
        first.read_text() + f"- action: attack\n  army: nobody\n  target: {game.name_of(other)}\n"
    )
    together = store.check(game, state)
    alone = [check_order_file(game, state, path.read_bytes(), store.display(path)) for path in paths]
    assert checked(together) == checked(alone)
    assert any(issue.severity == "error" for issue in together[0].issues)


@pytest.mark.parametrize("part_lines", [1, 2, 7, 4096])
@pytest.mark.parametrize("seed", range(40))
def test_a_file_written_a_part_at_a_time_is_the_file_written_at_once(
    monkeypatch: pytest.MonkeyPatch, part_lines: int, seed: int
) -> None:
    from tests.core.test_canonical_reader import random_data

    monkeypatch.setattr(canonical, "_PART_LINES", part_lines)
    data = random_data(random.Random(seed))
    for value in (data, {"state": data, "more": [data, {"x": data}]}, [data, [data]]):
        lines: list[str] = []
        if isinstance(value, (dict, list)) and value:
            canonical._emit(value, "", lines)
            assert canonical.dump(value) == ("\n".join(lines) + "\n").encode()
