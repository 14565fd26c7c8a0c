"""Which characters player text may hold, and how the others are written and shown.

Player text (names, press, rumours, narrations: every string of an order file) may
hold any printable character. The refused ones are listed below by fixed code
point ranges rather than by Unicode category, so that the answer is the same on
every Python version (a category table changes with each Unicode release):

- control characters: U+0000–U+001F, U+007F and the C1 block U+0080–U+009F; tab
  and line feed are the exception, in text that may span lines (press articles,
  rumours, narrations) and never in names;
- the line and paragraph separators U+2028 and U+2029 (YAML and JavaScript read
  them as line breaks);
- the bidirectional embeddings, overrides and isolates U+202A–U+202E and
  U+2066–U+2069, which can make text display in another order than it reads;
- the zero-width no-break space U+FEFF (a byte order mark inside text);
- surrogates U+D800–U+DFFF, private-use characters (U+E000–U+F8FF and planes 15
  and 16) and the noncharacters U+FDD0–U+FDEF and U+xFFFE/U+xFFFF of every plane.

Unassigned code points are accepted: refusing them would make the same file
valid on one Python and invalid on another.

The canonical writer escapes every one of these characters, so even text that
never went through the check is written as YAML its reader can read; the CLI
shows them escaped, so nothing from an order file can drive the GM's terminal.
"""

from __future__ import annotations

import re

_RANGES: tuple[tuple[int, int, str], ...] = (
    (0x0000, 0x001F, "a control character"),
    (0x007F, 0x009F, "a control character"),
    (0x2028, 0x2029, "a line or paragraph separator"),
    (0x202A, 0x202E, "a bidirectional control"),
    (0x2066, 0x2069, "a bidirectional control"),
    (0xD800, 0xDFFF, "a surrogate"),
    (0xE000, 0xF8FF, "a private-use character"),
    (0xFDD0, 0xFDEF, "a noncharacter"),
    (0xFEFF, 0xFEFF, "a zero-width no-break space"),
    *((plane + 0xFFFE, plane + 0xFFFF, "a noncharacter") for plane in range(0, 0x110000, 0x10000)),
    (0xF0000, 0x10FFFF, "a private-use character"),
)
_TAB, _NEWLINE = 0x09, 0x0A


def _char_class(ranges: tuple[tuple[int, int, str], ...]) -> str:
    return "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high, _ in ranges)


_REFUSED = re.compile(f"[{_char_class(_RANGES)}]")
# In text that may span lines, tab and line feed are allowed: everything else of the table is refused.
_REFUSED_MULTILINE = re.compile(f"(?![\t\n])[{_char_class(_RANGES)}]")
# In a whole file, carriage returns are part of the layout too.
_REFUSED_IN_FILE = re.compile(f"(?![\t\n\r])[{_char_class(_RANGES)}]")


_NAMES = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return", "\x1b": "the escape character"}


def describe(char: str) -> str:
    """``U+007F (a control character)``: how a refused character is named in messages."""
    code = ord(char)
    kind = _NAMES.get(char) or next(kind for low, high, kind in _RANGES if low <= code <= high)
    return f"U+{code:04X} ({kind})"


def first_refused(text: str, *, multiline: bool = False) -> int | None:
    """The index of the first character player text may not hold, or None if all are printable."""
    found = (_REFUSED_MULTILINE if multiline else _REFUSED).search(text)
    return found.start() if found else None


def escape(char: str) -> str:
    """The YAML (and Python) escape of one character: ``\\x7f``, ``\\u202e``, ``\\U0010fffe``."""
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_refused(text: str) -> str:
    """Replace every refused character with its escape; line feeds and tabs are escaped too."""
    return _REFUSED.sub(lambda found: escape(found.group()), text)


def first_refused_in_file(text: str) -> int | None:
    """Like ``first_refused``, for a whole file, whose tabs and line breaks are layout."""
    found = _REFUSED_IN_FILE.search(text)
    return found.start() if found else None


def escape_refused_in_file(text: str) -> str:
    """Escape the refused characters of a whole file, keeping its tabs and line breaks."""
    return _REFUSED_IN_FILE.sub(lambda found: escape(found.group()), text)


def visible(text: str) -> str:
    """Text for a terminal: control characters and their kin shown as escapes, never sent raw, and
    secret keys hidden (see ``hide_secrets``).

    Line feeds are kept, since the CLI prints several lines at once; a player's line feed
    can only start a new line of plain text, never an escape sequence.
    """
    shown = _REFUSED_MULTILINE.sub(lambda found: escape(found.group()), text.replace("\t", "\\t"))
    return hide_secrets(shown)


# A secret key pasted where a public one belongs, or into any text a player writes: an age identity
# (AGE-SECRET-KEY-1 and its bech32 body, any case) or a PEM private key block (an SSH key file), to
# its end or to the end of the text. Either is replaced whole, never shortened: a shortened key is
# still most of a key.
_SECRET_KEY = re.compile(
    r"AGE-SECRET-KEY-[0-9A-Z]*"
    r"|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|.*)",
    re.IGNORECASE | re.DOTALL,
)
# In parentheses, not brackets: in a pull-request comment, text in brackets followed by "(…)" is a link.
HIDDEN_SECRET = "(a secret key, not shown)"


def hide_secrets(text: str) -> str:
    """``text`` with every secret key in it replaced by a placeholder: whatever a person pasted, the
    kit never echoes a secret key into a terminal, a log or a pull-request comment."""
    if "-" not in text:  # both kinds of key start with a dash-joined word: most text is done here
        return text
    return _SECRET_KEY.sub(HIDDEN_SECRET, text)


def holds_secret(text: str) -> bool:
    """Whether ``text`` holds a secret key (see ``hide_secrets``)."""
    return "-" in text and _SECRET_KEY.search(text) is not None
