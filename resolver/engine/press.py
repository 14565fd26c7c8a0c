"""Articles a ruleset's bot signs for the newspaper, so that a campaign played by bots (a demo, an NPC's
turn) reads like one played by people.

A bot lists the stories its faction could tell this turn, most pressing first, each with a few wordings
and the facts they name. The facts must be what the faction knows and would say in public: the article is
printed for every reader, in a sealed campaign too, so a bot never names what the rules data's
``fog_of_war`` keeps private (its stock, its plans for next season). One story is told now and then,
chosen with the bot's own stream: the same campaign prints the same articles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.orders import HEADLINE_MAX
from ..core.rng import Stream

MARKDOWN_PUNCTUATION = re.compile(r"[\\`*_{}\[\]()#+\-.!<>|~]")
Wording = tuple[str, str]  # a headline and a body, each with {fact} fields


@dataclass(frozen=True)
class Story:
    wordings: Sequence[Wording]
    facts: Mapping[str, str]


# One turn in two a faction has something to say: four bots fill most issues without filling every one.
TELLS_ONE_TURN_IN = 2
# The story told is one of the most pressing few, so a long war does not fill every issue alone.
PRESSING = 2


def bot_articles(rng: Stream, stories: Sequence[Story]) -> list[dict[str, str]]:
    """At most one article, as an order file's ``press`` entry; none on a quiet turn or with no story."""
    if not stories or rng.below(TELLS_ONE_TURN_IN) != 0:
        return []
    story = rng.choice(list(stories[:PRESSING]))
    headline, body = rng.choice(list(story.wordings))
    # A body is Markdown on the site, and the facts are names people chose: each is set down as the text
    # it is, never as a link, an image or emphasis of its own.
    literal = {key: MARKDOWN_PUNCTUATION.sub(r"\\\g<0>", str(value)) for key, value in story.facts.items()}
    return [
        {
            "headline": clipped(headline.format(**story.facts), HEADLINE_MAX),
            "body": body.format(**literal),
        }
    ]


def clipped(text: str, most: int) -> str:
    """Text within the order file's limit: a headline naming long names is cut at a word, with an
    ellipsis, rather than making the bot's file one the checker refuses."""
    if len(text) <= most:
        return text
    return text[: most - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"
