"""A stand-in for chat webhooks (Discord, Slack, Matrix) on 127.0.0.1, for the reminder rehearsal.

Each POST is recorded with its path and JSON body; a path listed in ``failing`` answers with that status
instead, and one listed in ``garbled`` answers bytes that are not HTTP at all (a proxy's error page, a
port that is not a web server), so a test can show that a webhook that fails does not fail the run.
The address is meant to be given to the workflow as a secret (``Rehearsal.secrets``), as the real URLs
are.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Delivery:
    path: str
    body: Any


@dataclass
class Webhooks:
    deliveries: list[Delivery] = field(default_factory=list)
    failing: dict[str, int] = field(default_factory=dict)  # path -> the status it answers
    garbled: set[str] = field(default_factory=set)  # paths whose answer is not HTTP

    def __post_init__(self) -> None:
        hooks = self
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body: Any = json.loads(raw) if raw else None
                except json.JSONDecodeError:
                    body = raw.decode("utf-8", "replace")
                with lock:
                    hooks.deliveries.append(Delivery(self.path, body))
                    status = hooks.failing.get(self.path, 204)
                    garbled = self.path in hooks.garbled
                if garbled:
                    self.wfile.write(b"this is not HTTP\r\n\r\n")
                    self.close_connection = True
                    return
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        """The address of one webhook, e.g. ``url("/discord")``."""
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def to(self, path: str) -> list[Any]:
        """The bodies delivered to ``path``, in order."""
        return [d.body for d in self.deliveries if d.path == path]

    def __enter__(self) -> Webhooks:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
