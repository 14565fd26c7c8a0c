"""`campaign demo` prints each turn, then counts what happened. The counts are of what the turns printed:
every tally of the summary matches as many events told in the turns' lines, and nothing printed goes
uncounted. One deed is one line: a training that completes is not told three times, and a settlement that
falls says how."""

from __future__ import annotations

import contextlib
import io
import re
from collections import Counter
from typing import Any

import pytest

from resolver.cli import main
from resolver.engine.ruleset import RULESETS, Game, get_ruleset
from resolver.store.store import Store

from ..conftest import archived_events


@pytest.fixture(scope="module", params=RULESETS)
def demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The default demo of a ruleset (seed 1, as many turns as the ruleset's demo plays: 8, 12 weeks of
    usurper, two years of Diplomacy): its folder, game, printed turns and summary."""
    root = tmp_path_factory.mktemp(f"demo-{request.param}") / "scratch"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["demo", "--ruleset", request.param, "--root", str(root), "--seed", "1"]) == 0
    lines = out.getvalue().splitlines()
    turns: dict[int, list[str]] = {}
    for line in lines:
        heading = re.match(r"== Turn (\d+): ", line)
        if heading:
            turns[int(heading.group(1))] = []
        elif line.startswith("  - ") and turns:
            turns[max(turns)].append(line.removeprefix("  - "))
    # As many turns as the ruleset's demo plays: its ``demo_turns``, or to the date it stops at (two years
    # of Diplomacy, however many phases that takes); every turn archived was printed.
    played = len(Store(root).archived_turns())
    assert played >= get_ruleset(request.param).demo_turns
    assert sorted(turns) == list(range(1, played + 1))
    summary = next(line for line in lines if line.startswith(f"In {played} turns: "))
    return {"root": root, "game": Store(root).game(), "turns": turns, "summary": summary, "played": played}


def sentence(game: Game, event: dict[str, Any]) -> str:
    """An event's sentence as a printed line holds it: without its closing stop (a line said several
    times puts "(twice)" before it), line breaks shown as \\n."""
    return game.ruleset.describe(event, game).rstrip(".!?").replace("\n", "\\n")


def tallies(demo: dict[str, Any], kinds: set[str]) -> Counter[str]:
    """The summary's counts, by the kind of event each one counts."""
    game = demo["game"]
    counted: Counter[str] = Counter()
    for part in demo["summary"].removeprefix(f"In {demo['played']} turns: ").rstrip(".").split(", "):
        number = int(part.split()[0])
        (kind,) = [k for k in kinds if game.ruleset.tally(k, number) == part] or [part]
        assert kind in kinds, f"'{part}' counts no kind of event the turns had"
        counted[kind] += number
    return counted


def test_each_tally_of_the_summary_counts_events_the_turns_printed(demo: dict[str, Any]) -> None:
    game, turns = demo["game"], demo["turns"]
    events = archived_events(demo["root"])
    printed: Counter[str] = Counter()
    for event in events:
        if any(sentence(game, event) in line for line in turns[event["turn"]]):
            printed[event["kind"]] += 1
    assert tallies(demo, {e["kind"] for e in events}) == printed


def line_of(demo: dict[str, Any], event: dict[str, Any]) -> str | None:
    return next(
        (line for line in demo["turns"][event["turn"]] if sentence(demo["game"], event) in line), None
    )


def test_a_project_completed_is_told_on_the_line_of_its_last_work(demo: dict[str, Any]) -> None:
    events = [e for e in archived_events(demo["root"]) if e["visibility"] == "public"]
    completed = [e for e in events if e["kind"] == "project_completed"]
    if demo["game"].ruleset.id == "factions":
        assert completed  # the default demo trains Agitators to level 2 in turn 2
    for done in completed:
        work = [
            e
            for e in events
            if e["turn"] == done["turn"] and e["kind"] in ("train", "build")
            and e["data"].get("title") == done["data"]["title"]
        ]  # fmt: skip
        assert work and line_of(demo, done) == line_of(demo, work[-1]) is not None
        # The street's headline of it says the same in other words: the log does not tell it again.
        retold = [
            e for e in events if e["kind"] == "headline" and e["data"].get("topic") == "project_completed"
        ]
        for headline in retold:
            assert line_of(demo, headline) is None


def test_a_settlement_that_falls_says_how(demo: dict[str, Any]) -> None:
    events = [e for e in archived_events(demo["root"]) if e["visibility"] == "public"]
    fallen = [e for e in events if e["kind"] == "settlement_falls"]
    ways = set()
    for fall in fallen:
        line = line_of(demo, fall)
        assert line is not None
        stormed = [
            e
            for e in events
            if e["turn"] == fall["turn"] and e["kind"] == "assault"
            and e["data"]["settlement"] == fall["data"]["settlement"]
        ]  # fmt: skip
        told_how = bool(stormed) and sentence(demo["game"], stormed[-1]) in line
        assert told_how or "stood in its defence" in line, line
        ways.add("stormed" if told_how else "undefended")
    if demo["game"].ruleset.id == "nations":  # its demo has both: stormed against defenders, and taken empty
        assert ways == {"stormed", "undefended"}, ways
