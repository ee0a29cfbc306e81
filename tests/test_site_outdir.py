"""`papers site build -o DIR` empties only folders a previous build marked as its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from catalog.paths import Paths
from catalog.site import links, outdir
from tests.conftest import REPO, write_catalog


def build(cli, out: Path):
    return cli("site", "build", "-o", str(out))


def test_refuses_a_folder_with_files_it_did_not_write(cli, tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "thesis.tex").write_text("my thesis\n", encoding="utf-8")
    result = build(cli, victim)
    assert result.exit_code == 1
    assert "refusing to build the site into" in result.output
    assert "thesis.tex" in result.output and "Traceback" not in result.output
    assert (victim / "thesis.tex").read_text(encoding="utf-8") == "my thesis\n"
    assert sorted(p.name for p in victim.iterdir()) == ["thesis.tex"]


def test_refuses_a_folder_with_only_hidden_files(cli, tmp_path):
    out = tmp_path / "out"
    (out / ".git").mkdir(parents=True)
    result = build(cli, out)
    assert result.exit_code == 1 and ".git" in result.output


@pytest.mark.parametrize("where", ["data", "root", "readings", "catalog-parent"])
def test_refuses_the_catalog_and_its_folders_even_with_a_marker(cli, paths, where):
    target = {
        "data": paths.data_dir,
        "root": paths.root,
        "readings": paths.readings,
        "catalog-parent": paths.catalog.parent,
    }[where]
    target.mkdir(parents=True, exist_ok=True)
    (target / outdir.MARKER).write_text("forged\n", encoding="utf-8")
    before = sorted(p.name for p in target.iterdir())
    result = build(cli, target)
    assert result.exit_code == 1, result.output
    assert "refusing to build the site into" in result.output
    assert sorted(p.name for p in target.iterdir()) == before
    assert paths.catalog.is_file() and paths.venues.is_file() and paths.tags.is_file()


def test_refuses_the_docs_dir_and_a_file(paths, tmp_path):
    docs = tmp_path / "src" / "docs"
    docs.mkdir(parents=True)
    with pytest.raises(links.SiteError, match=r"it is .*docs"):
        outdir.check_site_dir(docs, paths, [docs])
    with pytest.raises(links.SiteError, match=r"it holds .*docs"):
        outdir.check_site_dir(tmp_path / "src", paths, [docs])
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(links.SiteError, match="is a file"):
        outdir.check_site_dir(tmp_path / "file", paths)
    outdir.check_site_dir(tmp_path / "new", paths)  # missing: fine
    (tmp_path / "empty").mkdir()
    outdir.check_site_dir(tmp_path / "empty", paths)  # empty: fine


@pytest.mark.slow
def test_a_marked_folder_is_rebuilt_and_stale_pages_go(cli, paths, tmp_path):
    out = tmp_path / "out"
    assert build(cli, out).exit_code == 0
    assert (out / outdir.MARKER).is_file()
    stale = out / "papers" / "gone2020paper"
    stale.mkdir()
    (stale / "index.html").write_text("old", encoding="utf-8")
    again = build(cli, out)
    assert again.exit_code == 0, again.output
    assert not stale.exists() and (out / outdir.MARKER).is_file()
    assert (out / "papers" / "he2021fastmoe" / "index.html").is_file()


@pytest.mark.slow
def test_plain_mkdocs_build_is_guarded_too(tmp_path):
    """`mkdocs build -d DIR` runs our hook before mkdocs empties DIR."""
    paths = write_catalog(tmp_path / "cat")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n", encoding="utf-8")
    env = {
        **os.environ,
        "PAPERS_CATALOG": str(paths.catalog),
        "PAPERS_DB": str(paths.db),
        "NO_MKDOCS_2_WARNING": "1",
    }
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-d", str(victim)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode != 0
    assert "refusing to build the site into" in run.stderr
    assert (victim / "keep.txt").read_text(encoding="utf-8") == "keep\n"


def test_never_the_repository_itself():
    paths = Paths(REPO / "data" / "papers.yaml", REPO / "build" / "catalog.db")
    for target in (REPO, REPO / "data", REPO / "site", REPO.parent):
        with pytest.raises(links.SiteError, match="refusing"):
            outdir.check_site_dir(target, paths, [REPO / "site"])


# Runs `papers site build` with an audit hook that stops the process (SIGSTOP) when it
# opens its first HTML page for writing outside the output folder, that is, in the
# build's staging folder: the test then knows the build is under way, wherever the
# machine's load puts it, and presses Ctrl-C exactly there. A test run started in the
# background inherits SIGINT ignored, so the build first takes it back as a terminal has it.
_STOP_AT_FIRST_PAGE = """
import os, runpy, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
out, note = sys.argv[1], sys.argv[2]
sys.argv = ["papers", *sys.argv[3:]]
stopped = False

def stop_at_first_page(event, args):
    global stopped
    if stopped or event != "open" or not isinstance(args[0], (str, os.PathLike)):
        return
    path, mode = os.fspath(args[0]), args[1] or ""
    if path.endswith(".html") and "w" in mode and not path.startswith(out + os.sep):
        stopped = True
        with open(note, "w", encoding="utf-8") as f:
            f.write(path)
        os.kill(os.getpid(), signal.SIGSTOP)

sys.addaudithook(stop_at_first_page)
runpy.run_module("catalog", run_name="__main__")
"""


@pytest.mark.slow
def test_ctrl_c_during_a_build_keeps_the_previous_site(cli, paths, tmp_path):
    """A build stopped half-way says so, exits 130 and leaves the last good site."""
    import signal

    out = tmp_path / "out"
    assert build(cli, out).exit_code == 0
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    note = tmp_path / "stopped-at"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PAPERS_CATALOG": str(paths.catalog),
        "PAPERS_DB": str(paths.db),
        "NO_MKDOCS_2_WARNING": "1",
    }
    command = ["site", "build", "-o", str(out)]
    proc = subprocess.Popen(
        [sys.executable, "-c", _STOP_AT_FIRST_PAGE, str(out), str(note), *command],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _, status = os.waitpid(proc.pid, os.WUNTRACED)  # until it stops itself, or ends
        assert os.WIFSTOPPED(status), f"the build ended before writing a page: {status}"
        # Stopped mid-build: a page is being written beside the output, which is untouched.
        page = Path(note.read_text(encoding="utf-8"))
        assert page.parent.is_dir() and out not in page.parents
        assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == (
            before
        )
        proc.send_signal(signal.SIGINT)  # pending until the build runs on
        proc.send_signal(signal.SIGCONT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    # The half-built folder is gone; the builds' lock file stays beside the site.
    assert [p.name for p in tmp_path.glob(".out.*")] == [".out.lock"]
    assert not page.exists()
    # And the next build replaces the site whole, leaving nothing else beside it.
    assert build(cli, out).exit_code == 0
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == [".out.lock"]


def _site(folder: Path, page: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "index.html").write_text(page, encoding="utf-8")
    return folder


def test_the_swap_is_one_exchange_and_the_old_site_goes(tmp_path):
    out = _site(tmp_path / "out", "old")
    outdir.mark_site_dir(out)
    with outdir.building(out):
        staging = outdir.staging_dir(out)
        (staging / "index.html").write_text("new", encoding="utf-8")
        outdir.mark_site_dir(staging)
        outdir.swap_in(staging, out)
    assert (out / "index.html").read_text(encoding="utf-8") == "new"
    assert not (out / outdir.STAGING_MARKER).exists() and (out / outdir.MARKER).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".out.lock", "out"]


def test_a_later_build_removes_what_killed_ones_left(tmp_path):
    out = _site(tmp_path / "out", "live")
    left = [
        _site(tmp_path / ".out.building-999999", "the site an exchange put aside"),
        _site(tmp_path / ".out.previous-999998", "the site of two renames"),
        _site(tmp_path / ".out.building-999997", "half built"),
    ]
    outdir.mark_site_dir(left[0])
    outdir.mark_site_dir(left[1])
    (left[2] / outdir.STAGING_MARKER).write_text("x", encoding="utf-8")
    mine = _site(tmp_path / ".out.building-mine", "not marked: not ours to remove")
    staging = outdir.staging_dir(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([staging.name, mine.name, "out"])


def test_a_second_build_of_one_folder_is_refused(cli, tmp_path):
    from catalog.errors import LockTimeoutError

    out = tmp_path / "out"
    with outdir.building(out):
        with pytest.raises(LockTimeoutError, match="another papers process"), outdir.building(out):
            pass
        result = build(cli, out)
    assert result.exit_code == 1, result.output
    assert "another papers process is writing it" in result.output
    assert not out.exists()
