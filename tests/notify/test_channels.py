"""Deliveries that go wrong in ways no HTTP status tells: an answer that is not HTTP at all, a URL in the
secret no request can be made of. Each is a failed delivery with a short outcome, never an exception
(which would end the run before its ledger is pushed, so the next run would send everything again), and
the outcome never quotes the URL, whose path holds the webhook's token."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from resolver.notify import channels


@pytest.fixture
def not_http() -> Iterator[str]:
    """A server on 127.0.0.1 that answers every connection with a line that is not HTTP."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)  # bounded: a test that hangs ends
    done = threading.Event()

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                if done.is_set():  # the fixture's own wake-up call
                    return
                connection.recv(65536)
                connection.sendall(b"this is not HTTP\r\n\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    address = listener.getsockname()
    yield f"http://127.0.0.1:{address[1]}"
    done.set()
    socket.create_connection(address).close()  # wakes the accept, which then sees done
    thread.join(timeout=10)
    listener.close()


def test_an_answer_that_is_not_http_is_a_failed_delivery(not_http: str) -> None:
    answer = channels.webhook(f"{not_http}/api/webhooks/1/secret-token", {"content": "hello"})
    assert answer == channels.Answer(False, "not an HTTP answer")
    github = channels.GitHub(not_http, "dora/iron-coast", "ghs_test-token")
    assert github.open_issue("Turn 1", "body") == channels.Answer(False, "not an HTTP answer")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:9/api/webhooks/1/secret token",  # a space pasted into the path
        "http://127.0.0.1:9/api/webhooks/1/secret\ntoken",
        "http://127.0.0.1:port/api/webhooks/1/secret-token",
        "https://[::1/api/webhooks/1/secret-token",
    ],
)
def test_a_url_no_request_can_be_made_of_fails_without_quoting_it(url: str) -> None:
    answer = channels.webhook(url, {"content": "hello"})
    assert answer == channels.Answer(False, "not a valid URL")
    assert "secret" not in answer.outcome
