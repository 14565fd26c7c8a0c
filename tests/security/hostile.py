"""The hostile corpus: order files a hostile player might send, each of which must be refused.

Every case is refused by ``campaign check`` with exit 1, a message at file:line:col (or at the
file, when the problem has no position, such as a file that is not UTF-8) and a fix line, no
traceback, and nothing written. The cases are built here rather than stored as files so that
the big ones (64 KiB of brackets, 30,000 levels of nesting) cost nothing in the repository.
"""

from __future__ import annotations

from dataclasses import dataclass

CAMPAIGN = "test-run"  # the slug of the campaign the tests create ("Test Run")
HEAD = f"campaign: {CAMPAIGN}\nturn: 1\nfaction: red\n"
GM_HEAD = f"campaign: {CAMPAIGN}\nturn: 1\nfaction: gm\n"
BIG = 60 * 1024  # under the 64 KiB cap, so that the parser gates, not the size cap, must refuse


@dataclass(frozen=True)
class Case:
    name: str
    raw: bytes
    located: bool = True  # False: the problem concerns the whole file and has no line
    file: str = "red"  # the faction whose order file it is
    loader: bool = True  # refused by the YAML loader itself, before any field is read


def _text(name: str, text: str, **kw: object) -> Case:
    return Case(name, text.encode("utf-8"), **kw)  # type: ignore[arg-type]


def _order(field_text: str) -> str:
    return HEAD + "orders:\n  - action: explore\n    army: " + field_text + "\n"


def _nesting() -> list[Case]:
    cases = []
    for depth in (33, 100, 500, 1000, 5000, 30000):
        cases.append(_text(f"flow lists {depth} deep", HEAD + "orders: " + "[" * depth + "]" * depth + "\n"))
    for depth in (33, 500, 11000):
        cases.append(_text(f"flow mappings {depth} deep", HEAD + "orders: " + "{a: " * depth + "}" * depth))
    for depth in (33, 500, 25000):
        cases.append(
            _text(f"block lists {depth} deep on one line", HEAD + "orders:\n  " + "- " * depth + "x\n")
        )
    cases.append(
        _text(
            "block mappings 40 deep",
            HEAD + "orders:\n" + "".join("  " * (i + 1) + f"k{i}:\n" for i in range(40)) + "  " * 41 + "x\n",
        )
    )
    cases.append(_text("mixed nesting 1000 deep", HEAD + "orders: " + "[{a: " * 500 + "1" + "}]" * 500))
    cases.append(_text("nesting that never closes", HEAD + "orders: " + "[" * 20000))
    cases.append(_text("nesting inside a press article", HEAD + "press:\n  - headline: " + "[" * 3000))
    cases.append(
        _text(
            "nesting in GM place data",
            GM_HEAD + "orders:\n  - action: place\n    kind: army\n    id: x\n    data: " + "[" * 600,
            file="gm",
        )
    )
    return cases


def _unclosed() -> list[Case]:
    return [
        _text("64 KiB of unclosed braces", "{" * BIG),
        _text("64 KiB of unclosed brackets", "[" * BIG),
        _text("64 KiB of unclosed braces after the envelope", HEAD + "orders: " + "{" * (BIG - 100)),
        _text("64 KiB of braces, one per line", "{\n" * (BIG // 2)),
        _text("64 KiB of '[a, ' never closed", HEAD + "orders: " + "[a, " * (BIG // 4 - 30)),
        _text("64 KiB of '{a: ' never closed", HEAD + "orders: " + "{a: " * (BIG // 4 - 30)),
        _text("unclosed double quote", HEAD + 'orders: []\nrumors:\n  - "' + "x" * 1000),
        _text("unclosed single quote", HEAD + "orders: []\nrumors:\n  - '" + "x" * 1000),
        _text("64 KiB of question marks", HEAD + "orders: " + "? " * (BIG // 2 - 40)),
        _text("64 KiB of dashes without space", HEAD + "orders: " + "-[" * (BIG // 2 - 40), loader=False),
        _text("a long simple key", HEAD + "orders: []\n" + "k" * 5000 + ": 1\n"),
        _text(
            "many keys on one flow line",
            HEAD + "orders: {" + ", ".join(f"k{i}: 1" for i in range(6000)) + "\n",
        ),
    ]


_TAGS = (
    "!!int 3",
    "!!int xyz",
    "!!int 0x_",
    "!!bool maybe",
    "!!bool yes",
    "!!float abc",
    "!!float 1.5",
    "!!timestamp nope",
    "!!timestamp 2024-13-45",
    "!!str x",
    "!!null x",
    "!!binary '***'",
    "!!binary aGVsbG8=",
    "!!python/object:os.system x",
    "!!python/name:os.system x",
    "!!set {a, b}",
    "!!omap [a: 1]",
    "!!pairs [a: 1]",
    "!!map {a: 1}",
    "!!seq [1]",
    "!foo bar",
    "! bar",
    "!<tag:example.com,2000:x> bar",
    "!!merge x",
    "!!value x",
)


def _tags() -> list[Case]:
    cases = [_text(f"tag {tag}", _order(tag)) for tag in _TAGS]
    cases.append(_text("tag on a key", HEAD + "!!str orders: []\n"))
    cases.append(_text("tag on the document", "--- !!map\n" + HEAD))
    cases.append(_text("tag on the orders list", HEAD + "orders: !!seq\n  - action: explore\n"))
    cases.append(_text("TAG directive", "%TAG !e! tag:example.com,2000:\n---\n" + HEAD + "orders: !e!x []\n"))
    cases.append(
        _text(
            "tag in GM place data", GM_HEAD + "orders:\n  - {action: place, data: !!float .nan}\n", file="gm"
        )
    )
    return cases


def _numbers() -> list[Case]:
    cases = [_text(f"integer of {n} digits", _order("9" * n)) for n in (33, 100, 4300, 4301, 5000, 30000)]
    cases += [
        _text("negative integer of 5,000 digits", _order("-" + "9" * 5000)),
        _text("float of 5,000 digits", _order("1." + "5" * 5000)),
        _text("exponent of 5,000 digits", _order("1.0e+" + "9" * 5000)),
        _text("sexagesimal of 10,000 parts", _order("1" + ":30" * 10000)),
        _text("underscored integer of 5,000 characters", _order("1" + "_0" * 2500)),
        _text("hex with no digits", _order("0x_")),
        _text("binary with no digits", _order("0b_")),
        _text("negative hex with no digits", _order("-0x_")),
        _text("month 13", _order("2024-13-01")),
        _text("day 45", _order("2024-01-45")),
        _text("30 February", _order("2023-02-30")),
        _text("hour 25", _order("2024-01-01 25:00:00")),
        _text("minute 99", _order("2024-01-01T10:99:00")),
        _text("timezone out of range", _order("2024-01-01T10:00:00+99:99")),
        _text("integer of 5,000 digits as a key", HEAD + "orders: []\n" + "1" * 5000 + ": x\n"),
        _text(
            "integer of 5,000 digits in GM place data",
            GM_HEAD + "orders:\n  - {action: remove, kind: army, id: " + "7" * 5000 + "}\n",
            file="gm",
        ),
    ]
    return cases


# Characters that order files refuse anywhere, raw in the file. Tab, line feed and carriage return
# are the file's own layout; every other C0 control is refused.
_RAW = [chr(c) for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)] + [
    "\x7f",
    "\x80",
    "\x85",
    "\x9b",  # the one-byte Control Sequence Introducer of terminals
    "\x9f",
    "\u2028",
    "\u2029",
    "\u202a",
    "\u202e",
    "\u2066",
    "\u2069",
    "\ufeff",
    "\ue000",
    "\uf8ff",
    "\ufdd0",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U000f0000",
    "\U0010ffff",
]

# The same written as YAML escapes inside quoted text, which the YAML reader accepts.
_ESCAPED = [
    r"\x7f",
    r"\x1b[2J",
    r"\e]0;owned\a",
    r"\0",
    r"\b",
    r"\r",
    r"\x85",
    r"\N",
    r"\x9b31m",
    r"\u2028",
    r"\L",
    r"\P",
    r"\u202e",
    r"\u2066",
    r"\ufeff",
    r"\ue000",
    r"\ufdd0",
    r"\ufffe",
    r"\uffff",
    r"\U0010fffe",
    r"\U000f0001",
]


def _characters() -> list[Case]:
    cases = [_text(f"raw U+{ord(c):04X} in a value", _order(f"Arch{c}ers")) for c in _RAW]
    cases += [_text(f"escaped {e} in a value", _order(f'"Arch{e}ers"')) for e in _ESCAPED]
    cases += [
        _text("raw escape in a comment", HEAD + "orders: []  # \x1b[2J\n"),
        _text("bidi override in a comment", HEAD + "orders: []  # \u202e evil\n"),
        _text("escape sequence in a key", HEAD + 'orders: []\n"k\\x1b[31m": 1\n'),
        _text("line break in a key", HEAD + 'orders: []\n"k\\nk": 1\n'),
        _text("control character in a rumour", HEAD + 'orders: []\nrumors:\n  - "a\\x07b"\n'),
        _text("control character in a headline", HEAD + 'orders: []\npress:\n  - headline: "a\\x1bb"\n'),
        _text(
            "control character in an article",
            HEAD + 'orders: []\npress:\n  - {headline: h, body: "a\\x1bb"}\n',
        ),
        _text(
            "control character in a GM narration",
            GM_HEAD + 'orders:\n  - {action: narrate, headline: h, text: "a\\x7fb"}\n',
            file="gm",
        ),
        _text(
            "control character deep in GM place data",
            GM_HEAD + 'orders:\n  - {action: place, kind: army, id: x, data: {units: [{name: "a\\x7fb"}]}}\n',
            file="gm",
        ),
        _text("lone surrogate escape", _order(r'"\ud800"')),
        _text("escape beyond Unicode", _order(r'"\U00110000"')),
        # Tabs and line breaks are refused where text is one line: names, ids, headlines.
        _text("line break in a name", _order('"Arch\\ners"'), loader=False),
        _text("tab in a name", _order('"Arch\\ters"'), loader=False),
        _text("line break in a headline", HEAD + 'orders: []\npress:\n  - headline: "a\\nb"\n', loader=False),
        _text("block text as a name", _order("|\n      Arch\n      ers"), loader=False),
    ]
    return cases


def _structure() -> list[Case]:
    laughs = "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))
    return [
        _text("anchor", HEAD + "x: &a 1\norders: []\n"),
        _text("alias", HEAD + "orders: []\nrumors: [&r hi, *r]\n"),
        _text("billion laughs", HEAD + "l0: &l0 [lol]\n" + laughs),
        _text("merge key", HEAD + "orders:\n  - <<: {action: explore}\n"),
        _text("second document", HEAD + "orders: []\n---\n" + HEAD),
        _text("thousands of documents", (HEAD + "orders: []\n---\n") * 600),
        _text("duplicate key", HEAD + "orders: []\norders: []\n"),
        _text("duplicate field in an order", _order("x\n    army: y")),
        _text("a list as a key", HEAD + "orders: []\n? [a, b]\n: c\n"),
        _text("a mapping as a key", HEAD + "orders: []\n{a: 1}: c\n"),
        _text("top-level list", "- " + HEAD.replace("\n", "\n  "), loader=False),
        _text("top-level text", "hello\n", loader=False),
        _text("top-level number", "42\n", loader=False),
        _text("YAML 9.9 directive", "%YAML 9.9\n---\n" + HEAD),
        _text("tab indentation", HEAD + "orders:\n\t- action: explore\n"),
        _text("bad indentation", HEAD + "orders:\n  - action: explore\n army: x\n"),
        Case("not UTF-8", HEAD.encode() + b"orders: []\nrumors: [\xff\xfe]\n", located=False),
        Case("UTF-16", HEAD.encode("utf-16"), located=False),
        Case("Latin-1 name", (HEAD + "orders: []\nrumors: [caf\xe9]\n").encode("latin-1"), located=False),
        Case("over the size cap", (HEAD + "orders: []\n# " + "x" * 70000 + "\n").encode(), located=False),
        Case("NUL bytes", b"\x00" * 1000),
    ]


def _caps() -> list[Case]:
    orders = "".join("  - {action: explore, army: '1'}\n" for _ in range(501))
    return [
        _text("501 orders", HEAD + "orders:\n" + orders, loader=False),
        _text("11 press articles", HEAD + "orders: []\npress:\n" + "  - headline: h\n" * 11, loader=False),
        _text("11 rumours", HEAD + "orders: []\nrumors:\n" + "  - r\n" * 11, loader=False),
        _text("3,000 empty orders", HEAD + "orders: [" + "{}, " * 3000 + "]\n", loader=False),
    ]


def _gm_values() -> list[Case]:
    """What YAML reads as a float or a date, where the state holds text and whole numbers."""
    place = GM_HEAD + "orders:\n  - action: place\n    kind: settlement\n    id: new-s1\n    data:\n"
    settlement = "      owner: red\n      type: standard\n      location: A1\n      name: Nova\n"
    extras = {
        f"GM place: level {label}": f"      level: {value}\n"
        for label, value in (
            ("nan", ".nan"),
            ("inf", ".inf"),
            ("-inf", "-.inf"),
            ("a date", "2024-05-01"),
            ("a time", "2024-05-01 10:00:00"),
            ("text", "high"),
            ("a list", "[1]"),
        )
    }
    extras["GM place: nan in a field of its own"] = "      level: 1\n      morale: .nan\n"
    cases = [
        _text(name, place + settlement + extra, file="gm", loader=False) for name, extra in extras.items()
    ]
    for label, location in (("a date", "2024-01-01"), ("a list", "[A1]")):
        body = settlement.replace("A1", location) + "      level: 1\n"
        cases.append(_text(f"GM place: {label} as location", place + body, file="gm", loader=False))
    return cases


def corpus() -> list[Case]:
    return [
        *_nesting(),
        *_unclosed(),
        *_tags(),
        *_numbers(),
        *_characters(),
        *_structure(),
        *_caps(),
        *_gm_values(),
    ]


CORPUS = corpus()
assert len({case.name for case in CORPUS}) == len(CORPUS), "case names must be unique"
assert all(len(case.raw) <= 64 * 1024 or case.name == "over the size cap" for case in CORPUS)
