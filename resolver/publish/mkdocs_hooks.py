"""MkDocs hooks loaded by the generated settings: newspaper issues show in-game dates, and the
search dialog has a name.

The blog plugin needs a calendar date per post, so each turn gets a stand-in date
(``pages.turn_date``). Wherever the theme prints a post's date, this hook prints the
turn's in-game date instead, from ``extra.campaign.turn_dates`` in the settings.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

# Material's search box, as its search partial writes it: a dialog that a screen reader can only call
# "dialog". Naming it takes one attribute; overriding the whole partial would pin the theme's markup.
SEARCH_DIALOG = 'class="md-search" data-md-component="search" role="dialog"'


def on_env(env: Any, config: Any, files: Any) -> Any:
    labels = ((config.get("extra") or {}).get("campaign") or {}).get("turn_dates") or {}
    original = env.filters.get("date")
    if original is None or not labels:
        return env

    def in_game_date(value: Any) -> Any:
        day = value.date() if isinstance(value, dt.datetime) else value
        label = labels.get(day.isoformat()) if isinstance(day, dt.date) else None
        return label if label is not None else original(value)

    env.filters["date"] = in_game_date
    return env


def name_the_search_dialog(output: str) -> str:
    return output.replace(SEARCH_DIALOG, f'{SEARCH_DIALOG} aria-label="Search"', 1)


def on_post_page(output: str, page: Any, config: Any) -> str:
    return name_the_search_dialog(output)


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    return name_the_search_dialog(output_content)  # the theme's own pages, such as 404.html
