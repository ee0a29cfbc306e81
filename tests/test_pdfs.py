"""The reader's PDFs (issue 22, 3): open, attach, pdf; a loopback server plays arXiv."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from catalog.ingest import pdfs
from catalog.paths import Paths

PDF = b"%PDF-1.7\n" + b"0" * 5000 + b"\n%%EOF\n"


@dataclass
class Server:
    """What the loopback server answers per path: (status, content type, body, delay)."""

    base: str = ""
    replies: dict[str, tuple[int, str, bytes, float]] = field(default_factory=dict)
    requests: list[str] = field(default_factory=list)


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    state = Server()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests.append(self.path)
            if self.path.startswith("/moved"):
                self.send_response(302)
                self.send_header("Location", "/arxiv/pdf/2103.13262")
                self.end_headers()
                return
            code, kind, body, delay = state.replies.get(self.path, (404, "text/plain", b"", 0))
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for start in range(0, len(body), 1000):  # a chunk at a time, slowly if asked
                time.sleep(delay)
                self.wfile.write(body[start : start + 1000])

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    state.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    monkeypatch.setenv("PAPERS_ARXIV_PDF_URL", state.base + "/arxiv")
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()


ARXIV_PATH = "/arxiv/pdf/2103.13262"  # he2021fastmoe's arXiv id


def test_pdf_downloads_from_arxiv_into_the_readers_folder(cli, paths: Paths, server: Server):
    server.replies[ARXIV_PATH] = (200, "application/pdf", PDF, 0)
    before = paths.catalog.read_bytes()
    result = cli("pdf", "he2021fastmoe")
    assert result.exit_code == 0, result.output
    kept = paths.pdfs / "he2021fastmoe.pdf"
    assert kept.read_bytes() == PDF
    assert (paths.pdfs / ".gitignore").read_text().endswith("\n*\n")  # out of git
    assert paths.catalog.read_bytes() == before
    shown = cli("show", "he2021fastmoe").stdout
    assert f"pdf:     {kept}" in shown
    assert cli("open", "he2021fastmoe", "--print").stdout == f"{kept}\n"
    again = cli("pdf", "he2021fastmoe", "--json")  # kept already: no second download
    assert json.loads(again.stdout)["already_kept"] == ["he2021fastmoe"]
    assert server.requests == [ARXIV_PATH]


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ((200, "text/html", b"<html>captcha</html>", 0), "sent text/html, not a PDF"),
        ((200, "application/pdf", b"<html>not really</html>", 0), "not a PDF"),
        ((404, "text/plain", b"", 0), "answered HTTP 404"),
    ],
)
def test_what_is_not_a_pdf_is_not_kept(cli, paths: Paths, server: Server, reply, message):
    server.replies[ARXIV_PATH] = reply
    result = cli("pdf", "he2021fastmoe")
    assert result.exit_code == 1 and message in result.output
    assert not (paths.pdfs / "he2021fastmoe.pdf").exists()
    assert not list(paths.pdfs.glob(".*.tmp")) if paths.pdfs.exists() else True


def test_a_download_has_a_size_cap_and_a_deadline(
    cli, paths: Paths, server: Server, monkeypatch: pytest.MonkeyPatch
):
    server.replies[ARXIV_PATH] = (200, "application/pdf", PDF, 0)
    monkeypatch.setattr(pdfs, "MAX_PDF", 2000)
    capped = cli("pdf", "he2021fastmoe")
    assert capped.exit_code == 1 and "more than the 0 MiB cap" in capped.output
    monkeypatch.setattr(pdfs, "MAX_PDF", 1 << 20)
    server.replies[ARXIV_PATH] = (200, "application/pdf", PDF, 0.2)
    monkeypatch.setattr(pdfs, "DEADLINE", 0.3)
    slow = cli("pdf", "he2021fastmoe")
    assert slow.exit_code == 1 and "took too long" in slow.output
    assert not (paths.pdfs / "he2021fastmoe.pdf").exists()


def test_pdf_all_follows_a_redirect_and_tries_a_pdf_url_after_arxiv(
    cli, paths: Paths, server: Server
):
    text = paths.catalog.read_text(encoding="utf-8").replace(
        "https://www.usenix.org/conference/osdi23/presentation/lai",
        f"{server.base}/moved/lai.pdf",
    )
    paths.catalog.write_text(text, encoding="utf-8")  # lai's url: a PDF, moved
    server.replies[ARXIV_PATH] = (200, "application/pdf; charset=binary", PDF, 0)
    result = cli("pdf", "--all", "--json")
    assert result.exit_code == 0, result.output
    assert sorted(json.loads(result.stdout)["downloaded"]) == ["he2021fastmoe", "lai2023adaembed"]
    assert (paths.pdfs / "lai2023adaembed.pdf").read_bytes() == PDF
    assert cli("pdf").exit_code == 2 and cli("pdf", "--all", "he2021fastmoe").exit_code == 2


def test_pdf_without_an_open_access_source_says_what_to_do(cli, server: Server):
    result = cli("pdf", "kurniawan2023evstore")
    assert result.exit_code == 1 and "papers attach KEY FILE" in result.output


def test_attach_keeps_only_pdfs_and_never_replaces_another_silently(
    cli, paths: Paths, tmp_path: Path
):
    mine, other, text = tmp_path / "mine.pdf", tmp_path / "other.pdf", tmp_path / "notes.pdf"
    mine.write_bytes(PDF)
    other.write_bytes(PDF.replace(b"0", b"1"))
    text.write_text("just text\n")
    refused = cli("attach", "lai2023adaembed", str(text))
    assert refused.exit_code == 1 and "not a PDF" in refused.output
    assert not paths.pdfs.exists()
    assert cli("attach", "lai2023adaembed", str(mine)).exit_code == 0
    kept = paths.pdfs / "lai2023adaembed.pdf"
    assert kept.read_bytes() == PDF
    same = cli("attach", "lai2023adaembed", str(mine))
    assert same.exit_code == 0 and "already kept" in same.output
    different = cli("attach", "lai2023adaembed", str(other))
    assert different.exit_code == 1 and "--replace" in different.output
    assert kept.read_bytes() == PDF
    assert cli("attach", "lai2023adaembed", str(other), "--replace").exit_code == 0
    assert kept.read_bytes() == other.read_bytes()
    assert cli("attach", "nosuch2020key", str(mine)).exit_code == 1
    missing = cli("attach", "lai2023adaembed", str(tmp_path / "missing.pdf"))
    assert missing.exit_code == 1 and "no such file" in missing.output
    folder = cli("attach", "lai2023adaembed", str(tmp_path))
    assert folder.exit_code == 1 and "is a folder, not a PDF file" in folder.output


def test_attach_says_what_a_special_file_is_and_refuses_a_huge_one(cli, paths, tmp_path):
    import os

    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)  # opened without a writer: a wait that would never end
    sparse = tmp_path / "huge.pdf"
    with open(sparse, "wb") as handle:
        handle.write(PDF)
        handle.truncate(2 << 30)  # 2 GiB that take no room, and no time to check
    for source, said in (
        (fifo, "is a named pipe (FIFO), not a PDF file"),
        (Path("/dev/zero"), "is a device, not a PDF file"),
        (sparse, "is 2.0 GiB, more than the 1 GiB papers keeps of one file"),
    ):
        result = cli("attach", "lai2023adaembed", str(source))
        assert result.exit_code == 1 and said in result.output, result.output
        assert "no such file" not in result.output
    assert not paths.pdfs.exists()


def test_open_takes_the_best_public_link(cli, paths: Paths, monkeypatch: pytest.MonkeyPatch):
    def link(key: str) -> str:
        return cli("open", key, "--print").stdout.strip()

    assert link("he2021fastmoe") == "https://arxiv.org/abs/2103.13262"
    assert link("kurniawan2023evstore") == "https://doi.org/10.1145/3575693.3575718"
    assert link("lai2023adaembed") == "https://www.usenix.org/conference/osdi23/presentation/lai"
    opened: list[str] = []
    monkeypatch.setattr("typer.launch", lambda target: opened.append(target) or 0)
    assert cli("open", "he2021fastmoe").exit_code == 0
    assert opened == ["https://arxiv.org/abs/2103.13262"]
    # A hand edit's file: or other scheme is never handed to the system opener.
    text = paths.catalog.read_text(encoding="utf-8").replace(
        "https://www.usenix.org/conference/osdi23/presentation/lai", "file:///etc/passwd.pdf"
    )
    paths.catalog.write_text(text, encoding="utf-8")
    nothing = cli("open", "lai2023adaembed")
    assert nothing.exit_code == 1 and "no PDF and no web link" in nothing.output
    assert opened == ["https://arxiv.org/abs/2103.13262"]


def test_a_pdf_path_is_never_outside_the_folder(paths: Paths):
    with pytest.raises(pdfs.PdfError):
        pdfs.pdf_path(paths, "../../etc/passwd")


def test_a_different_pdf_that_appears_during_a_download_is_kept(
    paths: Paths, monkeypatch: pytest.MonkeyPatch
):
    """Another program's PDF, put in place while papers downloads, is never replaced."""
    from catalog.index import query
    from catalog.index.database import connect

    theirs = PDF.replace(b"0", b"1")
    target = pdfs.pdf_path(paths, "he2021fastmoe")

    def get(url: str, sink, *args: object) -> str:
        target.write_bytes(theirs)  # written by someone else meanwhile
        sink(PDF)
        return "application/pdf"

    monkeypatch.setattr(pdfs, "_http_get", get)
    paper = next(p for p in query.all_papers(connect(paths)) if p.key == "he2021fastmoe")
    with pytest.raises(pdfs.PdfError, match="a different PDF appeared"):
        pdfs.download(paths, paper)
    assert target.read_bytes() == theirs
    assert sorted(p.name for p in target.parent.iterdir()) == [".gitignore", target.name]
