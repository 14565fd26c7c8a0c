"""What each action does for each result band, once its roll is made.

Each function reads like its row of the catalogue: the numbers come from the catalogue entry
(``ex.by_band``), the procedure is here. A function fills ``ex.data`` for the action's event and may
emit follow-up events (a project completed, an asset exposed, what a spy found).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...core.phases import State
from . import model as m
from .plans import FactionsTurn, Plan
from .tasks import reaches

if TYPE_CHECKING:
    from ...engine.context import TurnContext

    Context = TurnContext[FactionsTurn]  # a turn of this ruleset, with its typed memory


@dataclass
class Execution:
    ctx: Context
    state: State
    plan: Plan
    band: str
    hidden: bool = False  # the sneak check held
    identified: bool = True  # others know who did it
    exposed: bool = False  # the target learns who did it, whatever the stealth
    data: dict[str, Any] = field(default_factory=dict)
    follow_ups: list[dict[str, Any]] = field(default_factory=list)  # events told after the action's own

    @property
    def rules(self) -> Any:
        return self.ctx.rules

    @property
    def faction(self) -> str:
        return self.plan.faction

    def by_band(self, key: str, default: Any = 0) -> Any:
        return self.plan.action.by_band(key, self.band, default)

    def at_least(self, band: str) -> bool:
        return reaches(self.band, band)

    def pay_extra(self, also: Mapping[str, int] | None = None) -> bool:
        """Pay the action's extra cost if the order said so and it can be paid (with ``also`` on top)."""
        extra = self.plan.action.extra or {}
        total = m.add_costs(extra["cost"], also or {})
        paid = bool(self.plan.args.get("pay_extra")) and not m.can_pay(self.state, self.faction, total)
        if paid:
            m.spend(self.state, self.faction, extra["cost"])
        self.data["extra_paid"] = paid
        return paid

    def lose_capital(self) -> None:
        """A bad deal costs capital, by the band (Purchase Units, Sell)."""
        lost = int(self.by_band("lost"))
        if lost:
            self.data["lost_capital"] = -m.gain(self.state, self.faction, "capital", -lost)

    def lose_weakest_unit(self) -> None:
        aiding = [u for u in self.plan.units if u["id"] in self.state["assets"]]
        if not aiding:
            return
        weakest = min(aiding, key=lambda u: (m.level_of(self.rules, u), -age_key(u["id"])[0], u["id"]))
        self.data["lost_own"] = m.name_of(self.rules, weakest)
        remove_asset(self.state, weakest["id"])

    def gain_unit(self, type_name: str, location: str) -> m.Asset:
        unit = m.add_asset(self.state, self.rules, self.faction, type_name, location)
        self.ctx.memory.gained.setdefault((self.faction, self.plan.number), unit["id"])
        self.data.setdefault("joined", []).append(unit["id"])
        return unit

    def later(self, kind: str, *, visible_to: list[str] | None, **data: Any) -> None:
        """An event that follows from the action (what a spy found, an asset exposed): told after it."""
        self.follow_ups.append(
            {
                "kind": kind,
                "actors": [self.faction],
                "place": self.plan.locale,
                "visible_to": visible_to,
                **data,
            }
        )


def age_key(aid: str) -> tuple[int, str]:
    """Assets in the order they joined: the number in their id, then the id."""
    digits = "".join(c for c in aid.rsplit("-", 1)[-1] if c.isdigit())
    return int(digits) if digits else 0, aid


def remove_asset(state: State, aid: str) -> None:
    state["assets"].pop(aid, None)
    for pid in [p["id"] for p in state["projects"].values() if p.get("asset") == aid]:
        del state["projects"][pid]


# -- one function per action --------------------------------------------------------------------------------


def ally(ex: Execution) -> None:
    if ex.at_least("success"):
        allies = ex.state["factions"][ex.faction].setdefault("allies", [])
        allies.append(ex.plan.npc or "")
        allies.sort()
        ex.data["allied"] = True
    influence(ex)


def attack(ex: Execution) -> None:
    plan, state, rules = ex.plan, ex.state, ex.rules
    if ex.band == "complete_failure" and not ex.pay_extra():
        ex.lose_weakest_unit()
    losses = int(ex.by_band("losses"))
    if not losses:
        return
    there = m.known_at(state, plan.location or "", plan.target)
    units = sorted(
        (a for a in there if m.kind_of(rules, a) == "unit"),
        key=lambda a: (m.level_of(rules, a), age_key(a["id"])),
    )
    statics = sorted((a for a in there if m.kind_of(rules, a) == "static"), key=lambda a: age_key(a["id"]))
    victims = (units + statics)[:losses]
    ex.data["destroyed"] = [m.name_of(rules, a) for a in victims]
    for victim in victims:
        remove_asset(state, victim["id"])
    _break_holding(ex, plan.location or "", plan.target)


def _break_holding(ex: Execution, location: str, holder: str | None) -> None:
    """A faction's holding with none of its assets left becomes public again."""
    if not holder or m.holder_of(ex.state, location) != holder or m.is_npc(ex.rules, holder):
        return
    if not any(a["owner"] == holder for a in m.assets_at(ex.state, location)):
        ex.state["locations"][location]["holder"] = None
        ex.data["holding_lost"] = True


def build(ex: Execution) -> None:
    plan = ex.plan
    spec = ex.rules["asset_types"][plan.type_name or ""]
    project = plan.project or _start_project(
        ex,
        title=f"a {spec['name']} at the {m.location_label(ex.state, plan.location or '')}",
        needed=int(spec.get("successes", 1)),
        pausable=bool(spec.get("pausable", True)),
        asset_type=plan.type_name,
        location=plan.location,
    )
    if _progress(ex, project):
        static = m.add_asset(ex.state, ex.rules, ex.faction, project["asset_type"], project["location"])
        if m.holder_of(ex.state, project["location"]) is None:
            ex.state["locations"][project["location"]]["holder"] = ex.faction
            ex.data["holding_gained"] = True
        ex.data["built"] = static["id"]


def claim(ex: Execution) -> None:
    if ex.at_least("success"):
        ex.state["locations"][ex.plan.location or ""]["holder"] = ex.faction
        ex.data["claimed"] = True
    influence(ex)


def conceal(ex: Execution) -> None:
    asset = ex.plan.asset or {}
    if ex.band == "complete_failure":
        asset.pop("concealed", None)
        ex.later(
            "asset_exposed",
            visible_to=None,
            faction=ex.faction,
            asset=m.name_of(ex.rules, asset),
            location=asset["location"],
            location_name=m.location_label(ex.state, asset["location"]),
        )
    elif ex.at_least("success"):
        hidden = [asset]
        if ex.band == "complete_success":
            hidden = [a for a in m.assets_at(ex.state, asset["location"]) if a["owner"] == ex.faction]
        for a in hidden:
            a["concealed"] = True
        ex.data["concealed"] = [a["id"] for a in hidden]


def influence(ex: Execution) -> None:
    """Influence with the NPC faction dealt with, by the band; Ally, Claim and Rally change it too."""
    change = m.gain_influence(ex.state, ex.faction, ex.plan.npc or "", int(ex.by_band("influence")))
    if change:
        ex.data["influence_change"] = change


def investigate(ex: Execution) -> None:
    plan = ex.plan
    if ex.band == "complete_failure":
        ex.exposed = True
    if not ex.at_least("success"):
        return
    found = [a for a in m.assets_in_locale(ex.state, plan.locale) if a["owner"] == plan.target]
    report: dict[str, Any] = {"assets": _intel(ex, found, reveal=True)}
    if ex.band == "complete_success":
        rival = ex.state["factions"][plan.target or ""]
        report["stock"] = dict(rival["stock"])
        report["influence"] = dict(rival.get("influence", {}))
        projects = m.projects_of(ex.state, plan.target or "")
        report["projects"] = [f"{p['title']} ({p['progress']} of {p['needed']})" for p in projects]
    ex.later("intel", visible_to=[ex.faction], about=plan.target, **report)


def _intel(ex: Execution, assets: list[m.Asset], *, reveal: bool) -> list[str]:
    seen = []
    for a in assets:
        if a.get("concealed"):
            if not reveal:
                continue
            del a["concealed"]
        seen.append(
            f"{m.describe_asset(ex.rules, a)} of {a['owner']} at {m.location_label(ex.state, a['location'])}"
        )
    return seen


def move_minion(ex: Execution) -> None:
    plan = ex.plan
    ex.data["start"] = plan.lieutenant["location"]
    ex.data["moved"] = [u["id"] for u in plan.units + plan.gathered]


def purchase_units(ex: Execution) -> None:
    plan = ex.plan
    price = plan.price - int(ex.by_band("discount"))
    ex.lose_capital()
    deal = ex.at_least("success") or (ex.band == "failure" and ex.pay_extra(also={"capital": price}))
    if deal:
        m.spend(ex.state, ex.faction, {"capital": price})
        ex.data["paid"] = price
        ex.gain_unit(plan.type_name or "", plan.destination)


def steal(ex: Execution) -> None:
    raid(ex)
    holder = ex.plan.target or ""
    if ex.band == "complete_success" and holder in ex.state["factions"]:
        items = ex.state["factions"][holder].get("items", {})
        if items:
            item = sorted(items)[0]
            items[item] -= 1
            if not items[item]:
                del items[item]
            mine = ex.state["factions"][ex.faction].setdefault("items", {})
            mine[item] = mine.get(item, 0) + 1
            ex.data["item"] = item


def raid(ex: Execution) -> None:
    """Raid, and Steal before its item: capital from the location's holder; caught aiders are lost."""
    if ex.band == "complete_failure":
        ex.lose_weakest_unit()
    amount = int(ex.by_band("take"))
    if not amount:
        return
    holder = ex.plan.target or ""
    if holder in ex.state["factions"]:
        amount = -m.gain(ex.state, holder, "capital", -amount)
    elif ex.identified and m.influence_with(ex.state, ex.faction, holder):
        # An NPC faction that knows who robbed it thinks less of them.
        lost = int(ex.plan.action.data.get("npc_influence_lost", 0))
        ex.data["influence_change"] = m.gain_influence(ex.state, ex.faction, holder, -lost)
    m.gain(ex.state, ex.faction, "capital", amount)
    ex.data["taken"] = amount


def rally(ex: Execution) -> None:
    for stock, n in (ex.by_band("gain", {}) or {}).items():
        m.gain(ex.state, ex.faction, stock, int(n))
        ex.data[f"gained_{stock}"] = int(n)
    influence(ex)


def recruit(ex: Execution) -> None:
    plan = ex.plan
    if not ex.at_least("success"):
        return
    ex.gain_unit(plan.type_name or "", plan.location or plan.destination)
    if ex.band == "complete_success" and ex.pay_extra():
        ex.gain_unit(plan.type_name or "", plan.location or plan.destination)


def sell(ex: Execution) -> None:
    asset = ex.plan.asset or {}
    ex.lose_capital()
    share = int(ex.by_band("sale_percent"))
    if not share:
        return
    price = -(-m.price_of(ex.rules, asset["type"]) * share // 100)  # rounded up
    m.gain(ex.state, ex.faction, "capital", price)
    ex.data.update(sold=m.name_of(ex.rules, asset), price=price)
    remove_asset(ex.state, asset["id"])


def surveil(ex: Execution) -> None:
    plan = ex.plan
    if ex.band == "complete_failure":
        ex.exposed = True
    if not ex.at_least("success"):
        return
    there = [a for a in m.assets_at(ex.state, plan.location or "") if a["owner"] != ex.faction]
    seen = _intel(ex, there, reveal=ex.band == "complete_success")
    ex.later(
        "intel",
        visible_to=[ex.faction],
        location=plan.location,
        location_name=m.location_label(ex.state, plan.location or ""),
        assets=seen,
    )


def train(ex: Execution) -> None:
    unit = ex.plan.asset or {}
    project = ex.plan.project or _start_project(
        ex,
        title=f"training {m.name_of(ex.rules, unit)} to level {m.level_of(ex.rules, unit) + 1}",
        needed=m.level_of(ex.rules, unit) + 1,
        pausable=bool(ex.plan.action.data["project"]["pausable"]),
        asset=unit["id"],
    )
    if _progress(ex, project):
        unit["level"] = m.level_of(ex.rules, unit) + 1
        ex.data["trained"] = unit["level"]


# -- projects -------------------------------------------------------------------------------------------


def _start_project(
    ex: Execution, *, title: str, needed: int, pausable: bool, **fields: Any
) -> dict[str, Any]:
    pid = m.new_id(ex.state, ex.faction, "p")
    project = {
        "id": pid,
        "owner": ex.faction,
        "action": ex.plan.action.id,
        "title": title,
        "needed": needed,
        "progress": 0,
        "pausable": pausable,
        "started": ex.ctx.turn,
        **fields,
    }
    ex.state["projects"][pid] = project
    return project


def _progress(ex: Execution, project: dict[str, Any]) -> bool:
    """Add this roll's successes; True when the project is complete (and then it is removed)."""
    project["progress"] = min(
        int(project["needed"]), max(0, int(project["progress"]) + int(ex.by_band("progress")))
    )
    project["worked"] = ex.ctx.turn
    ex.data.update(
        project=project["id"],
        title=project["title"],
        progress=project["progress"],
        needed=project["needed"],
        started=project["started"],
    )
    if project["progress"] < project["needed"]:
        return False
    del ex.state["projects"][project["id"]]
    ex.data["completed"] = True
    return True


# Each action's effect is the function of its name.
EFFECTS: dict[str, Callable[[Execution], None]] = {
    effect.__name__: effect
    for effect in (ally, attack, build, claim, conceal, influence, investigate, move_minion, purchase_units,
                   raid, rally, recruit, sell, steal, surveil, train)
}  # fmt: skip
