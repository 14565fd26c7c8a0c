"""Reading a built page as a browser would: its visible text, its elements, its scripts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from html.parser import HTMLParser

URL_ATTRIBUTES = ("src", "data-src", "href", "srcset", "action", "data", "poster", "formaction")
_HIDDEN = {"script", "style", "template"}


@dataclass
class Page:
    text: str = ""  # what a reader sees, entities decoded
    tags: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # every start tag, in order
    scripts: list[tuple[dict[str, str], str]] = field(default_factory=list)  # attributes and content


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.parts: list[str] = []
        self.hidden: list[str] = []
        self.script: tuple[dict[str, str], list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        self.page.tags.append((tag, values))
        if tag == "script":
            self.script = (values, [])
        if tag in _HIDDEN:
            self.hidden.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self.script is not None:
            self.page.scripts.append((self.script[0], "".join(self.script[1])))
            self.script = None
        if self.hidden and self.hidden[-1] == tag:
            self.hidden.pop()

    def handle_data(self, data: str) -> None:
        if self.script is not None:
            self.script[1].append(data)
        elif not self.hidden:
            self.parts.append(data)


def read_page(html: str) -> Page:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    reader.page.text = "".join(reader.parts)
    return reader.page


def map_page_data(html: str) -> tuple[dict, str]:
    """The world map page's JSON data, and the page without it (which must hold no name at all)."""
    from resolver.publish.maps import DATA_ID

    opening = f'<script type="application/json" id="{DATA_ID}">'
    assert html.count(opening) == 1
    before, _, rest = html.partition(opening)
    blob, _, after = rest.partition("</script>")
    return json.loads(blob), before + after
