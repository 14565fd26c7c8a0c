"""The fast reader of canonical YAML gives exactly what PyYAML gives, or hands the file to PyYAML."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical, canonical_reader
from resolver.workflow import default_factions, new_campaign, play_bot_turn

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Text that looks like something else to YAML 1.1, or that JSON and YAML escape differently.
TRICKY_TEXT = [
    "",
    " ",
    "yes",
    "No",
    "ON",
    "null",
    "~",
    "y",
    "1e+20",
    "010",
    "0x1F",
    "1_000",
    "12:30",
    "-",
    "a: b",
    "# not a comment",
    "- item",
    "'quoted'",
    '"double"',
    "back\\slash",
    "tab\there",
    "line\nbreak",
    "del\x7f",
    "nel\x85",
    "sep\u2028",
    "bidi\u202e",
    "bom\ufeff",
    "ünïcödé",
    "日本",
    "emoji 😀",
    "\U0010fffe",
    "=",
    "<<",
    "{}",
    "[]",
    "!tag",
    "&anchor",
    "*alias",
    "%directive",
]


def random_data(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth < 4 and roll < 0.3:
        return {random_key(rng): random_data(rng, depth + 1) for _ in range(rng.randint(0, 4))}
    if depth < 4 and roll < 0.5:
        return [random_data(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice(
        [
            None, True, False, 0, -7, 10**20, 0.5, -2.25, 1e-05, 1.5e300, 1e20,
            rng.choice(TRICKY_TEXT), f"word{rng.randint(0, 9)}", f"red-a{rng.randint(1, 99)}",
        ]
    )  # fmt: skip


def random_key(rng: random.Random) -> object:
    return rng.choice([rng.choice(TRICKY_TEXT), f"key{rng.randint(0, 20)}", rng.randint(-3, 30), True])


def pyyaml(raw: bytes) -> object:
    return canonical.load_with_pyyaml(raw)


@pytest.mark.parametrize("seed", range(300))
def test_what_the_writer_writes_reads_back_as_pyyaml_reads_it(seed: int) -> None:
    data = random_data(random.Random(seed))
    raw = canonical.dump(data)
    expected = pyyaml(raw)
    assert canonical.load(raw) == expected
    try:
        fast = canonical_reader.read(raw.decode())
    except canonical_reader.NotCanonical:
        return  # handed to PyYAML, checked above
    assert fast == expected and repr(fast) == repr(expected)  # same types, same key order


def test_every_file_of_a_played_campaign_takes_the_fast_path(tmp_path: Path) -> None:
    root = tmp_path / "camp"
    new_campaign(root, "nations", 3, default_factions(3, 3))
    for _ in range(3):
        play_bot_turn(root)
    files = [p for p in (root / "campaign").rglob("*.yaml") if p.name != "rules.yaml"]
    assert len(files) > 15
    for path in files:
        raw = path.read_bytes()
        assert canonical_reader.read(raw.decode()) == pyyaml(raw), path


@pytest.mark.parametrize(
    "text",
    [
        "a: 1 # a comment\n",
        "a:\n    b: 1\n",  # four spaces
        "a: 1e+5\n",  # a string to YAML 1.1
        "a: 010\n",  # octal in YAML 1.1
        "a: Yes\n",  # a boolean in YAML 1.1
        "a: 1_000\n",
        "a: 12:30\n",  # sexagesimal
        'a: "\\ud83d\\ude00"\n',  # two surrogates in YAML, one character in JSON
        'a: "\\x41"\n',  # a YAML-only escape
        "a: b\na: c\n",  # duplicate key: PyYAML keeps the last
        "a: [1, 2]\n",  # flow style
        "a: &x 1\nb: *x\n",
        "- a\n-  b\n",
        "a:\r\n  b: 1\r\n",
        "\ufeffa: 1\n",
        "a: 'single'\n",
        "a: |\n  block\n",
    ],
)
def test_anything_else_is_read_by_pyyaml(text: str) -> None:
    with pytest.raises(canonical_reader.NotCanonical):
        canonical_reader.read(text)
    try:
        expected = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        with pytest.raises(yaml.YAMLError):  # what PyYAML refuses is refused all the same
            canonical.load(text.encode())
        return
    assert canonical.load(text.encode()) == expected


def test_the_read_cache_is_keyed_by_the_bytes_so_a_hand_edit_is_read_again(
    tmp_path: Path, read_cache: Path
) -> None:
    path = tmp_path / "state.yaml"
    data = {"armies": {f"red-a{n}": {"name": str(n), "units": list(range(30))} for n in range(2000)}}
    canonical.write_yaml(path, data)
    assert len(path.read_bytes()) >= canonical.CACHED_SIZE
    assert canonical.read_yaml(path) == data
    assert len(list(read_cache.glob("*.json"))) == 1
    assert canonical.read_yaml(path) == data  # from the cache
    edited = path.read_text().replace("- 29", "- 31", 1)  # the GM edits the file by hand
    path.write_text(edited)
    assert canonical.read_yaml(path)["armies"]["red-a0"]["units"][-1] == 31


def test_the_read_cache_refuses_data_json_cannot_hold(tmp_path: Path, read_cache: Path) -> None:
    path = tmp_path / "big.yaml"
    data = {n: "x" * 100 for n in range(4000)}  # integer keys: JSON would make them text
    canonical.write_yaml(path, data)
    assert canonical.read_yaml(path) == data
    assert canonical.read_yaml(path) == data
    assert not list(read_cache.glob("*.json"))
