"""Players read names (on the site, in their template: "The Tidewater Brotherhood", "Lairnach"), orders
keep ids (`brotherhood`, `blue`). A field that names a faction, an NPC faction, a location or a province
takes either, in any case; the check reads the name as the id once, so the echo, the resolution and a
replay all read that id; a name slightly off gets a "did you mean" with the id and its name; and every
name a template shows carries its id. Each test runs over every ruleset: a bot plays the turns, and its
orders are sent again with names instead of ids.

A ruleset whose orders are lines of words (overlord keeps the manual's order language: "STANCE blue
HOSTILE") has its ids inside those lines; there a name stands for an id written in double quotes in the
id's place (STANCE "Menfell" HOSTILE), and the check reads the line as the one with the id."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from resolver.core import canonical
from resolver.core import factions as faction_records
from resolver.engine.bots import bot_order_file
from resolver.engine.ruleset import RULESETS, Game, get_ruleset
from resolver.engine.validate import check_order_file
from resolver.store.replay import verify
from resolver.store.store import Store
from resolver.workflow import default_factions, new_campaign, play_bot_turn

Names = dict[str, tuple[str, ...]]  # id -> the names players read for it
TURNS = 3  # turns played at least
MOST_TURNS = 10  # and at most, until the bot's orders have named something by id


def names_players_read(game: Game, state: Mapping[str, Any]) -> dict[str, Names]:
    """What players see named on the site and in templates, by kind, each id with its names: the
    factions, the NPC factions of the rules, the world's places (a tile's or province's label and place
    name) and the state's locations (a city's taverns and docks)."""
    places = {
        loc.id: tuple(dict.fromkeys(n for n in (loc.label, loc.place) if n))
        for loc in game.world.locations.values()
    }
    return {
        "factions": {f: (game.name_of(f),) for f in game.factions},
        "npc factions": {
            npc: (str(spec["name"]),) for npc, spec in game.rules.get("npc_factions", {}).items()
        },
        "places": places,
        "locations": {lid: (str(loc["name"]),) for lid, loc in (state.get("locations") or {}).items()},
    }


# How a player who read a name may write it: as shown, in capitals, in small letters (one way a turn).
CASES = (str, str.upper, str.lower)


def spelled(key: str, named: Names, case: Callable[[str], str]) -> str:
    """The name (or, when it has no other name, the id) written in ``case``, unless that would name two
    things, or be the id as it is."""
    name = next((n for n in named.get(key, ()) if n.casefold() != key.casefold()), key)
    word = case(name) if case(name) != key else name.swapcase()
    others = [k for k, names in named.items() if word.casefold() in {k.casefold(), *map(str.casefold, names)}]
    return word if others == [key] else key


# A word of an order line, or a quoted string (which is one word, and holds no id to rename).
LINE_WORD = re.compile(r'"[^"]*"|[^\s"]+')


def in_line(line: str, known: dict[str, Names], case: Callable[[str], str]) -> str:
    """An order line (words with spaces between) with each word that is an id of a named thing
    replaced by the name, quoted, as a player who read the name would write it."""

    def renamed(match: re.Match[str]) -> str:
        word = match[0]
        named = next((names for names in known.values() if word in names), None)
        if named is None or word.startswith('"'):
            return word
        name = spelled(word, named, case)
        return word if name == word else f'"{name}"'

    return LINE_WORD.sub(renamed, line)


def with_names(
    order: dict[str, Any], known: dict[str, Names], case: Callable[[str], str]
) -> tuple[dict[str, Any], int]:
    """The order with every id of a named thing written as a player who read the name would write it
    (nested orders too, and the words of order lines); and how many were."""
    written, count = dict(order), 0
    for field, value in order.items():
        if isinstance(value, dict) and "action" in value:
            written[field], inner = with_names(value, known, case)
            count += inner
            continue
        values = value if isinstance(value, list) else [value]
        renamed = []
        for item in values:
            named = next((names for names in known.values() if isinstance(item, str) and item in names), None)
            if named is None and isinstance(value, list) and isinstance(item, str) and " " in item.strip():
                renamed.append(in_line(item, known, case))
                continue
            renamed.append(spelled(item, named, case) if named and field != "action" else item)
        count += sum(1 for old, new in zip(values, renamed, strict=True) if old != new)
        written[field] = renamed if isinstance(value, list) else renamed[0]
    return written, count


# Rulesets whose orders are fields naming things by id. Diplomacy's are lines of its notation, read by the
# board's own names and abbreviations (tests/diplomacy/test_order_files.py tests its did-you-mean).
BY_ID = [
    r
    for r in RULESETS
    if not any(s.text_field for s in get_ruleset(r).actions(get_ruleset(r).default_rules()).values())
]


@pytest.fixture(params=BY_ID)
def game_root(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    root = tmp_path / request.param
    new_campaign(root, request.param, 1, default_factions(4, 1))
    return root


def test_a_name_written_for_an_id_is_read_as_that_id_by_check_and_resolve(game_root: Path, run) -> None:
    renamed_in_all = 0
    for turn in range(1, MOST_TURNS + 1):
        store = Store(game_root)
        state = store.state()
        game = store.game(state)
        known = names_players_read(game, state)
        case = CASES[(turn - 1) % len(CASES)]
        schema = jsonschema.Draft7Validator(store.schema(game, state))
        for faction in faction_records.awaited(state, game.factions):
            by_id = bot_order_file(game, state, faction)
            data = canonical.load(by_id.raw)
            orders = [with_names(order, known, case) for order in data.get("orders") or []]
            renamed_in_all += sum(count for _, count in orders)
            raw = canonical.dump({**data, "orders": [order for order, _ in orders]})
            by_name = check_order_file(game, state, raw, f"orders/{faction}.yaml")
            # One reading: the same orders, the same echo, whichever way the file named things.
            assert by_name.ok, [i.format() for i in by_name.errors]
            assert [o.args for o in by_name.orders] == [o.args for o in by_id.orders]
            assert by_name.echo_lines() == by_id.echo_lines()
            if case is str:  # names as shown: the editor's schema takes them too
                assert not list(schema.iter_errors(canonical.load(raw))), faction
            (game_root / "orders" / f"{faction}.yaml").write_bytes(raw)
        # The player's next step: the turn resolves with the files that name things by name.
        code, out, err = run("check", "--root", game_root)
        assert code == 0, out + err
        code, _, err = run("resolve", "--root", game_root)
        assert code == 0, err
        events = canonical.read_yaml(game_root / f"campaign/turns/{int(state['turn']):04d}/events.yaml")
        failed = [e["data"]["reason"] for e in events["events"] if e["kind"] == "order_failed"]
        assert not [reason for reason in failed if re.search(r"[A-Z]{4,}", reason)], failed
        if renamed_in_all and turn >= TURNS:
            break
    assert renamed_in_all > 0  # the bot's orders named things: the names were really tried
    assert all(turn.ok for turn in verify(game_root))  # a replay reads the names as the resolution did


def test_a_name_slightly_off_gets_the_id_and_its_name(game_root: Path) -> None:
    found = next_named_field(game_root)
    for _ in range(MOST_TURNS):
        if found is not None:
            break
        play_bot_turn(game_root)
        found = next_named_field(game_root)
    assert found is not None, "the bot never named a thing that has a name"
    faction, data, index, field_name, key, name, writing = found
    data["orders"][index][field_name] = writing(name[:-1])  # the last letter lost
    store = Store(game_root)
    state = store.state()
    of = check_order_file(store.game(state), state, canonical.dump(data), f"orders/{faction}.yaml")
    hints = [i.hint for i in of.errors]
    assert any(f"did you mean '{key}' ({name})?" in hint for hint in hints), (name, hints)

    # The player takes the hint: the id it offers is accepted.
    data["orders"][index][field_name] = writing(key)
    again = check_order_file(store.game(state), state, canonical.dump(data), f"orders/{faction}.yaml")
    assert not [i for i in again.errors if i.order == index + 1], [i.format() for i in again.errors]


Writing = Callable[[str], Any]  # a word written in the place of an id -> the field's value with it there


def next_named_field(root: Path) -> tuple[str, dict[str, Any], int, str, str, str, Writing] | None:
    """A faction's bot orders this turn with an order whose field names, by id, a thing with a name (or
    whose order line does, in one of its words): with how to write another word in the id's place."""
    store = Store(root)
    state = store.state()
    game = store.game(state)
    known = names_players_read(game, state)
    for faction in faction_records.awaited(state, game.factions):
        data = canonical.load(bot_order_file(game, state, faction).raw)
        for index, order in enumerate(data.get("orders") or []):
            for field, value in order.items():
                names = next((n[value] for n in known.values() if isinstance(value, str) and value in n), ())
                name = next((n for n in names if n.casefold() != str(value).casefold() and len(n) > 4), None)
                if name is not None and field != "action":
                    return faction, data, index, field, value, name, lambda word: word
                inside = named_in_a_line(value, known) if isinstance(value, list) else None
                if inside is not None and field != "action":
                    return faction, data, index, field, *inside
    return None


def named_in_a_line(lines: list[Any], known: dict[str, Names]) -> tuple[str, str, Writing] | None:
    """An id in a word of an order line whose name names nothing else of its kind: the id, the name, and
    how to write a word, quoted, in its place."""
    for number, line in enumerate(lines):
        if not isinstance(line, str) or " " not in line.strip():
            continue
        for match in LINE_WORD.finditer(line):
            named = next((n for n in known.values() if match[0] in n), None)
            name = next((n for n in (named or {}).get(match[0], ()) if len(n) > 4), None)
            if named is None or name is None or spelled(match[0], named, str) != name:
                continue  # no name, or one that two things share: only the id names it

            def writing(word: str, number: int = number, match: re.Match[str] = match) -> list[Any]:
                line = f'{lines[number][: match.start()]}"{word}"{lines[number][match.end() :]}'
                return [*lines[:number], line, *lines[number + 1 :]]

            return match[0], name, writing
    return None


def test_every_name_a_template_shows_carries_its_id(game_root: Path) -> None:
    for _ in range(4):  # long enough for nations to meet, seasons to go to war
        play_bot_turn(game_root)
    store = Store(game_root)
    state = store.state()
    game = store.game(state)
    known = names_players_read(game, state)
    checked = 0
    for faction in faction_records.awaited(state, game.factions):
        template = (game_root / "orders" / "templates" / f"{faction}.yaml").read_text(encoding="utf-8")
        shown = names_shown(template, known)
        for start, end, key, name in shown:
            if any(s <= start and end <= e and (s, e) != (start, end) for s, e, _, _ in shown):
                continue  # part of a longer name ("Nealdhaven" in "Back Alleys of Nealdhaven")
            checked += 1
            # A name two things share (two plains of one name) is shown with the id of the one meant.
            sharing = {k for s, e, k, _ in shown if (s, e) == (start, end)}
            with_id = any(
                template[end:].startswith(f" [{k}]") or template[:start].endswith(f"{k} (") for k in sharing
            )
            line = template[template.rfind("\n", 0, start) + 1 : end + 40]
            assert with_id, f"{name} without its id {key}: {line}"
    assert checked > 0


# A name the template shows with its id in brackets: capitalised words, joined by "of" or "the" ("Elves
# of Menfell [blue-u1]", a usurper's unit, whose names are its own business and in no public list).
NAME_WITH_ID = re.compile(r"[A-Z][\w'’-]*(?: (?:of|the|[A-Z][\w'’-]*))* \[([\w-]+)\]")


def names_shown(template: str, known: dict[str, Names]) -> list[tuple[int, int, str, str]]:
    """Where the template shows a name of something that has an id of its own: start, end, id, name.
    A name shown with its id in brackets counts whole, so that a name within it (a faction's name in
    its unit's) is read as part of it."""
    found = [
        (match.start(), match.end() - len(match[1]) - 3, match[1], match[0].rsplit(" [", 1)[0])
        for match in NAME_WITH_ID.finditer(template)
    ]
    for named in known.values():
        for key, names in named.items():
            for name in {n for n in names if n != key}:
                for match in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", template):
                    found.append((match.start(), match.end(), key, name))
    return found
