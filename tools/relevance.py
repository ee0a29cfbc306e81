"""Precision@10 of search on the relevance set (tests/data/relevance.yaml), side by side:
`papers search`, and with --site the site's All-papers Words box and its search dialog
(the shipped catalog's site, built and driven in headless Chromium).

    python tools/relevance.py           # the CLI alone
    python tools/relevance.py --site    # the CLI, the All-papers box and the dialog

precision@10: the share of the first ten results (of all, when fewer come) that the
set lists for the query; recall@10: the share of the set's papers (at most ten) among
them. The All-papers box ranks as the CLI does: beside its precision the table says
whether it shows the same papers as the CLI, all of them, in the same order ("=CLI").
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from catalog.index import database, query  # noqa: E402
from catalog.paths import resolve  # noqa: E402

RELEVANCE = REPO / "tests" / "data" / "relevance.yaml"
K = 10
CHROMIUM = Path("/usr/bin/chromium")


def load() -> dict[str, list[str]]:
    """The relevance set: each query and the papers expected on top."""
    return yaml.safe_load(RELEVANCE.read_text(encoding="utf-8"))


def precision(found: list[str], relevant: list[str], k: int = K) -> float:
    """Share of the first k results (of all, when fewer) that are relevant; 0 for none."""
    top = found[:k]
    return len(set(top) & set(relevant)) / len(top) if top else 0.0


def recall(found: list[str], relevant: list[str], k: int = K) -> float:
    """Share of the relevant papers (at most k of them) among the first k results."""
    return len(set(found[:k]) & set(relevant)) / min(k, len(relevant))


def cli_rankings(catalog: Path, db: Path, limit: int | None = K) -> dict[str, list[str]]:
    """Each query's keys as `papers search` ranks them (with its prefix retry)."""
    conn = database.connect(resolve(catalog, db))
    out = {}
    try:
        for text in load():
            hits = query.search(conn, text, limit)
            wider = query.prefix_query(text) if not hits else None
            hits = hits or (query.search(conn, wider, limit) if wider else hits)
            out[text] = [h.paper.key for h in hits]
    finally:
        conn.close()
    return out


def build_shipped_site(folder: Path) -> subprocess.CompletedProcess[str]:
    """The shipped catalog's site, built into folder/site by `mkdocs build --strict`."""
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(REPO / "data" / "papers.yaml"),
        "PAPERS_DB": str(folder / "catalog.db"),
        "NO_MKDOCS_2_WARNING": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(folder / "site")],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """A built site served on a free local port, as its address."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def served_site(folder: Path) -> Iterator[str]:
    """The shipped catalog's site, built into folder and served on a free local port."""
    run = build_shipped_site(folder)
    if run.returncode:
        raise RuntimeError(run.stdout + run.stderr)
    with serve(folder / "site") as url:
        yield url


def typed_search(page: Any, text: str) -> tuple[str, list[str]]:
    """Type a query into the header's search box as a reader would, once the results of
    the last query are gone and until the new ones settle: what the results say they
    found ("12 matching documents") and the links of the results, in order."""
    box = page.locator("input.md-search__input")
    icon = page.locator("label.md-header__button[for=__search]")
    if icon.is_visible():  # on a phone the box opens from the header's icon
        icon.click()
    else:
        box.click()
    box.fill("")
    meta = page.locator(".md-search-result__meta")
    for _ in range(40):  # the last query's results gone
        if not meta.inner_text().endswith(("documents", "document")):
            break
        page.wait_for_timeout(50)
    box.press_sequentially(text, delay=15)
    seen, same = "", 0
    for _ in range(120):  # results follow each key typed: wait until they settle
        page.wait_for_timeout(150)
        now = meta.inner_text()
        same = same + 1 if now == seen and now.endswith(("documents", "document")) else 0
        seen = now
        if same == 4:
            break
    links = page.locator(".md-search-result__item > .md-search-result__link")
    return seen, [links.nth(i).get_attribute("href") or "" for i in range(links.count())]


def dialog_results(page: Any, text: str) -> list[str]:
    """The pages the search dialog lists for a query typed as a reader types it, in
    order: a paper page as its key, any other page as its address (a page's sections
    with it)."""
    _, hrefs = typed_search(page, text)
    # A page and its sections are one result to the reader (the dialog lists them as one
    # item): a paper's page is its key, any other page its address without the
    # highlight and the section.
    pages = [
        h.split("/papers/")[1].split("/")[0] if "/papers/" in h else h.split("?")[0].split("#")[0]
        for h in hrefs
    ]
    return list(dict.fromkeys(pages))


def box_results(page: Any, text: str, titles: dict[str, str]) -> list[str]:
    """The papers the All-papers Words box shows for a query, in the order shown."""
    box = page.locator("form.pp-form").get_by_label("Words", exact=True)
    box.fill(text)
    count = page.locator("#pp-count").inner_text()
    total = int(count.split()[0]) if count[:1].isdigit() else 0
    entries = page.locator("#pp-all > li.pp-entry")
    while entries.count() < total:  # every entry, not only the first batch
        page.locator("#pp-all > li.pp-more").scroll_into_view_if_needed()
        page.wait_for_timeout(50)
    shown = page.locator("#pp-all > li.pp-entry a.pp-title").all_inner_texts()
    return [titles[t] for t in shown]


def site_rankings(browser: Any, base: str) -> dict[str, dict[str, list[str]]]:
    """Each query's results in the All-papers box ("box") and the dialog ("dialog")."""
    from catalog.data import reader

    titles = {p.title: p.key for p in reader.load(REPO / "data" / "papers.yaml")}
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    out: dict[str, dict[str, list[str]]] = {"box": {}, "dialog": {}}
    try:
        page = context.new_page()
        page.goto(base + "papers/")
        page.mouse.move(5, 5)  # a reader's first move brings the filters and their data
        page.mouse.move(20, 20)
        for text in load():
            out["box"][text] = box_results(page, text, titles)
        page.goto(base)
        for text in load():
            out["dialog"][text] = dialog_results(page, text)
    finally:
        context.close()
    return out


def measure(site: bool) -> list[dict[str, Any]]:
    """Per query: the CLI's, and with site the box's and dialog's, P@10 and R@10, and
    whether the box shows the papers the CLI finds (all of them, not the first ten)."""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "catalog.db"
        cli = cli_rankings(REPO / "data" / "papers.yaml", db)
        every = cli_rankings(REPO / "data" / "papers.yaml", db, None)
        pages = None
        if site:
            from playwright.sync_api import sync_playwright

            with served_site(Path(folder)) as base, sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
                )
                try:
                    pages = site_rankings(browser, base)
                finally:
                    browser.close()
    rows = []
    for text, relevant in load().items():
        row: dict[str, Any] = {
            "query": text,
            "cli": (precision(cli[text], relevant), recall(cli[text], relevant)),
        }
        if pages:
            box, dialog = pages["box"][text], pages["dialog"][text]
            row["box"] = (precision(box, relevant), recall(box, relevant))
            row["same"] = box == every[text]
            row["dialog"] = (precision(dialog, relevant), recall(dialog, relevant))
        rows.append(row)
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a table, with the means below."""
    site = "dialog" in rows[0]
    head = f"{'query':38} {'CLI P@10':>8} {'R@10':>5}"
    if site:
        head += f" {'box P@10':>8} {'=CLI':>5} {'dialog P@10':>11} {'R@10':>5}"
    lines = [head]
    for r in rows:
        line = f"{r['query']:38} {r['cli'][0]:8.2f} {r['cli'][1]:5.2f}"
        if site:
            line += f" {r['box'][0]:8.2f} {'yes' if r['same'] else 'NO':>5}"
            line += f" {r['dialog'][0]:11.2f} {r['dialog'][1]:5.2f}"
        lines.append(line)
    n = len(rows)

    def mean(name: str, i: int) -> float:
        return sum(r[name][i] for r in rows) / n

    last = f"{'mean of ' + str(n) + ' queries':38} {mean('cli', 0):8.3f} {mean('cli', 1):5.3f}"
    if site:
        same = sum(r["same"] for r in rows)
        last += f" {mean('box', 0):8.3f} {same:>2}/{n} {mean('dialog', 0):11.3f}"
        last += f" {mean('dialog', 1):5.3f}"
    return "\n".join([*lines, last])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="store_true", help="the site too (Chromium)")
    print(table(measure(parser.parse_args().site)))


if __name__ == "__main__":
    main()
