"""The workers' share of the suite (tests/scheduling.py): a browser sweep goes out a ruleset at a time,
every other test with its module."""

from __future__ import annotations

from .scheduling import scope_of

SWEEP = "tests/browser/test_accessibility.py::test_no_page_has_an_accessibility_violation"


def test_a_browser_sweep_is_grouped_by_module_and_ruleset() -> None:
    assert scope_of(f"{SWEEP}[nations-phone]") == "tests/browser/test_accessibility.py::nations"
    assert scope_of(f"{SWEEP}[nations-laptop]") == scope_of(f"{SWEEP}[nations-phone]")
    assert scope_of(f"{SWEEP}[diplomacy-phone]") == "tests/browser/test_accessibility.py::diplomacy"
    other = "tests/browser/test_hostile_names.py::test_no_hostile_text_runs_on_any_page"
    assert scope_of(f"{other}[nations-phone]") != scope_of(f"{SWEEP}[nations-phone]")


def test_a_browser_test_of_no_ruleset_stays_with_its_module() -> None:
    framed = "tests/browser/test_accessibility.py::test_axe_reads_inside_a_pages_frames[run-in-every-frame]"
    assert scope_of(framed) == "tests/browser/test_accessibility.py"
    assert (
        scope_of("tests/browser/test_reader_pages.py::test_the_home_page")
        == "tests/browser/test_reader_pages.py"
    )


def test_every_other_test_stays_with_its_module() -> None:
    assert scope_of("tests/site/test_player_text.py::test_x[nations]") == "tests/site/test_player_text.py"
    assert scope_of("tests/git/test_prcheck.py::TestX::test_y") == "tests/git/test_prcheck.py::TestX"
