"""Winter diplomacy and what its results do for the year after.

A diplomat's visit reads the stance die, then that stance's success count and its table (rules.yaml
``checks.stance`` and ``checks.diplomacy_*``). Its results last into the next year and are kept with
the engine's timed relations and effects (``core.relations``), so they end by themselves:

- an alliance and an enforced peace are relations of the two nations (mutual);
- what binds one nation towards another (a promise not to attack, a lean in choosing the province to
  invade, tribute, an offended neighbour, alliance talks under way) is a timed effect on that nation,
  named after the other: ``no_attack:red`` on blue is blue's promise not to attack red.

The war steps ask this module what diplomacy allows (``forbids_war``, ``choice_modifier``) and what it
adds to the going-to-war test (``deceived``, ``pays_tribute``).
"""

from __future__ import annotations

from typing import Any

from ...core import relations
from ...core.checks import Check, CheckResult, Modifier
from ...core.dice import roll_label
from ...core.phases import State
from . import model as m

STANCES = ("friendly", "deceiving", "intimidating", "dominating")
# faction record: the nations it declares war on at the start of next season (an insult's war)
WAR_NEXT_SEASON = "war_next_season"
ALLIANCE = "alliance"
ENFORCED_PEACE = "enforced_peace"
# The timed effects on a nation; those with a colon are named after the other nation.
WAR_SUCCESS = "war_success"  # +1 success on its going-to-war tests (a Deceiving visit)
NO_ATTACK = "no_attack"  # it will not attack the named nation
CHOICE = "choice"  # ±1 when it chooses a province of the named nation to invade
TRIBUTE = "tribute_to"  # it pays the named nation tribute every season
OFFENDED = "offended"  # its provinces next to the named nation trade with one success less
TALKS = "alliance_talks"  # a friendly visit to the named nation went well


def _effect(kind: str, other: str) -> str:
    return f"{kind}:{other}"


def effect_value(state: State, nation: str, kind: str, other: str | None = None) -> int:
    """A timed diplomatic effect on ``nation`` (0 when none is in force)."""
    name = kind if other is None else _effect(kind, other)
    return int(state["factions"][nation].get("modifiers", {}).get(name, 0))


def _bound(state: State, nation: str, kind: str) -> list[str]:
    """The nations named by ``nation``'s effects of one kind, in id order."""
    prefix = f"{kind}:"
    names = state["factions"][nation].get("modifiers", {})
    return sorted(name[len(prefix) :] for name, value in names.items() if name.startswith(prefix) and value)


def _next_year(ctx: Any, state: State, nation: str, kind: str, value: int, other: str | None = None) -> None:
    """An effect on ``nation`` from this winter to the end of next winter (rules: diplomacy.next_year)."""
    name = kind if other is None else _effect(kind, other)
    seasons = int(ctx.rules["diplomacy"]["next_year"])
    relations.add_effect(state, "factions", nation, name, value, ctx.turn, seasons + 1)


def _drop(state: State, nation: str, kind: str, other: str) -> None:
    name = _effect(kind, other)
    state["factions"][nation].get("modifiers", {}).pop(name, None)
    relations.drop_effect(state, "factions", nation, name)


# -- what the war steps ask ------------------------------------------------------------------------------


def allies_of(state: State, nation: str) -> list[str]:
    entries = relations.of_faction(state, nation)
    return [next(p for p in e["parties"] if p != nation) for e in entries if e["kind"] == ALLIANCE]


def peace_winner(state: State, nation: str) -> str | None:
    """The nation that won the war ``nation`` lost, while the enforced peace lasts."""
    for entry in relations.of_faction(state, nation):
        if entry["kind"] == ENFORCED_PEACE and entry.get("loser") == nation:
            return str(entry["winner"])
    return None


def forbids_war(state: State, nation: str, enemy: str) -> str:
    """Why diplomacy keeps ``nation`` from going to war on ``enemy``, in words; '' when nothing does."""
    if peace_winner(state, nation):
        return "you are under an enforced peace"
    if enemy in allies_of(state, nation):
        return "you are allies"
    if effect_value(state, nation, NO_ATTACK, enemy):
        return "your diplomats promised not to attack them this year"
    return ""


def may_invade(state: State, nation: str, enemy: str) -> bool:
    """A promise not to attack holds even in a war already under way."""
    return not effect_value(state, nation, NO_ATTACK, enemy)


def choice_modifier(state: State, nation: str, enemy: str) -> int:
    """The lean (±1) a diplomat left on ``nation``'s choice of ``enemy``'s provinces to invade."""
    return effect_value(state, nation, CHOICE, enemy)


def deceived(state: State, nation: str) -> bool:
    return bool(effect_value(state, nation, WAR_SUCCESS))


def pays_tribute(state: State, nation: str) -> bool:
    return bool(_bound(state, nation, TRIBUTE))


def offended_by(state: State, nation: str) -> set[str]:
    """The nations ``nation``'s diplomats threatened and offended: its provinces next to them trade less."""
    return set(_bound(state, nation, OFFENDED))


def join_allies(state: State, aggressor: str, victim: str) -> list[str]:
    """The victim's allies join its war against the aggressor (house rule), defending, not invading."""
    joined = []
    for ally in allies_of(state, victim):
        if ally != aggressor and aggressor not in state["factions"][ally]["wars"]:
            for one, other in ((ally, aggressor), (aggressor, ally)):
                state["factions"][one]["wars"] = sorted({*state["factions"][one]["wars"], other})
            joined.append(ally)
    return joined


def enforce_peace(ctx: Any, state: State, loser: str, winner: str) -> None:
    """The loser makes peace with the winner and pays a recruiting roll each spring while it lasts: this
    season and ``national_morale.enforced_peace_seasons`` more, so one spring always falls within it."""
    seasons = int(ctx.rules["national_morale"]["enforced_peace_seasons"])
    entry = relations.set_relation(state, ctx.rules, loser, winner, ENFORCED_PEACE, ctx.turn, seasons + 1)
    assert entry is not None  # a timed relation is always stored
    entry.update(loser=loser, winner=winner)


# -- the steps ---------------------------------------------------------------------------------------------


def pay_tribute(ctx: Any, state: State) -> State:
    """Spring: a nation under enforced peace pays one recruiting roll to the nation that won the war."""
    for nation in m.nations(state):
        record = state["factions"][nation]
        winner = peace_winner(state, nation)
        if winner and winner in state["factions"] and record["rolls"] > 0:
            record["rolls"] -= 1
            state["factions"][winner]["rolls"] = int(state["factions"][winner].get("rolls", 0)) + 1
            ctx.emit("tribute_roll", actors=[nation, winner])
    return state


def pay_season_tribute(ctx: Any, state: State) -> None:
    """Every season a Dominating visit's tributary pays its resource, as far as its stock goes."""
    amount = int(ctx.rules["diplomacy"]["tribute_per_season"])
    for nation in m.nations(state):
        for receiver in _bound(state, nation, TRIBUTE):
            stock = state["factions"][nation]["stock"]
            paid = min(amount, int(stock["resources"]))
            stock["resources"] -= paid
            if receiver in state["factions"]:
                state["factions"][receiver]["stock"]["resources"] += paid
            ctx.emit("tribute_paid", actors=[nation, receiver], resources=paid, owed=amount)


def diplomacy(ctx: Any, state: State) -> State:
    """Each nation's diplomat: the stance die, then the stance's success count and its table."""
    stance_check = Check.from_rules(ctx.rules, "stance")
    for nation in m.nations(state):
        of = ctx.orders.get(nation)
        for order in [o for o in (of.orders if of else []) if o.action == "diplomat"][:1]:
            target = str(order["nation"])
            if target not in m.nations(state):
                ctx.order_failed(nation, order, "the diplomat's target is not a nation")
                continue
            stance = stance_check.roll(
                ctx,
                roll_label("stance", nation, target),
                modifiers=stance_modifiers(stance_check, state, nation, target),
                factions=[nation, target],
            )
            check = Check.from_rules(ctx.rules, f"diplomacy_{stance.result}")
            column = STANCES.index(stance.result)
            mods = [
                Modifier(name, int(values[column]))
                for name, values in ctx.rules["diplomacy_interest"].items()
                if interest_applies(state, name, nation, target) and int(values[column])
            ]
            result = check.roll(
                ctx, roll_label("diplomacy", nation, target), modifiers=mods, factions=[nation, target]
            )
            extra = apply_result(ctx, state, nation, target, result)
            ctx.emit(
                "diplomacy",
                actors=[nation, target],
                rolls=[stance.roll, result.roll, *extra.pop("rolls", [])],
                stance=stance.result,
                result=result.result,
                **extra,
            )
    return state


def stance_modifiers(check: Check, state: State, nation: str, target: str) -> list[Modifier]:
    year, theirs = state["factions"][nation]["year"], state["factions"][target]
    won, lost = int(year.get(f"won:{target}", 0)), int(year.get(f"lost:{target}", 0))
    mods = []
    if won > lost:
        mods.append(check.modifier("won_more"))
    if lost > won:
        mods.append(check.modifier("lost_more"))
    if theirs["year"].get("leader_lost"):
        mods.append(check.modifier("leader_lost"))
    if theirs.get("hero"):
        mods.append(check.modifier("hero_employed"))
    return mods


def interest_applies(state: State, name: str, nation: str, target: str) -> bool:
    ours, theirs = state["factions"][nation], state["factions"][target]
    land_ours, land_theirs = len(m.provinces_of(state, nation)), len(m.provinces_of(state, target))
    tests = {
        "target_conquest": theirs["interest"] == "conquest",
        "own_conquest": ours["interest"] == "conquest",
        "target_colonizing": theirs["interest"] == "colonizing",
        "own_colonizing": ours["interest"] == "colonizing",
        "target_loot": theirs["interest"] == "loot",
        "own_loot": ours["interest"] == "loot",
        "target_at_war": bool(theirs["wars"]),
        "own_at_war": bool(ours["wars"]),
        "target_at_peace": not theirs["wars"],
        "own_at_peace": not ours["wars"],
        "target_richer": theirs["stock"]["resources"] > ours["stock"]["resources"],
        "own_richer": ours["stock"]["resources"] > theirs["stock"]["resources"],
        "target_more_land": land_theirs > land_ours,
        "target_less_land": land_theirs < land_ours,
    }
    return tests[name]


def apply_result(ctx: Any, state: State, nation: str, target: str, result: CheckResult) -> dict[str, Any]:
    """What a row of the result tables does; returns what the diplomacy event tells besides the row."""
    outcome = result.result
    if outcome in ("considers_alliance", "good_progress"):
        return _friendly(ctx, state, nation, target)
    if outcome == "diplomatic_blow":
        return _blow(ctx, state, nation, target)
    if outcome.startswith("war_success"):
        _next_year(ctx, state, target, WAR_SUCCESS, 1)
        if outcome == "war_success_no_attack":
            _next_year(ctx, state, target, NO_ATTACK, 1, nation)
        else:
            _next_year(ctx, state, target, CHOICE, int(result.row.get("choice", 0)), nation)
    elif outcome == "choice_minus":
        _next_year(ctx, state, target, CHOICE, int(result.row.get("choice", 0)), nation)
    elif outcome == "threat_resented":
        _next_year(ctx, state, nation, OFFENDED, -1, target)
    elif outcome == "tribute":
        if m.at_war(state, nation, target):
            for one, other in ((nation, target), (target, nation)):
                _leave_war(state, one, other)
            enforce_peace(ctx, state, target, nation)
            return {"peace": True}
        _next_year(ctx, state, target, TRIBUTE, 1, nation)
    elif outcome == "war_declared":
        return _insulted(ctx, state, nation, target, result)
    return {}


def _friendly(ctx: Any, state: State, nation: str, target: str) -> dict[str, Any]:
    """A friendly visit with a success opens alliance talks; one made while talks from either side are
    open concludes the alliance (house rule)."""
    if target in allies_of(state, nation):
        return {}
    if effect_value(state, nation, TALKS, target) or effect_value(state, target, TALKS, nation):
        relations.set_relation(state, ctx.rules, nation, target, ALLIANCE, ctx.turn)
        for one, other in ((nation, target), (target, nation)):
            _drop(state, one, TALKS, other)
        return {"allied": True}
    _next_year(ctx, state, nation, TALKS, 1, target)
    return {}


def _blow(ctx: Any, state: State, nation: str, target: str) -> dict[str, Any]:
    """Every friendly step between the two is lost: talks from either side and an alliance."""
    for one, other in ((nation, target), (target, nation)):
        _drop(state, one, TALKS, other)
    if target in allies_of(state, nation):
        relations.set_relation(state, ctx.rules, nation, target, relations.default(ctx.rules), ctx.turn)
        return {"alliance_ended": True}
    return {}


def _insulted(ctx: Any, state: State, nation: str, target: str, result: CheckResult) -> dict[str, Any]:
    """The target declares war on the visitor next season (the war begins at the start of spring) and
    gains 1d6 free recruiting rolls now;
    the insult ends any alliance or enforced peace between them."""
    free = ctx.roll(
        roll_label("insult", target, nation), str(result.row.get("free_rolls")), factions=[target]
    )
    record = state["factions"][target]
    record["free_rolls"] = int(record.get("free_rolls", 0)) + free.total
    if relations.between(state, ctx.rules, nation, target) != relations.default(ctx.rules):
        relations.set_relation(state, ctx.rules, nation, target, relations.default(ctx.rules), ctx.turn)
    _drop(state, target, NO_ATTACK, nation)
    pending = record.setdefault(WAR_NEXT_SEASON, [])
    if nation not in pending:  # the seed: war is declared next season, not in this winter
        pending.append(nation)
        pending.sort()
    return {"rolls": [free], "free_rolls": free.total}


def begin_pending_wars(ctx: Any, state: State) -> None:
    """The wars an insult promised last winter begin now, at the start of spring."""
    for nation in m.nations(state):
        for enemy in state["factions"][nation].pop(WAR_NEXT_SEASON, []):
            if not m.at_war(state, nation, enemy):
                declare(state, nation, enemy)
                ctx.emit("war_begins", actors=[nation, enemy])


def declare(state: State, nation: str, enemy: str) -> None:
    """War both ways; ``nation`` is the aggressor, the one that invades when its orders are silent; the
    victim's allies join the war."""
    attacking = state["factions"][nation].setdefault("attacking", [])
    if enemy not in attacking:
        attacking.append(enemy)
    for one, other in ((nation, enemy), (enemy, nation)):
        wars = state["factions"][one]["wars"]
        if other not in wars:
            wars.append(other)
            wars.sort()
    join_allies(state, nation, enemy)


def _leave_war(state: State, one: str, other: str) -> None:
    record = state["factions"][one]
    if other in record["wars"]:
        record["wars"].remove(other)
    if other in record.get("attacking", []):
        record["attacking"].remove(other)


def make_peace(state: State, nation: str, enemy: str) -> None:
    for one, other in ((nation, enemy), (enemy, nation)):
        _leave_war(state, one, other)


def status_lines(state: State, nation: str, name_of: Any) -> list[str]:
    """What diplomacy binds the nation to this year, in words for its status and template."""
    lines = []
    winner = peace_winner(state, nation)
    if winner:
        lines.append(f"Under an enforced peace: you pay {name_of(winner)} a recruiting roll each spring.")
    for other in state["factions"][nation].get(WAR_NEXT_SEASON, []):
        lines.append(f"Insulted by its diplomat, you declare war on {name_of(other)} next season.")
    for other in _bound(state, nation, NO_ATTACK):
        lines.append(f"You promised not to attack {name_of(other)} this year.")
    for other in _bound(state, nation, TRIBUTE):
        lines.append(f"You pay {name_of(other)} tribute every season this year.")
    for other in _bound(state, nation, TALKS):
        lines.append(f"Alliance talks with {name_of(other)} are under way.")
    if deceived(state, nation):
        lines.append("Your people are eager for war this year (+1 success to go to war).")
    return lines
