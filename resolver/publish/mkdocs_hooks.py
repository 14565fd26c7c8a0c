"""MkDocs hook loaded by the generated settings: newspaper issues show in-game dates.

The blog plugin needs a calendar date per post, so each turn gets a stand-in date
(``pages.turn_date``). Wherever the theme prints a post's date, this hook prints the
turn's in-game date instead, from ``extra.campaign.turn_dates`` in the settings.
"""

from __future__ import annotations

import datetime as dt
from typing import Any


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
