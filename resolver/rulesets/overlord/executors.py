"""The executors of the unit orders: keyword -> the function that carries out one line for one unit.

Each executor answers with a ``Result`` (and, when it changes the line, the line that replaces it: WAIT 10
becomes WAIT 9). A keyword with no executor yet is skipped and kept, so a queue written for an order the
month cannot run yet waits for it. Each part of the ruleset registers its executors at the end of
``EXECUTORS``; the conditions (AT, DAY, HAVE, LEADER, LEADING, SEE, SIZE, SKILL, WAIT), NAME, DESCRIBE,
SETTING and WORK are here, WITHDRAW in ``economy``.
"""

from __future__ import annotations

from ...core.programs import Line, Result, Timing
from . import (
    economy,
    goods,
    guards,
    language,
    markets,
    movement,
    production,
    recruiting,
    study,
    synchro,
    title_orders,
    warfare,
)
from . import model as m
from .month import Executor, Month

Outcome = tuple[Result, Line | None]
TRUE: Outcome = (Result.RAN, None)
FALSE: Outcome = (Result.SKIPPED, None)
DONE: Outcome = (Result.FINISHED, None)
NEVER: Outcome = (Result.INVALID, None)

# When each order of spec 2.11 runs, from the language table: a condition or an immediate order runs in the
# immediate passes, a full-day one in the day's full-day pass.
TIMING: dict[str, Timing] = {keyword: order.timing for keyword, order in language.ORDERS.items()}


def timing(line: Line) -> Timing:
    return TIMING.get(line.keyword, Timing.FULL_DAY)


def at(month: Month, unit_id: str, line: Line) -> Outcome:
    """True where the unit stands: at a location outside any structure, or inside a named structure."""
    unit, args = month.unit(unit_id), month.read(line).args
    if unit is None:
        return NEVER
    if args["place_kind"] == "structure":
        return TRUE if unit.get("structure") == args["place"] else FALSE
    return TRUE if unit.get("location") == args["place"] and not unit.get("structure") else FALSE


def day(month: Month, unit_id: str, line: Line) -> Outcome:
    return DONE if month.day == month.read(line).args["day"] else FALSE


def have(month: Month, unit_id: str, line: Line) -> Outcome:
    unit, args = month.unit(unit_id), month.read(line).args
    if unit is None:
        return NEVER
    wanted = args["count"] or 1  # HAVE food: at least one
    return TRUE if int((unit.get("items") or {}).get(args["item"], 0)) >= wanted else FALSE


def leader(month: Month, unit_id: str, line: Line) -> Outcome:
    return TRUE if month.read(line).args["unit"] in m.leader_chain(month.state, unit_id) else FALSE


def leading(month: Month, unit_id: str, line: Line) -> Outcome:
    return TRUE if month.read(line).args["unit"] in m.stack_of(month.state, unit_id) else FALSE


def see(month: Month, unit_id: str, line: Line) -> Outcome:
    """True when the named unit stands where this one does (hiding comes with the visibility rules)."""
    unit, other = month.unit(unit_id), month.unit(month.read(line).args["unit"])
    if unit is None:
        return NEVER
    return TRUE if other is not None and other.get("location") == unit.get("location") else FALSE


def size(month: Month, unit_id: str, line: Line) -> Outcome:
    unit = month.unit(unit_id)
    if unit is None:
        return NEVER
    return TRUE if int(unit.get("figures", 0)) >= month.read(line).args["count"] else FALSE


def skill(month: Month, unit_id: str, line: Line) -> Outcome:
    """SKILL tag n [LEVEL|DAYS]: the unit's level in the skill (or its days of experience) is at least n."""
    unit, args = month.unit(unit_id), month.read(line).args
    if unit is None:
        return NEVER
    measure = args["measure"] or month.rules["language"]["skill_measure_default"]
    days = int((unit.get("skills") or {}).get(args["skill"], 0))
    have_now = days if measure == "DAYS" else m.skill_level(month.rules, args["skill"], days)
    return TRUE if have_now >= args["count"] else FALSE


def wait(month: Month, unit_id: str, line: Line) -> Outcome:
    """WAIT n fires every day and counts down; it completes once n days have passed."""
    left = month.read(line).args["days"]
    if left <= 0:
        return DONE
    return Result.CONTINUES, line.with_args(str(left - 1), *line.args[1:])


def name(month: Month, unit_id: str, line: Line) -> Outcome:
    unit = month.unit(unit_id)
    text = str(month.read(line).args["name"]).strip()
    if unit is None or not text:
        return NEVER
    old = m.unit_name(month.state, unit_id)
    unit["name"] = text
    month.tell("unit_named", unit_id, old=old, new=text)
    return DONE


def describe(month: Month, unit_id: str, line: Line) -> Outcome:
    unit = month.unit(unit_id)
    if unit is None:
        return NEVER
    unit["description"] = str(month.read(line).args["text"] or "").strip()
    return DONE


def setting(month: Month, unit_id: str, line: Line) -> Outcome:
    unit, args = month.unit(unit_id), month.read(line).args
    if unit is None:
        return NEVER
    unit.setdefault("settings", {})[str(args["setting"]).lower()] = args["switch"] == "ON"
    return DONE


def work(month: Month, unit_id: str, line: Line) -> Outcome:
    unit = month.unit(unit_id)
    if unit is not None and not guards.may_work(month.rules, unit):
        return FALSE  # a guard earns no wages (spec 7.4)
    return economy.work_day(month, unit_id)


EXECUTORS: dict[str, Executor] = {
    "AT": at,
    "DAY": day,
    "HAVE": have,
    "LEADER": leader,
    "LEADING": leading,
    "SEE": see,
    "SIZE": size,
    "SKILL": skill,
    "WAIT": wait,
    "NAME": name,
    "DESCRIBE": describe,
    "SETTING": setting,
    "WORK": work,
    "WITHDRAW": economy.withdraw,
    **movement.EXECUTORS,  # travel, stacks and structures (movement.py)
    # Markets and recruiting (markets.py, recruiting.py): requests settled at the day's end.
    "BUY": markets.buy,
    "SELL": markets.sell,
    "RECRUIT": recruiting.recruit,
    **title_orders.EXECUTORS,  # stances, titles, guarding, pillage, attack, oaths (title_orders.py)
    **warfare.EXECUTORS,  # TACTIC and COMBAT (warfare.py)
    **study.EXECUTORS,  # STUDY, TEACH, FORGET (study.py)
    **synchro.EXECUTORS,  # SYNCHRO: two units' lines that fire together (synchro.py)
    **goods.EXECUTORS,  # GIVE, GET, DROP, EQUIP, SWAP, SPLIT, MERGE, DISBAND (goods.py)
}

# The production chapter: USE, TARGET, BUILD and CHRISTEN (production.py, structures.py).
EXECUTORS.update(production.EXECUTORS)
