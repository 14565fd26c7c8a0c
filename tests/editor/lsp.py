"""A minimal Language Server Protocol client: enough to ask yaml-language-server what an editor would show."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any


class LanguageServer:
    def __init__(self, command: list[str], root: Path) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.notifications: list[dict[str, Any]] = []
        self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": {
                    "textDocument": {"completion": {"completionItem": {"snippetSupport": False}}}
                },
            },
        )
        self.notify("initialized", {})
        settings = {"yaml": {"validate": True, "completion": True, "hover": True, "schemas": {}}}
        self.notify("workspace/didChangeConfiguration", {"settings": settings})

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        self.proc.stdin.flush()

    def _receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the language server stopped")
            line = line.strip()
            if not line:
                break
            name, value = line.decode().split(":", 1)
            if name.lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        mine = self.next_id
        self._send({"jsonrpc": "2.0", "id": mine, "method": method, "params": params})
        while True:
            message = self._receive()
            if "method" in message and "id" in message:  # the server asks us something: no settings
                items = message.get("params", {}).get("items", [None])
                self._send({"jsonrpc": "2.0", "id": message["id"], "result": [None] * len(items)})
            elif "method" in message:
                self.notifications.append(message)
            elif message.get("id") == mine:
                if "error" in message:
                    raise RuntimeError(message["error"])
                return message.get("result")

    def open(self, path: Path, text: str) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}},
        )

    def completions(self, path: Path, line: int, character: int) -> list[str]:
        result = self.request(
            "textDocument/completion",
            {"textDocument": {"uri": path.as_uri()}, "position": {"line": line, "character": character}},
        )
        items = result["items"] if isinstance(result, dict) else result or []
        return sorted(item["label"] for item in items)

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()
