"""Notes: [[key]] links, their replacement, backlinks and `papers notes`."""

from __future__ import annotations

import json

from catalog.data import notes
from catalog.paths import Paths

NOTE = """\
# Caching notes

See [[kurniawan2023evstore]] and [[lai2023adaembed|AdaEmbed's pruning]].

```
[[not2020alink]] inside a fence stays as it is
```

Again [[kurniawan2023evstore]], and [[he2021fastmoe]].
"""


def write_note(paths: Paths, name: str = "caching.md", text: str = NOTE) -> None:
    paths.notes.mkdir(parents=True, exist_ok=True)
    (paths.notes / name).write_text(text, encoding="utf-8")


def test_find_links_keeps_lines_and_skips_fences():
    links = notes.find_links(NOTE)
    assert [(link.key, link.text, link.line) for link in links] == [
        ("kurniawan2023evstore", None, 3),
        ("lai2023adaembed", "AdaEmbed's pruning", 3),
        ("kurniawan2023evstore", None, 9),
        ("he2021fastmoe", None, 9),
    ]


def test_replace_links_renders_each_link_outside_fences():
    out = notes.replace_links(NOTE, lambda link: f"<{link.key}@{link.line}>")
    assert "See <kurniawan2023evstore@3> and <lai2023adaembed@3>." in out
    assert "[[not2020alink]] inside a fence" in out
    assert "Again <kurniawan2023evstore@9>, and <he2021fastmoe@9>." in out
    # Everything else, line endings included, is untouched.
    assert out.count("\n") == NOTE.count("\n")
    assert notes.replace_links("no links here\n", lambda link: "x") == "no links here\n"


def test_backlinks_and_keys_in_order(paths):
    write_note(paths)
    write_note(paths, "moe.md", "# MoE\n\n[[he2021fastmoe]]\n")
    loaded = notes.load_notes(paths)
    assert [n.slug for n in loaded] == ["caching", "moe"]
    assert loaded[0].title == "Caching notes"
    assert loaded[0].keys == ["kurniawan2023evstore", "lai2023adaembed", "he2021fastmoe"]
    back = notes.backlinks(loaded)
    assert [n.slug for n in back["he2021fastmoe"]] == ["caching", "moe"]
    assert "not2020alink" not in back


def test_check_links_names_file_and_line(paths):
    write_note(paths, text="# X\n\nfine [[he2021fastmoe]]\nbad [[he2021fastmoee]]\n")
    problems = notes.check_links(paths, {"he2021fastmoe"})
    assert len(problems) == 1
    assert problems[0].line == 4
    assert "unknown paper 'he2021fastmoee'" in str(problems[0])
    assert "did you mean 'he2021fastmoe'" in str(problems[0])


def test_cli_notes_lists_each_note_with_its_papers(cli, paths):
    write_note(paths)
    result = cli("notes")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "caching  Caching notes"
    assert "3 papers" in lines[1]
    assert lines[2].split() == ["kurniawan2023evstore", "EVStore"]
    assert lines[3].split() == ["lai2023adaembed", "AdaEmbed"]
    assert lines[4].split() == ["he2021fastmoe", "FastMoE"]


def test_cli_notes_json_and_unknown_keys(cli, paths):
    write_note(paths, text="# X\n\n[[he2021fastmoe]] [[nobody2020none]]\n")
    result = cli("notes", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == [
        {
            "note": "caching",
            "title": "X",
            "path": data[0]["path"],
            "papers": [
                {
                    "key": "he2021fastmoe",
                    "title": "FastMoE: A Fast Mixture-of-Expert Training System",
                },
                {"key": "nobody2020none", "title": None},
            ],
        }
    ]
    assert data[0]["path"].endswith("caching.md")
    assert "(unknown paper)" in cli("notes").output


def test_cli_notes_without_notes(cli):
    result = cli("notes")
    assert result.exit_code == 0
    assert result.output == "" or "no notes" in result.output
    assert json.loads(cli("notes", "--json").output) == []


def test_links_in_html_comments_do_not_count():
    text = (
        "<!-- how to link: [[key]]\n  or [[key|text]] -->\nreal [[he2021fastmoe]]"
        " <!-- [[gone2020x]] --> and [[lai2023adaembed]]\n"
    )
    assert [(link.key, link.line) for link in notes.find_links(text)] == [
        ("he2021fastmoe", 3),
        ("lai2023adaembed", 3),
    ]
    out = notes.replace_links(text, lambda link: link.key.upper())
    assert out == (
        "<!-- how to link: [[key]]\n  or [[key|text]] -->\nreal HE2021FASTMOE"
        " <!-- [[gone2020x]] --> and LAI2023ADAEMBED\n"
    )
