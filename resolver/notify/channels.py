"""The deliveries themselves: JSON over HTTPS to GitHub's REST API and to webhooks, with the standard library.

Every failure comes back as a short outcome (``HTTP 404``, ``no answer within 10 s``, ``not an HTTP
answer``, ``not a valid URL``) instead of an exception: a webhook that fails must not fail the turn, nor
lose the ledger of what the run had sent before it. No outcome ever quotes a URL or what the service
answered: a webhook's URL is its password, and an answer may echo it.
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

TIMEOUT = 10.0  # seconds: a reminder run must finish well within its hour
API_VERSION = "2022-11-28"


@dataclass(frozen=True)
class Answer:
    ok: bool
    outcome: str  # "HTTP 204", "could not connect", …
    data: Any = None  # the decoded JSON answer, GitHub's only (a webhook's is never kept)


def post(url: str, payload: Any, headers: dict[str, str] | None = None, method: str = "POST") -> Answer:
    """Send ``payload`` as JSON; the answer's JSON when there is one."""
    data = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "campaign-kit-notify", **(headers or {})}
    try:
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            raw = response.read(1 << 20)
            status = response.status
    except urllib.error.HTTPError as error:
        return Answer(False, f"HTTP {error.code}")
    except (http.client.InvalidURL, ValueError):
        # A URL the secret holds but no request can be made of ("https://[::1", a space in the path). The
        # error's message may quote the path, which holds a webhook's token: it never reaches a log.
        return Answer(False, "not a valid URL")
    except http.client.HTTPException:
        # Bytes that are not HTTP (a port that is no web server, a broken proxy): a failed delivery like
        # any other, not a crash that would lose the ledger of what this run had already sent.
        return Answer(False, "not an HTTP answer")
    except TimeoutError:
        return Answer(False, f"no answer within {TIMEOUT:g} s")
    except urllib.error.URLError as error:
        timed_out = isinstance(error.reason, TimeoutError)
        return Answer(False, f"no answer within {TIMEOUT:g} s" if timed_out else "could not connect")
    except OSError:
        return Answer(False, "could not connect")
    try:
        data = json.loads(raw) if raw.strip() else None
    except ValueError:
        data = None
    return Answer(200 <= status < 300, f"HTTP {status}", data)


def webhook(url: str, payload: dict[str, object]) -> Answer:
    answer = post(url, payload)
    return Answer(answer.ok, answer.outcome)  # what the service said is not kept


@dataclass(frozen=True)
class GitHub:
    """The few calls of GitHub's REST API the tracking issue needs, for one repository."""

    api_url: str  # https://api.github.com, or GITHUB_API_URL (GitHub Enterprise, a test's server)
    repository: str  # owner/name
    token: str

    def _headers(self) -> dict[str, str]:
        return {
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {self.token}",
            "X-GitHub-Api-Version": API_VERSION,
        }

    def _url(self, path: str) -> str:
        return f"{self.api_url.rstrip('/')}/repos/{self.repository}{path}"

    def open_issue(self, title: str, body: str) -> Answer:
        return post(self._url("/issues"), {"title": title, "body": body}, self._headers())

    def comment(self, number: int, body: str) -> Answer:
        return post(self._url(f"/issues/{number}/comments"), {"body": body}, self._headers())

    def close_issue(self, number: int) -> Answer:
        payload = {"state": "closed", "state_reason": "completed"}
        return post(self._url(f"/issues/{number}"), payload, self._headers(), method="PATCH")
