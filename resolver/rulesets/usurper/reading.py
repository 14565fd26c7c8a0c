"""One reading of each usurper order, for the checker and the resolver alike (``engine.plans``).

The reading checks what every action shares (rules 3.2 and 3.3 of the game): the initiator and the
assistants are the usurper's own; a unit action is started by a unit and a leader action by a leader; no
entity acts twice in a week, and no two orders take the same action in the same grid (they would have been
one roll with assistants); each participant can reach the target from its lair; a Grumpy unit and a healing
leader do nothing. Then each action's own requirements (``REQUIREMENTS``: tools, rooms, resources, what is
known) have their say.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.fields import named_suggestion
from ...core.orders import Order, OrderFile
from ...core.phases import State
from ...engine.plans import Reading, Reject
from ...engine.ruleset import Game
from . import assaults, combat, diplomacy, fieldwork, healing, magic, outfit, prisons, rolls, training, works
from . import model as m
from .acting import Plan

# The actions a leader starts, and those either may start; every other action is a unit's.
LEADER_ACTIONS = ("diplomacy", "train", "explore")
EITHER_ACTIONS = ("learn", "rest", "interrogate")

# An action's own requirements, read after the shared ones; each raises Reject with the fix. Each belongs
# to the module that carries the action out, and takes the reading (``engine.plans.Reading``: the game,
# the state as this reading sees it, the faction) and the plan.
Requirement = Callable[[Reading, Plan], None]
REQUIREMENTS: dict[str, Requirement] = {}
REQUIREMENTS.update(
    {"attack": combat.require_encounter, "raid": combat.require_encounter, "harass": combat.require_plains}
)
REQUIREMENTS.update(dict.fromkeys(works.WORKS, works.requirement))
REQUIREMENTS["diplomacy"] = diplomacy.require_visit
REQUIREMENTS["harvest"] = fieldwork.require_harvest
REQUIREMENTS.update({"train": training.require_train, "learn": training.require_learn})
REQUIREMENTS.update(
    {"attack": assaults.require_target, "raid": assaults.require_target}
)  # an encounter, or a lair
REQUIREMENTS["interrogate"] = prisons.require_prisoner
REQUIREMENTS["rest"] = healing.require_rest


class UsurperReading(Reading):
    def __init__(self, game: Game, state: State, faction: str, checked: OrderFile | None = None) -> None:
        super().__init__(game, state, faction, checked)
        self.busy: dict[str, int] = {}  # entity id -> the order number that already has it acting
        self.taken: dict[tuple[str, str], int] = {}  # (action, grid) -> the order number that holds it

    def entity_id(self, word: Any, field: str) -> str:
        """The id of one of the usurper's own leaders or units, named by id or by name (any case)."""
        text = str(word).strip()
        own = dict(m.entities_by_id(self.state, self.faction))
        if text in own:
            return text
        folded = text.casefold()
        found = [eid for eid, record in own.items() if str(record["name"]).casefold() == folded]
        if len(found) == 1:
            return found[0]
        listed = ", ".join(f"{eid} ({record['name']})" for eid, record in own.items())
        why = "two of yours have that name: use the id" if found else f"you have no leader or unit '{text}'"
        gone = f"{text} is no longer yours to order"
        raise Reject(field, why, f"name one of yours: {listed}", failure=gone)

    def grid(self, word: Any, field: str) -> str:
        text = str(word).strip()
        if text not in self.game.world:
            # A grid's id, or a city's name near enough to one (an order field takes either).
            guess = named_suggestion(text, self.names_of("places"), list(self.game.world))
            raise Reject(
                field, f"'{text}' is not a grid of the map", guess or "write a grid such as B2, or a city"
            )
        return text

    def read(self, order: Order) -> Plan:
        action = order.action
        if action == outfit.OUTFIT:  # the setup market: the usurper's own purchase, nobody's action
            return outfit.read(self, order, self.entity_id)
        initiator = self.entity_id(order["by"], "by")
        extras = rolls.read_extras(
            self, action, order.get("assist") or []
        )  # they help; they are no one's kin
        assistants = [
            self.entity_id(word, "assist") for word in order.get("assist") or [] if word not in extras
        ]
        kind = m.kind_of(self.state, self.faction, initiator)
        wanted = m.LEADER if action in LEADER_ACTIONS else (kind if action in EITHER_ACTIONS else m.UNIT)
        if kind != wanted:
            raise Reject(
                "by",
                f"a {kind} cannot start '{action}': it is a {wanted}'s action",
                f"put a {wanted} in 'by', and the {kind} under 'assist'",
            )
        record = m.entity(self.state, self.faction, initiator) or {}
        lair = m.home_lair(self.state, self.faction, record)
        start = lair["grid"] if lair else ""
        target = self.grid(order["target"], "target") if order.get("target") else start
        end = self.grid(order["end"], "end") if order.get("end") else start
        leaders, units = [], []
        own_leaders = m.leaders(self.state, self.faction)
        march = magic.speed_bonus(
            self.rules, [own_leaders[e] for e in [initiator, *assistants] if e in own_leaders]
        )
        for entity_id in [initiator, *assistants]:
            self._free(order, entity_id)
            entity = m.entity(self.state, self.faction, entity_id) or {}
            entity_kind = m.kind_of(self.state, self.faction, entity_id) or m.UNIT
            self._able(entity_kind, entity, action)
            self._reach(entity_kind, entity, target, march if entity_kind == m.UNIT else 0)
            (leaders if entity_kind == m.LEADER else units).append(entity)
        self._one_roll(order, action, target)
        plan = Plan(
            self.faction, action, order, initiator, assistants, leaders, units, start, target, end, lair
        )
        requirement = REQUIREMENTS.get(action)
        if requirement is not None:
            requirement(self, plan)
        self._commit(order, plan)
        return plan

    def _free(self, order: Order, entity_id: str) -> None:
        before = self.busy.get(entity_id)
        if before is not None and before != order.number:
            name = m.name_of(self.state, self.faction, entity_id)
            raise Reject(
                "by" if entity_id == order["by"] else "assist",
                f"{name} already acts this week (order {before})",
                "each leader and unit takes one action a week: take it out of one of the two orders",
            )

    def _able(self, kind: str, entity: dict[str, Any], action: str) -> None:
        name = entity.get("name", "")
        if kind == m.UNIT and entity.get("grumpy"):
            raise Reject("by", f"{name} is Grumpy and will not act until it is paid", "pay its upkeep first")
        if kind == m.LEADER and int(entity.get("healing", 0)) > 0 and action != "rest":
            raise Reject("by", f"{name} is healing and can do nothing else", "give it a 'rest' order")

    def _reach(self, kind: str, entity: dict[str, Any], target: str, march: int = 0) -> None:
        lair = m.home_lair(self.state, self.faction, entity)
        if lair is None or not target:
            return
        distance = self.game.world.distance(lair["grid"], target)
        speed = m.overland_speed(self.rules, kind, entity) + march  # Forced March of a leader with them
        if distance > speed:
            raise Reject(
                "target",
                f"{entity.get('name')} can go {speed} grids from its lair at {lair['grid']}; "
                f"{target} is {distance} away",
                "choose a nearer grid, or leave this one out of the action",
            )

    def _one_roll(self, order: Order, action: str, target: str) -> None:
        if action in ("learn", "rest"):
            return
        before = self.taken.get((action, target))
        if before is not None and before != order.number:
            raise Reject(
                "action",
                f"order {before} already takes '{action}' at {target} this week",
                f"the game makes one roll of them: list these under 'assist' of order {before}",
            )

    def _commit(self, order: Order, plan: Plan) -> None:
        for entity_id in plan.participants:
            self.busy[entity_id] = order.number
        if plan.action not in ("learn", "rest"):
            self.taken[(plan.action, plan.target)] = order.number

    def echo(self, plan: Plan) -> str:
        """The order as the engine understood it, in words: who, what, where, with whom."""
        if plan.action == outfit.OUTFIT:
            return outfit.echo(self, plan)
        names = [m.name_of(self.state, self.faction, eid) for eid in plan.participants]
        helpers = f", with {', '.join(names[1:])}" if len(names) > 1 else ""
        where = self.game.place_label(plan.target)
        back = "" if plan.end == plan.start else f", ending the week at {self.game.place_label(plan.end)}"
        return f"{names[0]} will {plan.action} at {where}{helpers}{back}."
