"""The order-program service (``resolver/core/programs.py``): reading lines, and running queues day by day
with a small made-up game (a few orders on a dictionary of units), so that only the queue rules are tested.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from resolver.core.programs import (
    MAX_LINES,
    Line,
    Program,
    ProgramError,
    Result,
    Timing,
    drop_references,
    parse_line,
    rewrite_ids,
    run_day,
)

# ---------------------------------------------------------------- reading lines


@pytest.mark.parametrize(
    ("text", "depth", "plus", "repeat", "count", "day", "keyword", "args"),
    [
        ("STUDY cmbt", 0, False, False, None, None, "STUDY", ("cmbt",)),
        ("study CMBT 2", 0, False, False, None, None, "STUDY", ("CMBT", "2")),
        ("-GIVE U5 swrd 1", 1, False, False, None, None, "GIVE", ("U5", "swrd", "1")),
        ("--MOVE N", 2, False, False, None, None, "MOVE", ("N",)),
        ("+STUDY lumb 2", 0, True, False, None, None, "STUDY", ("lumb", "2")),
        ("@USE digg", 0, False, True, None, None, "USE", ("digg",)),
        ("10 USE digg", 0, False, False, 10, None, "USE", ("digg",)),
        ("D17 STUDY cmbt", 0, False, False, None, 17, "STUDY", ("cmbt",)),
        ("d3 DAY 15", 0, False, False, None, 3, "DAY", ("15",)),
        ("-5 STUDY cmbt", 1, False, False, 5, None, "STUDY", ("cmbt",)),
        ("+30 STUDY CMBT", 0, True, False, 30, None, "STUDY", ("CMBT",)),
        ("-@PILLAGE", 1, False, True, None, None, "PILLAGE", ()),
        ("+@USE hors 10", 0, True, True, None, None, "USE", ("hors", "10")),
        ("-+@D17 STUDY cmbt 1", 1, True, True, None, 17, "STUDY", ("cmbt", "1")),
        ("--+7 D2 USE digg", 2, True, False, 7, 2, "USE", ("digg",)),
        ("@D5 GUARD", 0, False, True, None, 5, "GUARD", ()),
        ("-15 GUARD", 1, False, False, 15, None, "GUARD", ()),
        ('  NAME "The Iron Guard"   # a comment', 0, False, False, None, None, "NAME", ("The Iron Guard",)),
        ('DESCRIBE "" ', 0, False, False, None, None, "DESCRIBE", ("",)),
        ('NAME "# not a comment"', 0, False, False, None, None, "NAME", ("# not a comment",)),
        ("NAME The Empire", 0, False, False, None, None, "NAME", ("The", "Empire")),
        ("ACCEPT rednU01#friend", 0, False, False, None, None, "ACCEPT", ("rednU01",)),
    ],
)
def test_a_line_is_read_prefix_by_prefix(
    text: str,
    depth: int,
    plus: bool,
    repeat: bool,
    count: int | None,
    day: int | None,
    keyword: str,
    args: tuple,
) -> None:
    line = parse_line(text)
    assert (line.depth, line.plus, line.repeat, line.count, line.day) == (depth, plus, repeat, count, day)
    assert (line.keyword, line.args) == (keyword, args)
    assert parse_line(line.render()) == line  # the canonical text reads back as the same line


@pytest.mark.parametrize(
    ("text", "rendered"),
    [
        ("-+@d17   study cmbt 1", "-+@D17 STUDY cmbt 1"),
        ("5   USE digg", "5 USE digg"),
        ("--MOVE n", "--MOVE n"),
        ("+30 study CMBT", "+30 STUDY CMBT"),
        ("-5 D3 use digg", "-5 D3 USE digg"),
        ('NAME "Big Bob"', 'NAME "Big Bob"'),
        ('NAME "Bob"', "NAME Bob"),
        ('DESCRIBE ""', 'DESCRIBE ""'),
    ],
)
def test_a_line_renders_in_its_canonical_form(text: str, rendered: str) -> None:
    assert parse_line(text).render() == rendered


def test_the_columns_of_the_keyword_and_arguments_are_kept_for_messages() -> None:
    line = parse_line('  -@D4 GIVE U5  "long sword" 2')
    assert line.columns == (8, 13, 17, 30)
    assert line == parse_line('-@D4 GIVE U5 "long sword" 2')  # columns take no part in comparisons


@pytest.mark.parametrize(
    ("text", "column", "words"),
    [
        ("", 1, "holds no order"),
        ("   # only a comment", 1, "holds no order"),
        ("@5 USE digg", 2, "cannot be combined"),
        ("5 @USE digg", 3, "cannot be combined"),
        ("@@USE digg", 2, "one '@' is enough"),
        ("10USE digg", 3, "runs straight into the order"),
        ("0 USE digg", 1, "0 days"),
        ("D0 GUARD", 1, "no day 0"),
        ("+-GIVE U5 swrd", 2, "out of place"),
        ("@-GIVE U5 swrd", 2, "'@' must come after"),
        ("D17 @STUDY cmbt", 5, "out of place"),
        ("D17 5 STUDY cmbt", 5, "out of place"),
        ("-+@", 4, "not followed by an order"),
        ('NAME "Big Bob', 6, "no closing quote"),
        ('NAME "Big"Bob', 11, "runs straight into more text"),
        ('NAME Big"Bob', 9, "a quote inside a word"),
        ("5 * GIVE", 3, "is not an order"),
    ],
)
def test_a_bad_line_is_refused_with_its_column_and_the_fix(text: str, column: int, words: str) -> None:
    with pytest.raises(ProgramError) as caught:
        parse_line(text)
    assert caught.value.column == column
    assert words in caught.value.problem
    assert caught.value.fix


def test_a_program_keeps_fifty_lines_and_says_how_many_it_dropped() -> None:
    program = Program.from_data([f"WAIT {n}" for n in range(1, MAX_LINES + 6)])
    assert len(program.lines) == MAX_LINES == 50
    assert program.dropped == 5
    assert program.to_data()[-1] == "WAIT 50"
    assert Program.from_data(["GUARD"]).dropped == 0


def test_a_bad_line_in_a_program_says_which_line() -> None:
    with pytest.raises(ProgramError) as caught:
        Program.from_data(["GUARD", "@5 USE digg"])
    assert (caught.value.index, caught.value.column) == (1, 2)


# ---------------------------------------------------------------- a small game to run programs in

TIMING = {
    "HAVE": Timing.CONDITION,
    "AT": Timing.CONDITION,
    "SIZE": Timing.CONDITION,
    "DAY": Timing.CONDITION,
    "WAIT": Timing.CONDITION,
    "GIVE": Timing.IMMEDIATE,
    "GUARD": Timing.IMMEDIATE,
    "NAME": Timing.IMMEDIATE,
    "BUY": Timing.IMMEDIATE,
    "SPLIT": Timing.IMMEDIATE,
    "USE": Timing.FULL_DAY,
    "STUDY": Timing.FULL_DAY,
    "PILLAGE": Timing.FULL_DAY,
    "WORK": Timing.FULL_DAY,
    "MOVE": Timing.MOVEMENT,
}
WORK = parse_line("WORK")


@dataclass
class Game:
    """Units as plain records; every executed line is logged as (day, unit, line as run)."""

    units: dict[str, dict] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # the actors, in the order they act
    programs: dict[str, Program] = field(default_factory=dict)
    log: list[tuple[int, str, str]] = field(default_factory=list)
    day: int = 0
    market: int = 0  # items the market has for sale today
    next_unit: int = 100

    def add(self, unit: str, orders: list[str], **record: object) -> None:
        self.units[unit] = {
            "items": {},
            "figures": 1,
            "location": "L1",
            "skills": {},
            "busy": False,
            **record,
        }
        self.programs[unit] = Program.from_data(orders)
        self.order.append(unit)

    def run(self, days: range | list[int]) -> None:
        for day in days:
            self.day = day
            run_day(day, self.order, self.programs, self.timing, self.execute, self.busy, WORK)

    def timing(self, line: Line) -> Timing:
        return TIMING[line.keyword]

    def busy(self, unit: str) -> bool:
        return bool(self.units[unit]["busy"])

    def queue(self, unit: str) -> list[str]:
        return self.programs[unit].to_data()

    def ran(self, unit: str, keyword: str | None = None) -> list[int]:
        return [day for day, who, text in self.log if who == unit and (keyword is None or keyword in text)]

    def execute(self, unit: str, line: Line) -> tuple[Result, Line | None]:
        me, args = self.units[unit], line.args
        outcome: tuple[Result, Line | None] = getattr(self, f"do_{line.keyword.lower()}")(
            me, unit, line, *args
        )
        if outcome[0] is not Result.SKIPPED and outcome[0] is not Result.INVALID:
            self.log.append((self.day, unit, line.render()))
        return outcome

    def do_have(self, me: dict, unit: str, line: Line, item: str, count: str = "1") -> tuple:
        return (Result.FINISHED if me["items"].get(item, 0) >= int(count) else Result.SKIPPED), None

    def do_at(self, me: dict, unit: str, line: Line, place: str) -> tuple:
        return (Result.FINISHED if me["location"] == place else Result.SKIPPED), None

    def do_size(self, me: dict, unit: str, line: Line, size: str) -> tuple:
        # RAN, not FINISHED: a condition that ran is removed all the same, whatever '@' or count it carries
        return (Result.RAN if me["figures"] >= int(size) else Result.SKIPPED), None

    def do_day(self, me: dict, unit: str, line: Line, day: str) -> tuple:
        return (Result.FINISHED if self.day == int(day) else Result.SKIPPED), None

    def do_wait(self, me: dict, unit: str, line: Line, days: str) -> tuple:
        # Fires every day; done once the days have passed (the line counts itself down meanwhile).
        left = int(days) - 1
        return (Result.FINISHED, None) if left <= 0 else (Result.CONTINUES, line.with_args(str(left)))

    def do_give(self, me: dict, unit: str, line: Line, to: str, item: str, count: str = "1") -> tuple:
        other = self.units.get(to)
        if other is None or other["location"] != me["location"] or me["items"].get(item, 0) < int(count):
            return Result.SKIPPED, None
        me["items"][item] -= int(count)
        other["items"][item] = other["items"].get(item, 0) + int(count)
        return Result.RAN, None

    def do_guard(self, me: dict, unit: str, line: Line) -> tuple:
        return Result.RAN, None

    def do_name(self, me: dict, unit: str, line: Line, *name: str) -> tuple:
        me["name"] = " ".join(name)
        return Result.FINISHED, None  # a one-shot: gone whatever it carries

    def do_buy(self, me: dict, unit: str, line: Line, count: str, item: str) -> tuple:
        bought = min(int(count), self.market)
        if not bought:
            return Result.SKIPPED, None
        self.market -= bought
        me["items"][item] = me["items"].get(item, 0) + bought
        left = int(count) - bought
        return (Result.FINISHED, None) if not left else (Result.CONTINUES, line.with_args(str(left), item))

    def do_split(self, me: dict, unit: str, line: Line, new: str, count: str) -> tuple:
        if "nU" not in new:
            return Result.INVALID, None
        created = f"U{self.next_unit}"
        self.next_unit += 1
        me["figures"] -= int(count)
        self.units[created] = {"items": {}, "figures": int(count), "location": me["location"], "busy": False}
        self.order.insert(self.order.index(unit) + 1, created)  # it acts right after the unit it left
        rewrite_ids(self.programs, new, created)
        return Result.FINISHED, None

    def do_use(self, me: dict, unit: str, line: Line, skill: str, products: str | None = None) -> tuple:
        me["items"][skill] = me["items"].get(skill, 0) + 1
        if products is not None and me["items"][skill] >= int(products):
            return Result.FINISHED, None
        return Result.RAN, None

    def do_study(self, me: dict, unit: str, line: Line, skill: str, level: str | None = None) -> tuple:
        if skill == "never":
            return Result.INVALID, None  # a skill this unit can never learn
        me["skills"][skill] = me["skills"].get(skill, 0) + 1
        if level is None:
            return Result.RAN, None
        return (Result.FINISHED if me["skills"][skill] >= int(level) * 3 else Result.CONTINUES), None

    def do_pillage(self, me: dict, unit: str, line: Line) -> tuple:
        return Result.RAN, None

    def do_work(self, me: dict, unit: str, line: Line) -> tuple:
        return Result.RAN, None

    def do_move(self, me: dict, unit: str, line: Line, where: str) -> tuple:
        me["location"] = where  # a one-day trip in this little game
        return Result.RAN, None


# ---------------------------------------------------------------- the manual's examples


def test_worked_example_a_frees_one_dash_and_stops_at_the_next_plain_line() -> None:
    game = Game()
    game.add("U1", ["GIVE U2 gold 1", "-5 STUDY magc", "GIVE U3 gold 1", "-MOVE S"], items={"gold": 2})
    game.add("U2", [], location="L9")
    game.run([1])
    assert game.queue("U1") == ["GIVE U2 gold 1", "-5 STUDY magc", "GIVE U3 gold 1", "-MOVE S"]
    assert game.ran("U1") == [1]  # nothing could run: it worked
    game.units["U2"]["location"] = "L1"  # unit-a shows up
    game.run([2])
    assert game.queue("U1") == ["4 STUDY magc", "GIVE U3 gold 1", "-MOVE S"]
    game.run(range(3, 9))
    assert game.queue("U1") == ["GIVE U3 gold 1", "-MOVE S"]  # unit-b never came: the move waits
    assert game.ran("U1", "STUDY") == [2, 3, 4, 5, 6]


def test_worked_example_b_waits_level_by_level() -> None:
    game = Game()
    game.add("U1", ["HAVE iron 2", "-GIVE U2 iron 1", "--MOVE N"], items={"iron": 1})
    game.add("U2", [], location="L9")
    game.run([1])
    assert game.queue("U1") == ["HAVE iron 2", "-GIVE U2 iron 1", "--MOVE N"]
    game.units["U1"]["items"]["iron"] = 2
    game.run([2])
    assert game.queue("U1") == ["GIVE U2 iron 1", "-MOVE N"]
    game.units["U2"]["location"] = "L1"
    game.run([3])
    assert game.queue("U1") == []  # gave, then moved north the same day
    assert game.units["U1"]["location"] == "N"
    assert game.ran("U1", "MOVE") == [3]


def test_an_alternative_runs_until_the_condition_above_it_holds_then_is_pruned_before_the_release() -> None:
    game = Game()
    game.add("U1", ["HAVE hors 2", "+@USE hors", "-MOVE N"])
    game.run([1])
    assert game.queue("U1") == ["HAVE hors 2", "+@USE hors", "-MOVE N"]  # one horse made
    game.run([2])  # the second horse is made in day 2's full-day pass
    assert game.queue("U1") == ["HAVE hors 2", "+@USE hors", "-MOVE N"]
    game.run([3])  # HAVE holds: the alternative goes, and only then is the move freed, and it runs
    assert game.queue("U1") == []
    assert game.ran("U1", "USE") == [1, 2]
    assert game.ran("U1", "MOVE") == [3]


def test_at_a_place_cut_ten_days_elsewhere_study_meanwhile() -> None:
    game = Game()
    game.add("U1", ["AT L47", "-10 USE lumb", "+STUDY lumb 2"])
    game.run([1, 2])
    assert game.queue("U1") == ["AT L47", "-10 USE lumb", "+STUDY lumb 2"]  # studies toward 2nd level
    assert game.ran("U1", "STUDY") == [1, 2]
    game.units["U1"]["location"] = "L47"
    game.run([3])
    assert game.queue("U1") == ["9 USE lumb"]
    game.run(range(4, 14))
    assert game.queue("U1") == []
    assert game.ran("U1", "USE") == list(range(3, 13))
    assert game.ran("U1", "WORK") == [13]


def test_size_then_pillage_for_ever_with_study_until_then() -> None:
    game = Game()
    game.add("U1", ["SIZE 50", "-@PILLAGE", "+30 STUDY cmbt"], figures=40)
    game.run([1, 2, 3])
    assert game.queue("U1") == ["SIZE 50", "-@PILLAGE", "+27 STUDY cmbt"]
    game.units["U1"]["figures"] = 50
    game.run([4, 5])
    assert game.queue("U1") == ["@PILLAGE"]
    assert game.ran("U1", "PILLAGE") == [4, 5]


def test_day_fifteen_then_guard_fifteen_days() -> None:
    game = Game()
    game.add("U1", ["DAY 15", "-15 GUARD"])
    game.run(range(1, 31))
    assert game.ran("U1", "GUARD") == list(range(15, 30))  # freed on day 15, it guards that very day
    assert game.queue("U1") == []
    assert game.ran("U1", "WORK") == list(range(1, 31))  # guarding takes no day's work


def test_wait_ten_days_then_go_north() -> None:
    game = Game()
    game.add("U1", ["WAIT 10", "-MOVE N"])
    game.run(range(1, 10))
    assert game.queue("U1") == ["WAIT 1", "-MOVE N"]
    game.run([10])
    assert game.queue("U1") == []
    assert game.ran("U1", "MOVE") == [10]


def test_a_day_gate_that_can_never_meet_its_condition_keeps_the_block_for_ever() -> None:
    game = Game()
    game.add("U1", ["D10 DAY 15", "-MOVE N", "--GUARD"])
    game.run(range(1, 31))
    game.run(range(1, 31))  # next month too
    assert game.queue("U1") == ["D10 DAY 15", "-MOVE N", "--GUARD"]
    assert game.ran("U1", "MOVE") == []


def test_a_day_gate_runs_only_on_its_day() -> None:
    game = Game()
    game.add("U1", ["D3 USE digg", "@D2 GUARD"])
    game.run(range(1, 6))
    assert game.ran("U1", "USE") == [3]
    assert game.ran("U1", "GUARD") == [2]
    assert game.queue("U1") == ["@D2 GUARD"]


# ---------------------------------------------------------------- counters, repeats, results


def test_a_counter_counts_down_and_shows_what_is_left() -> None:
    game = Game()
    game.add("U1", ["10 USE digg"])
    game.run(range(1, 6))
    assert game.queue("U1") == ["5 USE digg"]  # what next month's template shows
    game.run(range(6, 11))
    assert game.queue("U1") == []
    assert game.ran("U1", "USE") == list(range(1, 11))


def test_a_stop_condition_ends_a_counted_order_early() -> None:
    game = Game()
    game.add("U1", ["10 STUDY cmbt 1", "STUDY blde"])
    game.run(range(1, 5))  # level 1 needs three days in this little game
    assert game.ran("U1", "cmbt") == [1, 2, 3]
    assert game.ran("U1", "blde") == [4]
    assert game.queue("U1") == []


def test_a_study_toward_a_level_keeps_itself_until_the_level() -> None:
    game = Game()
    game.add("U1", ["STUDY cmbt 2"])
    game.run(range(1, 6))
    assert game.queue("U1") == ["STUDY cmbt 2"]
    game.run([6])
    assert game.queue("U1") == []


def test_a_repeat_runs_once_a_day_however_many_passes_the_day_takes() -> None:
    game = Game()
    game.add("U1", ["@GUARD", "NAME Watch", "GIVE U2 gold 1"], items={"gold": 1})
    game.add("U2", ["GIVE U1 gold 1"])
    game.run([1, 2, 3])
    assert game.ran("U1", "GUARD") == [1, 2, 3]
    assert game.queue("U1") == ["@GUARD"]


def test_two_equal_lines_are_two_lines() -> None:
    game = Game()
    game.add("U1", ["@GUARD", "@GUARD"])
    game.run([1])
    assert game.ran("U1", "GUARD") == [1, 1]
    assert game.queue("U1") == ["@GUARD", "@GUARD"]


def test_a_line_that_moves_up_the_queue_does_not_run_twice_in_a_day() -> None:
    game = Game()
    game.add("U1", ["NAME Guard", "@GUARD"])
    game.run([1])
    assert game.ran("U1") == [1, 1, 1]  # the name, one guard, the day's work
    assert game.units["U1"]["name"] == "Guard"


def test_a_one_shot_is_removed_whatever_it_carries_and_a_condition_ignores_at_and_counts() -> None:
    game = Game()
    game.add("U1", ["@NAME Twice", "@HAVE gold", "-GUARD", "5 SIZE 1", "-USE digg"], items={"gold": 1})
    game.run([1])
    assert game.queue("U1") == []
    assert game.ran("U1", "GUARD") == [1] and game.ran("U1", "USE") == [1]


def test_a_movement_ignores_its_count_and_repeats_only_with_at() -> None:
    game = Game()
    game.add("U1", ["5 MOVE N", "USE digg"])
    game.add("U2", ["@MOVE L5"])
    game.run([1, 2])
    assert game.queue("U1") == []
    assert game.ran("U1", "MOVE") == [1]
    assert game.queue("U2") == ["@MOVE L5"]
    assert game.ran("U2", "MOVE") == [1, 2]


def test_a_partial_fill_continues_with_what_is_left() -> None:
    game = Game()
    game.add("U1", ["BUY 10 swrd"])
    for day, stock, queue in [
        (1, 4, ["BUY 6 swrd"]),
        (2, 0, ["BUY 6 swrd"]),
        (3, 3, ["BUY 3 swrd"]),
        (4, 9, []),
    ]:
        game.market = stock
        game.run([day])
        assert game.queue("U1") == queue
    assert game.units["U1"]["items"]["swrd"] == 10
    assert game.market == 6


def test_a_counter_still_counts_down_an_order_that_continues_but_not_a_skipped_day() -> None:
    game = Game()
    game.add("U1", ["2 BUY 10 bow"])
    game.market = 4
    game.run([1])
    assert game.queue("U1") == ["1 BUY 6 bow"]
    game.market = 0
    game.run([2])
    assert game.queue("U1") == ["1 BUY 6 bow"]  # nothing to buy: skipped, so the day does not count
    game.market = 2
    game.run([3])
    assert game.queue("U1") == []  # its last day: gone, though 4 bows are still wanted
    assert game.units["U1"]["items"]["bow"] == 6


def test_an_invalid_line_is_removed_and_frees_the_lines_waiting_on_it() -> None:
    game = Game()
    game.add("U1", ["STUDY never", "-GUARD", "--USE digg"])
    game.run([1])
    assert game.ran("U1") == []  # the day went on finding the study impossible: no work either
    assert game.queue("U1") == ["GUARD", "-USE digg"]
    game.run([2])
    assert game.log == [(2, "U1", "GUARD"), (2, "U1", "USE digg")]
    assert game.queue("U1") == []


def test_an_invalid_immediate_line_takes_its_pass_and_the_next_pass_goes_on() -> None:
    game = Game()
    game.add("U1", ["5 SPLIT U7 1", "-GUARD"])  # U7 is no temporary id the little game knows: invalid
    game.run([1])
    assert game.log == [(1, "U1", "GUARD"), (1, "U1", "WORK")]
    assert game.queue("U1") == []


def test_a_waiting_plus_line_becomes_a_live_alternative_when_freed() -> None:
    game = Game()
    game.add("U1", ["HAVE gold", "-+@USE digg", "-MOVE N", "GUARD"], items={"gold": 1})
    game.run([1])
    # HAVE ran: the prune walks over both waiting lines and stops at GUARD; then both lose their dash.
    assert game.ran("U1", "GUARD") == [1]
    assert game.ran("U1", "USE") == [1]  # the freed alternative is the first full-day line
    assert game.queue("U1") == ["+@USE digg", "MOVE N"]
    game.run([2])
    assert game.queue("U1") == ["+@USE digg", "MOVE N"]  # it runs every day; the move waits behind it
    assert game.ran("U1", "MOVE") == []


def test_the_full_day_default_runs_when_no_full_day_line_can() -> None:
    game = Game()
    game.add("U1", ["GIVE U9 gold 1", "GUARD", "D5 USE digg"])
    game.run([1])
    assert game.log == [(1, "U1", "GUARD"), (1, "U1", "WORK")]


def test_a_busy_unit_takes_no_order_at_all() -> None:
    game = Game()
    game.add("U1", ["GUARD", "USE digg"], busy=True)
    game.run([1])
    assert game.log == []
    assert game.queue("U1") == ["GUARD", "USE digg"]


def test_immediate_passes_run_until_quiet_so_a_later_unit_can_make_an_order_possible() -> None:
    game = Game()
    game.add("U1", ["GIVE U2 swrd 1", "GUARD"])  # it has no sword until U2 gives it one
    game.add("U2", ["GIVE U1 swrd 1"], items={"swrd": 1})
    game.run([1])
    assert [(who, text) for _, who, text in game.log] == [
        ("U1", "GUARD"),  # pass 1: U1's GIVE cannot run, its GUARD can
        ("U2", "GIVE U1 swrd 1"),
        ("U1", "GIVE U2 swrd 1"),  # pass 2: U2 gave U1 a sword
        ("U1", "WORK"),
        ("U2", "WORK"),
    ]
    assert game.units["U2"]["items"]["swrd"] == 1


# ---------------------------------------------------------------- temporary ids


def test_a_temporary_id_is_rewritten_in_every_queue_and_its_own_queue_goes_to_the_new_unit() -> None:
    game = Game()
    game.add("U1", ["SPLIT rednU01 10", "-GIVE rednU01 gold 1"], figures=20, items={"gold": 1})
    game.add("U2", ["@GIVE rednU01 gold 1"])  # U2 has no gold: it keeps waiting
    game.programs["rednU01"] = Program.from_data(["NAME Scouts", "USE digg"])
    game.run([1])
    assert "rednU01" not in game.programs
    assert game.queue("U2") == ["@GIVE U100 gold 1"]
    assert game.queue("U100") == []  # it joined the day: named itself, then worked the ground
    assert game.units["U100"]["name"] == "Scouts" and game.ran("U100", "USE") == [1]
    assert game.units["U100"]["items"]["gold"] == 1  # the gift waited on the split, then ran in pass 2


def test_an_id_never_created_takes_its_queue_and_every_line_naming_it_away() -> None:
    programs = {
        "U1": Program.from_data(["GIVE rednU02 gold 1", "-MOVE N", "--GUARD", "@ACCEPT rednU02"]),
        "rednU02": Program.from_data(["GUARD"]),
        "U3": Program.from_data(["ACCEPT RednU02"]),  # another id: temporary ids are case-sensitive
    }
    drop_references(programs, "rednU02")
    assert set(programs) == {"U1", "U3"}
    assert programs["U1"].to_data() == ["MOVE N", "-GUARD"]
    assert programs["U3"].to_data() == ["ACCEPT RednU02"]


def test_rewriting_refuses_to_mix_two_queues() -> None:
    programs = {"U5": Program.from_data(["GUARD"]), "rednU01": Program.from_data(["WORK"])}
    with pytest.raises(ValueError, match="already has orders"):
        rewrite_ids(programs, "rednU01", "U5")
