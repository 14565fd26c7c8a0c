"""Overlord's structures (spec §5.11): materials laid by building skills, the military stone split,
completion with its benefits, TARGET and BUILD (tags, ids, temporary ids), where nothing may be built,
CHRISTEN."""

from __future__ import annotations

import copy

from resolver.core.programs import Program, Result, parse_line
from resolver.rulesets.overlord import control, report, structures, warfare

from .production_support import day_end, events, month, rules, run, unit
from .support import game, start, unit_of
from .support import month as real_month


def builder(uid: str, skill: str, figures: int = 10, days: float = 15, **items: int) -> dict:
    return unit(uid, figures=figures, skills={skill: days, "buil": 15}, items=dict(items))


def test_a_fortress_needs_150_stone_laid_by_siegecraft_and_150_by_masonry() -> None:
    quotas = structures.quotas(rules(), "fort")
    assert quotas == {("wood", None): 100, ("ston", "sieg"): 150, ("ston", "maso"): 150, ("iron", None): 50}
    assert structures.quotas(rules(), "barr") == {("wood", None): 100, ("ston", None): 50}


def test_one_material_per_ten_man_days_at_first_level_and_faster_at_the_second() -> None:
    first = month({"U1": builder("U1", "carp", wood=20)})
    second = month({"U1": builder("U1", "carp", days=45, wood=20)})
    for m in (first, second):
        assert run(m, "U1", "TARGET barr") == (Result.FINISHED, None)
        for _ in range(3):
            assert run(m, "U1", "@USE carp")[0] is Result.RAN
            day_end(m)
    assert first.state["structures"]["B1"]["built"] == {"wood": 3}
    assert second.state["structures"]["B1"]["built"] == {"wood": 6}
    assert first.state["units"]["U1"]["target"] == "B1" and first.state["next_ids"]["structure"] == 2
    assert events(first, "structure_begun")[0]["structure_kind"] == "Barracks"


def test_a_mason_stops_at_its_half_and_the_siege_engineers_finish_the_fortress() -> None:
    units = {
        "U1": builder("U1", "carp", figures=100, wood=100),
        "U2": builder("U2", "maso", figures=200, ston=300, iron=50),
        "U3": builder("U3", "sieg", figures=150, ston=150),
    }
    m = month(units)
    for uid in units:
        run(m, uid, "TARGET fort")
    results = {uid: run(m, uid, "@USE " + next(iter(units[uid]["skills"]))) for uid in units}
    fort = m.state["structures"]["B1"]
    # One fortress for the three builders: 10, 20 and 15 pieces on the first day.
    assert list(m.state["structures"]) == ["B1"]
    assert fort["built"] == {"wood": 10, "ston": 35}
    for _ in range(15):
        day_end(m)
        for uid in units:
            if m.state["units"][uid].get("target") == "B1" and not fort.get("complete"):
                run(m, uid, "@USE " + next(iter(units[uid]["skills"])))
    assert fort["laid"] == {"ston": {"maso": 150, "sieg": 150}}
    assert fort["built"] == {"wood": 100, "ston": 300, "iron": 50}
    assert fort["complete"] is True
    assert m.state["units"]["U2"]["items"] == {"ston": 150}  # the mason's other half was not wanted
    assert m.state["places"]["L1"]["title"] == {"tag": "lord", "holder": None}
    assert events(m, "structure_completed")[0]["structure_kind"] == "Fortress"
    assert results["U1"][0] is Result.RAN


def test_a_mason_alone_cannot_lay_the_siegecraft_half() -> None:
    m = month({"U2": builder("U2", "maso", figures=1500, ston=300)})
    run(m, "U2", "TARGET gtow")
    assert run(m, "U2", "@USE maso")[0] is Result.RAN
    tower = m.state["structures"]["B1"]
    # Its 50 stone are in; masonry may still lay the tower's iron, but never the siegecraft half.
    assert tower["built"] == {"ston": 50} and not tower["complete"]
    assert m.state["units"]["U2"]["items"] == {"ston": 250}
    assert structures.still_needed(m.rules, tower, "maso") == ["iron"]
    assert structures.still_needed(m.rules, tower, "sieg") == ["ston", "iron"]


def test_several_builders_naming_a_tag_work_on_one_structure_and_another_faction_its_own() -> None:
    m = month(
        {
            "U1": builder("U1", "carp", wood=5),
            "U2": builder("U2", "carp", wood=5),
            "U3": {**builder("U3", "carp", wood=5), "owner": "blue"},
        }
    )
    for uid in ("U1", "U2", "U3"):
        run(m, uid, "TARGET farm")
        run(m, uid, "USE carp")
    assert m.state["structures"]["B1"]["built"] == {"wood": 2}
    assert m.state["structures"]["B2"]["owner"] == "blue"


def test_nothing_is_built_on_water_or_from_inside_a_structure() -> None:
    m = month(
        {"U1": {**builder("U1", "carp", wood=5), "location": "L9"}, "U2": builder("U2", "carp", wood=5)}
    )
    m.state["units"]["U2"]["structure"] = "B7"
    for uid in ("U1", "U2"):
        run(m, uid, "TARGET barr")
        assert run(m, uid, "USE carp")[0] is Result.INVALID
    reasons = [event["reason"] for event in events(m, "line_failed")]
    assert "water" in reasons[0] and "inside another structure" in reasons[1]
    assert m.state["structures"] == {}


def test_build_starts_a_structure_under_a_temporary_id_that_other_queues_follow() -> None:
    m = month({"U1": builder("U1", "carp", wood=5), "U2": builder("U2", "maso", ston=5)})
    m.programs["U2"] = Program([parse_line("@BUILD maso rednB01")])
    assert run(m, "U2", "@BUILD maso rednB01")[0] is Result.SKIPPED  # not begun yet
    assert run(m, "U1", "BUILD carp barr rednB01 3")[0] is Result.CONTINUES
    day_end(m)
    assert m.programs["U2"].to_data() == ["@BUILD maso B1"]
    assert run(m, "U2", "@BUILD maso B1")[0] is Result.RAN
    assert m.state["structures"]["B1"]["built"] == {"wood": 1, "ston": 1}


def test_a_new_target_loses_the_building_work_in_hand() -> None:
    m = month({"U1": builder("U1", "carp", figures=5, wood=5)})
    run(m, "U1", "TARGET barr")
    run(m, "U1", "USE carp")
    assert m.state["units"]["U1"]["progress"]["carp"]["work"] == 5
    run(m, "U1", "TARGET farm")
    assert "carp" not in m.state["units"]["U1"]["progress"]
    assert run(m, "U1", "TARGET nowhere")[0] is Result.INVALID


def test_a_completed_barracks_teaches_combat_and_key_structures_add_control_points() -> None:
    data = rules()
    state = {
        "structures": {"B1": {"type": "barr", "location": "L1", "owner": "red", "built": {}}},
        "places": {},
    }
    structures.finish(data, state, "B1")
    taught = state["structures"]["B1"]["teaching"]
    assert taught["cmbt"] == 2 and taught["blde"] == 2 and "carp" not in taught
    state["structures"]["B2"] = {"type": "mgld", "owner": "red", "complete": True}
    state["structures"]["B3"] = {"type": "mgld", "owner": "red", "complete": False}
    assert structures.control_points(data, state, "red") == 2
    inside = {"structure": "B4"}
    state["structures"]["B4"] = {"type": "gtow", "complete": True}
    assert structures.unit_bonuses(data, state, inside) == {"defense": 3, "initiative": -1}


def test_christen_renames_the_structure_once_the_unit_is_its_owner() -> None:
    m = month(
        {
            "U1": unit("U1", structure="B1", arrival=1),
            "U2": unit("U2", structure="B1", arrival=2),
        }
    )
    m.state["structures"]["B1"] = {"type": "fort", "name": "Fortress", "complete": True, "location": "L1"}
    assert run(m, "U2", 'CHRISTEN "High Eagle Fort"')[0] is Result.SKIPPED
    assert run(m, "U1", 'CHRISTEN "High Eagle Fort"')[0] is Result.FINISHED
    assert m.state["structures"]["B1"]["name"] == "High Eagle Fort"
    assert events(m, "structure_named")[0]["old"] == "Fortress"


def test_units_inside_a_completed_guard_tower_fight_with_its_bonuses() -> None:
    data = rules()
    state = {
        "units": {"U1": unit("U1", structure="B1"), "U2": unit("U2")},
        "structures": {"B1": {"type": "gtow", "location": "L1", "owner": "red", "complete": True}},
    }
    inside, outside = (warfare.fighter(data, state, uid, "defenders") for uid in ("U1", "U2"))
    assert (inside.defense, inside.initiative) == (outside.defense + 3, outside.initiative - 1)
    state["structures"]["B1"]["complete"] = False  # a building site shelters nobody
    unfinished = warfare.fighter(data, state, "U1", "defenders")
    assert (unfinished.defense, unfinished.initiative) == (outside.defense, outside.initiative)


# ---- who owns a structure, and builders' spare pieces, through the real month ----------------------------


def _fort(state: dict, where: str, owner: str, **fields: object) -> None:
    state["structures"]["B1"] = {"owner": owner, "name": "Red Keep", "type": "fort", "location": where,
                                 "complete": True, "built": {}, **fields}  # fmt: skip
    state["next_ids"]["structure"] = 2


def test_the_owner_is_the_first_unit_inside_not_on_the_road_and_its_faction_gets_the_control_points() -> None:
    data = rules()
    state = {
        "factions": {"red": {"stances": {}}, "blue": {"stances": {}}},
        "structures": {"B1": {"owner": "red", "type": "fort", "location": "L1", "complete": True}},
        "units": {
            # A red unit whose record still names the fortress, but which is on the road.
            "U1": unit("U1", structure="B1", arrival=1, moving={"to": "L2", "days": 3, "done": 1}),
            "U2": {**unit("U2", structure="B1", arrival=2), "owner": "blue"},
        },
    }
    assert structures.owner_unit(state, "B1") == "U2"
    assert structures.owner_of(state, "B1") == "blue"
    fort_points = data["structures"]["types"]["fort"]["control"]
    assert structures.control_points(data, state, "blue") == fort_points
    assert structures.control_points(data, state, "red") == 0
    state["units"]["U2"]["structure"] = None  # nobody inside: the record's owner keeps it
    assert structures.owner_of(state, "B1") == "red" and structures.owner_unit(state, "B1") is None


def test_a_structure_passes_to_the_faction_left_inside_at_the_day_s_end_with_its_control_points() -> None:
    g = game()
    state = start(g)
    red, blue = unit_of(state, "red", "hero"), unit_of(state, "blue", "hero")
    where = state["units"][red]["location"]
    state["units"][unit_of(state, "blue", "man")]["stack"] = None  # blue's hero came alone
    state["units"][blue].update(location=where, structure="B1", arrival=90)
    state["units"][red].update(structure="B1")
    state["units"][unit_of(state, "red", "man")].update(structure="B1")
    _fort(state, where, "red")
    before = {f: control.available(state, g.rules, f) for f in ("red", "blue")}
    orders = {
        "red": [{"action": "unit", "unit": red, "orders": ["LEAVE"]}],
        "blue": [{"action": "unit", "unit": blue, "orders": ['CHRISTEN "Blue Hall"']}],
    }
    result = real_month(g, state, orders, sealed=True)
    after = result.state
    fort = after["structures"]["B1"]
    # Red's hero leads its men out on day 1; blue's hero is first inside, names it, and holds it.
    assert fort["owner"] == "blue" and fort["name"] == "Blue Hall"
    taken = [e for e in result.events if e.kind == "structure_taken"]
    assert [(e.tick, e.actors, e.visible_to) for e in taken] == [(1, ["blue"], ["blue", "red"])]
    points = g.rules["structures"]["types"]["fort"]["control"]
    assert taken[0].data["control"] == points
    text = g.ruleset.describe(taken[0].to_data(), g)
    assert "Blue Hall" in text and "Red" in text and "Fortress" in text and "point goes" in text, text
    assert "{" not in text and "B1" not in text and "red" not in text.replace("Red", ""), text
    # The fortress's control points went with it; the report lists it for blue, no longer for red.
    assert control.available(after, g.rules, "blue") == before["blue"] + points
    assert control.available(after, g.rules, "red") == before["red"] - points
    assert any("Blue Hall [B1]" in line for line in report.structure_lines(g, after, "blue"))
    assert report.structure_lines(g, after, "red") == []

    # Next month blue walks out too: nobody holds it now, and it stays blue's.
    out = {"blue": [{"action": "unit", "unit": blue, "orders": ["LEAVE"]}]}
    again = real_month(g, after, out, sealed=True)
    assert again.state["units"][blue]["structure"] is None
    assert again.state["structures"]["B1"]["owner"] == "blue"
    assert not [e for e in again.events if e.kind == "structure_taken"]
    assert control.available(again.state, g.rules, "blue") == before["blue"] + points


def test_two_masons_finishing_their_half_lay_no_stone_beyond_it_and_keep_the_spare_piece() -> None:
    g = game()
    state = start(g)
    red = unit_of(state, "red", "man")
    where = state["units"][red]["location"]
    # The fortress lacks 4 stones of masonry's half (and its iron, which these masons do not carry).
    _fort(state, where, "red", complete=False, built={"wood": 100, "ston": 296},
          laid={"ston": {"sieg": 150, "maso": 146}})  # fmt: skip
    masons = {"U900": 13, "U901": 17}  # 1.3 and 1.7 stones a day: each carries a piece over the night
    for arrival, (uid, figures) in enumerate(masons.items(), start=80):
        state["units"][uid] = {
            **copy.deepcopy(state["units"][red]),
            "name": f"Masons {uid[1:]}", "figures": figures, "stack": None, "arrival": arrival,
            "skills": {"maso": 15, "buil": 15}, "items": {"ston": 10, "coin": 500}, "equipped": {},
        }  # fmt: skip
    build = ["TARGET B1", "@USE maso"]
    orders = {"red": [{"action": "unit", "unit": uid, "orders": list(build)} for uid in masons]}
    result = real_month(g, state, orders, sealed=True)
    fort = result.state["structures"]["B1"]
    assert fort["laid"]["ston"] == {"sieg": 150, "maso": 150}
    assert fort["built"]["ston"] == 300 and not fort["complete"]  # the iron is still missing
    # Every stone not laid is back with its mason: 20 carried, 4 laid.
    kept = sum(int(result.state["units"][uid]["items"].get("ston", 0)) for uid in masons)
    assert kept == 20 - 4
    spare = [e for e in result.events if e.kind == "building_spare"]
    assert len(spare) == 1 and spare[0].visible_to == ["red"]
    text = g.ruleset.describe(spare[0].to_data(), g)
    assert "stone" in text and "Red Keep" in text and "{" not in text and "U90" not in text, text


def test_a_piece_begun_for_a_structure_another_builder_completed_goes_back_to_its_builder() -> None:
    m = month({"U1": builder("U1", "carp", wood=5), "U2": builder("U2", "carp", wood=5)})
    m.state["structures"]["B1"] = {"owner": "red", "name": "Farm", "type": "farm", "location": "L1",
                                   "complete": False, "built": {"wood": 89}}  # fmt: skip
    m.state["next_ids"]["structure"] = 2
    # U1 took a wood yesterday and did half its work; U2 lays the farm's last wood today.
    m.state["units"]["U1"]["items"]["wood"] = 4
    m.state["units"]["U1"]["progress"] = {
        "carp": {"kind": "build", "location": "L1", "work": 5, "target": "B1", "material": "wood"}
    }
    m.state["units"]["U1"]["target"] = "B1"
    assert run(m, "U2", "TARGET B1")[0] is Result.FINISHED
    assert run(m, "U2", "@USE carp")[0] is Result.FINISHED
    assert m.state["structures"]["B1"]["complete"] and m.state["structures"]["B1"]["built"] == {"wood": 90}
    assert run(m, "U1", "@USE carp")[0] is Result.FINISHED
    assert m.state["units"]["U1"]["items"]["wood"] == 5
    assert m.state["units"]["U1"]["progress"]["carp"]["material"] is None
    assert [e["material"] for e in events(m, "building_spare")] == ["wood"]
    # A builder that named the kind, not the id, goes on to a new farm, with its spare wood back first.
    m.state["units"]["U3"] = {**builder("U3", "carp", figures=1, wood=0), "target": "farm"}
    m.state["units"]["U3"]["progress"] = {
        "carp": {"kind": "build", "location": "L1", "work": 5, "target": "B1", "material": "wood"}
    }
    assert run(m, "U3", "@USE carp")[0] is Result.RAN
    assert m.state["units"]["U3"]["progress"]["carp"] == {
        "kind": "build",
        "location": "L1",
        "work": 1.0,
        "target": "B2",
        "material": "wood",
    }
    assert [e["structure"] for e in events(m, "building_spare")] == ["Farm", "Farm"]


def test_a_structure_its_owner_left_unkept_is_walked_into_and_taken() -> None:
    g = game()
    state = start(g)
    blue = unit_of(state, "blue", "hero")
    # Both factions start in one city: blue's hero rides alone to an empty place, where red has a fortress.
    water = g.rules["structures"]["building"]["water"]
    taken_places = {u["location"] for u in state["units"].values()}
    where = next(loc for loc in g.world if loc not in taken_places and g.world[loc].terrain not in water)
    state["units"][unit_of(state, "blue", "man")]["stack"] = None
    state["units"][blue]["location"] = where
    _fort(state, where, "red")  # red holds blue only Neutral
    orders = {"blue": [{"action": "unit", "unit": blue, "orders": ["ENTER B1"]}]}

    # A red unit in the place keeps the door: blue is refused and the fortress stays red's.
    kept = copy.deepcopy(state)
    kept["units"][unit_of(kept, "red", "man")].update(location=where, stack=None)
    refused = real_month(g, kept, copy.deepcopy(orders), sealed=True)
    assert refused.state["units"][blue]["structure"] is None
    assert [e.data["reason"] for e in refused.events if e.kind == "move_blocked"][:1] == ["enter_refused"]
    assert refused.state["structures"]["B1"]["owner"] == "red"

    # With nobody of red's there, blue walks in on day 1 and the fortress is blue's at that day's end.
    taken = real_month(g, state, orders, sealed=True)
    assert taken.state["units"][blue]["structure"] == "B1"
    assert taken.state["structures"]["B1"]["owner"] == "blue"
    told = [(e.tick, e.visible_to) for e in taken.events if e.kind == "structure_taken"]
    assert told == [(1, ["blue", "red"])]
