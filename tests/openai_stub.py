"""A small OpenAI-compatible HTTP server on 127.0.0.1, in a thread, for tests.

It implements what graphrag_code calls: ``POST /v1/embeddings`` (deterministic bag-of-words
vectors, honours ``dimensions`` and both ``encoding_format`` values) and
``POST /v1/chat/completions`` (a canned answer that quotes the last user message, plain or
streamed). ``fail_next(n, status)`` makes the next n requests fail, e.g. with 429, to exercise
retries; every request is recorded in ``requests``.

In a test module, ``from tests.openai_stub import openai_stub_fixture  # noqa: F401`` provides
the ``openai_stub`` fixture (a fresh server per test); or use ``with OpenAIStub() as stub:``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

__all__ = ["STUB_API_KEY", "OpenAIStub", "RecordedRequest", "openai_stub_fixture", "stub_vector"]

STUB_API_KEY = "sk-stub-test-key"
NATIVE_DIMENSIONS = {"text-embedding-3-small": 1536, "text-embedding-3-large": 3072}
_WORD = re.compile(r"[a-z0-9]+")


def stub_vector(text: str, dimensions: int) -> list[float]:
    """Unit bag-of-words vector: texts sharing words score high, as a real model would."""
    vector = [0.0] * dimensions
    for word in _WORD.findall(text.lower()) or ["<empty>"]:
        value = int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "little")
        vector[value % dimensions] += 1.0 if value >> 63 else -1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


@dataclass(frozen=True)
class RecordedRequest:
    path: str
    body: dict[str, Any]
    authorization: str | None


class OpenAIStub:
    """The server; `base_url` (``http://127.0.0.1:<port>/v1``) is what a client needs."""

    def __init__(self, *, api_key: str = STUB_API_KEY, retry_after_ms: int = 5) -> None:
        self.api_key = api_key
        self.retry_after_ms = retry_after_ms
        self.requests: list[RecordedRequest] = []
        self.chat_answer: str | None = None
        self._failures: list[int] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- control -------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._server is not None, "stub not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def fail_next(self, count: int, status: int = 429) -> None:
        """The next `count` requests get HTTP `status` (with a short Retry-After)."""
        with self._lock:
            self._failures.extend([status] * count)

    def embedding_requests(self) -> list[RecordedRequest]:
        return [request for request in self.requests if request.path == "/v1/embeddings"]

    def start(self) -> OpenAIStub:
        stub = self

        class Handler(_Handler):
            owner = stub

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIStub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- behaviour -----------------------------------------------------------------------------
    def _next_failure(self) -> int | None:
        with self._lock:
            return self._failures.pop(0) if self._failures else None

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAIStub

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except json.JSONDecodeError:
            self._error(400, "invalid JSON body", "invalid_request_error")
            return
        authorization = self.headers.get("Authorization")
        self.owner._record(RecordedRequest(self.path, body, authorization))
        if authorization != f"Bearer {self.owner.api_key}":
            self._error(401, "Incorrect API key provided (stub)", "invalid_request_error")
            return
        failure = self.owner._next_failure()
        if failure is not None:
            kind = "requests" if failure == 429 else "server_error"
            self._error(failure, f"stub failure {failure}", kind)
            return
        if self.path == "/v1/embeddings":
            self._embeddings(body)
        elif self.path == "/v1/chat/completions":
            self._chat(body)
        else:
            self._error(404, f"no route {self.path}", "invalid_request_error")

    def _embeddings(self, body: dict[str, Any]) -> None:
        inputs = body.get("input")
        if isinstance(inputs, str):
            inputs = [inputs]
        if not isinstance(inputs, list) or not all(isinstance(t, str) and t for t in inputs):
            self._error(400, "'input' must be a non-empty string or list of them", "invalid")
            return
        if len(inputs) > 2048:
            self._error(400, "'input' must have at most 2048 items", "invalid_request_error")
            return
        model = str(body.get("model"))
        dimensions = int(body.get("dimensions") or NATIVE_DIMENSIONS.get(model, 1536))
        data = []
        for index, text in enumerate(inputs):
            vector = stub_vector(text, dimensions)
            embedding: Any = vector
            if body.get("encoding_format") == "base64":
                embedding = base64.b64encode(struct.pack(f"<{dimensions}f", *vector)).decode()
            data.append({"object": "embedding", "index": index, "embedding": embedding})
        tokens = sum(len(text.split()) for text in inputs)
        self._json(
            200,
            {
                "object": "list",
                "data": data,
                "model": model,
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )

    def _chat(self, body: dict[str, Any]) -> None:
        messages = body.get("messages") or []
        user = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"]
        question = str(user[-1].get("content", "")) if user else ""
        answer = self.owner.chat_answer or f"Stub answer. You asked: {question[:500]}"
        model = str(body.get("model", "stub-model"))
        created = int(time.time())
        if body.get("stream"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            words = answer.split(" ")
            for position, word in enumerate(words):
                piece = word if position == 0 else " " + word
                self._event(_chunk(model, created, {"content": piece}, None))
            self._event(_chunk(model, created, {}, "stop"))
            self.wfile.write(b"data: [DONE]\n\n")
            return
        self._json(
            200,
            {
                "id": "chatcmpl-stub",
                "object": "chat.completion",
                "created": created,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": answer},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            },
        )

    def _event(self, payload: dict[str, Any]) -> None:
        self.wfile.write(b"data: " + json.dumps(payload).encode() + b"\n\n")

    def _error(self, status: int, message: str, kind: str) -> None:
        headers = {"retry-after-ms": str(self.owner.retry_after_ms)} if status >= 429 else {}
        self._json(status, {"error": {"message": message, "type": kind, "code": None}}, headers)

    def _json(
        self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)


def _chunk(model: str, created: int, delta: dict[str, str], finish: str | None) -> dict[str, Any]:
    return {
        "id": "chatcmpl-stub",
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


@pytest.fixture(name="openai_stub")
def openai_stub_fixture() -> Iterator[OpenAIStub]:
    """A fresh stub per test (its failure queue and request log start empty)."""
    with OpenAIStub() as stub:
        yield stub
