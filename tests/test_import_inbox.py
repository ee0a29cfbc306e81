"""The inbox: list entries that cannot be papers yet are filed, listed, promoted, dropped."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import yaml

from catalog.data import reader
from catalog.ingest import importer, inbox
from catalog.paths import Paths
from tests.test_fetch import Online, atom_entry, online  # noqa: F401 (fixture)

LIST = """\
## OSDI 2023

- [Quokka: Sharding Tables Nobody Has Heard Of](https://example.org/quokka.pdf)
- [Wombat: Another Made-Up Serving System](https://arxiv.org/abs/2399.00002)
- [AdaEmbed: Adaptive Embedding for Large-Scale Recommendation Models](https://x.org/ada)
- [Quokka: Sharding Tables Nobody Has Heard Of](https://example.org/again.pdf)
"""


def write(folder: Path, text: str, name: str = "list.md") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_entries_without_authors_are_filed_once_with_their_source(
    cli, paths: Paths, tmp_path: Path
) -> None:
    before = paths.catalog.read_bytes()
    result = cli("import", str(write(tmp_path, LIST)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["inbox"], data["duplicate"], data["added"], data["refused"]) == (3, 1, 0, 0)
    assert paths.catalog.read_bytes() == before  # the catalog itself is untouched
    candidates = inbox.load(paths)
    assert [(c.title, c.venue, c.year) for c in candidates] == [
        ("Quokka: Sharding Tables Nobody Has Heard Of", "OSDI", 2023),
        ("Wombat: Another Made-Up Serving System", "OSDI", 2023),
    ]
    assert candidates[0].source.endswith("list.md:3")
    assert candidates[1].arxiv == "2399.00002"
    # The fourth line is the first again: one candidate, and the outcome says where it is.
    repeat = next(o for o in data["outcomes"] if o["line"] == 6)
    assert repeat["action"] == "inbox" and repeat["reason"].startswith(
        f"already in the inbox as {candidates[0].id}"
    )
    raw = yaml.safe_load(inbox.inbox_path(paths).read_text(encoding="utf-8"))
    assert set(raw) == {c.id for c in candidates}  # the file is plain YAML, keyed by id
    again = json.loads(cli("import", str(write(tmp_path, LIST)), "--json").stdout)
    assert again["inbox"] == 3 and len(inbox.load(paths)) == 2  # importing twice adds none


def test_a_dry_run_files_nothing(paths: Paths, tmp_path: Path) -> None:
    report = importer.import_file(paths, write(tmp_path, LIST), dry_run=True)
    assert report.count("inbox") == 3
    assert "would file 3 in the inbox" in report.summary()
    assert not inbox.inbox_path(paths).exists()


def test_inbox_lists_searches_and_drops(cli, paths: Paths, tmp_path: Path) -> None:
    cli("import", str(write(tmp_path, LIST)))
    listed = cli("inbox")
    assert listed.exit_code == 0
    assert "Quokka: Sharding Tables Nobody Has Heard Of [OSDI 2023]" in listed.stdout
    assert "arXiv:2399.00002" in listed.stdout and "2 in the inbox" in listed.output
    found = json.loads(cli("inbox", "wombat", "--json").stdout)
    assert [c["title"] for c in found] == ["Wombat: Another Made-Up Serving System"]
    dropped = cli("inbox", "drop", found[0]["id"][:5])
    assert dropped.exit_code == 0 and "dropped" in dropped.stdout
    assert [c.title for c in inbox.load(paths)] == ["Quokka: Sharding Tables Nobody Has Heard Of"]
    unknown = cli("inbox", "drop", "ffffffff")
    assert unknown.exit_code == 1 and "no candidate with id 'ffffffff'" in unknown.output


def test_adding_the_paper_promotes_it_out_of_the_inbox(cli, paths: Paths, tmp_path: Path) -> None:
    cli("import", str(write(tmp_path, LIST)))
    bib = write(
        tmp_path,
        "@inproceedings{quokka2023, title = {Quokka: Sharding Tables "
        "Nobody Has Heard Of}, author = {Ann Bee and Cy Dee}, year = 2023, "
        "booktitle = {OSDI}}\n",
        "quokka.bib",
    )
    result = cli("add", "--bibtex", str(bib), "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["promoted_from_inbox"]) == 1
    assert [c.title for c in inbox.load(paths)] == ["Wombat: Another Made-Up Serving System"]
    assert any(p.key == "quokka2023" for p in reader.load(paths.catalog))


def test_import_fetch_promotes_what_it_finds_and_keeps_the_rest(
    paths: Paths, tmp_path: Path, online: Online
) -> None:
    importer.import_file(paths, write(tmp_path, LIST))
    online.arxiv["2399.00002"] = atom_entry(
        "2399.00002", "Wombat: Another Made-Up Serving System", ["Eve Fay"], "2023-03-01T00:00:00Z"
    )
    report = importer.import_file(paths, write(tmp_path, LIST), fetch=True)
    assert report.count("added") == 1 and report.count("inbox") == 2
    assert [c.title for c in inbox.load(paths)] == ["Quokka: Sharding Tables Nobody Has Heard Of"]


def test_offline_fetch_files_in_the_inbox_instead_of_failing(
    paths: Paths, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("PAPERS_ARXIV_URL", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("PAPERS_DBLP_URL", "http://127.0.0.1:9")
    report = importer.import_file(paths, write(tmp_path, LIST), fetch=True)
    assert report.count("inbox") == 3
    assert all("cannot reach" in o.reason for o in report.outcomes if o.action == "inbox")


def test_every_line_of_a_list_is_accounted_for(paths: Paths, tmp_path: Path) -> None:
    # 'Paper 100' and 'Paper 101' are under 92% alike: two papers to the duplicate finder
    text = "# A list\n\n" + "".join(
        f"- [Paper {i:03d}](https://x.org/{i}) OSDI 2023\n" for i in range(200)
    )
    report = importer.import_file(paths, write(tmp_path, text))
    lines = {o.line for o in report.outcomes} | set(report.skipped_lines)
    assert lines == set(range(3, 203))  # the heading and blank line are not entries
    assert report.count("inbox") == 200 and len(inbox.load(paths)) == 200


def test_import_json_prints_an_error_object_on_failure(cli, tmp_path: Path) -> None:
    notes = write(tmp_path, "just prose\nmore prose\n", "notes.md")
    result = cli("import", str(notes), "--json")
    assert result.exit_code == 1
    error = json.loads(result.stdout)
    assert "no papers found" in error["error"] and error["exit_code"] == 1
    missing = cli("import", str(tmp_path / "nothing.bib"), "--json")
    assert missing.exit_code == 1 and "error" in json.loads(missing.stdout)


def test_a_dropped_candidate_is_not_filed_again(cli, paths: Paths, tmp_path: Path) -> None:
    lst = write(tmp_path, LIST)
    cli("import", str(lst))
    wombat = inbox.search(inbox.load(paths), ["wombat"])[0]
    assert cli("inbox", "drop", wombat.id).exit_code == 0
    again = json.loads(cli("import", str(lst), "--json").stdout)
    refused = [o for o in again["outcomes"] if o["action"] == "refused"]
    assert [o["key"] for o in refused] == [wombat.id]
    assert "dropped from the inbox earlier" in refused[0]["reason"]
    assert [c.title for c in inbox.load(paths)] == ["Quokka: Sharding Tables Nobody Has Heard Of"]
