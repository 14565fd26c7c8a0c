from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from resolver.publish.plots import Series, describe_series, line_chart, tick_step

SVG = "{http://www.w3.org/2000/svg}"


def test_chart_is_valid_svg_with_one_line_per_series_and_a_title() -> None:
    turns = list(range(0, 9))
    chart = line_chart(
        [Series("A <&>", "#c0392b", [1, 2, 3, 3, 4, 5, 5, 6, 7]), Series("B", "#2e6fbd", [0] * 9, "6 3")],
        turns,
        "Units <by> turn",
    )
    root = ET.fromstring(chart)
    assert root.find(f"{SVG}title").text == "Units <by> turn"
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    assert all(len(line.get("points").split()) == len(turns) for line in lines)
    assert any(line.get("stroke-dasharray") == "6 3" for line in lines)


def test_chart_is_deterministic_and_single_turn_charts_show_a_point() -> None:
    args = ([Series("A", "#c0392b", [4])], [0], "Settlements")
    assert line_chart(*args) == line_chart(*args)
    assert ET.fromstring(line_chart(*args)).find(f"{SVG}circle") is not None


def test_gridlines_are_whole_round_numbers_covering_the_data() -> None:
    for top in (0, 1, 3, 7, 10, 26, 123, 999, 12345):
        step = tick_step(top)
        assert step == int(step) and step >= 1
        assert math.ceil(top / step) <= 5


def test_text_alternative_names_the_start_the_end_and_a_peak_in_between() -> None:
    text = describe_series("Brightwater", "resources", [0, 1, 2, 3], [12, 30, 8, 10])
    assert text == "Brightwater, resources: 12 at the start, 10 after turn 3; highest 30 after turn 1."


def test_long_series_are_thinned_but_keep_their_last_point() -> None:
    turns = list(range(0, 501))
    chart = line_chart([Series("A", "#c0392b", [t % 7 for t in turns])], turns, "Units")
    points = ET.fromstring(chart).find(f"{SVG}polyline").get("points").split()
    assert 100 < len(points) <= 170
    assert points[-1].split(",")[0] == "348.0"  # the right edge: the latest turn is always drawn
