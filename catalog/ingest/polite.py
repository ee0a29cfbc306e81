"""Politeness toward the metadata services: each host asked at most once per its pace."""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx

# When each host was last asked by a request the cache did not answer (time.monotonic()).
last_request: dict[str, float] = {}


class PacedTransport(httpx.BaseTransport):
    """Waits before a request until its host's pace has passed since the last one (the
    HTTP cache sits above it, so a reply the cache gives is never delayed)."""

    def __init__(self, inner: httpx.BaseTransport, pace: Callable[[str], float]):
        self.inner = inner
        self.pace = pace

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.netloc.decode("ascii", "replace")
        wait = last_request.get(host, float("-inf")) + self.pace(host) - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        try:
            return self.inner.handle_request(request)
        finally:
            last_request[host] = time.monotonic()

    def close(self) -> None:
        self.inner.close()
