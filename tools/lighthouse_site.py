"""Lighthouse on the built site, served compressed as a host would serve it.

    python tools/lighthouse_site.py                 # build the shipped catalog's site, then run
    python tools/lighthouse_site.py --site build/site --runs 3

Serves the site folder on 127.0.0.1 with gzip (Content-Encoding) for text files and
a ten-minute cache lifetime, as GitHub Pages does, and runs npm's Lighthouse (mobile,
its default: simulated slow 4G and a 4x slower CPU) with Debian's Chromium on one
page of each type: home, All papers, a paper, an author, a tag. Prints each page's
score per category and its paint and blocking figures, the median of --runs runs.

Lighthouse comes from npm, never committed: `npm install --prefix build/npm
lighthouse@12.8.2` (version 13 wants Node 22); Chromium from Debian (CHROME_PATH,
default /usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import ClassVar

REPO = Path(__file__).resolve().parent.parent
LIGHTHOUSE = REPO / "build" / "npm" / "node_modules" / ".bin" / "lighthouse"
PAGES = {
    "home": "",
    "all papers": "papers/",
    "paper": "papers/xie2022fleche/",
    "author": "authors/zh/",
    "tag": "tags/caching/",
}
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = (
    ("first-contentful-paint", "FCP s", 1000),
    ("largest-contentful-paint", "LCP s", 1000),
    ("total-blocking-time", "TBT ms", 1),
    ("cumulative-layout-shift", "CLS", 1),
)
_TEXT = (".html", ".css", ".js", ".json", ".xml", ".svg", ".txt", ".bib", ".ris")


class _Compressed(http.server.SimpleHTTPRequestHandler):
    """Static files, text ones gzip-compressed when the client accepts it."""

    cache: ClassVar[dict[Path, bytes]] = {}  # compressed once per run, as a host caches

    def log_message(self, format: str, *args: object) -> None:
        pass

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        gzip_ok = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (gzip_ok and path.is_file() and path.suffix in _TEXT):
            return super().send_head()
        if not self.path.split("?")[0].endswith("/") and path.name == "index.html":
            return super().send_head()  # the redirect to the folder's address
        body = self.cache.get(path)
        if body is None:
            body = self.cache[path] = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(folder: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(_Compressed, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def build(out: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.setdefault("PAPERS_CATALOG", str(REPO / "data" / "papers.yaml"))
    env.setdefault("PAPERS_DB", str(out.parent / "catalog.db"))
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=REPO,
        env=env,
        check=True,
    )


def lighthouse(url: str, report: Path) -> dict[str, float]:
    """One Lighthouse run: each category's score (0-100) and the paint figures."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            f"--only-categories={','.join(CATEGORIES)}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ],
        env=env,
        check=True,
        timeout=300,
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    out = {name: round(100 * (data["categories"][name]["score"] or 0)) for name in CATEGORIES}
    for audit, label, unit in METRICS:
        out[label] = data["audits"][audit]["numericValue"] / unit
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median)")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"no {LIGHTHOUSE}: npm install --prefix build/npm lighthouse@12.8.2")
    with tempfile.TemporaryDirectory(prefix="papers-lighthouse-") as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build(site)
        server, base = serve(site)
        try:
            print(f"{'page':12}" + "".join(f"{c[:13]:>15}" for c in CATEGORIES), end="")
            print("".join(f"{label:>9}" for _, label, _ in METRICS))
            for name, path in PAGES.items():
                runs = [
                    lighthouse(base + path, Path(tmp) / f"report-{i}.json")
                    for i in range(args.runs)
                ]
                median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                print(f"{name:12}" + "".join(f"{median[c]:>15.0f}" for c in CATEGORIES), end="")
                print("".join(f"{median[label]:>9.2f}" for _, label, _ in METRICS))
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
