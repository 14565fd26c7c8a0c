"""The procedures of a Diplomacy turn (filled in step 2)."""

from __future__ import annotations

from ...core.phases import PhaseFn

PHASES: dict[str, PhaseFn] = {}
