"""The one HTTP client of the metadata services (httpx): a GET within a deadline and a
size cap, redirects followed within the service's host only, a 429 waited out as its
Retry-After asks, and, within politely(), one paced and cached client for a whole run.

Base URLs come from PAPERS_CROSSREF_URL, PAPERS_ARXIV_URL, PAPERS_DBLP_URL and
PAPERS_DOI_URL so tests can serve the services' real reply formats from a loopback server.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from catalog.errors import CatalogError
from catalog.model import strip_controls

SERVICES = {
    "crossref": ("PAPERS_CROSSREF_URL", "https://api.crossref.org"),
    "arxiv": ("PAPERS_ARXIV_URL", "https://export.arxiv.org"),
    "dblp": ("PAPERS_DBLP_URL", "https://dblp.org"),
    "doi": ("PAPERS_DOI_URL", "https://doi.org"),  # the DOI handle API: where a DOI leads
    "arxiv-pdf": ("PAPERS_ARXIV_PDF_URL", "https://arxiv.org"),
}
TIMEOUT = 20.0
USER_AGENT = "papers-catalog/0.1 (curated paper catalog; python-httpx)"
# Who to tell when papers misbehaves (an email or a URL): the services ask for it in the
# User-Agent (Crossref's 'polite pool' wants a mailto).
CONTACT_ENV = "PAPERS_CONTACT"
# Seconds between two requests to one service that the cache did not answer, as each asks:
# arXiv's API terms one request every three seconds; DBLP and Crossref ask for restraint.
PACE = {"arxiv": 3.0, "crossref": 1.0, "dblp": 1.0, "doi": 0.5}
PACE_OTHER = 1.0  # any other host (a paper's landing page)
# Waits a 429 or 503 reply may ask for (Retry-After) that papers honours; a longer one
# ends the request.
MAX_RETRY_AFTER = 30.0
RETRY_DEFAULT = 5.0  # when a 429 does not say how long
RETRIES = 2
# Every request ends within this many seconds, whatever the server does (a server that
# sends a byte at a time keeps each read short), and reads at most so many bytes.
DEADLINE = 60.0
MAX_REPLY = 16 << 20
MAX_REDIRECTS = 5
CACHE_MAX = 256 << 20  # bytes the HTTP cache of politely() keeps at most


class FetchError(CatalogError):
    """A metadata service could not be reached or gave no usable answer."""


class NoRecordError(FetchError):
    """The service answered, and has no record of what was asked (HTTP 404)."""


class UnreachableError(FetchError):
    """No connection to a service at all (no network, no such host, refused)."""

    def __init__(self, message: str, host: str, reason: str):
        super().__init__(message)
        self.host = host
        self.reason = reason


def base_url(service: str) -> str:
    """The base URL of a service, from its environment variable or the public default."""
    env, default = SERVICES[service]
    return os.environ.get(env, default).rstrip("/")


def user_agent() -> str:
    """USER_AGENT with the contact of PAPERS_CONTACT, when set."""
    contact = strip_controls(os.environ.get(CONTACT_ENV, "")).strip()
    if not contact:
        return USER_AGENT
    if "@" in contact and not contact.startswith("mailto:"):
        contact = "mailto:" + contact
    return USER_AGENT[:-1] + "; " + contact.replace(")", "") + ")"


@dataclass
class _Polite:
    """What politely() holds: the HTTP cache's folder (None: no cache), how long an entry
    serves, and the one client of the run (connections kept open between requests)."""

    cache: Path | None
    ttl: float
    client: Any = None


_polite: _Polite | None = None  # outside politely() (one `papers add`): unpaced, uncached


@contextlib.contextmanager
def politely(cache: Path | None, ttl: float) -> Iterator[None]:
    """While held, each host is asked at most once per its pace (PACE), and GET replies
    come from an HTTP cache (hishel, SQLite in the folder cache) kept ttl seconds, so a
    bulk run asked twice does not ask the services twice."""
    global _polite
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    before, _polite = _polite, _Polite(cache, ttl)
    try:
        yield
    finally:
        if _polite.client is not None:
            _polite.client.close()
        _polite = before


def _pace_of(host: str) -> float:
    """The pace of the service at host (the slowest, if several share it)."""
    paces = [s for name, s in PACE.items() if urlsplit(base_url(name)).netloc == host]
    return max(paces, default=PACE_OTHER)


def _client() -> Any:
    """A client to use in a with block: a new one, or within politely() the run's own."""
    import httpx

    if _polite is None:
        return httpx.Client(timeout=TIMEOUT, headers={"User-Agent": user_agent()})
    if _polite.client is None:
        _polite.client = _polite_client(_polite)
    return contextlib.nullcontext(_polite.client)


def _polite_client(polite: _Polite) -> Any:
    """An httpx client whose requests are paced per host, under hishel's cache."""
    import httpx

    from catalog.ingest.polite import PacedTransport

    transport: httpx.BaseTransport = PacedTransport(httpx.HTTPTransport(), _pace_of)
    if polite.cache is not None:
        from hishel import SqliteStorage
        from hishel.httpx import CacheTransport

        storage = SqliteStorage(
            database_path=polite.cache / "http-cache.db",
            default_ttl=polite.ttl,
            max_size=CACHE_MAX,
        )
        transport = CacheTransport(next_transport=transport, storage=storage)
    return httpx.Client(timeout=TIMEOUT, headers={"User-Agent": user_agent()}, transport=transport)


def retry_after(value: str | None) -> float | None:
    """The seconds a Retry-After header asks to wait (a number or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    from email.utils import parsedate_to_datetime

    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    import datetime as dt

    if when.tzinfo is None:
        return None
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


def get(
    service: str, label: str, path: str, params: dict[str, Any] | None = None, what: str = ""
) -> Any:
    """A service's reply to one GET, read whole (httpx.Response): redirects followed only
    within the service's own host, the whole exchange within DEADLINE seconds and
    MAX_REPLY bytes; FetchError says what went wrong."""
    response = fetch(base_url(service) + path, label, params)
    if response.status_code == 404:
        raise NoRecordError(f"{label} has no record of {what or path}")
    if response.status_code != 200:
        raise FetchError(
            f"{label} answered HTTP {response.status_code} for {what or path}; "
            "try again later, or add the paper with papers add --bibtex FILE"
        )
    return response


def fetch(url: str, label: str, params: dict[str, Any] | None = None) -> Any:
    """The reply to a GET of url, whatever its status, read whole: redirects followed within
    its host, a 429 (or 503) waited out as its Retry-After asks when that is short."""
    import httpx

    host = urlsplit(url).netloc
    deadline = time.monotonic() + DEADLINE
    retries = RETRIES
    try:
        with _client() as client:
            for _ in range(MAX_REDIRECTS + RETRIES + 1):
                response = _read(client, url, params, deadline, label)
                if response.status_code in (429, 503) and retries:
                    retries -= 1
                    _wait(response, label, deadline)
                    continue
                if not response.is_redirect:
                    break
                location = response.headers.get("location", "")
                target = str(response.request.url.join(location))
                if urlsplit(target).netloc != host:
                    raise FetchError(
                        f"{label} sent papers to another host ({urlsplit(target).netloc or '?'}); "
                        "papers follows redirects only within the service"
                    )
                url, params = target, None
            else:
                raise FetchError(
                    f"{label} redirected more than {MAX_REDIRECTS} times; try again later"
                )
    except httpx.InvalidURL as err:  # httpx reads a Location header before papers can
        raise FetchError(bad_redirect(label, err)) from None
    except (httpx.TransportError, OSError) as err:
        raise UnreachableError(
            f"cannot reach {label} at {host} ({type(err).__name__}: {err}); "
            "no network? Add the paper from its BibTeX entry instead: "
            "papers add --bibtex FILE",
            host,
            f"{type(err).__name__}: {err}",
        ) from None
    return response


def bad_redirect(label: str, err: Exception) -> str:
    """What to say when a reply redirects to an address that is not a web address
    ('Location: javascript:...'), which httpx refuses as it reads the reply."""
    return (
        f"{label} redirected papers to an address that is not a web address ({err}); "
        "papers follows redirects to http(s) pages only"
    )


def _wait(response: Any, label: str, deadline: float) -> None:
    """Sleep as long as a 429 or 503 reply's Retry-After asks (RETRY_DEFAULT when it does
    not say), or raise FetchError when that is longer than papers waits."""
    asked = retry_after(response.headers.get("retry-after"))
    wait = RETRY_DEFAULT if asked is None else asked
    if wait > MAX_RETRY_AFTER or time.monotonic() + wait > deadline:
        raise FetchError(
            f"{label} asks papers to wait {wait:.0f} s (HTTP {response.status_code}); "
            "try again later"
        )
    time.sleep(wait)


def _read(client: Any, url: str, params: dict[str, Any] | None, deadline: float, label: str) -> Any:
    """One response, its body read within the deadline and the size cap."""
    import httpx

    with client.stream("GET", url, params=params) as response:
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > MAX_REPLY:
                raise FetchError(f"{label} sent more than {MAX_REPLY >> 20} MiB; not a record")
            if time.monotonic() > deadline:
                raise FetchError(
                    f"{label} took longer than {DEADLINE:.0f} s to answer; try again later"
                )
        return httpx.Response(
            response.status_code,
            headers=response.headers,
            content=bytes(body),
            request=response.request,
        )


# ---------------------------------------------------------------- links


@dataclass
class Probe:
    """What a link answers: its status, and for a redirect where it sends."""

    status: int
    location: str | None = None


def probe(url: str) -> Probe:
    """One GET of a link, redirects not followed and the body not read (a landing page
    need not be downloaded to know it is there)."""
    import httpx

    try:
        host = urlsplit(url).netloc
        with _client() as client, client.stream("GET", url) as response:
            location = None
            if response.is_redirect:
                location = str(response.request.url.join(response.headers.get("location", "")))
            return Probe(response.status_code, location)
    except (httpx.TransportError, OSError) as err:
        raise UnreachableError(
            f"cannot reach {host} ({type(err).__name__}: {err})", host, f"{type(err).__name__}"
        ) from None
    except (httpx.InvalidURL, httpx.UnsupportedProtocol, ValueError) as err:
        raise FetchError(f"cannot ask {url[:80]!r}: {err}") from None
