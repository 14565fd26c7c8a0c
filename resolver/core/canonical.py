"""Canonical YAML: one byte-exact serialisation for everything the engine writes.

Sorted keys, block style, UTF-8, one scalar style per value, so that replaying a
turn reproduces the same files and git diffs stay readable. The engine only ever
writes plain data (mappings, lists, text, numbers, booleans, null), and a small
emitter of our own for exactly that is both faster than PyYAML's representer
and independent of its formatting choices. Anything it writes loads back equal.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from itertools import accumulate
from operator import lt
from pathlib import Path
from typing import Any

import yaml

from . import canonical_reader
from . import text as player_text

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Text that stays unquoted: it starts with a letter and cannot be read back as anything but text.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
_RESERVED = frozenset({"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
_SURROGATE = re.compile("[\ud800-\udfff]")


_TEXTS: dict[str, str] = {}  # text already written: keys and names repeat throughout a state
_TEXTS_HELD = 65536


def _scalar(value: Any) -> str:
    kind = type(value)
    if kind is str:
        written = _TEXTS.get(value)
        if written is None:
            written = _text(value)
            if len(_TEXTS) >= _TEXTS_HELD:
                _TEXTS.clear()
            _TEXTS[value] = written
        return written
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"canonical YAML has no place for {value!r}")
        return repr(value)
    if isinstance(value, str):
        return _text(value)
    raise TypeError(f"canonical YAML holds plain data only, not {type(value).__name__}")


def _text(value: str) -> str:
    if _PLAIN.fullmatch(value) and value.lower() not in _RESERVED:
        return value
    if _SURROGATE.search(value):
        raise ValueError(f"canonical YAML has no place for a lone surrogate in {value!r}")
    # A JSON string is a valid YAML double-quoted scalar with the same meaning. JSON leaves
    # DEL, C1 controls, noncharacters and line separators raw, which YAML forbids or folds:
    # those are escaped too, so whatever text reaches the state, its reader reads it back.
    return player_text.escape_refused(json.dumps(value, ensure_ascii=False))


def _key(key: Any) -> tuple[int, Any]:
    return (0, key) if isinstance(key, int) and not isinstance(key, bool) else (1, str(key))


def _emit(value: Any, indent: str, out: list[str]) -> None:
    """Append the block lines of a non-empty mapping or list, each at ``indent``.

    The writer of every big file (state, events, the world's digest), so its common cases (text
    already written, whole numbers, nested blocks) are answered inline; anything else goes through
    ``_scalar`` and ``_inline``, which say what each value is written as."""
    append = out.append
    texts = _TEXTS
    if isinstance(value, dict):
        # Text keys sort as text either way; only mixed keys need the slower ordering.
        keys = sorted(value, key=_key) if any(type(k) is not str for k in value) else sorted(value)
        nested = indent + "  "
        for key in keys:
            item = value[key]
            written_key = texts.get(key) if type(key) is str else None
            if written_key is None:
                written_key = _scalar(key)
            kind = type(item)
            if kind is str:
                text = texts.get(item)
                append(f"{indent}{written_key}: {_scalar(item) if text is None else text}")
            elif kind is int:
                append(f"{indent}{written_key}: {item}")
            elif item and isinstance(item, (dict, list)):
                append(f"{indent}{written_key}:")
                _emit(item, nested if isinstance(item, dict) else indent, out)
            else:
                append(f"{indent}{written_key}: {_inline(item)}")
    else:
        dash, nested = indent + "- ", indent + "  "
        cut = len(nested)
        for item in value:
            kind = type(item)
            if kind is str:
                text = texts.get(item)
                append(f"{dash}{_scalar(item) if text is None else text}")
            elif kind is int:
                append(f"{dash}{item}")
            elif item and isinstance(item, (dict, list)):
                # The item's first line takes the dash: "- key: value", or "- - value" for a list.
                first = len(out)
                _emit(item, nested, out)
                out[first] = dash + out[first][cut:]
            else:
                append(f"{dash}{_inline(item)}")


def _inline(value: Any) -> str:
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    return _scalar(value)


# How many levels of a big file ``dump`` goes down to write it a part at a time (the state's
# collections, then each army, settlement or event), and how many lines a part holds at most.
_PART_LEVELS = 2
_PART_LINES = 4096


def dump(data: Any) -> bytes:
    if isinstance(data, (dict, list)) and data:
        parts: list[bytes] = []
        lines: list[str] = []
        _emit_in_parts(data, "", lines, parts, _PART_LEVELS)
        _encode_part(lines, parts)
        return b"".join(parts)
    return (_inline(data) + "\n").encode("utf-8")


def _emit_in_parts(
    value: dict[Any, Any] | list[Any], indent: str, lines: list[str], parts: list[bytes], levels: int
) -> None:
    """``_emit``'s lines, encoded a few thousand at a time: the lines of a whole state or turn are many
    small texts, several times the size of the bytes they make, and held all at once they were the peak
    of a big campaign's resolve. Each entry's lines depend on nothing outside the entry, so the bytes
    are those of the whole written at once."""
    if isinstance(value, dict):
        keys = sorted(value, key=_key) if any(type(k) is not str for k in value) else sorted(value)
        for key in keys:
            item = value[key]
            if levels > 1 and type(item) in (dict, list) and item:
                lines.append(f"{indent}{_scalar(key)}:")
                _emit_in_parts(
                    item, indent + "  " if type(item) is dict else indent, lines, parts, levels - 1
                )
            else:
                _emit({key: item}, indent, lines)
                if len(lines) >= _PART_LINES:
                    _encode_part(lines, parts)
    else:
        for item in value:
            _emit([item], indent, lines)
            if len(lines) >= _PART_LINES:
                _encode_part(lines, parts)


def _encode_part(lines: list[str], parts: list[bytes]) -> None:
    """The lines so far as bytes, each ending with its line break; the list is emptied for the next."""
    if lines:
        lines.append("")
        parts.append("\n".join(lines).encode("utf-8"))
        lines.clear()


def load(raw: bytes | str) -> Any:
    """Load trusted, engine-written YAML (state, world, archives).

    What this module wrote goes through ``canonical_reader``, which reads exactly that subset;
    anything else (a GM's hand edit, an older writer's layout) is read by PyYAML as before."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return canonical_reader.read(text)
    except (UnicodeDecodeError, canonical_reader.NotCanonical):
        return load_with_pyyaml(raw)


def load_with_pyyaml(raw: bytes | str) -> Any:
    """Load engine-written YAML with PyYAML, whatever its layout."""
    try:
        return yaml.load(raw, Loader=_Loader)
    except yaml.reader.ReaderError:
        # Earlier writers left DEL, C1 controls and noncharacters raw inside quoted text,
        # which the reader refuses. The writer quotes every non-ASCII text, so escaping them
        # in place gives back exactly the text that was meant, and the campaign stays readable.
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        return yaml.load(player_text.escape_refused_in_file(text), Loader=_Loader)


def plain_copy(data: Any) -> Any:
    """A deep copy of plain data (what this module reads and writes), several times faster than
    ``copy.deepcopy``, which a big campaign's state made a large part of each turn; anything
    else in it is copied by ``copy.deepcopy``."""
    kind = type(data)
    if kind is dict:
        return {key: plain_copy(value) for key, value in data.items()}
    if kind is list:
        return [plain_copy(item) for item in data]
    if kind in (str, int, float, bool) or data is None:
        return data
    return copy.deepcopy(data)


_LAST_DIGEST: list[Any] = [None, ""]  # the bytes last digested and their digest


def digest(raw: bytes) -> str:
    # `campaign check` asks for a big state's digest twice (is it the one the archive vouches for? which
    # read cache entry is it?) on the same bytes: the second answer is the first, not another pass.
    if raw is _LAST_DIGEST[0]:
        return str(_LAST_DIGEST[1])
    found = hashlib.sha256(raw).hexdigest()
    if type(raw) is bytes and len(raw) >= CACHED_SIZE:  # bytes never change; a bytearray may
        _LAST_DIGEST[:] = [raw, found]
    return found


def data_digest(data: Any) -> str:
    return digest(dump(data))


def write_atomic(path: Path, raw: bytes) -> None:
    """Write through a temporary file in the same folder, then rename: readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_yaml(path: Path, data: Any) -> bytes:
    raw = dump(data)
    write_atomic(path, raw)
    return raw


def read_yaml(path: Path) -> Any:
    """Read an engine-written file; a big one comes from the read cache when it holds its bytes."""
    return load_cached(path.read_bytes())


def load_cached(raw: bytes) -> Any:
    """``load``, through the read cache for big files."""
    if len(raw) < CACHED_SIZE:
        return load(raw)
    key = digest(raw)
    cached = _cache_read(key)
    if cached is not None:
        return cached
    data = load(raw)
    remember(raw, data, key)
    return data


def load_in_part(raw: bytes, section: str) -> Any:
    """The data of an engine-written mapping, with ``section`` (a mapping of mappings) read entry by
    entry as it is looked at (``canonical_reader.read_in_part``); the whole of it, as ``load_cached``
    reads it, when the text is not laid out as the writer writes. Only for a file whose digest the turn
    archive holds: the reader trusts the layout of entries it does not read. A big file's index (the
    other sections, where its entries begin, the columns scanned) is kept in the read cache."""
    whole: list[Any] = []

    def whole_data() -> Any:
        if not whole:
            whole.append(load(raw))
        return whole[0]

    name = f"{digest(raw)}-{section}-in-part" if len(raw) >= CACHED_SIZE else None
    index = _cache_read(name) if name is not None else None
    try:
        return canonical_reader.read_in_part(
            raw.decode("utf-8"),
            section,
            whole_data,
            index,
            (lambda found: remember(raw, found, name)) if name is not None else None,
        )
    except (canonical_reader.NotCanonical, UnicodeDecodeError):
        return load_cached(raw)


def read_yaml_keyed(
    path: Path, section: str, key: str, vouched: str | None = None
) -> tuple[dict[str, Any], dict[str, Any], Callable[[str, Any], Any]]:
    """Read an engine-written mapping whose ``section`` is a long list of mappings, for a reader that
    looks at few of them: the mapping without that section, the section's items by their ``key`` (a
    later item with the same key replaces an earlier one in its place), and how to read an item. From
    the read cache each item is its JSON text until read; a file whose digest is ``vouched`` (the turn
    archive recorded it) is cut into its items' texts, each read when first looked at."""
    raw = path.read_bytes()
    key_of_bytes = digest(raw)
    name = f"{key_of_bytes}-{section}-by-{key}"
    cached = _keyed_from_cache(name) if len(raw) >= CACHED_SIZE else None
    if cached is not None:
        rest, spans, texts = cached
        return rest, spans, _item_reader(raw, section, key, texts)
    if vouched == key_of_bytes and len(raw) >= CACHED_SIZE:
        try:
            rest, item_texts = canonical_reader.read_list_in_part(raw.decode("utf-8"), section, key)
            return rest, item_texts, _item_reader(raw, section, key)
        except (canonical_reader.NotCanonical, UnicodeDecodeError):
            pass
    data = load(raw)  # the keyed entry stands in for a plain one: keeping both would cost twice
    rest = {name_: value for name_, value in data.items() if name_ != section}
    items = {str(item[key]): item for item in data[section]}
    if len(raw) >= CACHED_SIZE:
        _remember_keyed(name, rest, items)
    return rest, items, _item_reader(raw, section, key)


def _item_reader(raw: bytes, section: str, key: str, texts: bytes = b"") -> Callable[[str, Any], Any]:
    """Reads an item from its own text: a canonical YAML text, or a span of ``texts`` (the read
    cache's JSON texts); one that does not read alone comes from the whole file."""
    whole: dict[str, Any] = {}

    def read_item(item_key: str, item: Any) -> Any:
        try:
            if isinstance(item, str):
                return canonical_reader.read_item(item)
            if isinstance(item, tuple):
                found = json.loads(texts[item[0] : item[1]])
                if not isinstance(found, dict) or str(found.get(key)) != item_key:
                    raise ValueError("a cached item of another key")
                return found
            return item
        except ValueError:  # NotCanonical and JSON's errors are ValueErrors
            if not whole:
                whole.update((str(entry[key]), entry) for entry in load(raw)[section])
            return whole[item_key]

    return read_item


# A keyed entry is one line of JSON, the mapping without its section, the items' keys and where each
# item's JSON text ends, then those texts one after another: reading it parses the short line alone,
# and each item's text only when the item is looked at.
_KEYED_FORMAT = 2


def _remember_keyed(name: str, rest: dict[str, Any], items: dict[str, Any]) -> None:
    folder = cache_dir()
    if folder is None:
        return
    try:
        texts = [
            json.dumps(item, ensure_ascii=False, allow_nan=False).encode("utf-8") for item in items.values()
        ]
        if (
            any(json.loads(text) != item for text, item in zip(texts, items.values(), strict=True))
            or json.loads(json.dumps(rest)) != rest
        ):
            return  # JSON would not give the same data back (integer keys, for one)
        ends = list(accumulate(map(len, texts)))
        head = {"format": _KEYED_FORMAT, "rest": rest, "keys": list(items), "ends": ends}
        line = json.dumps(head, ensure_ascii=False, allow_nan=False).encode("utf-8")
        _cache_write(folder, name, b"\n".join([line, b"".join(texts)]))
    except (OSError, TypeError, ValueError):
        return


def _keyed_from_cache(name: str) -> tuple[dict[str, Any], dict[str, tuple[int, int]], bytes] | None:
    """A keyed entry's mapping, its items' spans by key and the bytes they lie in; None when there is
    none or it is not laid out as ``_remember_keyed`` writes."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        entry = (folder / f"{name}.json").read_bytes()
        cut = entry.index(b"\n")
        head = json.loads(entry[:cut])
    except (OSError, ValueError):
        return None
    if not isinstance(head, dict) or head.get("format") != _KEYED_FORMAT:
        return None
    rest, keys, ends = head.get("rest"), head.get("keys"), head.get("ends")
    if not isinstance(rest, dict) or not isinstance(keys, list) or not isinstance(ends, list):
        return None
    if not keys or len(keys) != len(ends) or len(set(keys)) != len(keys):
        return None
    if not set(map(type, ends)) <= {int} or not set(map(type, keys)) <= {str}:
        return None
    # Spans in the entry's bytes: the texts begin after the first line's break.
    ends = [end + cut + 1 for end in ends]
    starts = [cut + 1, *ends[:-1]]
    if ends[-1] != len(entry) or not all(map(lt, starts, ends)):
        return None
    return rest, dict(zip(keys, zip(starts, ends, strict=True), strict=True)), entry


# -- the read cache ------------------------------------------------------------------------------------
#
# A big campaign's state and world take seconds to parse even with the fast reader, and every command
# parses them again: `campaign check` of one file paid for the whole state. So the data of each big
# file read or written is also kept as JSON, which Python parses many times faster, in a cache folder
# outside the repository, under the SHA-256 of the YAML bytes it was read from. The digest is the
# guard: a file edited by hand has another digest and is parsed again; an entry is only written after
# its JSON was read back equal to the data (JSON has no integer keys, for one). Nothing is ever looked
# up by name, so an entry can never be stale; old entries are pruned.

CACHED_SIZE = 256 * 1024  # smaller files parse faster than the cache pays back
CACHE_ENTRIES = 24
CACHE_VARIABLE = "CAMPAIGN_KIT_CACHE"  # a folder, or "off"


def cache_dir() -> Path | None:
    chosen = os.environ.get(CACHE_VARIABLE)
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "campaign-kit" / "read-cache"


def _cache_read(key: str) -> Any:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        return json.loads((folder / f"{key}.json").read_bytes())
    except (OSError, ValueError):
        return None


def remember(raw: bytes, data: Any, key: str | None = None) -> None:
    """Keep ``data``, which ``raw`` reads as, in the read cache (when it is big and JSON holds it
    exactly); a cache that cannot be written is simply not used."""
    folder = cache_dir()
    if folder is None or len(raw) < CACHED_SIZE:
        return
    try:
        chunks: list[bytes] = []
        if _exact_json(data, _PART_LEVELS, chunks):
            _cache_write(folder, key or digest(raw), b"".join(chunks))
    except (OSError, TypeError, ValueError):
        return


def _exact_json(data: Any, levels: int, chunks: list[bytes]) -> bool:
    """Append the UTF-8 bytes of ``json.dumps(data)`` to ``chunks``, and say whether they read back equal
    to ``data``; read back a part at a time (the state's collections, then each of their entries) and
    kept as bytes, so that a big state is held neither twice nor as text beside its bytes."""
    if levels > 0 and type(data) is dict and data:
        if any(type(key) is not str for key in data):
            return False  # JSON would write a number as text: it would not read back as it was
        chunks.append(b"{")
        for number, (key, value) in enumerate(data.items()):
            chunks.append(f"{', ' if number else ''}{json.dumps(key, ensure_ascii=False)}: ".encode())
            if not _exact_json(value, levels - 1, chunks):
                return False
        chunks.append(b"}")
        return True
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    if json.loads(text) != data:
        return False
    chunks.append(text.encode("utf-8"))
    return True


def _reading_key(raws: Sequence[bytes]) -> str:
    return digest(b"\0".join(digest(raw).encode() for raw in raws)) + "-reading"


def twin_text(raws: Sequence[bytes], data: Any) -> bytes:
    """A JSON twin of ``data``, which the files whose bytes (and names) are ``raws`` read as: shipped
    beside hand-written YAML (a ruleset's rules data), so that a process with an empty read cache (a
    player's first check, a fresh CI runner) need not parse that YAML. It names the files it was made
    from by their digest; ``twin_data`` uses it only while they are unchanged."""
    text = json.dumps({"sources": _reading_key(raws), "data": _tag_whole_keys(data)}, ensure_ascii=False)
    if json.loads(text, object_hook=_untag_whole_keys)["data"] != data:
        raise ValueError("JSON does not hold this data exactly")
    return (text + "\n").encode("utf-8")


def twin_data(path: Path, raws: Sequence[bytes]) -> Any:
    """The data of the JSON twin at ``path`` (``twin_text``) when it was made from ``raws``; None when
    there is none, or it was made from other files (the YAML was edited since: it is read instead)."""
    try:
        found = json.loads(path.read_bytes(), object_hook=_untag_whole_keys)
    except (OSError, ValueError):
        return None
    if not isinstance(found, dict) or found.get("sources") != _reading_key(raws):
        return None
    return found.get("data")


def cached_reading(raws: Sequence[bytes], read: Callable[[], Any]) -> Any:
    """What ``read`` makes of the files whose bytes (and names) are ``raws``, from the read cache when it
    holds them, else read and kept there when JSON holds it exactly. For hand-written YAML read as one
    (a ruleset's rules data): a parser reads it slowly whatever its size, and every process reads it."""
    key = _reading_key(raws)
    folder = cache_dir()
    if folder is not None:
        try:
            return json.loads((folder / f"{key}.json").read_bytes(), object_hook=_untag_whole_keys)
        except (OSError, ValueError):
            pass
    data = read()
    if folder is not None:
        try:
            text = json.dumps(_tag_whole_keys(data), ensure_ascii=False, allow_nan=False)
            if json.loads(text, object_hook=_untag_whole_keys) == data:
                _cache_write(folder, key, text.encode("utf-8"))
        except (OSError, TypeError, ValueError):
            pass
    return data


_WHOLE_KEYS = "\u0000whole-number keys"  # a mapping keyed by numbers (a table by level), as JSON keeps it


def _tag_whole_keys(data: Any) -> Any:
    if isinstance(data, dict):
        if all(isinstance(key, str) for key in data):
            return {key: _tag_whole_keys(value) for key, value in data.items()}
        return {_WHOLE_KEYS: [[key, _tag_whole_keys(value)] for key, value in data.items()]}
    if isinstance(data, list):
        return [_tag_whole_keys(item) for item in data]
    return data


def _untag_whole_keys(found: dict[str, Any]) -> Any:
    pairs = found.get(_WHOLE_KEYS)
    return {key: value for key, value in pairs} if pairs is not None and len(found) == 1 else found


def _cache_write(folder: Path, name: str, raw: bytes) -> None:
    """Write one entry, then prune the oldest beyond ``CACHE_ENTRIES``."""
    write_atomic(folder / f"{name}.json", raw)
    entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:-CACHE_ENTRIES]:
        old.unlink(missing_ok=True)
