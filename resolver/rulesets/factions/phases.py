"""The faction turn, phase by phase (the table itself is in rules.yaml).

Income; instructions (one action per lieutenant); units assigned; actions in the listed order, the first
of every faction, then the second …, each falling back on its backup when it cannot be carried out;
upkeep; and the interpretation of the turn for the newspaper.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ...core.checks import Modifier
from ...core.dice import roll_label
from ...core.orders import Order
from ...core.phases import State
from . import model as m
from .effects import EFFECTS, Execution, age_key, remove_asset
from .orders import same_target
from .plans import GAINED, FactionsTurn, Plan, Reader, Reject
from .tasks import NOBODY, Side, acting_force, defending_force, npc_force, reaches, rival_force, roll_task

if TYPE_CHECKING:
    from ...engine.context import TurnContext

    Context = TurnContext[FactionsTurn]  # a turn of this ruleset, with its typed memory

# What of an action others may read when they do not know who did it.
ANONYMOUS_KEYS = (
    "action",
    "band",
    "location",
    "location_name",
    "npc",
    "npc_name",
    "target",
    "type_name",
    "destroyed",
    "holding_lost",
    "taken",
    "item",
    "joined",
)


# -- 1. income ----------------------------------------------------------------------------------------------


def run_income(ctx: Context, state: State) -> State:
    for faction in m.active_factions(state):
        income = m.income_of(ctx.rules, state, faction)
        for stock, n in income.items():
            m.gain(state, faction, stock, n)
        if any(income.values()):
            ctx.emit("income", actors=[faction], visible_to=[faction], **income)
    return state


# -- 2. instructions and 3. assignment ----------------------------------------------------------------------


def run_instructions(ctx: Context, state: State) -> State:
    queues: dict[str, list[Order]] = {}
    for faction in ctx.posting_order:
        of = ctx.orders.get(faction)
        if of is None or state["factions"][faction].get("status", "active") != "active":
            continue
        queue = []
        for order in of.orders:
            lieutenant = state["assets"].get(order["lieutenant"])
            if lieutenant is None or lieutenant["owner"] != faction:
                ctx.order_failed(faction, order, f"{order['lieutenant']} no longer serves you")
                continue
            queue.append(order)
        queues[faction] = queue
    ctx.memory.queues = queues
    return state


def run_assignment(ctx: Context, state: State) -> State:
    assigned: dict[str, tuple[str, int]] = {}
    for faction, queue in ctx.memory.queues.items():
        teams: dict[str, list[str]] = {}
        for order in queue:
            # Units still to be gained join when their order has gained them.
            units = [str(ref) for ref in order.get("units") or [] if not str(ref).startswith(GAINED)]
            for ref in units:
                assigned.setdefault(ref, (faction, order.number))
            if units:
                teams[order["lieutenant"]] = units
        if teams:
            ctx.emit("assigned", actors=[faction], visible_to=[faction], teams=teams)
    ctx.memory.assigned = assigned
    return state


# -- 4. actions ---------------------------------------------------------------------------------------------


def run_actions(ctx: Context, state: State) -> State:
    queues = ctx.memory.queues
    for slot in range(max((len(q) for q in queues.values()), default=0)):
        for faction in ctx.posting_order:
            queue = queues.get(faction, [])
            if slot < len(queue):
                perform(ctx, state, faction, queue[slot])
    for pid, project in sorted(state["projects"].items()):
        if not project.get("pausable", True) and project.get("worked") != ctx.turn:
            del state["projects"][pid]
            ctx.emit(
                "project_abandoned",
                actors=[project["owner"]],
                visible_to=[project["owner"]],
                project=pid,
                title=project["title"],
                progress=project["progress"],
                needed=project["needed"],
            )
    for asset in state["assets"].values():  # a plan bonus is for this turn's action only
        if "plan" in asset.get("modifiers", {}):
            del asset["modifiers"]["plan"]
    return state


def perform(ctx: Context, state: State, faction: str, order: Order) -> None:
    """Carry out one order, or its backup if the order cannot be carried out as things now stand."""
    assigned, gained = ctx.memory.assigned, ctx.memory.gained
    mine = (faction, order.number)
    reader = Reader(
        ctx.game,
        state,
        faction,
        gained=lambda n: gained.get((faction, n)),
        busy=lambda unit: assigned.get(unit, mine) != mine,
    )
    plan, why = _startable(reader, state, order.number, order.args)
    took_backup = False
    if plan is None:
        args = order.get("backup")  # as the checker read it: defaults filled, the lieutenant inherited
        fallback, why_not = _startable(reader, state, order.number, args) if args else (None, "")
        if fallback is None:
            ctx.order_failed(faction, order, why + (f"; nor its backup: {why_not}" if args else ""))
            return
        ctx.emit(
            "backup_taken",
            actors=[faction],
            visible_to=[faction],
            order=order.number,
            action=order.action,
            backup=fallback.action.id,
            reason=why,
        )
        plan, took_backup = fallback, True
    for unit in plan.units + plan.gathered:
        assigned[unit["id"]] = mine
    execute(ctx, state, plan, took_backup)


def _startable(reader: Reader, state: State, number: int, args: Mapping[str, Any]) -> tuple[Plan | None, str]:
    try:
        plan = reader.plan(number, args)
    except Reject as r:
        return None, r.failure
    short = m.can_pay(state, plan.faction, plan.costs)
    return (None, f"it needs {short}") if short else (plan, "")


def execute(ctx: Context, state: State, plan: Plan, took_backup: bool = False) -> None:
    rules, action, faction = ctx.rules, plan.action, plan.faction
    upfront = dict(plan.costs)
    if plan.price and action.id == "purchase_units":  # the price is paid only if the deal is made
        upfront["capital"] = upfront.get("capital", 0) - plan.price
    m.spend(state, faction, upfront)
    audience = _audience(state, plan)  # who would hear of it, as things stand before it happens
    mode = _stealth_mode(state, plan)
    ex = Execution(ctx, state, plan, band="success", data=_base_data(ctx, state, plan, took_backup))
    rolls = []
    if action.rolls:
        # One action per lieutenant a turn, so faction, lieutenant and action name the roll for good.
        label = roll_label(faction, plan.lieutenant["id"], action.id)
        scope = [faction] + ([plan.target] if plan.target in state["factions"] else [])
        if plan.stealthy:
            sneak_rating = str(rules["stealth"]["rating"])
            sneak, sneak_band = roll_task(
                ctx,
                roll_label(label, "sneak"),
                [Modifier("rating", m.rating_of(plan.lieutenant, sneak_rating))],
                scope,
                f"{plan.lieutenant['id']} sneaks",
            )
            ex.hidden = reaches(sneak_band, str(rules["stealth"]["holds_from"]))
            ex.identified = not (ex.hidden and mode == "unidentified")
            ex.data.update(sneak=sneak_band, hidden=ex.hidden)
            rolls.append(sneak)
        modifier, parts = _modifier(ctx, state, plan, ex.data)
        ledger = [Modifier(source, value) for source, value in parts.items()]
        roll, ex.band = roll_task(ctx, label, ledger, scope, f"{plan.lieutenant['id']}: {action.title}")
        ex.data.update(band=ex.band, total=roll.total, modifier=modifier, parts=parts)
        rolls.append(roll)
    EFFECTS[action.id](ex)
    plan.end(state)
    ctx.memory.results[(faction, plan.number)] = (ex.band, plan)
    _report(ex, audience, mode, rolls)


def _stealth_mode(state: State, plan: Plan) -> str | None:
    held_by_other = plan.action.data.get("stealth_where_held") and plan.target is not None
    return plan.action.data["stealth_where_held"] if held_by_other else plan.action.stealth


def _base_data(ctx: Context, state: State, plan: Plan, took_backup: bool) -> dict[str, Any]:
    rules = ctx.rules
    data: dict[str, Any] = {
        "action": plan.action.id,
        "faction": plan.faction,
        "lieutenant": m.name_of(rules, plan.lieutenant),
        "lieutenant_id": plan.lieutenant["id"],
        "stealthy": plan.stealthy,
    }
    if plan.units:
        data["units"] = [u["id"] for u in plan.units]
    if plan.location:
        data["location"] = plan.location
        data["location_name"] = m.location_label(state, plan.location)
    if plan.npc:
        data["npc"] = plan.npc
        data["npc_name"] = m.npc_name(rules, plan.npc)
    if plan.target in state["factions"]:
        data["target"] = plan.target
    if plan.asset:
        data["asset"] = m.name_of(rules, plan.asset)
    if plan.type_name:
        data["type_name"] = rules["asset_types"][plan.type_name]["name"]
    if plan.costs:
        data["costs"] = plan.costs
        spent = sum(plan.costs.get("influence", {}).values())
        if spent:
            data["influence_spent"] = spent
    if took_backup:
        data["backup"] = True
    return data


def _opposition(ctx: Context, state: State, plan: Plan) -> Side:
    rules, action = ctx.rules, plan.action
    defence = action.defence or action.rating or ""
    if action.opposition == "defenders":
        return defending_force(rules, state, plan.location or "", plan.target, defence)
    if action.opposition == "npc" and plan.npc:
        return npc_force(rules, plan.npc, defence)
    if action.opposition == "rival" and plan.target:
        return rival_force(rules, state, plan.locale, plan.target, defence)
    return NOBODY


def _modifier(ctx: Context, state: State, plan: Plan, data: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """(lieutenant level + rating) - (opposition level + rating), or the rating alone when straight,
    then the custom modifiers: the GM's ruling on the plan, standing modifiers, items, influence,
    alliances, preparation and stealth."""
    rules, action, faction, lieutenant = ctx.rules, plan.action, plan.faction, plan.lieutenant
    rating = action.rating or ""
    parts: dict[str, int] = {}
    if action.straight:
        parts["rating"] = m.rating_of(lieutenant, rating)
    else:
        force, against = acting_force(rules, lieutenant, plan.units, rating), _opposition(ctx, state, plan)
        parts.update(force=force.level, rating=force.rating, opposition=-against.strength)
        data.update(force=force.working, force_level=force.level, opposition=against.strength)
        if against.members or against.who:
            data["defenders"] = {"level": against.level, "rating": against.rating, "working": against.working}
    mods = lieutenant.get("modifiers", {})
    f = state["factions"][faction]
    parts["plan"] = int(mods.get("plan", 0))
    parts["standing"] = int(mods.get("task", 0)) + int(f.get("modifiers", {}).get("task", 0))
    item = plan.args.get("item")
    if item:
        spec = rules["items"][item]
        parts["item"] = int(spec["bonus"])
        if spec.get("consumed"):
            f["items"][item] -= 1
            if not f["items"][item]:
                del f["items"][item]
    parts["influence"] = int(plan.args.get("spend_influence") or 0) * int(
        rules["influence"]["bonus_per_point"]
    )
    if plan.npc and m.allied(state, faction, plan.npc):
        parts["ally"] = int(rules["influence"]["ally_bonus"])
    prepared = ctx.memory.results.get((faction, plan.args.get("prepared_by")))
    if prepared and same_target(prepared[1], plan):
        parts["preparation"] = int(rules["custom_modifiers"]["preparation"].get(prepared[0], 0))
    if plan.stealthy:
        parts["stealth"] = -int(rules["stealth"]["penalty"])
    parts = {k: v for k, v in parts.items() if v or k in ("rating", "force", "opposition")}
    return sum(parts.values()), parts


def _audience(state: State, plan: Plan) -> list[str] | None:
    """Who learns of an action that is not hidden; None for everyone."""
    action, faction = plan.action, plan.faction
    if action.discretion and plan.npc:
        if not plan.hide_from_others:
            return None
        learners = {faction}
        if not plan.hide_from_influencers:
            learners |= set(m.influencers(state, plan.npc, faction))
        return sorted(learners)
    if action.noticed_by == "public":
        return None
    learners = {faction}
    if action.noticed_by == "target" and plan.target in state["factions"]:
        learners.add(plan.target)
    return sorted(learners)


def _report(ex: Execution, audience: list[str] | None, mode: str | None, rolls: list[Any]) -> None:
    plan, faction, data = ex.plan, ex.plan.faction, ex.data
    if plan.action.stealth == "always" or (ex.hidden and mode == "unnoticed"):
        seen_by: list[str] | None = [faction]
    else:
        seen_by = audience
    if ex.exposed and seen_by is not None and plan.target in ex.state["factions"]:
        seen_by = sorted({*seen_by, plan.target or ""})
    # When the deed is seen but the doer is not, the full account is for the actor alone, and the others
    # get an anonymous one. A deed everyone sees, done by concealed pieces, is told so too: naming the
    # doer would show where the hidden pieces are.
    identified = ex.identified and not (seen_by is None and _done_in_hiding(ex))
    told = seen_by if identified else [faction]
    ex.ctx.emit(plan.action.id, actors=[faction], place=plan.locale, visible_to=told, rolls=rolls, **data)
    witnesses = None if audience is None else [f for f in audience if f != faction]
    if not identified and witnesses != []:
        others = {k: v for k, v in data.items() if k in ANONYMOUS_KEYS}
        ex.ctx.emit(plan.action.id, place=plan.locale, visible_to=witnesses, unidentified=True, **others)
    if data.get("completed"):
        ex.later(
            "project_completed",
            visible_to=told,
            faction=faction,
            title=data["title"],
            started=data["started"],
            needed=data["needed"],
        )
    for event in ex.follow_ups:
        ex.ctx.emit(**event)


def _done_in_hiding(ex: Execution) -> bool:
    """Whether a sealed campaign's action was done by, with or to a concealed piece of the actor's. In an
    open campaign the state is public, concealed pieces included, so nothing is kept from the events."""
    plan = ex.plan
    pieces = [plan.lieutenant, *plan.units, *plan.gathered, plan.asset or {}]
    return ex.ctx.sealed and any(piece.get("concealed") for piece in pieces)


# -- 5. upkeep ----------------------------------------------------------------------------------------------


def run_upkeep(ctx: Context, state: State) -> State:
    for faction in m.active_factions(state):
        ruling = [a for a in state["factions"][faction].pop("upkeep_ruling", []) if a in state["assets"]]
        paid_capital = _pay_capital(ctx, state, faction)
        paid_reach = _pay_reach(ctx, state, faction, ruling)
        if paid_capital or paid_reach:
            ctx.emit("upkeep", actors=[faction], visible_to=[faction], capital=paid_capital, reach=paid_reach)
    return state


def _pay_capital(ctx: Context, state: State, faction: str) -> int:
    """Pay each asset in turn; those the capital does not cover leave."""
    rules = ctx.rules
    rank = {kind: i for i, kind in enumerate(rules["upkeep"]["capital_order"])}
    queue = sorted(
        m.assets_of(state, rules, faction),
        key=lambda a: (rank[m.kind_of(rules, a)], -m.level_of(rules, a), age_key(a["id"])),
    )
    capital, paid = int(state["factions"][faction]["stock"].get("capital", 0)), 0
    for asset in queue:
        cost = m.upkeep_of(rules, asset).get("capital", 0)
        if cost <= capital:
            capital -= cost
            paid += cost
        else:
            _leaves(ctx, state, asset, "capital")
    state["factions"][faction]["stock"]["capital"] = capital
    return paid


def _pay_reach(ctx: Context, state: State, faction: str, ruling: list[str]) -> int:
    """A reach shortfall sends assets away, the GM's choice first, until the rest can be paid."""
    rules = ctx.rules
    kept = m.assets_of(state, rules, faction)
    need = m.upkeep_total(rules, state, faction)["reach"]
    reach = int(state["factions"][faction]["stock"].get("reach", 0))
    if need > reach:
        rank = {kind: i for i, kind in enumerate(rules["upkeep"]["reach_leave_order"])}
        # By default the cheapest to lose go first: units, lowest level, newest.
        default = sorted(
            kept,
            key=lambda a: (rank[m.kind_of(rules, a)], m.level_of(rules, a), -age_key(a["id"])[0], a["id"]),
        )
        for asset in [state["assets"][a] for a in ruling] + [a for a in default if a["id"] not in ruling]:
            cost = m.upkeep_of(rules, asset).get("reach", 0)
            if need <= reach:
                break
            if cost and asset["id"] in state["assets"]:
                _leaves(ctx, state, asset, "reach", ruled=asset["id"] in ruling)
                need -= cost
    state["factions"][faction]["stock"]["reach"] = reach - need
    return need


def _leaves(ctx: Context, state: State, asset: m.Asset, unpaid: str, ruled: bool = False) -> None:
    rules = ctx.rules
    ctx.emit(
        "asset_leaves",
        actors=[asset["owner"]],
        place=m.locale_of(state, asset["location"]),
        faction=asset["owner"],
        asset=m.name_of(rules, asset),
        asset_id=asset["id"],
        asset_kind=m.kind_of(rules, asset),
        unpaid=unpaid,
        ruled=ruled,
    )
    remove_asset(state, asset["id"])


# -- 6. interpretation --------------------------------------------------------------------------------------


GIST_KEYS = (
    "faction",
    "band",
    "location_name",
    "npc_name",
    "target",
    "asset",
    "title",
    "taken",
    "destroyed",
    "unpaid",
    "type_name",
    "headline",
    "unidentified",
)


def run_interpretation(ctx: Context, state: State) -> State:
    """The turn's most newsworthy public events, retold as the street tells them."""
    spec = ctx.rules["interpretation"]
    weights: Mapping[str, int] = spec["newsworthy"]
    candidates = [(i, e) for i, e in enumerate(ctx.events) if e.public and e.kind in weights]
    chosen = sorted(candidates, key=lambda pair: (-int(weights[pair[1].kind]), pair[0]))[: int(spec["lines"])]
    for _, event in sorted(chosen, key=lambda pair: pair[0]):
        gist = {k: v for k, v in event.data.items() if k in GIST_KEYS}
        ctx.emit("headline", place=event.place, topic=event.kind, **gist)
    if not chosen:
        ctx.emit("headline", topic="quiet")
    return state


PHASES = {
    "income": run_income,
    "instructions": run_instructions,
    "assignment": run_assignment,
    "actions": run_actions,
    "upkeep": run_upkeep,
    "interpretation": run_interpretation,
}
