"""Checks on the DATC fixtures themselves, before any adjudicator runs them: that all 164 cases of the DATC's
chapter 6 are there under their numbers and no others, that every order expects an outcome, that titles are
ours (unique, and none of them the DATC's heading), and that every case where the DATC states a preference
says which choice the fixture follows.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from tests.diplomacy.datc_cases import FIXTURES, OUTCOMES, FixtureError, load_case, load_cases

# The DATC's numbering: how many cases each section of chapter 6 holds (6.A.1 to 6.A.12, and so on).
SECTION_SIZES = {"A": 12, "B": 15, "C": 9, "D": 34, "E": 15, "F": 25, "G": 20, "H": 16, "I": 7, "J": 11}
# The cases whose text in the DATC states the author's preference ("I prefer ..."): each must say in
# `preference` which choice the fixture follows.
PREFERENCE_STATED = {
    "6.B.2", "6.B.7", "6.B.10", "6.B.12", "6.B.15", "6.F.9", "6.F.10", "6.F.11", "6.F.14", "6.F.16",
    "6.F.17", "6.F.18", "6.F.19", "6.F.20", "6.F.21", "6.F.22", "6.F.23", "6.F.24", "6.G.1", "6.G.3",
    "6.G.4", "6.G.5", "6.G.6", "6.G.7", "6.G.8", "6.G.9", "6.G.10", "6.G.11", "6.G.13", "6.G.14",
    "6.G.15", "6.G.19", "6.G.20", "6.H.11", "6.H.12", "6.I.1", "6.I.2", "6.J.1",
}  # fmt: skip
# A fingerprint of each DATC heading (the words after "TEST CASE,", lower case, letters and digits only,
# SHA-256, first 12 hex digits), so a title copied from the document is caught without the repository
# holding the document's words.
HEADING_FINGERPRINTS = {
    "6.A.1": "e210c75de928", "6.A.2": "0a917b3a37cd", "6.A.3": "c23cc07d8b89", "6.A.4": "80e7d99baed0",
    "6.A.5": "5aacce28f390", "6.A.6": "a2fe6e616947", "6.A.7": "7813c7341af5", "6.A.8": "2eef223d7f98",
    "6.A.9": "565a8cd5e2e3", "6.A.10": "ae6773e6385d", "6.A.11": "471fc4edbfa7", "6.A.12": "6642a6ca47dc",
    "6.B.1": "10d9ab61e49a", "6.B.2": "dcea1e70ddfb", "6.B.3": "d3b4798a71ee", "6.B.4": "244af4d75916",
    "6.B.5": "691624173e16", "6.B.6": "7092d2e403f7", "6.B.7": "e6138fff8051", "6.B.8": "f8cb352e83b2",
    "6.B.9": "013687cc0661", "6.B.10": "a92b0c3f9cc2", "6.B.11": "bab755cb1a83", "6.B.12": "2943f099e362",
    "6.B.13": "fa20e8504a31", "6.B.14": "5b2b08c7e22c", "6.B.15": "20ab6c4b3062", "6.C.1": "cc005fb57163",
    "6.C.2": "7b7c547db8b6", "6.C.3": "58a35b2df76b", "6.C.4": "2316dca833c5", "6.C.5": "f1aff7991043",
    "6.C.6": "9f56daf6964f", "6.C.7": "34b317c7b896", "6.C.8": "2709ec919f99", "6.C.9": "86a7666564df",
    "6.D.1": "468badc9faeb", "6.D.2": "6017e479a0b1", "6.D.3": "975665808da7", "6.D.4": "125176a66d79",
    "6.D.5": "44db8a2eeb99", "6.D.6": "91af27e3497b", "6.D.7": "3091be923a90", "6.D.8": "1baa4da7419c",
    "6.D.9": "37f55d3e6009", "6.D.10": "6a3e0e5d7ee1", "6.D.11": "d3683e812b43", "6.D.12": "6652f96aa4d9",
    "6.D.13": "0a8722770e76", "6.D.14": "ea47db75ddf7", "6.D.15": "b621cd0bb385", "6.D.16": "e8325216bc1d",
    "6.D.17": "4930104c9808", "6.D.18": "d37caa1362e0", "6.D.19": "b44fdfac506f", "6.D.20": "9df1ea74d915",
    "6.D.21": "b03916911276", "6.D.22": "4f641bde700c", "6.D.23": "3343c3d5ff3b", "6.D.24": "ed533e328c1a",
    "6.D.25": "918efb462d0e", "6.D.26": "0cdaa19c513e", "6.D.27": "0f2e9691a97d", "6.D.28": "b0cb26dffba5",
    "6.D.29": "7fc404017c1f", "6.D.30": "7ce956edc4d4", "6.D.31": "9b053ee29d13", "6.D.32": "ad10b743499b",
    "6.D.33": "12f697b1ed83", "6.D.34": "f0297da3cb53", "6.E.1": "4b51e130b05b", "6.E.2": "07b84cec5644",
    "6.E.3": "803da4a8ee9f", "6.E.4": "3f3d283eafe4", "6.E.5": "78f3a46af330", "6.E.6": "019b0cca89a5",
    "6.E.7": "720719e80547", "6.E.8": "37fca8941500", "6.E.9": "e358a020686f", "6.E.10": "4f810b6351af",
    "6.E.11": "82687c6d6c66", "6.E.12": "40a8730b77e1", "6.E.13": "3617fe3610e3", "6.E.14": "a3c7d802f3a7",
    "6.E.15": "d85be733b015", "6.F.1": "530be2746e38", "6.F.2": "fad8e28d69ee", "6.F.3": "3fed31958f8a",
    "6.F.4": "89e2666bff68", "6.F.5": "135ecfb21c7e", "6.F.6": "1c57c06bfaf4", "6.F.7": "53fc303f19ab",
    "6.F.8": "936ba9054d6a", "6.F.9": "7d043cc8dc9b", "6.F.10": "f6cb305ee4c1", "6.F.11": "cd6e4640f04f",
    "6.F.12": "76ddc2fb6498", "6.F.13": "d87baad65027", "6.F.14": "26e5f7c7ae4e", "6.F.15": "1c833b86c611",
    "6.F.16": "4f9eeb03ea32", "6.F.17": "11e46c43ce27", "6.F.18": "291f9cc17b18", "6.F.19": "1b5a08633e04",
    "6.F.20": "fa280f037960", "6.F.21": "4b2c8f5ef6e6", "6.F.22": "934f3c057824", "6.F.23": "05a070167f3b",
    "6.F.24": "908f1133e0b7", "6.F.25": "ce023c4bbeb6", "6.G.1": "c040d5a308af", "6.G.2": "f387fd3f804d",
    "6.G.3": "0c7a95940dbd", "6.G.4": "9ef6949d1aff", "6.G.5": "ca435ffe2a59", "6.G.6": "1ac69b9f87d5",
    "6.G.7": "2ce4ec8d6c2c", "6.G.8": "18bf7c1359c5", "6.G.9": "43ffa6fe2961", "6.G.10": "de978a91dead",
    "6.G.11": "c92093db0cc3", "6.G.12": "4f2f89628ab8", "6.G.13": "954a2cd3872d", "6.G.14": "a8c9af1bc8a6",
    "6.G.15": "69ef5c8ef565", "6.G.16": "e518220dbda4", "6.G.17": "2bc95592e8d8", "6.G.18": "d8ff22bac85f",
    "6.G.19": "355b7501018c", "6.G.20": "9edbdb50a348", "6.H.1": "cf9c80afc208", "6.H.2": "6e24d068a3c9",
    "6.H.3": "c295a96c9f78", "6.H.4": "8c3967999897", "6.H.5": "7a36f2526362", "6.H.6": "4b746ae47938",
    "6.H.7": "cfb9cf3c5317", "6.H.8": "553c6638f1a3", "6.H.9": "f1308c2af139", "6.H.10": "c5f959632dc1",
    "6.H.11": "84125f7f16c2", "6.H.12": "eab4432fc531", "6.H.13": "30fb2dc2d7d8", "6.H.14": "35f03dba8a59",
    "6.H.15": "6fdf692837dc", "6.H.16": "dd790ed211dc", "6.I.1": "64c5d756c310", "6.I.2": "c79401512c73",
    "6.I.3": "fae174adb8b4", "6.I.4": "4c08f9a34abd", "6.I.5": "c2922683441d", "6.I.6": "523689c47935",
    "6.I.7": "587d9f40a048", "6.J.1": "c248a27ebd50", "6.J.2": "e0e629b64a43", "6.J.3": "d19bc687da9f",
    "6.J.4": "0c5f22771c1a", "6.J.5": "65f987e0a0f8", "6.J.6": "b6bee2e0e7f2", "6.J.7": "7e6773052147",
    "6.J.8": "8db18a375ff2", "6.J.9": "79182c2727ea", "6.J.10": "0408097004dc", "6.J.11": "d4c8af28c749",
}  # fmt: skip

CASES = load_cases()


def fingerprint(text: str) -> str:
    return hashlib.sha256(re.sub(r"[^a-z0-9]", "", text.lower()).encode()).hexdigest()[:12]


def test_every_case_of_chapter_6_is_there_once_under_its_number():
    expected = {
        f"6.{section}.{number}" for section, size in SECTION_SIZES.items() for number in range(1, size + 1)
    }
    found = [case.case for case in CASES]
    assert len(expected) == 164
    assert len(found) == len(set(found)), "two fixtures for one case"
    assert set(found) == expected, (
        f"missing {sorted(expected - set(found))}, unknown {sorted(set(found) - expected)}"
    )


def test_each_fixture_is_named_after_its_case():
    for case in CASES:
        assert case.path.name == f"{case.case}.yaml"


def test_every_order_expects_an_outcome_and_every_phase_has_something_to_check():
    for case in CASES:
        for phase in case.phases:
            assert all(order.outcome in OUTCOMES for order in phase.orders)
            # A phase with no orders (civil disorder in 6.J) must still state its result.
            assert phase.orders or phase.units_after is not None, f"{case.case}: a phase that checks nothing"
        # A case whose every order would pass whatever the adjudicator did is no test: at least one order
        # or one dislodgement or one position must be at stake.
        assert any(phase.orders or phase.units_after for phase in case.phases)


def test_phases_follow_the_order_of_a_game_year():
    for case in CASES:
        kinds = [phase.kind for phase in case.phases]
        for index, kind in enumerate(kinds):
            if kind == "retreat":
                assert index > 0 and kinds[index - 1] == "movement", (
                    f"{case.case}: a retreat needs its movement"
                )


def test_titles_are_our_own_and_unique():
    titles = [case.title for case in CASES]
    assert len(titles) == len(set(titles)), "two cases share a title"
    headings = set(HEADING_FINGERPRINTS.values())
    assert len(HEADING_FINGERPRINTS) == 164
    for case in CASES:
        assert case.title.strip() and case.title != "TODO", f"{case.case} has no title"
        assert "TEST CASE" not in case.title.upper(), case.case
        assert not case.title.isupper(), f"{case.case}: the title is written like the DATC's headings"
        assert fingerprint(case.title) not in headings, f"{case.case}: the title is a DATC heading"


def test_every_stated_preference_is_followed_and_named():
    for case in CASES:
        if case.case in PREFERENCE_STATED:
            assert case.preference.strip(), f"{case.case}: the DATC states a preference; say which we follow"
        if case.preference:
            # Each preference names the part of the DATC it rests on (an issue of chapter 4 or a case).
            assert re.search(r"DATC|2023", case.preference), case.case


def test_dislodged_units_were_on_the_board():
    for case in CASES:
        for phase in case.phases:
            places = {unit[2:].split("(")[0].strip() for units in phase.units.values() for unit in units}
            for place in phase.dislodged:
                assert place in places, f"{case.case}: {place} is dislodged but holds no unit"


def test_a_malformed_fixture_is_refused_with_its_file_named(tmp_path: Path):
    broken = tmp_path / "6.A.1.yaml"
    text = (FIXTURES / "6.A.1.yaml").read_text(encoding="utf-8").replace(": illegal", ": bounces")
    broken.write_text(text, encoding="utf-8")
    with pytest.raises(FixtureError, match=r"6\.A\.1\.yaml.*'bounces'"):
        load_case(broken)
