"""Problems found in player input, reported the way a compiler would: file:line:col, what, how to fix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .text import hide_secrets

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Issue:
    severity: Severity
    message: str
    hint: str = ""
    file: str = ""
    line: int = 0
    col: int = 0
    order: int | None = None  # 1-based position of the order in the file, when it concerns one

    def __post_init__(self) -> None:
        # A message may quote what a person wrote; a secret key among it is never repeated anywhere.
        object.__setattr__(self, "message", hide_secrets(self.message))
        object.__setattr__(self, "hint", hide_secrets(self.hint))
        object.__setattr__(self, "file", hide_secrets(self.file))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def where(self) -> str:
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"

    def format(self) -> str:
        text = f"{self.where()}: {self.severity}: {self.message}"
        if self.hint:
            text += f"\n    fix: {self.hint}"
        return text

    def to_data(self) -> dict[str, object]:
        return {
            "severity": self.severity,
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "order": self.order,
            "message": self.message,
            "hint": self.hint,
        }


class CampaignError(Exception):
    """A failure a person can act on. The CLI prints it without a traceback.

    ``code`` is the exit status: 1 for rejected input, 2 for misuse of the command.
    """

    def __init__(self, message: str, hint: str = "", code: int = 1) -> None:
        message, hint = hide_secrets(message), hide_secrets(hint)
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.code = code

    def format(self) -> str:
        text = f"error: {self.message}"
        if self.hint:
            text += f"\n    fix: {self.hint}"
        return text
