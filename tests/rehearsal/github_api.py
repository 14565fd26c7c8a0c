"""A stand-in for GitHub's REST API on 127.0.0.1, for the rehearsals of the workflows.

It answers the few endpoints the kit's workflow scripts call, with bodies shaped like GitHub's own
(the fields the scripts read, as GitHub names them), keeps what they wrote (commit statuses, comments),
and records every request, so a test can say exactly what a workflow asked of GitHub. A request to any
other endpoint is answered 404 and recorded, so a script that starts calling something new fails its
rehearsal instead of passing unseen.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

BOT = {"login": "github-actions[bot]", "id": 41898282, "type": "Bot"}


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    body: Any
    authorization: str


@dataclass
class PullRequest:
    number: int
    head_sha: str
    author: str
    base: str = "main"


@dataclass
class GitHub:
    """What the stand-in knows of one repository, and what it was asked."""

    owner: str = "example"
    repo: str = "campaign"
    token: str = "rehearsal-token"
    pulls: list[PullRequest] = field(default_factory=list)
    comments: dict[int, list[dict[str, Any]]] = field(default_factory=dict)  # issue number -> comments
    statuses: list[dict[str, Any]] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)  # the turns' tracking issues, in order
    requests: list[Request] = field(default_factory=list)
    unexpected: list[Request] = field(default_factory=list)
    _next_id: int = 1000

    # -- the endpoints -------------------------------------------------------------------------------

    def answer(self, request: Request) -> tuple[int, Any]:
        if request.authorization not in (f"token {self.token}", f"Bearer {self.token}"):
            return 401, {"message": "Bad credentials"}
        base = f"/repos/{self.owner}/{self.repo}"
        path = request.path
        if request.method == "POST" and (match := re.fullmatch(rf"{base}/statuses/([0-9a-f]{{40}})", path)):
            return 201, self.create_status(match.group(1), request.body)
        if request.method == "GET" and (match := re.fullmatch(rf"{base}/issues/(\d+)/comments", path)):
            return 200, self.comments.get(int(match.group(1)), [])
        if request.method == "POST" and (match := re.fullmatch(rf"{base}/issues/(\d+)/comments", path)):
            return 201, self.create_comment(int(match.group(1)), request.body["body"])
        if request.method == "PATCH" and (match := re.fullmatch(rf"{base}/issues/comments/(\d+)", path)):
            return self.update_comment(int(match.group(1)), request.body["body"])
        if request.method == "POST" and path == f"{base}/issues":
            return 201, self.create_issue(request.body)
        if request.method == "PATCH" and (match := re.fullmatch(rf"{base}/issues/(\d+)", path)):
            return self.update_issue(int(match.group(1)), request.body)
        if request.method == "GET" and path == f"{base}/pulls":
            state, head_base = request.query.get("state", ["open"])[0], request.query.get("base", [None])[0]
            listed = [p for p in self.pulls if state == "open" and head_base in (None, p.base)]
            return 200, [self.pull_json(p) for p in listed]
        self.unexpected.append(request)
        return 404, {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def create_status(self, sha: str, body: dict[str, Any]) -> dict[str, Any]:
        status = {
            "id": self.new_id(),
            "sha": sha,
            "state": body["state"],
            "context": body.get("context", "default"),
            "description": body.get("description"),
            "target_url": body.get("target_url"),
            "creator": BOT,
        }
        self.statuses.append(status)
        return status

    def create_issue(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new issue, numbered after the pull requests and issues before it, as GitHub numbers both."""
        number = 1 + max([p.number for p in self.pulls] + [i["number"] for i in self.issues], default=0)
        issue = {"number": number, "title": body["title"], "body": body.get("body", ""), "state": "open"}
        self.issues.append(issue)
        return issue

    def update_issue(self, number: int, body: dict[str, Any]) -> tuple[int, Any]:
        for issue in self.issues:
            if issue["number"] == number:
                issue.update({key: body[key] for key in ("state", "title", "body") if key in body})
                return 200, issue
        return 404, {"message": "Not Found"}

    def create_comment(self, number: int, text: str) -> dict[str, Any]:
        comment = {"id": self.new_id(), "body": text, "user": BOT, "issue_number": number}
        self.comments.setdefault(number, []).append(comment)
        return comment

    def update_comment(self, comment_id: int, text: str) -> tuple[int, Any]:
        for comment in (c for comments in self.comments.values() for c in comments):
            if comment["id"] == comment_id:
                comment["body"] = text
                return 200, comment
        return 404, {"message": "Not Found"}

    def pull_json(self, pull: PullRequest) -> dict[str, Any]:
        return {
            "number": pull.number,
            "state": "open",
            "user": {"login": pull.author, "type": "User"},
            "head": {"sha": pull.head_sha},
            "base": {"ref": pull.base},
        }

    # -- what a test reads ---------------------------------------------------------------------------

    def gate(self, sha: str) -> list[str]:
        """The states of the "Orders gate" status posted on ``sha``, in order."""
        return [s["state"] for s in self.statuses if s["sha"] == sha and s["context"] == "Orders gate"]


class Server:
    """The stand-in, served on 127.0.0.1 on a free port for as long as the ``with`` block lasts."""

    def __init__(self, github: GitHub) -> None:
        self.github = github
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:  # the test's output stays quiet
                pass

            def handle_any(self) -> None:
                parts = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                request = Request(
                    self.command,
                    parts.path,
                    parse_qs(parts.query),
                    json.loads(raw) if raw else None,
                    self.headers.get("Authorization", ""),
                )
                with lock:
                    github.requests.append(request)
                    code, body = github.answer(request)
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = handle_any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
