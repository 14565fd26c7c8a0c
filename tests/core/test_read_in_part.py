"""Reading a big canonical file in part gives exactly what reading all of it gives: every entry, every
column, every other section; and a text not laid out as the writer writes is read whole."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from resolver.core import canonical, canonical_reader
from resolver.core.canonical_reader import NotCanonical, ReadEntries, read_in_part
from tests.core.test_canonical_reader import TRICKY_TEXT

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def random_text(rng: random.Random) -> str:
    return rng.choice(
        [*TRICKY_TEXT, "L2", "blue", "12", "a-b", "Pikes 2", "ünïcode", "x" * rng.randint(1, 30)]
    )


def random_value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    if kind == 0:
        return rng.randint(-5, 10**6)
    if kind == 1:
        return round(rng.uniform(-100, 100), rng.randint(0, 4))
    if kind == 2:
        return rng.choice([True, False, None])
    if kind in (3, 4, 5):
        return random_text(rng)
    if kind in (6, 7):
        return {random_text(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def random_state(rng: random.Random) -> dict[str, Any]:
    """A state-like mapping: armies with the columns a checker scans, sometimes missing or nested, among
    other sections before and after them; entry keys include texts that must be quoted."""
    armies: dict[str, Any] = {}
    for n in range(rng.randint(1, 60)):
        key = f"red-a{n}" if rng.random() < 0.8 else random_text(rng) + str(n)
        army: dict[str, Any] = {
            "id": key,
            "location": rng.choice(["A1", "B2", "yes", "12", "L 3"]),
            "name": rng.choice(["1", "2", "no", "Old Guard", "#x"]),
            "units": [{"id": f"u{n}-{k}", "hp": rng.randint(0, 3)} for k in range(rng.randint(0, 3))],
        }
        if rng.random() < 0.9:
            army["owner"] = rng.choice(["red", "blue", "on"])
        if rng.random() < 0.3:
            army["modifiers"] = {"attack": rng.randint(-1, 2), "owner": "not a column"}
        if rng.random() < 0.2:
            army["notes"] = random_value(rng, 1)
        armies[key] = army
    state: dict[str, Any] = {"armies": armies}
    for name in rng.sample(["aaa", "factions", "turn", "roads", "zeta"], rng.randint(0, 5)):
        state[name] = random_value(rng, 1)
    return state


@pytest.mark.parametrize("seed", range(60))
def test_reading_in_part_equals_reading_all(seed: int) -> None:
    rng = random.Random(seed)
    data = random_state(rng)
    raw = canonical.dump(data)
    expected = yaml.load(raw, Loader=_Loader)
    assert canonical.load_in_part(raw, "armies") == expected
    try:
        canonical_reader.read(raw.decode())
    except NotCanonical:  # text the fast reader leaves to PyYAML: the whole file went there too
        return
    whole_reads: list[int] = []
    got = read_in_part(raw.decode(), "armies", lambda: whole_reads.append(1) or canonical.load(raw))
    armies = got["armies"]
    assert isinstance(armies, ReadEntries)
    assert list(got) == list(expected)
    assert {k: v for k, v in got.items() if k != "armies"} == {
        k: v for k, v in expected.items() if k != "armies"
    }
    assert list(armies) == list(expected["armies"]) and len(armies) == len(expected["armies"])
    for field in ("owner", "name", "location", "id", "units", "modifiers"):
        column = armies.column(field)
        plain = all(
            field in army and not isinstance(army[field], dict | list) for army in expected["armies"].values()
        )
        if plain:  # every entry has it on one line: the column gives it
            assert column is not None
        if column is not None:  # a column is never wrong (an empty list or mapping is one line too)
            assert column == {key: army[field] for key, army in expected["armies"].items()}
    for key in reversed(list(expected["armies"])):
        assert armies[key] == expected["armies"][key]
    assert dict(armies.items()) == expected["armies"]
    assert not whole_reads  # every entry read on its own


def test_most_random_states_are_read_in_part() -> None:
    """The property test above is not vacuous: the fast reader takes most of its states."""
    taken = 0
    for seed in range(60):
        raw = canonical.dump(random_state(random.Random(seed)))
        taken += isinstance(canonical.load_in_part(raw, "armies")["armies"], ReadEntries)
    assert taken >= 20


@pytest.mark.parametrize(
    "text",
    [
        "armies:\n  a: 1\n  b:\n    id: b\n",  # an entry that is not a mapping
        "turn: 1\n",  # no such section
        "armies:\nturn: 1\n",  # the section without a value
        "turn: 1\narmies:\n  a:\n    id: a\nturn: 2\n",  # a top-level key twice
        "armies:\n  # a comment\n  a:\n    id: a\n",  # a line at column 2 that is no entry
        "armies:\n  a:\n    id: a\n  a:\n    id: b\n",  # an entry twice
        "armies: {a: {id: a}}\n",  # flow style
    ],
)
def test_a_layout_the_writer_does_not_write_is_read_whole(text: str) -> None:
    with pytest.raises(NotCanonical):
        read_in_part(text, "armies", lambda: pytest.fail("read_in_part refuses before reading any entry"))
    try:
        expected = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):
            canonical.load_in_part(text.encode(), "armies")
        return
    got = canonical.load_in_part(text.encode(), "armies")
    assert got == expected
    assert not isinstance((got or {}).get("armies") if isinstance(got, dict) else None, ReadEntries)


def test_an_entry_that_does_not_read_on_its_own_comes_from_the_whole_file() -> None:
    # A comment inside an entry: the entry's own text is not canonical, PyYAML reads the file.
    text = "armies:\n  a:\n    # the GM's note\n    id: a\n    owner: red\n  b:\n    id: b\n    owner: blue\n"
    got = canonical.load_in_part(text.encode(), "armies")
    assert isinstance(got["armies"], ReadEntries)
    assert got["armies"]["a"] == {"id": "a", "owner": "red"}
    assert got["armies"]["b"] == {"id": "b", "owner": "blue"}
    assert got["armies"].column("owner") == {"a": "red", "b": "blue"}


def test_a_column_line_outside_its_entry_gives_no_column() -> None:
    text = "armies:\n  a:\n    id: a\n  b:\n    id: b\n    owner: red\n    owner: blue\n"
    entries = canonical_reader.read_in_part(text, "armies", lambda: {})["armies"]
    assert entries.column("owner") is None  # two lines: the checker reads the entries instead
    assert entries.column("id") == {"a": "a", "b": "b"}


ARMY_FIELDS = ("id", "location", "name", "owner")  # what the nations checker's index asks of every army


@pytest.fixture
def every_file_is_big(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's files are small; here each goes through the read cache."""
    monkeypatch.setattr(canonical, "CACHED_SIZE", 1)


def plain_column(expected: dict[str, Any], field: str) -> dict[str, Any] | None:
    """The column a scan must give: every entry's value when each holds it on one line, else None."""
    armies = expected["armies"]
    if all(field in army and not isinstance(army[field], dict | list) for army in armies.values()):
        return {key: army[field] for key, army in armies.items()}
    return None


@pytest.mark.parametrize("seed", range(40))
def test_columns_scanned_together_are_the_columns_scanned_one_by_one(seed: int) -> None:
    raw = canonical.dump(random_state(random.Random(seed)))
    expected = yaml.load(raw, Loader=_Loader)
    together = canonical.load_in_part(raw, "armies")["armies"]
    if not isinstance(together, ReadEntries):  # read whole: no columns to compare
        assert together == expected["armies"]
        return
    alone = canonical.load_in_part(raw, "armies")["armies"]
    found = together.columns(ARMY_FIELDS)
    for field in ARMY_FIELDS:
        assert found[field] == alone.column(field)
        if found[field] is not None:  # a column is never wrong
            assert found[field] == plain_column(expected, field)
    if all(plain_column(expected, field) is not None for field in ARMY_FIELDS):
        assert all(found[field] is not None for field in ARMY_FIELDS)


@pytest.mark.parametrize("seed", range(40))
def test_a_second_reading_comes_from_the_index_the_first_left(
    seed: int, every_file_is_big: None, read_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = canonical.dump(random_state(random.Random(seed)))
    expected = yaml.load(raw, Loader=_Loader)
    first = canonical.load_in_part(raw, "armies")
    if not isinstance(first.get("armies"), ReadEntries):
        assert first == expected
        return
    scanned = first["armies"].columns(ARMY_FIELDS)
    assert len(list(read_cache.glob("*-armies-in-part.json"))) == 1
    # The second reading neither cuts the text nor scans a column: the index says it all.
    monkeypatch.setattr(ReadEntries, "cut", lambda *_: pytest.fail("the text was cut again"))
    monkeypatch.setattr(ReadEntries, "_scan", lambda *_: pytest.fail("a column was scanned again"))
    second = canonical.load_in_part(raw, "armies")
    assert second["armies"].columns(ARMY_FIELDS) == scanned
    assert list(second) == list(expected)
    assert {k: v for k, v in second.items() if k != "armies"} == {
        k: v for k, v in expected.items() if k != "armies"
    }
    assert list(second["armies"]) == list(expected["armies"])
    assert dict(second["armies"].items()) == expected["armies"]


def army_state(count: int) -> dict[str, Any]:
    owners = ("red", "blue", "green")
    armies = {
        f"{owners[n % 3]}-a{n}": {
            "id": f"{owners[n % 3]}-a{n}",
            "location": f"L{n % 7}",
            "name": str(n),
            "owner": owners[n % 3],
            "units": [{"hp": 1, "id": f"u{n}"}],
        }
        for n in range(count)
    }
    return {"armies": armies, "factions": {owner: {"stock": {"resources": 3}} for owner in owners}, "turn": 2}


def rotate(items: list[Any]) -> list[Any]:
    return [*items[1:], items[0]]


DAMAGED_INDEXES: dict[str, Callable[[dict[str, Any]], None]] = {
    "keys moved one entry on": lambda index: index["entries"].update(
        tokens=rotate(index["entries"]["tokens"])
    ),
    "places moved a character on": lambda index: index["entries"].update(
        starts=[place + 1 for place in index["entries"]["starts"]]
    ),
    "the first entry left out": lambda index: index["entries"].update(
        tokens=index["entries"]["tokens"][1:], starts=index["entries"]["starts"][1:]
    ),
    "a column cut short": lambda index: index["entries"]["columns"].update(owner=["red"]),
    "the section's end past the text": lambda index: index["entries"].update(end=10**9),
    "another section": lambda index: index.update(section="factions"),
    "another format": lambda index: index.update(format=0),
    "keys that are no text": lambda index: index["entries"].update(
        tokens=[1] * len(index["entries"]["tokens"])
    ),
}


# The index is named after the digest of the bytes it describes, like every read-cache entry; these are
# the damages a reading notices before trusting it (an entry left out in the middle, or a column's
# values changed, would not be noticed, as a whole state's cached data edited by hand would not be).
@pytest.mark.parametrize("tamper", DAMAGED_INDEXES.values(), ids=DAMAGED_INDEXES.keys())
def test_a_damaged_index_is_not_used(
    tamper: Callable[[dict[str, Any]], None], every_file_is_big: None, read_cache: Path
) -> None:
    state = army_state(30)
    raw = canonical.dump(state)
    canonical.load_in_part(raw, "armies")["armies"].columns(ARMY_FIELDS)
    (entry,) = read_cache.glob("*-armies-in-part.json")
    index = json.loads(entry.read_bytes())
    tamper(index)
    entry.write_text(json.dumps(index))
    expected = yaml.load(raw, Loader=_Loader)
    got = canonical.load_in_part(raw, "armies")
    assert got == expected
    assert list(got["armies"]) == list(expected["armies"])
    assert got["armies"].columns(ARMY_FIELDS) == {
        field: plain_column(expected, field) for field in ARMY_FIELDS
    }


@pytest.mark.parametrize("entry", [b"not json", b"[1, 2]", b'{"format": 1, "section": "armies"}'])
def test_a_broken_index_is_not_used(entry: bytes, every_file_is_big: None, read_cache: Path) -> None:
    state = army_state(5)
    raw = canonical.dump(state)
    canonical.load_in_part(raw, "armies")["armies"].columns(ARMY_FIELDS)
    (cached,) = read_cache.glob("*-armies-in-part.json")
    cached.write_bytes(entry)
    got = canonical.load_in_part(raw, "armies")
    assert isinstance(got["armies"], ReadEntries) and got == state


def written(value: Any) -> str:
    return canonical.dump(value).decode("utf-8")[:-1]


@pytest.mark.parametrize("seed", range(40))
def test_the_entries_holding_a_value_are_those_its_column_gives(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``holding`` finds the entries of one value by searching for its line, then (after a few searches)
    from a table of the field: both give what the column gives, or None where the column is None."""
    # Few searches before the table, so that these small states, with few values, try both ways.
    monkeypatch.setattr(canonical_reader, "SEARCHES_BEFORE_TABLE", 2)
    raw = canonical.dump(random_state(random.Random(seed)))
    expected = yaml.load(raw, Loader=_Loader)
    entries = canonical.load_in_part(raw, "armies")["armies"]
    if not isinstance(entries, ReadEntries):
        return
    for field in ARMY_FIELDS:
        column = plain_column(expected, field)
        values = sorted(
            {army[field] for army in expected["armies"].values() if isinstance(army.get(field), str)}
        )
        # Each value asked twice, and more values than searches before the table: both ways are tried.
        for value in [*values, "nowhere", *values]:
            found = entries.holding(field, written(value))
            if column is None:
                assert found is None
            else:
                assert found == [key for key, held in column.items() if held == value]


def test_holding_finds_nothing_where_an_entry_holds_a_field_twice() -> None:
    text = "armies:\n  a:\n    id: a\n  b:\n    id: b\n    owner: red\n    owner: blue\n"
    entries = canonical_reader.read_in_part(text, "armies", lambda: {})["armies"]
    assert entries.holding("owner", "red") is None
    assert entries.holding("id", "b") == ["b"]


def test_holding_after_the_table_is_made_gives_what_the_searches_gave(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    armies = {f"k{n}": {"id": f"k{n}", "location": ["A1", "B2", "yes", "C 3"][n % 4]} for n in range(30)}
    text = canonical.dump({"armies": armies, "turn": 1}).decode()
    searched = canonical_reader.read_in_part(text, "armies", lambda: {})["armies"]
    tabled = canonical_reader.read_in_part(text, "armies", lambda: {})["armies"]
    monkeypatch.setattr(canonical_reader, "SEARCHES_BEFORE_TABLE", 0)
    for place in ("A1", "B2", "yes", "C 3", "D4"):
        assert tabled.holding("location", written(place)) == [
            key
            for key in sorted(armies)
            if armies[key]["location"] == place  # the writer sorts keys
        ]
    monkeypatch.setattr(canonical_reader, "SEARCHES_BEFORE_TABLE", 100)
    for place in ("A1", "B2", "yes", "C 3", "D4"):
        assert searched.holding("location", written(place)) == tabled.holding("location", written(place))
