"""A commander's attributes, his own or a weapon's gift, are his nation's to know in a sealed campaign
(the fog of war lists them as private): the public record never names them, nor what a nation paid
to keep its units through the winter."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver.core import canonical
from resolver.store.store import PUBLIC_EVENTS

from .demos import sealed_demo


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sealed_demo(tmp_path_factory.mktemp("sealed-demos"), "seasons")


def test_no_public_event_tells_a_marshals_attributes(seasons: Path) -> None:
    told = [
        (folder.name, event["kind"])
        for folder in sorted((seasons / "campaign" / "turns").iterdir())
        if (folder / PUBLIC_EVENTS).is_file()
        for event in canonical.read_yaml(folder / PUBLIC_EVENTS).get("events") or []
        if {"attributes", "paid"} & set(event.get("data") or {})
    ]
    assert told == []
    # the demo names its Marshals: had the events been public, the list above would hold them
    assert (seasons / "campaign" / "turns" / "0001" / PUBLIC_EVENTS).is_file()
