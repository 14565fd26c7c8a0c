"""Escaping: player text must come out as text in every context of a generated page."""

from __future__ import annotations

import html

import markdown
import pytest

from resolver.publish.text import dice_summary, h, md, noun_plural, para, readable, roll_lines, roll_words

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "tables", "fenced_code", "toc"]
HOSTILE = [
    "<script>alert(1)</script>",
    "![img](http://203.0.113.9/x.png)",
    "[click](javascript:alert(1))",
    "<http://203.0.113.9/>",
    "Title {: onclick=alert(1) }",
    "*bold* _it_ `code` # not a heading | a | b |",
    "&lt;b&gt; and & and \\*",
    'O\'Neil "quoted"',
    "Probe {{ 6*7 }} Broken {{ {% raw %} {# x #} }}",
]


def render(source: str) -> str:
    return markdown.markdown(source, extensions=EXTENSIONS)


@pytest.mark.parametrize("text", HOSTILE)
def test_escaped_text_gives_a_jinja_reader_of_the_page_nothing_to_run(text: str) -> None:
    for escaped in (md(text), h(text), para(text)):
        assert "{" not in escaped and "}" not in escaped


@pytest.mark.parametrize("text", HOSTILE)
def test_md_in_a_heading_list_and_table_renders_the_text_and_nothing_else(text: str) -> None:
    for source, tag in (
        (f"# {md(text)}", "h1"),
        (f"- {md(text)}", "li"),
        (f"| a |\n|---|\n| {md(text)} |", "td"),
    ):
        out = render(source)
        assert "<script" not in out and "<img" not in out and "<a " not in out and "<b>" not in out
        assert "onclick=" not in out.replace("onclick=alert", "")  # only as visible text
        inner = out.split(f"<{tag}", 1)[1].split(">", 1)[1].rsplit(f"</{tag}>", 1)[0]
        assert html.unescape(inner) == " ".join(text.split()), source


@pytest.mark.parametrize("text", HOSTILE)
def test_h_and_para_escape_html_for_raw_html_blocks(text: str) -> None:
    out = render(f'<div class="x">\n<p>{para(text)}</p>\n</div>\n\n<p title="{h(text)}">x</p>')
    assert "<script" not in out and "<img" not in out and "<a " not in out


def test_para_keeps_line_breaks_without_blank_lines() -> None:
    out = para("one\n\n\ntwo <i>\nthree")
    assert "\n\n" not in out
    assert out == "one<br>\ntwo &lt;i&gt;<br>\nthree"
    # A blank line in a raw HTML block would hand the rest to Markdown; there is none.
    body = para("a\n\n![x](http://203.0.113.9/x.png)")
    assert "<img" not in render(f"<div>\n<p>{body}</p>\n</div>")


def test_numbers_and_markup_pass_through() -> None:
    assert md(-3) == "-3" and md(2.5) == "2.5"
    assert md(h("<b>")) == "&lt;b&gt;"


def test_dice_summary_is_short_and_counts_successes() -> None:
    one = {"rolls": [{"expr": "1d10", "dice": [7], "total": 7, "decided": "exploration: resources"}]}
    assert dice_summary(one) == "1d10: 7 (exploration: resources)"
    many = {
        "rolls": [
            {"expr": "1d10>=6", "dice": [d], "total": d, "success": d >= 6, "decided": f"shot {i}"}
            for i, d in enumerate((2, 6, 9, 10, 3))
        ]
    }
    assert dice_summary(many) == "5 rolls of 1d10>=6, 3 successful"
    assert roll_lines(many)[1] == "shot 1 (1d10, 6 or more needed: 6)"
    assert dice_summary({}) == ""


def test_dice_show_their_faces_modifier_total_and_target() -> None:
    assert roll_words({"expr": "2d6-2", "dice": [6, 5], "total": 9}) == "2d6-2: 6 + 5 − 2 = 9"
    assert roll_words({"expr": "2d6+1", "dice": [1, 3], "total": 5}) == "2d6+1: 1 + 3 + 1 = 5"
    assert roll_words({"expr": "1d5", "dice": [4], "total": 4}) == "1d5: 4"
    miss = {"expr": "1d10>=7", "dice": [5], "total": 5, "success": False}
    assert roll_words(miss) == "1d10, 7 or more needed: 5, a miss"
    names = {"red-u1": "Spearmen", "blue-u8": "Levy", "blue": "Menfell", "red": "Stermere"}
    event = {"rolls": [{**miss, "decided": "red-u1 misses blue-u8"}]}
    assert roll_lines(event, names) == ["Spearmen misses Levy (1d10, 7 or more needed: 5)"]
    # Ids are whole words: "reduced" and "blue-u80" are not the faction red or the unit blue-u8.
    assert readable("red reduced blue-u80 blue-u8", names) == "Stermere reduced blue-u80 Levy"


def test_noun_plural() -> None:
    assert [noun_plural(w) for w in ("army", "settlement", "ruin", "day", "fortress")] == [
        "armies",
        "settlements",
        "ruins",
        "days",
        "fortresses",
    ]


def test_the_dice_fold_shows_each_rolls_modifier_ledger() -> None:
    """Issue 10 point 2: what changed a roll is listed with it in the chronicle's dice fold."""
    ledger = [{"source": "force", "value": 3}, {"source": "plan", "value": 0}, {"source": "stealth", "value": -3}]
    task = {"expr": "2d6", "dice": [4, 5], "total": 9, "decided": "l1: attack: success", "modifiers": ledger}
    assert roll_lines({"rolls": [task]}) == ["l1: attack: success (2d6: 4 + 5 = 9, with force +3, stealth −3)"]


def test_a_factions_report_shows_each_rolls_modifier_ledger() -> None:
    from resolver.store.views import roll_summary

    ledger = [{"source": "rating", "value": 2}, {"source": "opposition", "value": -3}]
    event = {"rolls": [{"expr": "2d6-1", "dice": [6, 6], "total": 11, "modifiers": ledger}]}
    assert roll_summary(event) == "2d6-1 → [6, 6] = 11 (rating +2, opposition −3)"
