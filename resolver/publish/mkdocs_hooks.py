"""MkDocs hook loaded by the generated settings: the search dialog gets a name, maps and the search index
load on demand, every page's head links the feed and carries Open Graph tags, and Markdown's inline
patterns are tried only on text that holds a character they need, and the search index reads plain pages
without the standard library's general HTML parser."""

from __future__ import annotations

import html
import posixpath
import re
from html.parser import HTMLParser
from typing import Any

import jinja2
from markdown import Markdown
from markdown.extensions import Extension
from markdown.inlinepatterns import Pattern
from markdown.treeprocessors import InlineProcessor
from markdown.util import AtomicString
from material.plugins.search import plugin as material_search

# Material's search box is a dialog with no name, which a screen reader can only call "dialog". Its
# partial gets the one attribute it lacks as the theme's templates are loaded, for every page (404.html
# included); overriding the whole partial would pin the rest of the theme's markup.
SEARCH_PARTIAL = "partials/search.html"
SEARCH_DIALOG = 'class="md-search" data-md-component="search" role="dialog"'


def name_the_search_dialog(env: Any) -> None:
    try:
        source = env.loader.get_source(env, SEARCH_PARTIAL)[0]
    except jinja2.TemplateNotFound:
        return
    named = source.replace(SEARCH_DIALOG, f'{SEARCH_DIALOG} aria-label="Search"', 1)
    env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({SEARCH_PARTIAL: named}), env.loader])


# Python-Markdown tries every inline pattern on every piece of text, one regular expression after another,
# and a generated site of many turns is mostly text that none of them matches. A pattern whose expression
# cannot match without one of a few characters (a link needs "[", an entity "&") is passed over, as a
# failed match would be, on text that holds none of them. Patterns are known by their expression, so a
# pattern an extension replaces or adds is always tried, as before; the HTML comes out the same.
_NEEDS: dict[str, tuple[str, ...]] = {
    r"(?:(?<!\\)((?:\\{2})+)(?=`+)|(?<!\\)`)": ("`",),  # code spans
    r"\\(.)": ("\\",),  # backslash escapes
    r"(?<!\!)\[": ("[",),  # links and references
    r"\!\[": ("![",),  # images
    r"<([A-Za-z][A-Za-z0-9+.-]*://[^<>]*)>": ("<",),  # autolinks
    r"<([^<> !]+@[^@<> ]+)>": ("<",),  # e-mail autolinks
    r"  \n": ("  \n",),  # hard line breaks
    r"(&(?:\#[0-9]+|\#x[0-9a-fA-F]+|[a-zA-Z0-9]+);)": ("&",),  # entities
    r"\*|_": ("*", "_"),  # emphasis and strong
}


def _needs(pattern: Pattern) -> tuple[str, ...] | None:
    """The strings of which text must hold one for ``pattern`` to match; None: always try it."""
    expression = pattern.compiled_re.pattern
    if expression in _NEEDS:
        return _NEEDS[expression]
    if (
        expression.startswith("(<")
        and expression[2:3] not in "?*{"
        and type(pattern).__name__ == "HtmlInlineProcessor"
    ):
        return ("<",)  # raw inline HTML: every alternative of its expression begins with "<"
    return None


class QuickInlineProcessor(InlineProcessor):
    """Markdown's inline processor, which passes over a pattern that cannot match the text at hand."""

    def run(self, tree: Any, ancestors: list[str] | None = None) -> Any:
        # The patterns as a list, once a page: the registry sorts itself on every lookup by index.
        self._patterns = list(self.inlinePatterns)
        self._needs = [_needs(pattern) for pattern in self._patterns]
        return super().run(tree, ancestors)

    def _InlineProcessor__handleInline(self, data: str, patternIndex: int = 0) -> str:
        # Markdown's own loop (InlineProcessor.__handleInline), with the pass-over added: a pattern
        # passed over continues as one that did not match, at the next pattern from the text's start.
        if isinstance(data, AtomicString):
            return data
        apply = self._InlineProcessor__applyPattern  # type: ignore[attr-defined]
        patterns, needs = self._patterns, self._needs
        start = 0
        while patternIndex < len(patterns):
            wanted = needs[patternIndex]
            if wanted is not None and not any(piece in data for piece in wanted):
                patternIndex, start = patternIndex + 1, 0
                continue
            data, matched, start = apply(patterns[patternIndex], data, patternIndex, start)
            if not matched:
                patternIndex += 1
        return data


class QuickInline(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        md.treeprocessors.register(QuickInlineProcessor(md), "inline", 20)


# The theme's search plugin cuts every page's HTML into sections with the standard library's HTMLParser, a
# general parser that costs more than the rest of the index. The HTML of a generated page is plain: tags with
# quoted attributes, text and comments. Such a page is cut into the same tags and text here, with one regular
# expression, and handed to the plugin's own handlers in the same order, so its index is the same; any page
# with anything else in it (a "<" that starts no tag, a script, a declaration) goes to HTMLParser as before.
_TOKEN = re.compile(
    r"<(?:(?P<start>[a-zA-Z][^\t\n\r\f />\x00]*)(?P<attrs>(?:\s+[^\s\"'>/=]+(?:=(?:\"[^\"]*\"|'[^']*'))?)*)"
    r"\s*(?P<close>/?)>|/(?P<end>[a-zA-Z][-.a-zA-Z0-9:_]*)>|!--(?P<comment>(?:(?!--)[^>])(?:(?!--).)*|)-->)",
    re.DOTALL,
)
_ATTRIBUTE = re.compile(r"\s+([^\s\"'>/=]+)(=(?:\"([^\"]*)\"|'([^']*)'))?")
# Elements whose content HTMLParser reads as raw text (which ones depends on the version of Python): a page
# with one that is not empty goes to HTMLParser.
_RAW_TEXT = {
    "script",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "noscript",
    "textarea",
    "title",
    "plaintext",
}

Event = tuple[str, Any, Any]


def _plain_events(content: str) -> list[Event] | None:
    """The calls HTMLParser (with ``convert_charrefs``) makes for ``content``: ("start", tag, attributes),
    ("end", tag, None) and ("data", text, None); None when the page holds anything beyond plain tags."""
    events: list[Event] = []
    position, length = 0, len(content)
    while position < length:
        opening = content.find("<", position)
        if opening < 0:
            opening = length
        if opening > position:
            events.append(("data", html.unescape(content[position:opening]), None))
        if opening == length:
            break
        found = _TOKEN.match(content, opening)
        if found is None:
            return None
        position = found.end()
        if found["end"] is not None:
            events.append(("end", found["end"].lower(), None))
        elif found["start"] is not None:
            tag = found["start"].lower()
            if tag in _RAW_TEXT and not content.startswith(f"</{tag}>", position):
                return None
            # A name without a value has None, as HTMLParser gives it; a value is unescaped.
            attributes = [
                (name.lower(), html.unescape(double or single) if equals else None)
                for name, equals, double, single in _ATTRIBUTE.findall(found["attrs"])
            ]
            events.append(("start", tag, attributes))
            if found["close"]:
                events.append(("end", tag, None))
    return events


class QuickSearchParser(getattr(material_search.Parser, "material_parser", material_search.Parser)):  # type: ignore[misc]
    """The search plugin's parser, which reads a plain page without HTMLParser (see ``_plain_events``)."""

    material_parser = getattr(material_search.Parser, "material_parser", material_search.Parser)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending: list[str] = []

    def feed(self, data: str) -> None:
        self.pending.append(data)

    def close(self) -> None:
        content = "".join(self.pending)
        self.pending.clear()
        events = _plain_events(content)
        if events is None:
            HTMLParser.feed(self, content)
            HTMLParser.close(self)
            return
        if _MIRRORED_HANDLERS:
            self._split_plain(events)
            return
        for kind, first, attributes in events:
            if kind == "data":
                self.handle_data(first)
            elif kind == "start":
                self.handle_starttag(first, attributes)
            else:
                self.handle_endtag(first)

    def _split_plain(self, events: list[tuple[str, str, list[tuple[str, str]]]]) -> None:
        """The theme's three handlers, step for step, on a fresh parser, but with the tags of the open
        elements and of the skipped ones kept as counts and sets. The theme's elements are equal when
        their tags are (``Element.__eq__``/``__hash__``), so each of its ``x in self.context`` and
        ``self.skip.intersection(self.context)`` (a Python comparison per open element, on every tag and
        text of a page) is a lookup by tag here. The sections built are the theme's own objects."""
        element, section_of, void, keep = (
            material_search.Element, material_search.Section, material_search.void, self.keep
        )  # fmt: skip
        context, skip, data_sections = self.context, self.skip, self.data
        open_tags: dict[str, int] = {}  # tag: how many open elements have it
        skipped_tags = {item if isinstance(item, str) else item.tag for item in skip}
        skipped_open = 0  # open elements whose tag is skipped: the theme skips while there is one

        for kind, tag, attributes in events:
            if kind == "start":
                attrs = dict(attributes)
                el = element(tag, attrs)
                if tag in void:
                    continue
                context.append(el)
                open_tags[tag] = open_tags.get(tag, 0) + 1
                if tag in skipped_tags:
                    skipped_open += 1
                if tag in _HEADINGS:
                    depth = len(context)
                    if "id" in attrs:
                        if tag != "h1" and not data_sections:
                            self.section = section_of(element("hx"), depth)
                            data_sections.append(self.section)
                        self.section = section_of(el, depth)
                        if data_sections:
                            self.section.id = attrs["id"]
                        data_sections.append(self.section)
                if not self.section:
                    self.section = section_of(element("hx"))
                    data_sections.append(self.section)
                excluded = False
                for key, value in attrs.items():
                    if key == "data-search-exclude" or (key == "class" and value == "linenodiv"):
                        skip.add(el)
                        if tag not in skipped_tags:  # every open element of its tag is skipped now
                            skipped_tags.add(tag)
                            skipped_open += open_tags[tag]
                        excluded = True
                        break
                if excluded:
                    continue
                if tag in keep and not skipped_open:
                    section = self.section
                    text = section.title if section.el.tag in open_tags else section.text
                    text.append(f"<{tag}>")
            elif kind == "end":
                if not context or context[-1].tag != tag:
                    continue
                if self.section.depth > len(context):
                    for earlier in reversed(data_sections):
                        if earlier.depth <= len(context):
                            self.section.depth = float("inf")
                            self.section = earlier
                            break
                el = context.pop()
                left = open_tags[el.tag] - 1
                if left:
                    open_tags[el.tag] = left
                else:
                    del open_tags[el.tag]
                if el.tag in skipped_tags:
                    skipped_open -= 1
                    if el.tag not in ("script", "style", "object"):
                        skip.remove(el)
                        skipped_tags.discard(el.tag)  # the other open elements of its tag are not skipped
                        skipped_open -= open_tags.get(el.tag, 0)
                    continue
                if tag in keep and not skipped_open:
                    section = self.section
                    text = section.title if section.el.tag in open_tags else section.text
                    index = text.index(f"<{tag}>")
                    for i in range(index + 1, len(text)):
                        if not text[i].isspace():
                            index = len(text)
                            break
                    if len(text) > index:
                        while len(text) > index:
                            text.pop()
                    else:
                        text.append(f"</{tag}>")
            else:
                if skipped_open:
                    continue
                if "pre" not in open_tags:
                    tag = " " if tag.isspace() else tag.replace("\n", " ")
                if not self.section:
                    self.section = section_of(element("hx"))
                    data_sections.append(self.section)
                section = self.section
                if section.el.tag in open_tags:
                    if not any(el.tag == "a" and el.attrs.get("class") == "headerlink" for el in context):
                        section.title.append(html.escape(tag, quote=False))
                elif tag.isspace():
                    if not section.text or not section.text[-1].isspace() or "pre" in open_tags:
                        section.text.append(tag)
                else:
                    section.text.append(html.escape(tag, quote=False))


_HEADINGS = frozenset(f"h{x}" for x in range(1, 7))


def _theme_handlers_digest() -> str:
    """The digest of the theme's search parser code that ``QuickSearchParser._split_plain`` mirrors."""
    import hashlib
    import inspect

    parser = QuickSearchParser.material_parser
    try:
        parts = (parser.__init__, parser.handle_starttag, parser.handle_endtag, parser.handle_data)
        source = "".join(
            inspect.getsource(part) for part in (*parts, material_search.Element, material_search.Section)
        )
    except (OSError, TypeError):
        return ""
    return hashlib.sha256(source.encode()).hexdigest()


# The handlers are mirrored only while the theme's are these (material 9.8.2); another version of the
# theme has its own handlers called, as before.
_MIRRORED_HANDLERS = (
    _theme_handlers_digest() == "b6cc9de00d4519065b11821eee912356f9f8ff9d3bfbff3eba681ef5949f39e2"
)


def on_config(config: Any) -> Any:
    config["markdown_extensions"].append(QuickInline())
    material_search.Parser = QuickSearchParser  # the plugin makes its parser by this name, a page at a time
    return config


def on_env(env: Any, config: Any, files: Any) -> Any:
    name_the_search_dialog(env)
    return env


# on-demand.js (in assets/campaign) holds the search index back and loads maps as they scroll into view.
# It must run before the theme's bundle, which asks for the index while it starts, and MkDocs prints extra
# scripts after the bundle; and a map's iframe must not load before it, so its address moves to data-src.
_ON_DEMAND = re.compile(r'<script src="[^"]*on-demand\.js"></script>\n?')
_BUNDLE = re.compile(r'<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+\.min\.js"></script>')
_MAP_FRAME = re.compile(r'<iframe\b[^>]*\bclass="ck-map[^>]*>')


def _on_demand(output: str) -> str:
    script, bundle = _ON_DEMAND.search(output), _BUNDLE.search(output)
    if script is None or bundle is None:
        return output
    output = _MAP_FRAME.sub(lambda tag: tag.group(0).replace(' src="', ' data-src="', 1), output)
    script, bundle = _ON_DEMAND.search(output), _BUNDLE.search(output)
    if script is None or bundle is None or script.start() < bundle.start():
        return output
    output = output[: script.start()] + output[script.end() :]
    return output[: bundle.start()] + script.group(0).rstrip("\n") + "\n" + output[bundle.start() :]


def _head_tags(output: str, page: Any, config: Any) -> str:
    """The head of every page links the Atom feed, and carries Open Graph tags, so a link to a turn
    pasted into a chat shows a preview: title, description and, with a ``site_url``, the address."""
    campaign = (config.get("extra") or {}).get("campaign") or {}
    feed = campaign.get("feed")
    if not feed or "</head>" not in output:
        return output
    site = config.get("site_name") or ""
    here = page.url or ""
    folder = here if here.endswith("/") or not here else posixpath.dirname(here) + "/"
    base = config.get("site_url") or ""
    href = (base.rstrip("/") + "/" + feed) if base else posixpath.relpath(feed, folder or ".")
    # Titles and descriptions reach here escaped once already (the site's settings and front matter);
    # unescaping first and escaping again prints each exactly once, whichever way it came.
    title = _attr((page.meta or {}).get("title") or page.title or site)  # the page's own, not its menu label
    description = _attr((page.meta or {}).get("description") or config.get("site_description") or "")
    tags = [
        f'<link rel="alternate" type="application/atom+xml" title="{_attr(site)}: every turn" '
        f'href="{_attr(href)}">',
        '<meta property="og:type" content="website">',
        f'<meta property="og:site_name" content="{_attr(site)}">',
        f'<meta property="og:title" content="{title}">',
    ]
    if description:
        tags.append(f'<meta property="og:description" content="{description}">')
    if getattr(page, "canonical_url", None):
        tags.append(f'<meta property="og:url" content="{_attr(page.canonical_url)}">')
    head, _, rest = output.partition("</head>")
    return head + "\n".join(tags) + "\n</head>" + rest


def _attr(value: Any) -> str:
    return html.escape(html.unescape(str(value)), quote=True)


# A raw HTML block (a chronicle's map in words, a press article, a table) comes out of Markdown as it went in,
# but Markdown and MkDocs each parse it first, tag by tag, to find where it ends and which ids it holds. A
# block that stands alone (blank lines round it, none in it, its own tags balanced, at the top of a page
# with no fenced code and no Markdown inside HTML) goes to Markdown as an empty element of its kind, which
# comes out in its place as the block did, and the block is put back once the page is HTML.
_RAW_BLOCK = re.compile(
    r"(?:\A|(?<=\n\n))<(details|div|table|ul|ol|nav|pre|dl)(?=[\s>])[^>\n]*>(?:(?!\n\n).)*?</\1>(?=\n\n|\n?\Z)",
    re.DOTALL,
)
_MARKDOWN_INSIDE = re.compile(r"<([a-zA-Z][^\s/>]*)[^>]*\smarkdown(?=[\s=>])[^>]*>")
_STASH = "data-ck-stash"
_stashed: dict[int, list[str]] = {}  # by page (its id): the blocks taken out of its Markdown


def _stands_alone(markdown_text: str) -> bool:
    """Whether every block of the page that holds Markdown in HTML ends in its own paragraph, so that a
    block after a blank line is never inside one (where Markdown would rewrite its HTML), and no fence
    holds HTML as code."""
    if "```" in markdown_text or "~~~" in markdown_text or _STASH in markdown_text:
        return False
    for found in _MARKDOWN_INSIDE.finditer(markdown_text):
        paragraph_end = markdown_text.find("\n\n", found.end())
        paragraph = markdown_text[found.start() : paragraph_end if paragraph_end >= 0 else None]
        if f"</{found[1]}>" not in paragraph:
            return False
    return True


def on_page_markdown(markdown_text: str, page: Any, config: Any, files: Any) -> str:
    if not _stands_alone(markdown_text):
        return markdown_text
    blocks: list[str] = []

    def stash(found: re.Match[str]) -> str:
        block, tag = found[0], found[1]
        balanced = block.count(f"<{tag}") == block.count(f"</{tag}>")
        if "markdown" in block or not balanced or _plain_events(block) is None:
            return block
        blocks.append(block)
        return f'<{tag} {_STASH}="{len(blocks) - 1}"></{tag}>'

    stashed = _RAW_BLOCK.sub(stash, markdown_text)
    if blocks:
        _stashed[id(page)] = blocks
    return stashed


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    blocks = _stashed.pop(id(page), None)
    if not blocks:
        return content
    for number, block in enumerate(blocks):
        tag = _RAW_BLOCK.match(block)[1]  # type: ignore[index]
        content = content.replace(f'<{tag} {_STASH}="{number}"></{tag}>', block, 1)
        # MkDocs finds the ids a page's raw HTML holds, so that links to them are checked: these too.
        anchors = getattr(page, "present_anchor_ids", None)
        if anchors is not None and ("id=" in block or "name=" in block):
            for kind, tag_name, attributes in _plain_events(block) or []:
                for name, value in attributes if kind == "start" else []:
                    if name == "id" or (name == "name" and tag_name == "a"):
                        anchors.add(value)
    return content


def on_post_page(output: str, page: Any, config: Any) -> str:
    return _head_tags(_on_demand(output), page, config)
