"""MkDocs hook loaded by the generated settings: the search dialog gets a name, maps and the search index
load on demand, and every page's head links the feed and carries Open Graph tags."""

from __future__ import annotations

import html
import posixpath
import re
from typing import Any

import jinja2

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


def on_post_page(output: str, page: Any, config: Any) -> str:
    return _head_tags(_on_demand(output), page, config)
