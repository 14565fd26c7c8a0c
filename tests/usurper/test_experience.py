"""Experience (spec §5.9): the chart by band with its Adaptive and Scholar columns, the learning curve
(Appendix C 5: level 3 to 4 takes 2, level 0 to 10 takes 22, or 15 with a Scholar), the stat raised at
each level by the standing policy, skill ranks and caps, the combat fill, and Train and Learn (§4.12)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from resolver.rulesets.usurper import RULESET, rolls
from resolver.rulesets.usurper import experience as xp

from ..scenarios.harness import Scenario
from .rolls_support import RULES, context, leader, state, unit


def _award(st: dict, band: str, action: str = "scout", by: str = "red-u1", assist=(), resource=None):
    group = rolls.participants(st, "red", by, assist)
    return {g.entity: g for g in xp.award_action(RULES, st, "red", group, action, band, resource)}


def _units(st: dict) -> dict:
    return st["factions"]["red"]["units"]


# --- Appendix C 5 ---------------------------------------------------------------------------------------


def test_c5_a_human_unit_on_a_success_gets_one_skill_xp_and_no_levelling_xp() -> None:
    st = state(units=[unit("red-u1", race="humans")])
    gains = _award(st, "success")
    assert gains["red-u1"].level_xp == 0 and gains["red-u1"].skill_xp == 1
    assert _units(st)["red-u1"]["skills"]["scout"] == {"rank": 1, "xp": 0}  # Scout 0 plus 1 XP: Scout[1]


def test_c5_a_goblin_unit_on_significant_gets_one_of_each() -> None:
    st = state(units=[unit("red-u1", race="goblins")])
    gains = _award(st, "significant")
    assert (gains["red-u1"].level_xp, gains["red-u1"].skill_xp) == (1, 1)
    assert _units(st)["red-u1"]["level"] == 1


def test_c5_level_three_to_four_takes_two() -> None:
    faction = state()["factions"]["red"]
    assert xp.needed(xp.curve(RULES, faction), 4) == 2


def test_c5_the_22_xp_path_from_level_0_to_10() -> None:
    st = state(units=[unit("red-u1")])
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    levels = []
    for _ in range(22):
        xp.add_level_xp(RULES, record, u, 1, ["offense", "defense", "strength"])
        levels.append(u["level"])
    assert levels[-1] == 10 and levels[-2] == 9  # the 22nd point makes level 10, not before
    assert levels == [1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 9, 10]
    # ten levels raised offense, defense, strength in turn
    assert (u["offense"], u["defense"], u["strength"]) == (1 + 4, 1 + 3, 1 + 3)
    xp.add_level_xp(RULES, record, u, 5, [])
    assert u["level"] == 10  # the top: more experience stays unspent
    assert u["xp"] == 5


def test_a_scholar_makes_it_15() -> None:
    st = state(units=[unit("red-u1")], leaders=[leader("red-l1", bonus="scholar")])
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    xp.add_level_xp(RULES, record, u, 14, [])
    assert u["level"] == 9
    xp.add_level_xp(RULES, record, u, 1, [])
    assert u["level"] == 10
    # a healing Scholar helps nobody
    record["leaders"]["red-l1"]["healing"] = 2
    assert xp.curve(RULES, record) == [1, 1, 1, 2, 2, 2, 3, 3, 3, 4]


# --- the chart ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("band", "level_xp", "plain", "adaptive"),
    [
        ("complete_failure", 0, 0, 0),
        ("partial_failure", 0, 0, 0),
        ("partial_success", 0, 0, 0),
        ("success", 0, 0, 1),
        ("significant", 1, 1, 1),
        ("astounding", 1, 1, 2),
        ("epic", 2, 2, 2),
        ("legendary", 2, 2, 2),
    ],
)
def test_the_chart_by_band(band: str, level_xp: int, plain: int, adaptive: int) -> None:
    st = state(units=[unit("red-u1", race="dwarves"), unit("red-u2", race="humans")])
    gains = _award(st, band, assist=["red-u2"])
    dwarves, humans = gains.get("red-u1"), gains.get("red-u2")
    assert (dwarves.level_xp if dwarves else 0, dwarves.skill_xp if dwarves else 0) == (level_xp, plain)
    assert (humans.level_xp if humans else 0, humans.skill_xp if humans else 0) == (level_xp, adaptive)


@pytest.mark.parametrize(
    ("band", "scholar", "both"),
    [("success", 1, 1), ("significant", 1, 2), ("astounding", 2, 2), ("epic", 2, 2)],
)
def test_a_scholar_assisting_units_reads_skill_xp_a_band_higher(band: str, scholar: int, both: int) -> None:
    st = state(
        units=[unit("red-u1", race="dwarves"), unit("red-u2", race="humans")],
        leaders=[leader("red-l1", bonus="scholar")],
    )
    gains = _award(st, band, assist=["red-l1", "red-u2"])
    assert gains["red-u1"].skill_xp == scholar
    assert gains["red-u2"].skill_xp == both
    assert gains["red-l1"].skill_xp == scholar and gains["red-l1"].level_xp == 0  # leaders gain no levels


def test_a_scholar_leading_its_own_diplomacy_gains_the_plain_amount() -> None:
    st = state(leaders=[leader("red-l1", bonus="scholar")])
    gains = _award(st, "significant", action="diplomacy", by="red-l1")
    assert gains["red-l1"].skill == "negotiator" and gains["red-l1"].skill_xp == 1


def test_skill_xp_goes_to_a_skill_of_the_action_the_entity_may_learn() -> None:
    st = state(
        units=[unit("red-u1", skills={"scout": {"rank": 5, "xp": 0}}), unit("red-u2")],
        leaders=[leader("red-l1")],
    )
    # a harvesting skill by the resource worked
    assert (
        _award(st, "significant", action="harvest", by="red-u2", resource="iron")["red-u2"].skill
        == "pickaxe_user"
    )
    # Spy only after Scout 5, and only for units; the usurper's preference picks it
    st["factions"]["red"]["standing"] = {"policies": {"skill_xp": ["spy"]}}
    gains = _award(st, "significant", assist=["red-u2", "red-l1"])
    assert gains["red-u1"].skill == "spy"
    assert gains["red-u2"].skill == "scout"
    assert gains["red-l1"].skill == "scout"


def test_a_skill_at_its_highest_rank_takes_no_more() -> None:
    st = state(
        units=[unit("red-u1", skills={"scout": {"rank": 10, "xp": 0}})],
        leaders=[leader("red-l1", skills={"negotiator": {"rank": 10, "xp": 0}})],
    )
    # another skill of the same action takes it
    assert _award(st, "significant")["red-u1"].skill == "forager"
    # nothing else serves Diplomacy: the leader's experience is lost
    assert _award(st, "significant", action="diplomacy", by="red-l1") == {}
    assert st["factions"]["red"]["leaders"]["red-l1"]["skills"] == {"negotiator": {"rank": 10, "xp": 0}}


def test_advanced_skills_stop_at_five() -> None:
    st = state(
        units=[unit("red-u1", skills={"woodsman": {"rank": 5, "xp": 0}, "tree_hugger": {"rank": 4, "xp": 1}})]
    )
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    assert xp.add_skill_xp(RULES, record, u, "tree_hugger", 1) == [5]
    assert not xp.may_learn(RULES, xp.UNIT, u, "tree_hugger")


def test_skill_progress_is_kept_between_ranks() -> None:
    st = state(units=[unit("red-u1", skills={"scout": {"rank": 3, "xp": 0}})])
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    assert xp.add_skill_xp(RULES, record, u, "scout", 1) == []
    assert u["skills"]["scout"] == {"rank": 3, "xp": 1}  # Scout[3]^1
    assert xp.add_skill_xp(RULES, record, u, "scout", 1) == [4]
    assert u["skills"]["scout"] == {"rank": 4, "xp": 0}


# --- levels ---------------------------------------------------------------------------------------------


def test_level_up_follows_the_policy_and_takes_speed_and_tools_once() -> None:
    st = state(units=[unit("red-u1", race="goblins", max_tools=3)])
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    order = ["speed", "max_tools", "defense"]
    raised = xp.add_level_xp(RULES, record, u, 3, order)
    # level 1 speed, level 2 max_tools (goblins are at 3 already: defense instead), level 3 defense
    assert raised == ["speed", "defense", "defense"]
    assert u["speed"]["combat"] == "F" and u["max_tools"] == 3 and u["defense"] == 3
    raised = xp.add_level_xp(
        RULES, record, u, 2, order
    )  # level 4: speed was taken, so max_tools? no: defense
    assert raised == ["defense"] and u["speed"]["combat"] == "F"


def test_the_default_level_up_policy_is_offense_defense_strength() -> None:
    st = state(units=[unit("red-u1")])
    assert RULES["policies"]["level_up"] == ["offense", "defense", "strength"]
    gains = _award(st, "epic")  # 2 levelling XP: levels 1 and 2
    assert gains["red-u1"].levels == ["offense", "defense"]


def test_max_tools_once_and_never_above_three() -> None:
    st = state(units=[unit("red-u1", race="humans", max_tools=2)])
    record, u = st["factions"]["red"], _units(st)["red-u1"]
    # level 2 cannot take max_tools again: the default list, taken in turn, gives level 2 defense
    assert xp.add_level_xp(RULES, record, u, 2, ["max_tools"]) == ["max_tools", "defense"]
    assert u["max_tools"] == 3


# --- the combat fill, and experience that came without its levels ---------------------------------------


def test_combat_xp_to_survivors_and_more_against_stronger_foes() -> None:
    st = state(units=[unit("red-u1"), unit("red-u2")])
    gains = xp.combat_xp(RULES, st, "red", ["red-u1"], own_level=0, enemy_level=1)
    assert [(g.entity, g.level_xp) for g in gains] == [("red-u1", 1)]
    gains = xp.combat_xp(RULES, st, "red", ["red-u2"], own_level=0, enemy_level=2)
    assert [(g.entity, g.level_xp) for g in gains] == [("red-u2", 2)]
    assert _units(st)["red-u2"]["level"] == 2


def test_settle_all_raises_levels_for_experience_added_elsewhere() -> None:
    st = state(units=[unit("red-u1", xp=3)])
    gains = xp.settle_all(RULES, st, "red")
    assert [(g.entity, g.levels) for g in gains] == [("red-u1", ["offense", "defense", "strength"])]
    assert _units(st)["red-u1"]["level"] == 3 and _units(st)["red-u1"]["xp"] == 0


# --- through the roll -----------------------------------------------------------------------------------


def test_the_action_roll_hands_out_experience_and_tells_the_usurper() -> None:
    st = state(units=[unit("red-u1", name="Eyes", race="humans")])
    ctx = context(forced={"t5/red/red-u1/scout/X25": [96, 10]})
    rolled = rolls.action_roll(ctx, st, "red", action="scout", by="red-u1", grid="X25")
    assert rolled.band == "significant"
    assert [(g.entity, g.level_xp, g.skill, g.skill_xp) for g in rolled.gains] == [("red-u1", 1, "scout", 1)]
    (event,) = [e for e in ctx.events if e.kind == "experience"]
    assert event.visible_to == ["red"]
    gained = {"level_xp": 1, "skill": "Scout", "skill_xp": 1, "levels": ["Offense"], "ranks": [1]}
    assert event.data["gains"] == [{"entity": "red-u1", "name": "Eyes", **gained}]


# --- Train and Learn ------------------------------------------------------------------------------------


def test_a_leader_teaches_any_number_up_to_its_own_rank() -> None:
    st = state(
        units=[unit("red-u1"), unit("red-u2", skills={"digger": {"rank": 2, "xp": 0}})],
        leaders=[leader("red-l1", name="Grug", skills={"digger": {"rank": 2, "xp": 0}}), leader("red-l2")],
    )
    gains = xp.teach(RULES, st, "red", "red-l1", "digger", ["red-l2", "red-u1", "red-u2"])
    assert [(g.entity, g.skill_xp, g.ranks) for g in gains] == [("red-l2", 1, [1]), ("red-u1", 1, [1])]
    record = st["factions"]["red"]
    trainer = record["leaders"]["red-l1"]
    assert xp.teaching_problem(RULES, trainer, "digger", xp.UNIT, record["units"]["red-u2"]) == (
        "Unit 2 already knows Digger as well as Grug (2)"
    )


def test_teaching_respects_who_may_learn_and_prerequisites() -> None:
    st = state(
        units=[unit("red-u1")],
        leaders=[
            leader(
                "red-l1",
                name="Grug",
                skills={"negotiator": {"rank": 3, "xp": 0}, "scout": {"rank": 6, "xp": 0}},
            ),
            leader("red-l2", name="Bob"),
        ],
    )
    record = st["factions"]["red"]
    grug, bob, u1 = record["leaders"]["red-l1"], record["leaders"]["red-l2"], record["units"]["red-u1"]
    assert xp.teaching_problem(RULES, grug, "negotiator", xp.UNIT, u1) == "only leaders learn Negotiator"
    assert xp.teaching_problem(RULES, grug, "negotiator", xp.LEADER, bob) is None
    assert xp.teaching_problem(RULES, bob, "scout", xp.LEADER, grug) == "Bob has no rank in Scout to teach"
    assert xp.teaching_problem(RULES, grug, "spy", xp.UNIT, u1) == "Grug has no rank in Spy to teach"


# --- Train and Learn as orders: the checker and a resolved week -----------------------------------------


ROOMS_FOR_TWO = ("throne", "barracks", "barracks", "warehouse")


def _training_scenario(tmp_path, orders: list[dict]) -> Scenario:
    fixture = {
        "ruleset": "usurper",
        "world": {"width": 10, "height": 10, "places": {"C3": "Varos"}},
        "factions": ["red"],
        "state": {
            "turn": 6,
            "cities": {"C3": {"name": "Varos", "size": "small_town", "races": ["humans"]}},
            "factions": {
                "red": {
                    # a barracks for each unit, or the week's end would disband them
                    "lairs": {"red-lair1": {"grid": "B2", "rooms": [{"type": r} for r in ROOMS_FOR_TWO]}},
                    "leaders": {
                        "red-l1": {
                            "name": "Grug",
                            "bonus": "craftsman",
                            "skills": {"digger": {"rank": 2, "xp": 0}},
                        },
                        "red-l2": {"name": "Richard", "bonus": "herald"},
                    },
                    "units": {
                        "red-u1": {"name": "Cowled Rangers", "race": "elves"},
                        "red-u2": {
                            "name": "Midnight Riders",
                            "race": "dwarves",
                            "skills": {"digger": {"rank": 2}},
                        },
                    },
                },
            },
        },
        "orders": {"red": orders},
    }
    path = tmp_path / "fixture.yaml"
    path.write_text(yaml.safe_dump(fixture), encoding="utf-8")
    return Scenario(path)


SEED_TRAINING = [
    {"action": "train", "by": "Grug", "skill": "digger"},
    {"action": "learn", "by": "Richard", "from": "Grug"},
    {"action": "learn", "by": "Cowled Rangers", "from": "Grug"},
    {"action": "learn", "by": "Midnight Riders", "from": "Grug"},
]


def test_the_seeds_training_week(tmp_path) -> None:
    scenario = _training_scenario(tmp_path, SEED_TRAINING)
    files = scenario.order_files()
    assert files["red"].ok, [(i.message, i.hint) for i in files["red"].errors]
    # the checker warns of the learner who already knows as much as the teacher
    assert [w.message for w in files["red"].warnings] == [
        "Midnight Riders already knows Digger as well as Grug (2)"
    ]
    result = scenario.resolve(files)
    (event,) = [e for e in result.events if e.kind == "training"]
    assert event.visible_to == ["red"] and event.place == "B2"
    assert event.data["learned"] == [
        {"name": "Richard", "xp": 1, "ranks": [1]},
        {"name": "Cowled Rangers", "xp": 1, "ranks": [1]},
    ]
    assert event.data["idle"] == ["Midnight Riders"]
    red = result.state["factions"]["red"]
    assert red["leaders"]["red-l2"]["skills"]["digger"] == {"rank": 1, "xp": 0}
    assert red["units"]["red-u1"]["skills"]["digger"] == {"rank": 1, "xp": 0}
    assert red["units"]["red-u2"]["skills"]["digger"]["rank"] == 2


def test_train_and_learn_refusals(tmp_path) -> None:
    orders = [
        {"action": "train", "by": "Richard", "skill": "digger"},
        {"action": "train", "by": "Grug", "skill": "juggling"},
        {"action": "learn", "by": "Cowled Rangers", "from": "Midnight Riders"},
    ]
    files = _training_scenario(tmp_path, orders).order_files()
    assert [(i.message, i.hint) for i in files["red"].errors] == [
        (
            "Richard has no rank in Digger to teach",
            "teach a skill the leader has, or let it learn this one first",
        ),
        ("there is no skill 'juggling'", "name one of: " + ", ".join(sorted(RULES["skills"]))),
        ("only a leader trains others", "name one of your leaders in 'from'"),
    ]


def test_a_learner_without_a_trainer_learns_nothing_and_is_told(tmp_path) -> None:
    scenario = _training_scenario(tmp_path, [{"action": "learn", "by": "Cowled Rangers", "from": "Grug"}])
    files = scenario.order_files()
    assert [w.message for w in files["red"].warnings] == ["Grug has no train order in this file"]
    result = scenario.resolve(files)
    (failed,) = [e for e in result.events if e.kind == "order_failed"]
    assert failed.data["reason"] == "Grug trained nobody this week"


def test_the_experience_and_training_events_read_in_words(tmp_path) -> None:
    scenario = _training_scenario(tmp_path, SEED_TRAINING)
    result = scenario.resolve(scenario.order_files())
    game = scenario.game
    (training,) = [e.to_data() for e in result.events if e.kind == "training"]
    assert RULESET.describe(training, game) == (
        "Grug of red teaches Digger at B2: Richard gains 1 point and reaches rank 1, Cowled Rangers gains "
        "1 point and reaches rank 1 (Midnight Riders learned nothing more from this teacher)."
    )
    event = {
        "kind": "experience", "actors": ["red"], "place": "X25",
        "data": {"action": "scout", "gains": [
            {"entity": "red-u1", "name": "Eyes", "level_xp": 1, "skill": "Scout", "skill_xp": 2,
             "levels": ["Offense"], "ranks": [1]},
        ]},
    }  # fmt: skip
    assert RULESET.describe(event, game) == (
        "Eyes gains 1 point of experience and 2 points in Scout, rises 1 level (+1 Offense), "
        "reaching Scout 1."
    )
    # The event carries every field its sentence reads, empty ones too, so the sentence needs no get().
    ears = xp.Gain("red-u2", "Ears", skill="scout", skill_xp=1).to_data()
    assert ears == {"entity": "red-u2", "name": "Ears", "level_xp": 0, "skill": "scout", "skill_xp": 1,
                    "levels": [], "ranks": []}  # fmt: skip
    event["data"]["gains"] = [{**ears, "skill": "Scout"}]
    assert RULESET.describe(event, game) == "Ears gains 1 point in Scout."
    sentence = yaml.safe_load((Path(xp.__file__).parent / "events.yaml").read_text(encoding="utf-8"))
    assert "get(" not in sentence["experience"]
