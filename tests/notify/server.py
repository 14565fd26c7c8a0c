"""A local HTTP server on 127.0.0.1 standing in for GitHub's REST API and for the players' webhooks.

GitHub's routes answer with the recorded responses in ``recorded/`` (see its README); a webhook's route
answers 204, as Discord does, or whatever status a test sets for it. Every request is kept, with its
method, path, headers and JSON body, for the test to read.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

RECORDED = Path(__file__).parent / "recorded"
REPOSITORY = "dora/iron-coast"
ISSUES = re.compile(rf"/api/repos/{REPOSITORY}/issues(/(\d+)(/comments)?)?")


def recorded(name: str) -> tuple[int, dict[str, Any]]:
    data = json.loads((RECORDED / f"{name}.json").read_text())
    return int(data["status"]), data["body"]


@dataclass
class Request:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class Stand:
    """What the server was asked, and how it is told to answer."""

    requests: list[Request] = field(default_factory=list)
    hook_status: dict[str, int] = field(default_factory=dict)  # webhook path -> status (default 204)
    github_fails: bool = False  # answer every GitHub call with the recorded 401
    next_issue: int = 41
    port: int = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api(self) -> str:
        return f"{self.base}/api"

    def hook(self, name: str) -> str:
        return f"{self.base}/hooks/{name}/secret-token-{name}"

    def to(self, prefix: str) -> list[Request]:
        return [r for r in self.requests if r.path.startswith(prefix)]

    def answer(self, method: str, path: str) -> tuple[int, Any]:
        if path.startswith("/hooks/"):
            return self.hook_status.get(path.split("/")[2], 204), None
        match = ISSUES.fullmatch(path)
        if match is None:
            return 404, {"message": "Not Found"}
        if self.github_fails:
            return recorded("bad-credentials")
        number = match.group(2)
        if method == "POST" and number is None:
            self.next_issue += 1
            status, body = recorded("create-issue")
            return status, {
                **body,
                "number": self.next_issue,
                "html_url": f"https://github.com/{REPOSITORY}/issues/{self.next_issue}",
            }
        if method == "POST" and match.group(3):
            return recorded("create-comment")
        if method == "PATCH" and number is not None:
            status, body = recorded("update-issue")
            return status, {**body, "number": int(number)}
        return 404, {"message": "Not Found"}


@contextmanager
def serving() -> Iterator[Stand]:
    stand = Stand()

    class Handler(BaseHTTPRequestHandler):
        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            body = json.loads(raw) if raw else None
            stand.requests.append(Request(self.command, self.path, dict(self.headers), body))
            status, answer = stand.answer(self.command, self.path)
            data = json.dumps(answer).encode() if answer is not None else b""
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_POST = do_PATCH = _any

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test reads the requests, not a log

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    stand.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield stand
    finally:
        server.shutdown()
        server.server_close()
