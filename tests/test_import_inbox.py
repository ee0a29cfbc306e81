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


# A table row giving a system's name and a link, no title (awesome-Auto-Parallelism's shape)
NAMES = """\
| Name | Description | Organization | Paper | Framework | Year |
|---|---|---|---|---|---|
| MadePlace(REINFORCE) | made-up placement by a learned policy | Example Lab | [mlr.press](https://proceedings.example.org/v70/made.pdf) | Tensorflow | PMLR 70, 2017 |
| MadePipe | made-up pipelining | Example Corp | [arxiv](https://arxiv.org/abs/2399.00030) | None | 2023 on arxiv |
"""


def test_a_row_giving_only_a_name_is_filed_with_no_title(paths: Paths, tmp_path: Path) -> None:
    source = write(tmp_path, NAMES)
    report = importer.import_file(paths, source)
    assert report.count("inbox") == 2
    candidates = inbox.load(paths)
    assert [(c.title, c.nickname, c.year) for c in candidates] == [
        (None, "MadePlace(REINFORCE)", 2017),
        (None, "MadePipe", 2023),
    ]
    assert candidates[0].id == inbox.candidate_id("MadePlace(REINFORCE)", 2017)  # as before
    raw = yaml.safe_load(inbox.inbox_path(paths).read_text(encoding="utf-8"))
    assert not any("title" in record for record in raw.values())
    before = inbox.inbox_path(paths).read_bytes()
    again = importer.import_file(paths, source)
    assert again.count("inbox") == 2 and all(
        o.reason.startswith("already in the inbox") for o in again.outcomes
    )
    assert inbox.inbox_path(paths).read_bytes() == before  # a re-import adds nothing


def test_a_name_only_candidate_is_listed_searched_and_ranked_as_a_name(
    cli, paths: Paths, tmp_path: Path
) -> None:
    importer.import_file(paths, write(tmp_path, NAMES))
    listed = cli("inbox")
    assert listed.exit_code == 0, listed.output
    assert "MadePlace(REINFORCE) (name only) [2017]" in listed.stdout
    found = json.loads(cli("inbox", "madepipe", "--json").stdout)
    assert [(c["title"], c["nickname"]) for c in found] == [(None, "MadePipe")]
    suggested = cli("suggest", "--json")
    assert suggested.exit_code == 0, suggested.output
    ranked = {r["name"]: r for r in json.loads(suggested.stdout)["ranked"]}
    assert set(ranked) == {"MadePlace(REINFORCE)", "MadePipe"}
    assert all(r["title"] is None and r["inbox_id"] for r in ranked.values())
    shown = cli("suggest")
    assert shown.exit_code == 0 and "MadePipe (name only)" in shown.stdout
    dropped = cli("inbox", "drop", found[0]["id"])
    assert dropped.exit_code == 0 and "MadePipe (name only)" in dropped.stdout


def test_fetch_fills_a_name_only_candidates_title_from_the_record(
    paths: Paths, tmp_path: Path, online: Online
) -> None:
    source = write(tmp_path, NAMES)
    importer.import_file(paths, source)
    online.arxiv["2399.00030"] = atom_entry(
        "2399.00030", "MadePipe: A Made-Up Pipeline", ["Eve Fay"], "2023-03-01T00:00:00Z"
    )
    report = importer.import_file(paths, source, fetch=True)
    assert report.count("added") == 1 and len(report.promoted) == 1, report.outcomes
    added = [p for p in reader.load(paths.catalog) if p.arxiv == "2399.00030"]
    assert [p.title for p in added] == ["MadePipe: A Made-Up Pipeline"]
    assert [c.nickname for c in inbox.load(paths)] == ["MadePlace(REINFORCE)"]


def test_an_old_inbox_giving_the_name_as_title_still_reads(paths: Paths, tmp_path: Path) -> None:
    # inboxes written before name-only candidates had no title: title == nickname
    ident = inbox.candidate_id("MadePlace(REINFORCE)", 2017)
    old = (
        f"{ident}:\n  title: MadePlace(REINFORCE)\n  nickname: MadePlace(REINFORCE)\n"
        "  year: 2017\n  url: https://proceedings.example.org/v70/made.pdf\n"
        "  source: list.md:3\n  added: '2026-01-01'\n"
    )
    inbox.inbox_path(paths).write_text(old, encoding="utf-8")
    [candidate] = inbox.load(paths)
    assert (candidate.title, candidate.nickname, candidate.label) == (
        None,
        "MadePlace(REINFORCE)",
        "MadePlace(REINFORCE) (name only)",
    )
    report = importer.import_file(paths, write(tmp_path, NAMES))
    assert next(c.id for c in inbox.load(paths)) == ident  # the old entry, not a new one
    assert report.outcomes[0].reason.startswith(f"already in the inbox as {ident}")


def test_an_entry_with_neither_title_nor_name_is_refused_with_the_fix(paths: Paths) -> None:
    inbox.inbox_path(paths).write_text("abcd1234:\n  year: 2017\n", encoding="utf-8")
    try:
        inbox.load(paths)
    except inbox.InboxError as err:
        assert "inbox.yaml:1: entry abcd1234 has neither a title nor a nickname" in str(err)
        assert "{title: ..., venue: ..., year: ...}" in str(err)
    else:
        raise AssertionError("an entry with neither a title nor a name was read")


def test_name_only_candidates_of_two_branches_merge(tmp_path: Path) -> None:
    from catalog.merge.keyedmerge import merge_keyed

    base = "# inbox\n"
    ours = tmp_path / "inbox.yaml"
    ours.write_text(base + "aaaa1111:\n  nickname: MadePlace\n  year: 2017\n", encoding="utf-8")
    theirs = base + "bbbb2222:\n  nickname: MadePipe\n  year: 2023\n"
    text, conflicts = merge_keyed(base, ours, theirs, "data/inbox.yaml")
    assert conflicts == []
    assert [(c.id, c.title, c.nickname) for c in inbox.parse(text, "inbox.yaml")[0]] == [
        ("aaaa1111", None, "MadePlace"),
        ("bbbb2222", None, "MadePipe"),
    ]
