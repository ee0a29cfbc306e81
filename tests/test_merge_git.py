"""The merge driver under real `git merge`: two curators' everyday edits on the frozen
seed catalog merge with no conflict, `papers check` is clean after each, and a real
conflict is marked inside the one paper's block."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalog.cli import app
from catalog.data import reader
from catalog.paths import Paths
from tests.conftest import REPO

Edit = Callable[[Path], None]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}  # git runs this checkout's driver
# Each test runs `git merge` with the driver as a process of its own, a few seconds each.
pytestmark = pytest.mark.slow

NEW_A = """\
    - key: aaron2023alpha
      title: "Alpha: A Test Paper Added on Our Side"
      authors: [Ann Aaron]
      doi: 10.1234/alpha.1
      tags: [embedding]
"""
NEW_B = """\
    - key: zed2023zeta
      title: "Zeta: A Test Paper Added on Their Side"
      authors: [Zoe Zed]
      doi: 10.1234/zeta.1
      tags: [caching]
"""


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, env=ENV, check=check
    )


class Repo:
    """A git repository holding a copy of the seed catalog, set up with the driver."""

    def __init__(self, paths: Paths):
        self.paths = paths
        self.root = paths.root
        git(self.root, "init", "-q", "-b", "main")
        git(self.root, "config", "user.email", "t@example.org")
        git(self.root, "config", "user.name", "T")
        (self.root / ".gitignore").write_text("build/\n", encoding="utf-8")
        paths.authors.unlink()  # the whole catalog's people, most of them on no seed paper
        result = self.papers("git", "setup")
        assert result.exit_code == 0, result.output
        assert ".gitattributes: data/papers.yaml merge=papers" in result.output
        again = self.papers("git", "setup")  # writes nothing twice
        assert again.exit_code == 0 and "nothing written" in again.output
        driver = f"{sys.executable} -m catalog merge-driver %O %A %B %P"
        git(self.root, "config", "merge.papers.driver", driver)
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "seed")

    def papers(self, *args: str):
        return CliRunner().invoke(
            app, ["--catalog", str(self.paths.catalog), "--db", str(self.paths.db), *args]
        )

    def branch(self, name: str, *edits: Edit) -> None:
        git(self.root, "checkout", "-q", "-b", name, "main")
        for edit in edits:
            edit(self.root / "data")
        git(self.root, "commit", "-q", "-am", name)

    def merge(
        self, ours: Edit | list[Edit], theirs: Edit | list[Edit]
    ) -> subprocess.CompletedProcess[str]:
        self.branch("ours", *(ours if isinstance(ours, list) else [ours]))
        self.branch("theirs", *(theirs if isinstance(theirs, list) else [theirs]))
        git(self.root, "checkout", "-q", "ours")
        return git(self.root, "merge", "--no-edit", "theirs", check=False)

    def text(self, name: str = "papers.yaml") -> str:
        return (self.root / "data" / name).read_text(encoding="utf-8")

    def clean(self, done: subprocess.CompletedProcess[str]) -> dict:
        """Assert a merge with no conflict and a clean check; the papers by key."""
        assert done.returncode == 0, done.stdout + done.stderr
        assert "<<<<<<<" not in self.text()
        checked = self.papers("check")
        assert checked.exit_code == 0, checked.output
        return {p.key: p for p in reader.load(self.paths.catalog)}


def replace(name: str, old: str, new: str, count: int = 1) -> Edit:
    def edit(data: Path) -> None:
        path = data / name
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, count), encoding="utf-8")

    return edit


def after(key: str, block: str) -> Edit:
    """A paper block inserted right after the block of paper `key` (as a person would)."""

    def edit(data: Path) -> None:
        path = data / "papers.yaml"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        start = next(i for i, ln in enumerate(lines) if ln.strip() == f"- key: {key}")
        end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("      "))
        lines[end:end] = [block]
        path.write_text("".join(lines), encoding="utf-8")

    return edit


@pytest.fixture
def repo(shipped: Paths) -> Repo:
    return Repo(shipped)


EVSTORE_TAGS = "embedding, caching, storage, inference"
EVSTORE_SUMMARY = 'summary: "Adds a three-layer caching system'


def test_two_papers_added_under_one_venue(repo: Repo):
    papers = repo.clean(repo.merge(after("ye2023grace", NEW_A), after("ye2023grace", NEW_B)))
    assert papers["aaron2023alpha"].venue == papers["zed2023zeta"].venue == "ASPLOS"
    assert len(papers) == 27


def test_different_tags_added_to_one_paper(repo: Repo):
    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    theirs = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, memory]")
    papers = repo.clean(repo.merge(ours, theirs))
    assert papers["kurniawan2023evstore"].tags[-2:] == ["gpu", "memory"]


def test_same_new_paper_on_both_sides(repo: Repo):
    ours, theirs = after("kurniawan2023evstore", NEW_A), after("ye2023grace", NEW_A)
    papers = repo.clean(repo.merge(ours, theirs))
    assert "aaron2023alpha" in papers and len(papers) == 26
    assert repo.text().count("aaron2023alpha") == 1


def test_same_new_paper_under_two_keys_is_one(repo: Repo):
    other = NEW_A.replace("aaron2023alpha", "aaron2023testpaper").replace(
        "[embedding]", "[training]"
    )
    papers = repo.clean(repo.merge(after("ye2023grace", NEW_A), after("ye2023grace", other)))
    assert "aaron2023testpaper" not in papers
    assert papers["aaron2023alpha"].tags == ["embedding", "training"]


def test_tag_and_summary_on_close_lines(repo: Repo):
    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    theirs = replace(
        "papers.yaml", EVSTORE_SUMMARY, 'summary: "Builds a three-layer caching system'
    )
    papers = repo.clean(repo.merge(ours, theirs))
    paper = papers["kurniawan2023evstore"]
    assert "gpu" in paper.tags and paper.summary and paper.summary.startswith("Builds")


FLEXSHARD = 'arxiv: "2301.02959"'


def _publish(data: Path) -> None:
    """sethi2023flexshard moved from arXiv to its published venue, with its DOI."""
    path = data / "papers.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    - key: sethi2023flexshard")
    end = text.index("2022:\n")
    block = text[start:end].replace(FLEXSHARD, f"doi: 10.1234/flexshard\n      {FLEXSHARD}")
    text = text[:start].replace("  arXiv:\n", "") + text[end:]
    text = text.replace("  MLSys:\n", "  MLSys:\n" + block, 1)
    path.write_text(text, encoding="utf-8")


def test_move_to_published_venue_and_a_tag(repo: Repo):
    old = "tags: [embedding, sharding, communication, training]"
    ours = replace("papers.yaml", old, old.replace("]", ", gpu]"))
    papers = repo.clean(repo.merge(ours, _publish))
    paper = papers["sethi2023flexshard"]
    assert (paper.venue, paper.doi) == ("MLSys", "10.1234/flexshard")
    assert paper.tags[-1] == "gpu"


def test_rename_and_a_tag(repo: Repo):
    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    theirs = replace("papers.yaml", "key: kurniawan2023evstore", "key: kurniawan2023storage")
    papers = repo.clean(repo.merge(ours, theirs))
    assert "kurniawan2023evstore" not in papers
    assert "gpu" in papers["kurniawan2023storage"].tags


def test_one_field_changed_two_ways_conflicts_in_its_block(repo: Repo):
    ours = replace("papers.yaml", EVSTORE_SUMMARY, 'summary: "Ours: a three-layer caching system')
    theirs = replace(
        "papers.yaml", EVSTORE_SUMMARY, 'summary: "Theirs: a three-layer caching system'
    )
    done = repo.merge(
        [ours, after("zhao2023recd", NEW_A)], [theirs, after("lai2023adaembed", NEW_B)]
    )
    assert done.returncode != 0
    text = repo.text()
    assert text.count("<<<<<<<") == 1
    lines = text.splitlines()
    start, end = lines.index("<<<<<<< ours"), lines.index(">>>>>>> theirs")
    assert end - start == 4  # only the summary line, each way
    assert "Ours:" in lines[start + 1] and "Theirs:" in lines[start + 3]
    assert "aaron2023alpha" in text and "zed2023zeta" in text  # the rest merged


def test_deleted_on_one_side_changed_on_the_other(repo: Repo):
    def delete(data: Path) -> None:
        path = data / "papers.yaml"
        text = path.read_text(encoding="utf-8")
        start = text.index("    - key: ye2023grace")
        end = text.index("  MLSys:\n")
        path.write_text(text[:start] + text[end:], encoding="utf-8")

    theirs = replace(
        "papers.yaml", "tags: [embedding, graph, caching, inference]", "tags: [embedding, graph]"
    )
    done = repo.merge(delete, theirs)
    assert done.returncode != 0
    text = repo.text()
    assert "<<<<<<< ours\n=======\n    - key: ye2023grace" in text
    assert text.count("<<<<<<<") == 1


def test_deleted_on_one_side_untouched_on_the_other(repo: Repo):
    def delete(data: Path) -> None:
        path = data / "papers.yaml"
        text = path.read_text(encoding="utf-8")
        start = text.index("    - key: ye2023grace")
        end = text.index("  MLSys:\n")
        path.write_text(text[:start] + text[end:], encoding="utf-8")

    theirs = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    papers = repo.clean(repo.merge(theirs, delete))
    assert "ye2023grace" not in papers and "gpu" in papers["kurniawan2023evstore"].tags


def test_two_new_venues_and_tags_in_the_registries(repo: Repo):
    venue_a = "ZZA:\n  kind: workshop\n  name: Workshop A\n"
    venue_b = "ZZB:\n  kind: workshop\n  name: Workshop B\n"

    def add(name: str, line: str) -> Edit:
        def edit(data: Path) -> None:
            with open(data / name, "a", encoding="utf-8") as handle:
                handle.write(line)

        return edit

    ours = [add("venues.yaml", venue_a), add("tags.yaml", "aa-test: Ours\n")]
    theirs = [add("venues.yaml", venue_b), add("tags.yaml", "zz-test: Theirs\n")]
    repo.clean(repo.merge(ours, theirs))
    venues, vocabulary = repo.text("venues.yaml"), repo.text("tags.yaml")
    assert "Workshop A" in venues and "Workshop B" in venues
    assert "aa-test" in vocabulary and "zz-test" in vocabulary


def test_reading_state_on_both_sides(repo: Repo):
    assert repo.papers("status", "ye2023grace", "reading").exit_code == 0
    git(repo.root, "add", "-A")
    git(repo.root, "commit", "-q", "-m", "reading")
    ours = replace("reading.yaml", "ye2023grace: {status: reading", "ye2023grace: {status: read")

    def theirs(data: Path) -> None:
        with open(data / "reading.yaml", "a", encoding="utf-8") as handle:
            handle.write("  zhao2023recd: {status: reading}\n")

    repo.clean(repo.merge(ours, theirs))
    text = repo.text("reading.yaml")
    assert "ye2023grace: {status: read" in text and "zhao2023recd: {status: reading}" in text


def test_unreadable_version_falls_back_to_line_merge(repo: Repo):
    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu")
    theirs = replace("papers.yaml", "key: zhao2023recd", "key: zhao2023recd2")
    done = repo.merge(ours, theirs)
    assert "line by line" in done.stdout + done.stderr


def _drop_grace(data: Path) -> None:
    path = data / "papers.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("    - key: ye2023grace")
    end = text.index("  MLSys:\n")
    path.write_text(text[:start] + text[end:], encoding="utf-8")


def test_changed_on_our_side_deleted_on_theirs(repo: Repo):
    grace = "tags: [embedding, graph, caching, inference]"
    done = repo.merge(replace("papers.yaml", grace, "tags: [embedding, graph]"), _drop_grace)
    assert done.returncode != 0
    text = repo.text()
    assert text.count("<<<<<<<") == 1
    assert "<<<<<<< ours\n    - key: ye2023grace" in text
    assert "tags: [embedding, graph]\n" in text and "=======\n>>>>>>> theirs\n  MLSys:" in text


def test_a_new_host_and_a_paper_citing_it_on_one_side(repo: Repo):
    host = "example-records.org:\n  kind: publisher\n  note: A test publisher\n"
    source = NEW_B.replace(
        "tags: [caching]", "sources: [https://example-records.org/zeta]\n      tags: [caching]"
    )

    def add_host(data: Path) -> None:
        with open(data / "records.yaml", "a", encoding="utf-8") as handle:
            handle.write(host)

    papers = repo.clean(
        repo.merge(after("ye2023grace", NEW_A), [add_host, after("zhao2023recd", source)])
    )
    assert papers["zed2023zeta"].sources == ["https://example-records.org/zeta"]


def test_two_venues_added_at_one_place_in_the_registry(repo: Repo):
    def before_first(entry: str) -> Edit:
        def edit(data: Path) -> None:
            path = data / "venues.yaml"
            lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            at = next(i for i, ln in enumerate(lines) if ln[:1].isalpha())
            lines[at:at] = [entry]
            path.write_text("".join(lines), encoding="utf-8")

        return edit

    ours = before_first("AAA:\n  kind: workshop\n  name: Workshop A\n\n")
    theirs = before_first("AAB:\n  kind: workshop\n  name: Workshop B\n\n")
    repo.clean(repo.merge(ours, theirs))
    venues = repo.text("venues.yaml")
    assert venues.index("Workshop A") < venues.index("Workshop B")


def test_a_comment_on_one_side_and_a_tag_on_the_other(repo: Repo):
    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    theirs = replace(
        "papers.yaml",
        "    - key: ye2023grace\n",
        "    # Read in the group.\n    - key: ye2023grace\n",
    )
    repo.clean(repo.merge(ours, theirs))
    assert "    # Read in the group.\n    - key: ye2023grace\n" in repo.text()


def test_the_same_tag_added_on_both_sides_and_a_paper_removed_on_both(repo: Repo):
    tag = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    papers = repo.clean(repo.merge([tag, _drop_grace], [tag, _drop_grace]))
    assert papers["kurniawan2023evstore"].tags.count("gpu") == 1 and "ye2023grace" not in papers


def test_new_tags_used_by_new_papers_on_both_sides(repo: Repo):
    def vocabulary(line: str) -> Edit:
        def edit(data: Path) -> None:
            with open(data / "tags.yaml", "a", encoding="utf-8") as handle:
                handle.write(line)

        return edit

    ours = [
        vocabulary("aa-test: Ours\n"),
        after("ye2023grace", NEW_A.replace("[embedding]", "[aa-test]")),
    ]
    theirs = [
        vocabulary("zz-test: Theirs\n"),
        after("ye2023grace", NEW_B.replace("[caching]", "[zz-test]")),
    ]
    papers = repo.clean(repo.merge(ours, theirs))
    assert papers["aaron2023alpha"].tags == ["aa-test"] and papers["zed2023zeta"].tags == [
        "zz-test"
    ]


def test_papers_reordered_on_one_side_tagged_on_the_other(repo: Repo):
    def swap(data: Path) -> None:
        """ye2023grace above kurniawan2023evstore, as a hand edit may leave them."""
        path = data / "papers.yaml"
        text = path.read_text(encoding="utf-8")
        first = text.index("    - key: kurniawan2023evstore")
        second = text.index("    - key: ye2023grace")
        end = text.index("  MLSys:\n")
        text = text[:first] + text[second:end] + text[first:second] + text[end:]
        path.write_text(text, encoding="utf-8")

    ours = replace("papers.yaml", f"tags: [{EVSTORE_TAGS}]", f"tags: [{EVSTORE_TAGS}, gpu]")
    papers = repo.clean(repo.merge(swap, ours))
    assert "gpu" in papers["kurniawan2023evstore"].tags
    assert repo.text().index("ye2023grace") < repo.text().index("kurniawan2023evstore")


def test_registry_reordered_on_one_side_a_venue_added_on_the_other(repo: Repo):
    def reorder(data: Path) -> None:
        path = data / "tags.yaml"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        entries = [ln for ln in lines if ln[:1].isalpha()]
        head = [ln for ln in lines if not ln[:1].isalpha()]
        path.write_text("".join(head + entries[::-1]), encoding="utf-8")

    def add(data: Path) -> None:
        with open(data / "tags.yaml", "a", encoding="utf-8") as handle:
            handle.write("zz-test: Ours\n")

    repo.clean(repo.merge(reorder, add))
    assert "zz-test: Ours" in repo.text("tags.yaml")
