"""A battle told round by round, for the chronicle: the sides and their strength, each round's hits and
losses, the outcome. Read from the archived event and its dice alone, with the state before the turn for
the units' names and hit points (a unit starts every battle whole: damage does not carry over)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...core.phases import State
from ...core.words import plural, tally_names
from ...engine.ruleset import Game

ROUND = re.compile(r"r(\d+)[a-z]*")  # the round segment of a battle roll's label: r1, r1s (stealth volley)
SHOT = re.compile(r"(?P<shooter>\S+) (?:hits|misses) (?P<target>\S+)")  # a battle roll's note (combat.py)


def units_by_id(states: tuple[State, ...]) -> dict[str, dict[str, Any]]:
    """Every unit of the given states by id, with its army's owner."""
    found: dict[str, dict[str, Any]] = {}
    for state in states:
        for army in state["armies"].values():
            for unit in army["units"]:
                found.setdefault(unit["id"], {**unit, "owner": army["owner"]})
    return found


def battle_story(event: Mapping[str, Any], game: Game, units: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The battle's sentences; ``units`` are those of the states around the turn (``units_by_id``)."""
    data = event.get("data", {})
    attacker, defender = data.get("attacker"), data.get("defender")
    if attacker is None or defender is None:
        return []
    rounds: dict[int, list[tuple[str, str, bool]]] = {}  # round -> (shooter, target, hit)
    for roll in event.get("rolls") or []:
        segments = str(roll["label"]).split("/")
        at = next((i for i, s in enumerate(segments) if ROUND.fullmatch(s)), None)
        decided = str(roll.get("decided") or "").split()
        if at is None or at + 1 >= len(segments) or len(decided) < 3:
            continue
        number = int(ROUND.fullmatch(segments[at])[1])  # type: ignore[index]
        rounds.setdefault(number, []).append((segments[at + 1], decided[-1], bool(roll.get("success"))))
    wounds: dict[str, int] = {}
    told = []
    for number, shots in sorted(rounds.items()):
        parts = []
        for side in (attacker, defender):
            own = [s for s in shots if units.get(s[0], {}).get("owner") == side]
            if own:
                hits = sum(1 for s in own if s[2])
                parts.append(
                    f"{game.name_of(side)} lands {plural(hits, 'hit')} in {plural(len(own), 'attack')}"
                )
        lost: dict[str, list[str]] = {}
        for _, target, hit in shots:
            if not hit:
                continue
            wounds[target] = wounds.get(target, 0) + 1
            unit = units.get(target)
            if unit and wounds[target] == int(unit.get("hp", 1)):
                lost.setdefault(unit["owner"], []).append(str(unit["name"]))
        sentence = f"Round {number}: " + "; ".join(parts)
        if lost:
            sentence += ". Fallen: " + "; ".join(
                f"{tally_names(names)} of {game.name_of(side)}" for side, names in lost.items()
            )
        told.append(sentence + ".")
    place = game.place_label(event.get("place"))
    result = data.get("result")
    if event["kind"] == "assault":
        return told  # the assault's own sentence says whether the walls held, the next one what followed
    if result == "attacker":
        outcome = f"{game.name_of(attacker)} is left holding {place}."
    elif result == "defender":
        outcome = f"{game.name_of(defender)} holds {place}."
    elif result == "mutual":
        outcome = "No one is left standing."
    else:
        outcome = f"Both sides still stand after {plural(int(data.get('rounds', 0)), 'round')}."
    return [*told, outcome]
