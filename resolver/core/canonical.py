"""Canonical YAML: one byte-exact serialisation for everything the engine writes.

Sorted keys, block style, fixed width, UTF-8, and integers rather than floats, so
that replaying a turn reproduces the same files and git diffs stay readable.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def dump(data: Any) -> bytes:
    text = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=True,
        default_flow_style=False,
        allow_unicode=True,
        width=100,
        indent=2,
        line_break="\n",
    )
    return text.encode("utf-8")


def load(raw: bytes | str) -> Any:
    """Load trusted, engine-written YAML (state, world, archives)."""
    return yaml.load(raw, Loader=_Loader)


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


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
    return load(path.read_bytes())
