"""Issue 8, points 1 and 12: player text holds printable characters only, the state stays readable
whatever text reaches it, and the smaller holes (twin order files, terminal escapes, GM values the
state cannot hold, unbounded lists) are closed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from resolver.core import canonical
from resolver.engine.validate import check_order_file
from resolver.rulesets.nations import model as m
from resolver.store.store import Store

from ..conftest import tree_bytes
from .hostile import GM_HEAD, HEAD


def red_capital(campaign: Path) -> str:
    state = canonical.read_yaml(campaign / "campaign/state.yaml")
    return next(s["name"] for s in state["settlements"].values() if s["owner"] == "red")


def recruit(campaign: Path, name: str) -> str:
    return (
        HEAD + "orders:\n  - action: recruit\n"
        f"    settlement: {red_capital(campaign)}\n    class: troops\n    name: {name}\n    trait: drilled\n"
    )


# -- point 1: one order bricks the campaign ------------------------------------------------------------


def test_unit_name_with_escaped_delete_is_refused_at_its_position(campaign: Path, run) -> None:
    """The reported scenario: "Arch\\x7fers" passed the check and left a state no one could read."""
    (campaign / "orders/red.yaml").write_text(recruit(campaign, r'"Arch\x7fers"'))
    before = tree_bytes(campaign)
    code, out, _ = run("check", "--root", campaign)
    assert code == 1
    assert "orders/red.yaml:8:11: error: character 5 of this text is U+007F (a control character)" in out
    assert "fix: remove it" in out
    code, _, err = run("resolve", "--root", campaign)
    assert code == 1 and "orders/red.yaml:8:11" in err
    assert tree_bytes(campaign) == before


def test_the_one_validator_refuses_it_for_the_pull_request_check_too(campaign: Path) -> None:
    store = Store(campaign)
    state = store.state()
    checked = check_order_file(
        store.game(state), state, recruit(campaign, r'"Arch\u202eers"').encode(), "orders/red.yaml"
    )
    assert not checked.ok and "U+202E (a bidirectional control)" in checked.errors[0].message


PRINTABLE_NAMES = [
    "Árvíztűrő Íjászok",
    "Лучники",
    "弓兵隊",
    "رماة السهام",
    "קשתים",
    "Archers 🏹",
    "👩‍👩‍👧 Kin",  # zero-width joiners hold the emoji together
    "Bogenschützen\u00a0Nord",  # a no-break space
    "Ｆｕｌｌｗｉｄｔｈ",
    "𝔊𝔬𝔱𝔥𝔦𝔠",  # outside the Basic Multilingual Plane
]


@pytest.mark.parametrize("name", PRINTABLE_NAMES)
def test_printable_text_of_every_script_is_accepted_and_resolves(name: str, campaign: Path, run) -> None:
    text = recruit(campaign, f'"{name}"') + (
        'press:\n  - headline: "Hail"\n    body: "Line one.\\n\\tLine two."\n'
        'rumors:\n  - "They say\\nthe bridge is out."\n'
    )
    (campaign / "orders/red.yaml").write_text(text)
    code, out, _ = run("check", "--root", campaign)
    assert code == 0, out
    code, _, err = run("resolve", "--root", campaign)
    assert code == 0, err
    state = canonical.read_yaml(campaign / "campaign/state.yaml")
    assert any(unit["name"] == name for army in state["armies"].values() for unit in army["units"])


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('    name: "Arch\\ners"\n', "U+000A (a line break)"),
        ('    name: "Arch\\ters"\n', "U+0009 (a tab)"),
    ],
)
def test_names_are_one_line(text: str, fragment: str, campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(recruit(campaign, "X").replace("    name: X\n", text))
    code, out, _ = run("check", "--root", campaign)
    assert code == 1 and f"orders/red.yaml:8:11: error: character 5 of this text is {fragment}" in out


def test_headlines_are_one_line(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(HEAD + 'orders: []\npress:\n  - headline: "Big\\nNews"\n')
    code, out, _ = run("check", "--root", campaign)
    assert code == 1 and "orders/red.yaml:6:15: error: character 4 of this text is U+000A" in out


def _all_code_points() -> list[str]:
    """Every code point but the surrogates (no UTF-8 file can hold one), in slices of 512."""
    points = [c for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    return ["".join(map(chr, points[i : i + 512])) for i in range(0, len(points), 512)]


def test_canonical_writer_round_trips_every_code_point() -> None:
    texts = _all_code_points()
    data = {"texts": texts, "keys": {text[:8]: index for index, text in enumerate(texts)}}
    raw = canonical.dump(data)
    assert canonical.load(raw) == data
    assert yaml.load(raw, Loader=yaml.SafeLoader) == data  # the pure-Python reader agrees


def test_canonical_writer_round_trips_random_text() -> None:
    """Random strings drawn from every plane, weighted towards the characters YAML treats specially."""
    rng = random.Random(8)
    special = [*range(0x00, 0x21), *range(0x7F, 0xA1), 0x2028, 0x2029, 0x202E, 0xFEFF, 0xFFFE, 0xFFFF]
    special += [ord(c) for c in "\"'\\:#-?[]{},&*!|>%@` "]
    texts = []
    for _ in range(3000):
        codes = [
            rng.choice(special) if rng.random() < 0.5 else rng.randrange(0x110000)
            for _ in range(rng.randrange(0, 12))
        ]
        texts.append("".join(chr(c) for c in codes if not 0xD800 <= c <= 0xDFFF))
    data = {"texts": texts, "keys": {text: 1 for text in texts}}
    assert canonical.load(canonical.dump(data)) == data


def test_canonical_writer_refuses_a_lone_surrogate_rather_than_write_it() -> None:
    with pytest.raises(ValueError, match="surrogate"):
        canonical.dump({"name": "a\ud800b"})


def test_a_state_written_with_raw_controls_by_an_earlier_writer_still_loads() -> None:
    old = 'name: "Arch\x7fers"\nnote: "\x9b31m \ufffe"\n'.encode()
    assert canonical.load(old) == {"name": "Arch\x7fers", "note": "\x9b31m \ufffe"}


def test_text_already_in_the_state_is_escaped_and_the_campaign_keeps_running(campaign: Path, run) -> None:
    """Text that never went through the check (a GM's edit, an older turn) cannot brick the state."""
    path = campaign / "campaign/state.yaml"
    state = canonical.read_yaml(path)
    army = next(a for a in state["armies"].values() if a["owner"] == "red")
    army["units"][0]["name"] = "Arch\x7fers \x85\ufffe\u2028"
    canonical.write_yaml(path, state)
    assert b"\x7f" not in path.read_bytes()
    code, _, err = run("resolve", "--root", campaign)
    assert code == 0, err
    state = canonical.read_yaml(path)
    assert state["turn"] == 2
    assert any(
        u["name"] == "Arch\x7fers \x85\ufffe\u2028" for a in state["armies"].values() for u in a["units"]
    )
    code, _, err = run("check", "--root", campaign)
    assert code == 0, err


# -- point 12 (a): orders/red.yml next to orders/red.yaml ---------------------------------------------


def test_twin_order_files_are_refused_naming_both(campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(HEAD + "orders: []\n")
    (campaign / "orders/red.yml").write_text(HEAD + "orders: []\nrumors: [a second voice]\n")
    before = tree_bytes(campaign)
    both = "orders/red.yaml and orders/red.yml both hold orders for 'red'"
    code, out, _ = run("check", "--root", campaign)
    assert code == 1
    assert f"orders/red.yaml: error: {both}" in out and f"orders/red.yml: error: {both}" in out
    code, _, err = run("resolve", "--root", campaign)
    assert code == 1 and both in err
    assert tree_bytes(campaign) == before


# -- point 12 (b): nothing from an order file drives the GM's terminal ------------------------------


def test_check_and_resolve_show_control_characters_of_file_names_escaped(campaign: Path, run) -> None:
    (campaign / "orders/red\x1b[2J.yaml").write_text(HEAD + "orders: []\n")
    code, out, err = run("check", "--root", campaign)
    assert code == 1 and "\x1b" not in out + err and "orders/red\\x1b[2J.yaml" in out
    code, out, err = run("resolve", "--root", campaign)
    assert code == 1 and "\x1b" not in out + err and "orders/red\\x1b[2J.yaml" in err


def test_resolve_output_shows_names_with_control_characters_escaped(campaign: Path, run) -> None:
    path = campaign / "campaign/players.yaml"
    players = canonical.read_yaml(path)
    players["factions"]["red"]["name"] = "Red\x1b]0;owned\x07"
    canonical.write_yaml(path, players)
    code, out, err = run("resolve", "--root", campaign)
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "Red\\x1b]0;owned\\x07" in out


def test_visible_keeps_printable_text_and_escapes_the_rest() -> None:
    from resolver.core.text import visible

    assert visible("Añ 弓 🏹\nnext") == "Añ 弓 🏹\nnext"
    assert visible("a\x1b[31mb\tc\x9bd\u202ee") == "a\\x1b[31mb\\tc\\x9bd\\u202ee"


# -- point 12 (c): GM values the state cannot hold ---------------------------------------------------


def _free_land(campaign: Path) -> str:
    store = Store(campaign)
    state = store.state()
    game = store.game(state)
    return next(
        tile
        for tile in game.world
        if m.passable(game.world, game.rules, tile) and not m.settlement_at(state, tile)
    )


def place_settlement(campaign: Path, extra: str) -> str:
    return (
        GM_HEAD + "orders:\n  - action: place\n    kind: settlement\n    id: new-s1\n    data:\n"
        f"      owner: red\n      type: standard\n      location: {_free_land(campaign)}\n      name: Nova\n"
        + extra
    )


def test_gm_place_of_plain_values_is_accepted(campaign: Path, run) -> None:
    (campaign / "orders/gm.yaml").write_text(place_settlement(campaign, "      level: 1\n      morale: 3\n"))
    code, out, _ = run("check", "--root", campaign)
    assert code == 0, out


@pytest.mark.parametrize(
    ("extra", "line", "col", "fragment"),
    [
        ("      level: 1\n      morale: .nan\n", 14, 15, "nan is not a number the state can hold"),
        ("      level: 1\n      morale: .inf\n", 14, 15, "inf is not a number the state can hold"),
        ("      level: 1\n      morale: -.inf\n", 14, 15, "-inf is not a number the state can hold"),
        (
            "      level: 1\n      founded: 2024-05-01\n",
            14,
            16,
            "2024-05-01 is a date, which the state cannot",
        ),
        ("      level: .nan\n", 13, 14, "nan is not a number the state can hold"),
        ("      level: 2024-05-01 10:00:00\n", 13, 14, "is a datetime, which the state cannot hold"),
        ("      level: high\n", 9, 7, "'level' must be a whole number"),
    ],
)
def test_gm_place_values_the_state_cannot_hold_are_refused_at_check(
    extra: str, line: int, col: int, fragment: str, campaign: Path, run
) -> None:
    (campaign / "orders/gm.yaml").write_text(place_settlement(campaign, extra))
    before = tree_bytes(campaign)
    code, out, err = run("check", "--root", campaign)
    assert code == 1, out + err
    assert f"orders/gm.yaml:{line}:{col}: error:" in out and fragment in out, out
    code, _, err = run("resolve", "--root", campaign)
    assert code == 1 and "internal error" not in err
    assert tree_bytes(campaign) == before


# -- point 12 (e): caps on the number of orders, articles and rumours -----------------------------------


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "orders:\n" + "  - {action: explore, army: '1'}\n" * 501,
            "the file has 501 orders; an order file holds at most 500",
        ),
        (
            "orders: []\npress:\n" + "  - headline: h\n" * 11,
            "the file has 11 press articles; an order file holds at most 10",
        ),
        ("orders: []\nrumors:\n" + "  - r\n" * 11, "the file has 11 rumours; an order file holds at most 10"),
    ],
)
def test_lists_in_an_order_file_are_capped(body: str, message: str, campaign: Path, run) -> None:
    (campaign / "orders/red.yaml").write_text(HEAD + body)
    code, out, _ = run("check", "--root", campaign)
    assert code == 1 and message in out and "fix: keep the" in out


def test_lists_at_their_cap_are_accepted(campaign: Path, run) -> None:
    body = "orders: []\npress:\n" + "  - headline: h\n" * 10 + "rumors:\n" + "  - r\n" * 10
    (campaign / "orders/red.yaml").write_text(HEAD + body)
    code, out, _ = run("check", "--root", campaign)
    assert code == 0, out
