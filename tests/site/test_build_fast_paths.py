"""The site build's fast paths (resolver/publish/mkdocs_hooks.py) give what MkDocs and its plugins give
without them: the same HTML from Markdown, the same search sections from a page's HTML."""

from __future__ import annotations

import posixpath
from html.parser import HTMLParser
from itertools import product
from typing import Any

import markdown
import pytest
from markdown.extensions import Extension
from markdown.inlinepatterns import SimpleTagInlineProcessor
from material.plugins.search import plugin as material_search

from resolver.publish import mkdocs_hooks
from resolver.publish.mkdocs_hooks import QuickInline, QuickSearchParser, _plain_events
from resolver.publish.pages import relative_path

# The site's own Markdown extensions (site.settings).
EXTENSIONS: list[Any] = ["attr_list", "md_in_html", "admonition", "tables", "fenced_code", "toc"]
CONFIGS = {"toc": {"permalink": True}}

MARKDOWN = [
    "# Turn 3: Spring\n\nPlain words, none of which any inline pattern needs.",
    "A [link](other.md) and ![an image](map.png) and [a reference][r] and [r].\n\n[r]: https://example.org",
    "Escapes: \\*not emphasis\\*, \\[not a link\\], 3 \\- 1, snake\\_case.",
    "*emphasis*, **strong**, _under_, __double__, ***both***, a * lone star, snake_case_words.",
    "`code` and ``code with ` inside`` and a stray ` backtick.",
    "Entities: &amp; &#123; &#x7D; &copy; and a lone & sign; <b>inline HTML</b> <!-- a comment -->.",
    "Autolinks <https://example.org> and <someone@example.org>, and a < b > c.",
    "A line with a hard break  \nand the next line.",
    '<nav class="ck-turn-links" markdown="span">[← Turn 2](turn-2.md) · *Latest turn*</nav>',
    "| a | b |\n|---|---|\n| [x](y.md) | **z** |\n\n- item *one*\n- item `two`\n\n"
    '!!! note "Note"\n\n    Body *here*.',
    "Text with placeholders' characters: \x02 klzzwxh \x03 and unicode — “quotes” … ✓",
]


def render(text: str, *extra: Extension) -> str:
    return markdown.Markdown(extensions=[*EXTENSIONS, *extra], extension_configs=CONFIGS).convert(text)


@pytest.mark.parametrize("text", MARKDOWN)
def test_markdown_passes_over_patterns_and_gives_the_same_html(text: str) -> None:
    assert render(text, QuickInline()) == render(text)


class Strike(Extension):
    """An extension a GM might add: "~~" strikes out. No pattern the fast path knows needs "~"."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.inlinePatterns.register(SimpleTagInlineProcessor(r"()~~(.+?)~~", "del"), "strike", 175)


def test_a_pattern_the_fast_path_does_not_know_is_always_tried() -> None:
    text = "Plain ~~struck~~ words, and *emphasis*."
    quick = render(text, Strike(), QuickInline())
    assert quick == render(text, Strike())
    assert "<del>struck</del>" in quick


class Recorder(HTMLParser):
    """What HTMLParser calls, in order: the events the fast path must reproduce."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[str, Any, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("start", tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        self.events.append(("end", tag, None))

    def handle_data(self, data: str) -> None:
        self.events.append(("data", data, None))


PLAIN_HTML = [
    '<h1 id="turn-3">Turn 3<a class="headerlink" href="#turn-3" title="Permanent link">&para;</a></h1>'
    "\n<p>x</p>",
    "<p>Stermere &amp; Hindach &#123;braces&#125; &lt;not a tag&gt; &unknown; &amp</p>\n<br />\n<hr/>",
    '<div class="ck-press" data-search-exclude>\n<p>Hidden</p>\n</div>\n<p>Shown</p>',
    '<!-- a comment --><P CLASS=\'Upper\' Title="a > b" empty="" bare>text</P>',
    '<iframe class="ck-map" src="../map/world.html#turn=3&amp;controls=legend" loading="lazy"></iframe>',
    "<pre><code>  spaced\n\n  code &lt;b&gt;\n</code></pre>\n<ul>\n<li>one</li>\n<li> </li>\n</ul>",
    '<h2 id="a">A</h2>\n<details class="ck-words"><summary>S</summary>\n<h3 id="b">B</h3><p>in</p></details>'
    "<p>after</p>",
    "text before any tag <em>and</em> after",
    "",
]
NOT_PLAIN_HTML = [
    "<p>a < b</p>",
    "<script>var a = 1 < 2;</script><p>x</p>",
    "<style>p > b {}</style>",
    "<!DOCTYPE html><p>x</p>",
    "<p title=unquoted>x</p>",
    "<p>x</p><!-- a -- b -->",
    "<textarea><b>raw</b></textarea>",
]


@pytest.mark.parametrize("page", PLAIN_HTML)
def test_plain_html_gives_the_events_htmlparser_gives(page: str) -> None:
    recorder = Recorder()
    recorder.feed(page)
    recorder.close()
    assert _plain_events(page) == recorder.events


@pytest.mark.parametrize("page", NOT_PLAIN_HTML)
def test_other_html_is_left_to_htmlparser(page: str) -> None:
    assert _plain_events(page) is None


def sections(parser_class: type[HTMLParser], page: str) -> list[tuple[str, str | None, list[str], list[str]]]:
    parser = parser_class()
    parser.feed(page)
    parser.close()
    return [(str(s.el), s.id, s.title, s.text) for s in parser.data]  # type: ignore[attr-defined]


# Pages for the theme's handlers' corners: skipped elements nested in their own kind, headings inside
# other elements and without an id, permalinks, whitespace in and out of <pre>, empty kept elements.
SECTION_HTML = [
    "<div data-search-exclude><div><p>hidden</p></div><p>still hidden?</p></div><div><p>shown</p></div>",
    "<div data-search-exclude><p>a</p></div>\n<div data-search-exclude><p>b</p></div><p>c</p>",
    '<table class="x"><tr><td class="linenodiv"><pre>1\n2</pre></td>'
    "<td><pre>code\n  more</pre></td></tr></table>",
    '<object data="x"><p>inside an object</p></object><p>after</p>',
    '<h2>no id</h2><p>a</p><h2 id="x">X <code>c</code> <sup>1</sup></h2>\n\n<p> </p><p>b\nc</p>',
    '<article><h1 id="t">T</h1><section><h2 id="s">S<a class="headerlink" href="#s">&para;</a></h2>'
    "<ul><li><p>one</p></li><li></li></ul></section><p>outer</p></article><p>last</p>",
    "<p>  </p>\n\n<p>x</p>   <pre>\n\n  keep   spaces\n</pre>  \n <em>e</em>",
    '<h3 id="deep">Deep first</h3><p>text</p><h1 id="top">Top</h1><p>more</p>',
    '<div><h2 id="in">In</h2><p>i</p></div><p>out</p>'
    '<div data-search-exclude><h2 id="h">H</h2></div><p>z</p>',
    "</p><p>stray end first</p></div>",
    "<div><p>a</p><div data-search-exclude><p>x</p></div><p>b</p></div><p>c</p>",
]


@pytest.mark.parametrize("page", PLAIN_HTML + NOT_PLAIN_HTML + SECTION_HTML)
def test_the_search_sections_are_the_themes_own(page: str) -> None:
    assert mkdocs_hooks._MIRRORED_HANDLERS  # this theme's handlers are the ones the fast path mirrors
    found = sections(QuickSearchParser, page)
    assert found == sections(QuickSearchParser.material_parser, page)
    if page:
        assert found  # every page with content gives a section to search


def test_the_hook_hands_the_search_plugin_its_parser_and_markdown_the_fast_path() -> None:
    saved = material_search.Parser
    try:
        config: dict[str, Any] = {"markdown_extensions": list(EXTENSIONS)}
        mkdocs_hooks.on_config(config)
        assert material_search.Parser is QuickSearchParser
        assert isinstance(config["markdown_extensions"][-1], QuickInline)
    finally:
        material_search.Parser = saved


PAGES_WITH_RAW_HTML = [
    '# Turn 3\n\n<details class="ck-words"><summary>The map</summary>\n<ul>\n<li>A &amp; B</li>\n</ul>\n'
    "</details>\n\n## Next\n\nText *here*.\n",
    '<div class="ck-press">\n<p>An article</p>\n</div>\n\n<div class="ck-press">\n<p>Another</p>\n</div>',
    '<nav class="ck-turn-links" markdown="span">[← Turn 2](turn-2.md) · *x*</nav>\n\n'
    "<pre>raw\n  text</pre>\n",
    '<div class="ck-standings" markdown>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n'
    '<div class="inner">\n<p>x</p>\n</div>\n\n</div>\n',
    "Some code:\n\n```\n<div>\n<p>shown as code</p>\n</div>\n```\n\n<div>\n<p>raw</p>\n</div>\n",
    "<div>\n<div>\n<p>nested</p>\n</div>\n\n</div>\n\n<div><p>x</p></div> and text after\n",
    '<table id="standings">\n<tr><td><a name="first">1</a></td></tr>\n</table>\n\n- a list\n- of items\n',
    "- an item\n\n<ul>\n<li>raw</li>\n</ul>\n\n    <div>indented: code</div>\n",
    '<div data-ck-stash="0"></div>\n\n<div>\n<p>a page that names the placeholder itself</p>\n</div>\n',
    "```\nfirst line of code\n\n<div>\n<p>code, not HTML</p>\n</div>\n\n```\n",
    "<div markdown>\n\nSome *Markdown*.\n\n<div class='x'>\n<p>a<br>b</p>\n</div>\n\n</div>\n",
]


class Page:
    """What the hooks read of MkDocs' page."""

    def __init__(self) -> None:
        self.present_anchor_ids: set[str] = set()


@pytest.mark.parametrize("text", PAGES_WITH_RAW_HTML)
def test_raw_html_taken_out_of_markdown_comes_back_where_it_was(text: str) -> None:
    page = Page()
    taken = mkdocs_hooks.on_page_markdown(text, page, None, None)
    html = mkdocs_hooks.on_page_content(render(taken, QuickInline()), page, None, None)
    assert html == render(text)
    assert mkdocs_hooks._STASH not in html or mkdocs_hooks._STASH in text


def test_the_ids_of_raw_html_taken_out_are_still_known_to_mkdocs() -> None:
    page = Page()
    text = PAGES_WITH_RAW_HTML[6]
    taken = mkdocs_hooks.on_page_markdown(text, page, None, None)
    assert "<table" in taken and "standings" not in taken  # the table went to Markdown as a placeholder
    mkdocs_hooks.on_page_content(render(taken), page, None, None)
    assert page.present_anchor_ids == {"standings", "first"}


def test_the_pages_links_are_the_relative_paths_relpath_gives() -> None:
    parts = ["", ".", "..", "chronicle", "turn-3.md", "orders", "index.md"]
    combos = [combo for n in range(4) for combo in product(parts, repeat=n)]
    paths = {"/".join(combo) + end for combo in combos for end in ("", "/")}
    for target in paths - {""}:
        for start in paths:
            assert relative_path(target, start) == posixpath.relpath(target, start or "."), (target, start)


def test_the_kept_compiled_site_templates_follow_an_edited_template(
    run: Any, tmp_path: Any, read_cache: Any
) -> None:
    """The site's templates are compiled once and kept in the read cache. A template edited since (here
    the GM's own home page, at the same path) is compiled again: its page shows the edit, never the
    kept code of the text it had before."""
    from resolver.publish.site import build_site
    from resolver.store.store import ENGINE_TEMPLATES

    root = tmp_path / "camp"
    assert run("demo", "--root", root, "--turns", "1", "--quiet")[0] == 0
    own = root / "templates" / "site" / "home.md.j2"
    own.parent.mkdir(parents=True)
    kit_home = (ENGINE_TEMPLATES / "site" / "home.md.j2").read_text()
    home = root / "site" / "index.md"
    for marker in ("First words of the GM.", "Second words, after the edit."):
        own.write_text(kit_home + f"\n{marker}\n")
        build_site(root, run_mkdocs=False)
        assert marker in home.read_text()
    assert "First words of the GM." not in home.read_text()
    assert any((read_cache / "site-templates").iterdir())  # the compiled templates were kept
    # With the kit's own template back, the page is the one a build without any kept code writes.
    own.unlink()
    build_site(root, run_mkdocs=False)
    kept = home.read_bytes()
    for entry in (read_cache / "site-templates").iterdir():
        entry.unlink()
    build_site(root, run_mkdocs=False)
    assert home.read_bytes() == kept
