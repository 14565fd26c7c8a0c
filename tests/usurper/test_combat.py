"""Combat of usurper: the d6 pools and their one explosion, the Damage-vs-Armor tables row by row, the
spec's worked melee example (Appendix C 9), morale in battle, a whole fight against an encounter with
forced dice, a raid that pulls out, Harass's capped reward, leaders hurt and killed, and replacements."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from resolver.core import canonical
from resolver.core.checks import Check
from resolver.core.dice import Dice, Roll, RollLabel, TurnSeed, roll_label
from resolver.engine.ruleset import rules_data
from resolver.rulesets.usurper import fight as f
from resolver.rulesets.usurper.acting import UsurperWeek

FOLDER = Path(f.__file__).parent

# The morale and loyalty checks are the rolls chapter's (rules/dice.yaml); until that file is on this
# branch the tests read the spec's tables written here, the same rows that chapter declares.
SPEC_MORALE = {
    "dice": "1d100",
    "explode": {"at": 96},
    "table": [
        {"up_to": 25, "result": "demoralized"},
        {"up_to": 49, "result": "panicked"},
        {"up_to": 74, "result": "battered"},
        {"up_to": 100, "result": "shaken"},
        {"result": "success"},
    ],
}


def load_rules() -> dict[str, Any]:
    if (FOLDER / "rules.yaml").exists():
        rules = rules_data(FOLDER)
    else:
        rules = dict(canonical.read_yaml(FOLDER / "rules" / "combat.yaml"))
    rules = copy.deepcopy(rules)
    rules.setdefault("checks", {}).setdefault("morale", SPEC_MORALE)
    return rules


RULES = load_rules()


class Context:
    """The part of the turn context a fight uses: labelled, logged rolls, some forced."""

    def __init__(self, forced: dict[str, list[int]] | None = None) -> None:
        self.dice = Dice(TurnSeed(5, 1, {"red": "aa", "blue": "bb"}), forced or {})

    def roll(self, label: RollLabel, expr: str, *, factions: Iterable[str] = (), decided: str = "") -> Roll:
        return self.dice.roll(str(label), expr, factions=factions, decided=decided)

    def by_label(self, label: str) -> Roll:
        return next(roll for roll in self.dice.log if roll.label == label)


def unit(uid: str, race: str = "dwarves", **extra: Any) -> dict[str, Any]:
    record = {"id": uid, "name": uid.title(), "race": race, "level": 0, "pax": 10, "offense": 1,
              "defense": 1, "strength": 1, "speed": {"combat": "M", "overland": 2}, "skills": {}, "tools": [],
              "weapons": [], "armor": None, "mount": None}  # fmt: skip
    record.update(extra)
    return record


MELEE = [{"item": "melee_weapons", "quality": "standard"}]


def two_sides(red: list[dict], enc: list[dict], kind: str = "attack") -> f.Fight:
    attackers = f.Side("red", f.fighters_of(RULES, red), attacking=True, factions=("red",))
    defenders = f.Side("enc-3", f.fighters_of(RULES, enc), attacking=False)
    return f.Fight(roll_label("fight", "red", "enc-3"), (attackers, defenders), kind=kind)


# ------------------------------------------------------------------------------------------- the pools


def test_the_first_die_of_a_pool_of_three_or_more_explodes_once_on_a_six() -> None:
    check = Check.from_rules(RULES, "combat_pool")
    assert check.pool(3, []).dice_expression(3) == "3d6!6^1@1"
    assert check.pool(2, []).dice_expression(2) == "2d6"  # two dice never explode
    ctx = Context({"three": [6, 5, 2, 3], "two": [6, 6]})
    three = check.roll(ctx, roll_label("three"), count=3)
    two = check.roll(ctx, roll_label("two"), count=2)
    assert three.total == 16 and two.total == 12
    exploded = 0
    for n in range(300):  # drawn dice: only the first may roll again, and only once
        roll = check.roll(ctx, roll_label("drawn", n), count=4).roll
        assert len(roll.dice) in (4, 5)
        if len(roll.dice) == 5:
            exploded += 1
            assert roll.dice[0] == 6
        else:
            assert roll.dice[0] != 6
    assert exploded > 0


def test_a_pool_pushed_below_no_dice_subtracts_the_missing_dice_but_not_below_zero() -> None:
    check = Check.from_rules(RULES, "combat_pool")
    ctx = Context({"short": [4]})
    result = check.roll(ctx, roll_label("short"), count=-1, modifiers=[f.Modifier("flat", 6)])
    assert result.total == 2
    ctx = Context({"short": [5]})
    assert check.roll(ctx, roll_label("short"), count=-1, modifiers=[f.Modifier("flat", 3)]).total == 0


def test_gear_skills_quality_and_races_build_the_pools() -> None:
    bows = [{"item": "ranged_weapons", "quality": "decent"}]
    heavy = {"item": "heavy_armor", "quality": "mild"}
    elves = unit("red-u1", "elves", weapons=bows, armor=heavy, skills={"aggressor": {"rank": 2, "xp": 0}})
    medium = {"item": "medium_armor", "quality": "standard"}
    lizards = unit("red-u2", "lizardfolk", defense=2, armor=medium)
    fight = two_sides([elves, lizards], [unit("e1")])
    archer, scaly = fight.sides[0].fighters
    dice, flat = f.pool(RULES, fight, archer, "attack", "ranged")
    assert dice == 3  # Off 1, ranged weapons 1, Harrier 1
    assert {m.source: m.value for m in flat} == {"Ranged Weapons quality": 3, "Aggressor": 4}
    assert f.pool(RULES, fight, archer, "attack", "melee")[0] == 1  # a bow does nothing in melee
    dice, flat = f.pool(RULES, fight, archer, "armor", "melee")
    assert dice == 1 and {m.source: m.value for m in flat} == {"Heavy Armor": 2, "Heavy Armor quality": 1}
    assert f.pool(RULES, fight, scaly, "armor", "melee")[0] == 2  # medium armour and Sturdy
    assert f.pool(RULES, fight, scaly, "defense", "melee")[0] == 3  # Def 2 and medium armour


def test_combat_skills_and_gear_quality_are_read_where_their_chapters_keep_them() -> None:
    # No copy in the combat chapter: the skill ranks are the entities chapter's, the quality bonus the
    # items chapter's ladder. Changing them there moves the pools.
    assert "skills" not in RULES["combat"] and "weapon_quality" not in RULES["combat"]
    rules = copy.deepcopy(RULES)
    rules["skills"]["parry"]["per_rank"] = 5
    rules["skills"]["leadership"]["per_rank"] = 4
    next(row for row in rules["qualities"] if row["id"] == "mild")["bonus"] = 7
    shields = [{"item": "shields", "quality": "mild"}]
    guard = unit("red-u1", weapons=shields, skills={"parry": {"rank": 2, "xp": 0}})
    fight = two_sides([guard], [unit("e1")])
    fight.sides[0].leaders = [{"id": "red-l1", "skills": {"leadership": {"rank": 3, "xp": 0}}}]
    fighter = fight.sides[0].fighters[0]
    dice, flat = f.pool(rules, fight, fighter, "defense", "melee")
    assert dice == 2  # Def 1 and the shield's die
    assert {m.source: m.value for m in flat} == {"Shields quality": 7, "Leadership": 12, "Parry": 10}
    _, flat = f.pool(RULES, fight, fighter, "defense", "melee")  # the shipped numbers: +1, +1 and +2 a rank
    assert {m.source: m.value for m in flat} == {"Shields quality": 1, "Leadership": 3, "Parry": 4}
    _, flat = f.pool(RULES, fight, fighter, "damage", "melee")
    assert not flat  # neither Parry nor Leadership adds to Damage


# ---------------------------------------------------------------------------------- the damage tables


@pytest.mark.parametrize(
    ("table", "damage", "armor", "expected"),
    [
        ("ranged", 6, 6, {"wear": 1}),
        ("ranged", 7, 6, {"wear": 1}),
        ("ranged", 19, 6, {"wear": 2}),
        ("ranged", 31, 6, {"wear": 2}),
        ("ranged", 43, 6, {"wear": 3}),
        ("ranged", 55, 6, {"wear": 3}),
        ("melee", 5, 6, {"wear": 1}),
        ("melee", 7, 6, {"pax": 1}),
        ("melee", 18, 6, {"pax": 1}),
        ("melee", 19, 6, {"pax": 2}),
        ("melee", 31, 6, {"pax": 3}),
        ("melee", 43, 6, {"pax": 5}),
        ("melee", 55, 6, {"destroyed": True}),
        ("single_entity", 6, 6, {"morale": -3}),
        ("single_entity", 7, 6, {"wear": 1}),
        ("single_entity", 19, 6, {"hp": 1}),
        ("single_entity", 31, 6, {"hp": 1}),
        ("single_entity", 43, 6, {"hp": 2}),
        ("single_entity", 55, 6, {"hp": 2}),
    ],
)
def test_every_row_of_the_damage_tables(table: str, damage: int, armor: int, expected: dict) -> None:
    row = f.damage_row(RULES, table, damage, armor)
    assert {k: v for k, v in row.items() if k != "beyond"} == expected


def test_appendix_c9_a_melee_hit_by_eleven_kills_two_and_the_target_pays_for_it() -> None:
    assert f.margin_damage(RULES, 19, 8) == 1  # a hit by 11: +1 Damage
    assert f.margin_damage(RULES, 8, 8) == 0
    assert f.damage_row(RULES, "melee", 20, 6) == {"beyond": 12, "pax": 2}  # 20 > 6 + 12
    fight = two_sides([unit("red-u1", weapons=MELEE)], [unit("e1")])
    target = fight.sides[1].fighters[0]
    f.land(fight, f.Blows(pax={"e1": 2}))
    assert target.pax == 8 and target.lost == 2
    for kind in f.POOLS:
        assert f.Modifier("men lost", -4) in f.pool(RULES, fight, target, kind, "melee")[1]
    assert f.Modifier("Men lost", -8) in f.morale_modifiers(RULES, fight, target)
    attacker = fight.sides[0].fighters[0]  # the attacker's next rolls are untouched
    assert all(m.source != "men lost" for m in f.pool(RULES, fight, attacker, "attack", "melee")[1])


def test_a_tied_attack_misses() -> None:
    fight = two_sides([unit("red-u1")], [unit("e1")], kind="ambush")
    at = "fight/red/enc-3/melee1/"
    ctx = Context({at + "red-u1/attack": [4], at + "red-u1/defense": [4], at + "e1/attack": [1],
                   at + "e1/defense": [6]})  # fmt: skip
    out = f.run(RULES, ctx, fight)
    assert out.lost == {} and out.melee_rounds == 1
    assert not any(r.label.endswith("red-u1/damage") for r in ctx.dice.log)


# --------------------------------------------------------------------------------------------- morale


def test_orcs_halve_every_morale_penalty_but_never_below_one() -> None:
    fight = two_sides([unit("red-u1", "orcs", level=2)], [unit("e1")])
    orc = fight.sides[0].fighters[0]
    orc.lost, orc.morale_penalty = 3, 10
    mods = {m.source: m.value for m in f.morale_modifiers(RULES, fight, orc)}
    assert mods == {
        "Level": 8,
        "Men lost (halved: Bull-headed)": -6,
        "Earlier checks and blows (halved: Bull-headed)": -5,
    }
    orc.morale_penalty = 1  # halved, but still at least 1
    assert f.morale_modifiers(RULES, fight, orc)[-1] == f.Modifier(
        "Earlier checks and blows (halved: Bull-headed)", -1
    )


def test_a_fights_morale_check_keeps_the_dice_chapters_ledger() -> None:
    # The names and numbers are those of rolls.morale_ledger, the one Morale ledger: the rooms of the lair
    # the unit set out from, its Courage and Guidon, the force's Drums, the men lost; only the earlier
    # results are the fight's own.
    from resolver.rulesets.usurper import combat, rolls

    guidon = {"item": "guidon", "quality": "standard"}
    drums = {"item": "drums", "quality": "standard"}
    bearer = unit("red-u1", level=1, tools=[guidon, drums], skills={"courage": {"rank": 2, "xp": 0}})
    state = usurper_state(bearer, unit("red-u2"))
    side = combat.usurper_side(RULES, state, "red", plan_for(state, "attack"))
    fight = f.Fight(roll_label("fight", "red", "enc-3"), (side, two_sides([], [unit("e1")]).sides[1]))
    first, second = side.fighters
    first.lost, first.morale_penalty = 1, 10
    lair = state["factions"]["red"]["lairs"]["red-lair1"]
    expected = rolls.morale_ledger(RULES, first.record, lair=lair, pax_lost=1, drums=True)
    assert f.morale_modifiers(RULES, fight, first) == [*expected, f.Modifier("Earlier checks and blows", -10)]
    assert [(m.source, m.value) for m in f.morale_modifiers(RULES, fight, first)] == [
        ("Level", 4), ("Throne Room", 3), ("Courage 2", 6), ("Guidon", 4), ("Drums", 2), ("Men lost", -4),
        ("Earlier checks and blows", -10),
    ]  # fmt: skip
    assert ("Drums", 2) in [(m.source, m.value) for m in f.morale_modifiers(RULES, fight, second)]
    for key in ("morale_per_level", "courage_morale", "guidon_morale", "drums_morale", "casualty_morale"):
        assert key not in RULES["combat"]  # no second copy of the dice chapter's numbers
    rules = copy.deepcopy(RULES)
    rules["checks"]["morale"]["modifiers"]["guidon"] = 9
    assert ("Guidon", 9) in [(m.source, m.value) for m in f.morale_modifiers(rules, fight, first)]


@pytest.mark.parametrize(
    ("face", "fled", "demoralized", "battered", "penalty"),
    [(20, True, True, 0, 0), (40, True, False, 0, 0), (60, False, False, 1, 10), (80, False, False, 0, 10),
     (120, False, False, 0, 0)],
)  # fmt: skip
def test_each_morale_result_in_battle(
    face: int, fled: bool, demoralized: bool, battered: int, penalty: int
) -> None:
    fight = two_sides([unit("red-u1")], [unit("e1")])
    fighter = fight.sides[0].fighters[0]
    # 120 is reached by an explosion: 96 and then 24
    faces = [96, 24] if face == 120 else [face]
    ctx = Context({"fight/red/enc-3/ranged/red-u1/morale": faces})
    out = f.Outcome(None, 0)
    f.check_morale(RULES, ctx, fight, fighter, "ranged", out)
    assert (fighter.fled, fighter.demoralized, fighter.battered, fighter.morale_penalty) == (
        fled, demoralized, battered, penalty)  # fmt: skip
    if battered:  # Battered takes a die off Attack, Defense and Damage to the end of the fight
        assert f.pool(RULES, fight, fighter, "attack", "melee")[0] == 0


# ------------------------------------------------------------------------------------------ whole fights


def test_a_whole_fight_against_an_encounter_with_forced_dice() -> None:
    red = [unit("red-u1", weapons=MELEE)]
    enc = [unit("enc-3-u1", "goblins"), unit("enc-3-u2", "goblins")]
    fight = two_sides(red, enc)
    at = "fight/red/enc-3/"
    ctx = Context({
        # round 1: Red hits the first goblins by 11 (12 against 1) and kills 2 of them (13 against 0)
        at + "melee1/red-u1/attack": [6, 6], at + "melee1/red-u1/defense": [1],
        at + "melee1/red-u1/damage": [6, 6],
        # the goblins strike back and miss (ties and lower)
        at + "melee1/enc-3-u1/attack": [2], at + "melee1/enc-3-u1/defense": [5],
        at + "melee1/enc-3-u2/attack": [3], at + "melee1/enc-3-u2/defense": [3],
        # the first goblins lose heart: 22 − 8 for the two dead is Demoralized, and they run
        at + "melee1-medium/enc-3-u1/morale": [22],
        # round 2: the second goblins are hit and lose 1; 45 − 4 is Panicked and they run too
        at + "melee2/red-u1/attack": [5, 4], at + "melee2/red-u1/defense": [2],
        at + "melee2/red-u1/damage": [1, 2],
        at + "melee2/enc-3-u2/attack": [1], at + "melee2/enc-3-u2/defense": [6],
        at + "melee2-medium/enc-3-u2/morale": [45],
    })  # fmt: skip
    out = f.run(RULES, ctx, fight)
    assert ctx.by_label(at + "melee1/red-u1/damage").total == 13  # 12 and the margin's +1
    assert ctx.by_label(at + "melee1/red-u1/armor").total == 0  # no armour: no dice
    assert out.lost == {"enc-3-u1": 2, "enc-3-u2": 1}
    assert out.fled == ["enc-3-u1", "enc-3-u2"] and out.demoralized == ["enc-3-u1"]
    assert out.winner == "red" and out.forced_to_flee == ["enc-3"] and out.melee_rounds == 2
    assert ctx.by_label(at + "melee2-medium/enc-3-u2/morale").total == 41
    assert all(roll.forced for roll in ctx.dice.log if roll.dice)  # every die that mattered was forced


def test_a_raid_pulls_out_after_a_round_that_cost_it_men() -> None:
    red = [unit("red-u1", weapons=MELEE)]
    fight = two_sides(red, [unit("enc-3-u1")], kind="raid")
    at = "fight/red/enc-3/"
    ctx = Context({
        at + "melee1/red-u1/attack": [1, 1], at + "melee1/red-u1/defense": [6],
        at + "melee1/enc-3-u1/attack": [6], at + "melee1/enc-3-u1/defense": [1],
        at + "melee1/enc-3-u1/damage": [3], at + "melee1-medium/red-u1/morale": [90],
    })  # fmt: skip
    out = f.run(RULES, ctx, fight)
    assert out.withdrew == "red" and out.melee_rounds == 1 and out.lost == {"red-u1": 1}
    assert out.winner == "enc-3"  # it lost more men; it did not flee
    assert out.forced_to_flee == []


def test_ranged_fire_wears_down_but_kills_nobody_and_the_hit_check_their_morale() -> None:
    archers = [unit("red-u1", "elves", speed={"combat": "F", "overland": 2},
                    weapons=[{"item": "ranged_weapons", "quality": "standard"}])]  # fmt: skip
    fight = two_sides(archers, [unit("enc-3-u1")], kind="ambush")
    at = "fight/red/enc-3/"
    ctx = Context({
        at + "ranged1/red-u1/attack": [6, 6, 6, 6], at + "ranged1/red-u1/defense": [1],
        at + "ranged1/red-u1/damage": [6, 6],
        at + "ranged2/red-u1/attack": [1, 1, 1], at + "ranged2/red-u1/defense": [6],
        at + "ranged/enc-3-u1/morale": [90],
    })  # fmt: skip
    out = f.run(RULES, ctx, fight)
    target = fight.sides[1].fighters[0]
    assert f.ranged_rounds(RULES, fight, fight.sides[0].fighters[0]) == 2  # Fast: two volleys
    assert target.lost == 0 or out.lost.get("enc-3-u1", 0) == target.lost  # melee may still kill
    assert target.wear >= 2  # 24 − 0: beyond 12, −2 Defense and Armor
    assert ctx.by_label(at + "ranged/enc-3-u1/morale").result == "shaken"
    assert out.melee_rounds == 1  # an ambush: one melee round


def test_a_full_tie_goes_to_the_defender_and_is_a_draw_between_two_attackers() -> None:
    fight = two_sides([unit("red-u1")], [unit("e1")])
    assert f.winner(fight) == ("enc-3", [])
    fight.sides[1].attacking = True
    assert f.winner(fight) == (None, [])


# ------------------------------------------------------------------------------------------ the aftermath

SPEC_LOYALTY = {
    "dice": "1d100",
    "explode": {"at": 96},
    "table": [
        {"up_to": 25, "result": "embittered"},
        {"up_to": 49, "result": "faith_lost"},
        {"up_to": 74, "result": "grumpy"},
        {"result": "tenacious"},
    ],
}
RULES.setdefault("checks", {}).setdefault("loyalty", SPEC_LOYALTY)


class Week(Context):
    """A turn context for the aftermath: the rules, the week, the events told."""

    def __init__(self, turn: int, forced: dict[str, list[int]] | None = None) -> None:
        super().__init__(forced)
        self.rules, self.turn, self.events = RULES, turn, []
        self.memory = UsurperWeek(first_month=turn <= 4)  # as the turn table's first-month step sets it
        self.sealed = True  # a usurper campaign is sealed by default

    def emit(self, kind: str, **data: Any) -> None:
        self.events.append((kind, data))


def usurper_state(*units: dict[str, Any], gold: int = 100) -> dict[str, Any]:
    leaders = {lid: {"id": lid, "name": lid, "hp": 2, "skills": {}, "bonus": "craftsman"}
               for lid in ("red-l1", "red-l2")}  # fmt: skip
    lair = {"id": "red-lair1", "grid": "Z26", "obscurity": {"current": 150, "max": 150},
            "rooms": [{"type": "throne", "level": 1, "renovations": []}]}  # fmt: skip
    for record in units:
        record["lair"] = "red-lair1"
    return {"turn": 1, "factions": {"red": {"status": "active", "gold": gold, "leaders": leaders,
            "units": {u["id"]: u for u in units}, "lairs": {"red-lair1": lair}, "known": {}}}}  # fmt: skip


def plan_for(state: dict[str, Any], action: str, leaders: tuple[str, ...] = ()) -> Any:
    from resolver.rulesets.usurper.acting import Plan

    record = state["factions"]["red"]
    units = list(record["units"].values())
    chosen = [record["leaders"][lid] for lid in leaders]
    return Plan("red", action, None, units[0]["id"], [], chosen, units, "Z26", "Y25", "Z26",
                record["lairs"]["red-lair1"])  # fmt: skip


def test_harass_pays_a_gold_piece_a_traveller_killed_but_never_more_than_four() -> None:
    from resolver.rulesets.usurper import combat

    for killed, gold in ((3, 3), (4, 4), (7, 4)):
        state = usurper_state(unit("red-u1", weapons=MELEE), gold=0)
        plan = plan_for(state, "harass")
        travellers = f.Side("travellers", f.fighters_of(RULES, [unit("t1", "humans")]), False)
        own = combat.usurper_side(RULES, state, "red", plan)
        fight = f.Fight(roll_label("h"), (own, travellers), kind="harass")
        fight.sides[1].fighters[0].lost = killed
        out = f.Outcome(winner="red", melee_rounds=1, withdrew="red")
        told = combat.settle(Week(3), state, "red", plan, fight, out, roll_label("h"))
        assert state["factions"]["red"]["gold"] == gold == told["gold"]
        assert told["xp"] == {} and "xp" not in state["factions"]["red"]["units"]["red-u1"]
        assert state["factions"]["red"]["lairs"]["red-lair1"]["obscurity"]["current"] == 149


def test_a_won_fight_pays_two_gold_a_routed_unit_and_experience_to_the_survivors() -> None:
    from resolver.rulesets.usurper import combat

    state = usurper_state(unit("red-u1", weapons=MELEE, xp=0), gold=10)
    plan = plan_for(state, "attack")
    enemy = f.Side("enc-3", f.fighters_of(RULES, [unit("e1"), unit("e2"), unit("e3")]), False)
    fight = f.Fight(roll_label("a"), (combat.usurper_side(RULES, state, "red", plan), enemy))
    enemy.fighters[0].fled = enemy.fighters[1].destroyed = True
    enemy.fighters[1].lost = 10
    told = combat.settle(Week(3), state, "red", plan, fight, f.Outcome("red", 3), roll_label("a"))
    assert told["gold"] == 4 and state["factions"]["red"]["gold"] == 14
    assert state["factions"]["red"]["units"]["red-u1"]["xp"] == 1


def test_leaders_are_hurt_by_heavy_losses_and_two_dead_leaders_put_the_usurper_out() -> None:
    from resolver.rulesets.usurper import combat

    state = usurper_state(unit("red-u1", weapons=MELEE))
    plan = plan_for(state, "attack", leaders=("red-l1", "red-l2"))
    side = combat.usurper_side(RULES, state, "red", plan)
    side.fighters[0].lost, side.fighters[0].pax = 6, 4
    assert combat.leader_injury_chance(RULES, side, lost_fight=False) == 60  # 6 of 10 lost: 60%
    side.fighters[0].fled = True  # it ran and lost: 75%, none stood
    assert combat.leader_injury_chance(RULES, side, lost_fight=True) == 75
    week = Week(3, {"x/red-l1/injury": [60], "x/red-l2/injury": [61]})
    assert combat.injure_leaders(week, state, "red", side, False, roll_label("x")) == {"red-l1": "hurt"}
    assert state["factions"]["red"]["leaders"]["red-l1"]["hp"] == 1
    assert combat.hurt_leader(week, state, "red", "red-l1") == "killed"
    assert state["factions"]["red"]["status"] == "active"
    combat.hurt_leader(week, state, "red", "red-l2")
    assert combat.hurt_leader(week, state, "red", "red-l2") == "killed"
    assert state["factions"]["red"]["status"] == "out" and state["factions"]["red"]["leaders"] == {}
    assert week.events[-1][0] == "usurper_out"


def test_appendix_c6_replacements_for_a_level_five_unit_arrive_two_weeks_later() -> None:
    from resolver.rulesets.usurper import combat

    assert combat.replacement_terms(RULES, 5) == (1, 5)
    assert combat.replacement_terms(RULES, 0) == (0, 1)
    assert combat.replacement_terms(RULES, 10) == (3, 10)
    state = usurper_state(unit("red-u1", level=5, pax=8), gold=100)
    week1 = 17  # week 1 of month 5
    bought = combat.buy_replacements(RULES, state, "red", week1)
    assert bought == [{"unit": "red-u1", "pax": 2, "gold": 10, "arrives": 19}]
    assert state["factions"]["red"]["gold"] == 90
    red = state["factions"]["red"]["units"]["red-u1"]
    combat.arrive_replacements(Week(week1), state)
    assert red["pax"] == 8  # still short in week 2
    combat.arrive_replacements(Week(week1 + 1), state)
    assert red["pax"] == 10 and red["replacements"] == []  # there at the start of week 3


def test_replacements_are_bought_as_far_as_the_gold_goes() -> None:
    from resolver.rulesets.usurper import combat

    state = usurper_state(unit("red-u1", level=4, pax=5), gold=9)
    assert combat.buy_replacements(RULES, state, "red", 3) == [
        {"unit": "red-u1", "pax": 2, "gold": 8, "arrives": 5}
    ]
    assert state["factions"]["red"]["gold"] == 1


def test_a_unit_that_fled_and_fails_its_loyalty_leaves_with_its_gear() -> None:
    from resolver.rulesets.usurper import combat

    state = usurper_state(unit("red-u1", weapons=MELEE), unit("red-u2"))
    plan = plan_for(state, "attack")
    side = combat.usurper_side(RULES, state, "red", plan)
    runner, grumbler = side.fighters
    runner.fled = runner.demoralized = grumbler.fled = True
    week = Week(3, {"x/red-u1/loyalty": [30], "x/red-u2/loyalty": [60]})
    # 30 + 3 (throne room) − 5 (demoralized) = 28: Faith Lost; 60 + 3 = 63: Grumpy
    assert combat.loyalty_after_flight(week, state, "red", runner, roll_label("x")) == "faith_lost"
    assert combat.loyalty_after_flight(week, state, "red", grumbler, roll_label("x")) == "grumpy"
    assert "red-u1" not in state["factions"]["red"]["units"]
    assert state["factions"]["red"]["units"]["red-u2"]["grumpy"] is True


def test_a_fled_units_loyalty_is_the_dice_chapters_check_with_its_ledger_and_rows() -> None:
    from resolver.rulesets.usurper import combat

    medallion = [{"item": "medallion", "quality": "standard"}]
    state = usurper_state(unit("red-u1", tools=medallion))
    side = combat.usurper_side(RULES, state, "red", plan_for(state, "attack"))
    runner = side.fighters[0]
    runner.fled = runner.demoralized = True
    week = Week(5, {"x/red-u1/loyalty": [20]})
    # 20 + 3 (Throne Room) + 4 (Medallion) − 5 (Demoralized) = 22: Embittered, which costs the lair the
    # Obscurity of the Loyalty table's row
    assert combat.loyalty_after_flight(week, state, "red", runner, roll_label("x")) == "embittered"
    roll = week.by_label("x/red-u1/loyalty")
    assert [(m.source, m.value) for m in roll.modifiers] == [
        ("Throne Room", 3),
        ("Medallion", 4),
        ("Demoralized", -5),
    ]
    embittered = next(r for r in RULES["checks"]["loyalty"]["table"] if r["result"] == "embittered")
    lair = state["factions"]["red"]["lairs"]["red-lair1"]
    assert lair["obscurity"]["current"] == 150 + int(embittered["obscurity"])
    assert "loyalty_results" not in RULES["combat"] and "medallion_loyalty" not in RULES["combat"]


# ------------------------------------------------------------------------------------ the Strategy phase


def _strategy(red: list[dict], forced: dict[str, list[int]], leaders: list[dict] | None = None) -> f.Fight:
    fight = two_sides(red, [unit("enc-3-u1"), unit("enc-3-u2")])
    fight.sides[0].leaders = leaders or []
    f.strategy(RULES, Context(forced), fight, f.Outcome(winner=None, melee_rounds=0))
    return fight


def test_outmaneuver_won_gives_its_side_one_more_ranged_round() -> None:
    """Both sides roll a d100, +10 a rank of the side's best Outmaneuver; the higher total wins it for a side
    that has the skill, and its fighters shoot one more ranged round."""
    skilled = unit("red-u1", skills={"outmaneuver": {"rank": 2, "xp": 0}})
    at = "fight/red/enc-3/strategy/"
    fight = _strategy([skilled], {at + "red/outmaneuver": [40], at + "enc-3/outmaneuver": [55]})
    assert fight.outmaneuver == "red"  # 40 + 20 beats 55
    archer = fight.sides[0].fighters[0]
    assert f.ranged_rounds(RULES, fight, archer) == int(RULES["combat"]["ranged_rounds"][archer.speed]) + 1
    lost = _strategy([skilled], {at + "red/outmaneuver": [30], at + "enc-3/outmaneuver": [55]})
    assert lost.outmaneuver is None  # the encounter rolled higher, but has no rank: nobody wins it


def test_a_tie_in_strategy_gives_nobody_anything_and_tactics_is_the_leaders() -> None:
    at = "fight/red/enc-3/strategy/"
    tactician = {"id": "red-l1", "name": "Grug", "skills": {"tactics": {"rank": 1, "xp": 0}}}
    tied = _strategy([unit("red-u1")], {at + "red/tactics": [45], at + "enc-3/tactics": [55]}, [tactician])
    assert tied.tactics is None  # 45 + 10 against 55
    won = _strategy([unit("red-u1")], {at + "red/tactics": [50], at + "enc-3/tactics": [55]}, [tactician])
    assert won.tactics == "red"
    unskilled = _strategy([unit("red-u1")], {})
    assert unskilled.tactics is None and unskilled.outmaneuver is None  # no rank anywhere: no roll at all
