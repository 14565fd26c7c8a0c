import pytest
import yaml

from resolver.core import canonical
from resolver.core.rng import stream

TRICKY = [
    "yes",
    "No",
    "on",
    "null",
    "~",
    "",
    " lead",
    "trail ",
    "1:30",
    "010",
    "0x1F",
    "1e3",
    ".inf",
    "- x",
    "a: b",
    "#hash",
    'quote"s',
    "new\nline",
    "tab\t",
    "ünïcødé",
    "C4",
    "red-a1",
    "t3/battle1/x",
    "@at",
    "*star",
    "&amp",
    "!bang",
    "%pct",
    "{x}",
    "[y]",
    "'single'",
    "3",
    "-4",
    "true",
    "Spring, Year 1",
]


def test_tricky_text_round_trips() -> None:
    data = {"texts": TRICKY, "keys": {t: i for i, t in enumerate(TRICKY)}}
    assert yaml.safe_load(canonical.dump(data)) == data


def test_shapes_round_trip() -> None:
    data = {
        "a": [],
        "b": {},
        "c": [[1, 2], [], [{"x": 1, "y": [True, None]}], {"z": {}}],
        "d": [{"k": {"deep": [1]}, "m": "v"}],
        7: "int key",
        "e": -3,
        "f": 0.5,
        "g": None,
    }
    assert yaml.safe_load(canonical.dump(data)) == data


def test_random_nested_data_round_trips() -> None:
    s = stream(1, "canonical-fuzz")
    words = [*TRICKY, "plain", "x y", "Z"]

    def make(depth: int):
        kind = s.below(6 if depth < 4 else 3)
        if kind == 0:
            return s.choice(words)
        if kind == 1:
            return s.between(-1000, 1000)
        if kind == 2:
            return s.choice([True, False, None])
        if kind in (3, 4):
            return {s.choice(words): make(depth + 1) for _ in range(s.below(4))}
        return [make(depth + 1) for _ in range(s.below(4))]

    for _ in range(300):
        data = {"root": make(0)}
        assert yaml.safe_load(canonical.dump(data)) == data


def test_keys_are_sorted_and_output_is_stable() -> None:
    a = canonical.dump({"b": 1, "a": {"d": 2, "c": 3}})
    assert a == b"a:\n  c: 3\n  d: 2\nb: 1\n"
    assert canonical.dump({"a": {"c": 3, "d": 2}, "b": 1}) == a


def test_refuses_what_is_not_plain_data() -> None:
    with pytest.raises(TypeError):
        canonical.dump({"x": object()})
    with pytest.raises(ValueError):
        canonical.dump({"x": float("nan")})


def test_a_digest_asked_twice_of_the_same_bytes_is_the_same_and_never_stale() -> None:
    """``digest`` answers a second question about the same big bytes from the first; a bytearray, which
    may change in between, is always hashed again."""
    import hashlib

    big = bytes(range(256)) * (canonical.CACHED_SIZE // 256 + 1)
    assert canonical.digest(big) == canonical.digest(big) == hashlib.sha256(big).hexdigest()
    other = big[:-1] + b"x"
    assert canonical.digest(other) == hashlib.sha256(other).hexdigest()
    changing = bytearray(big)
    before = canonical.digest(changing)
    changing[0] ^= 1
    assert canonical.digest(changing) == hashlib.sha256(changing).hexdigest() != before
