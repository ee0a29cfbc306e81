"""Attacks that carry script, LaTeX or terminal controls through a field."""

from __future__ import annotations

from pathlib import Path

from attacklib import (
    TERMINAL_CONTROLS,
    add_paper,
    added,
    build_site,
    case,
    first_key,
    imported,
    live_script,
    papers,
    project,
    traceback,
)

# ------------------------------------------------------------------ injection


@case("6", "a title with --> <script> through the reading-note template")
def xss_through_note_template(tmp: Path) -> str | None:
    root = project(tmp)
    title = 'Evil --><script>alert("xss1")</script><!-- x'
    run = added(root, title, "--key", "mallory2023evil")
    if run.code != 0:
        return None if not traceback(run) else traceback(run)  # refused at the door: held
    note = papers(root, "note", "mallory2023evil", env={"EDITOR": "true", "VISUAL": "true"})
    if traceback(note):
        return traceback(note)
    built, site = build_site(root)
    if built.code != 0:
        return traceback(built) or f"site build failed: {built.err[-120:]}"
    return live_script(site)


@case("7", "add --url javascript:alert(1)")
def javascript_url_by_add(tmp: Path) -> str | None:
    root = project(tmp)
    for url in (
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        " JavaScript:alert(1)",
    ):
        run = added(root, "Links", "--url", url, "--key", "mallory2023links")
        if run.code == 0 or traceback(run):
            return traceback(run) or f"accepted url {url!r}"
    return None


@case("7", "a .bib url javascript: imported, then the site built")
def javascript_url_by_import(tmp: Path) -> str | None:
    root = project(tmp)
    run = imported(
        root,
        tmp / "evil.bib",
        "@inproceedings{mallory2023links,\n  title = {Links everywhere},\n"
        "  author = {Mallory, Eve},\n  booktitle = {OSDI},\n  year = {2023},\n"
        "  url = {javascript:alert(1)}\n}\n",
    )
    if traceback(run):
        return traceback(run)
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    if "javascript:" in text:
        return "the javascript: url was stored"
    return None


@case("7-8", "hand-edited javascript: url and <img onerror> status on the site")
def hand_edit_on_site(tmp: Path) -> str | None:
    root = project(tmp)
    add_paper(
        root,
        '    - key: mallory2023hand\n      title: "Hand"\n'
        '      authors: [Eve Mallory]\n      url: "javascript:alert(1)"\n'
        '      status: "<img src=x onerror=alert(2)>"\n',
    )
    built, site = build_site(root)
    if traceback(built):
        return traceback(built)
    if built.code != 0:
        return None  # refused to publish it: held
    return live_script(site)


@case("8", "a tag like $\\frac{1}{$ in the chart build")
def mathtext_tag(tmp: Path) -> str | None:
    root = project(tmp)
    key = first_key(root)
    tags = root / "data" / "tags.yaml"
    tags.write_text(tags.read_text(encoding="utf-8") + '"$\\\\frac{1}{$": math\n', encoding="utf-8")
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    text = text.replace(f"key: {key}\n", f"key: {key}\n      # x\n", 1)
    (root / "data" / "papers.yaml").write_text(text, encoding="utf-8")
    run = papers(root, "tag", key, "-t", "$\\frac{1}{$")
    if traceback(run):
        return traceback(run)
    built, _ = build_site(root)
    return traceback(built) or (None if built.code == 0 else f"build failed: {built.err[-100:]}")


@case("9", "add --doi '10.1234/\\input{/some/file}', and the same by hand edit then export")
def latex_injection(tmp: Path) -> str | None:
    root = project(tmp)
    run = added(
        root, "Inject", "--doi", "10.1234/\\input{/etc/hostname}", "--key", "mallory2023inject"
    )
    if run.code == 0 or traceback(run):
        return traceback(run) or "the DOI was accepted"
    add_paper(
        root,
        '    - key: mallory2023hand\n      title: "Hand"\n'
        '      authors: [Eve Mallory]\n      doi: "10.1234/\\\\input{/etc/hostname}"\n'
        '      url: "https://x.org/\\\\input{/etc/hostname}"\n',
    )
    export = papers(root, "export", "key:mallory2023hand")
    if traceback(export):
        return traceback(export)
    return "\\input{ reached the .bib" if "\\input{" in export.out else None


@case("10", "ESC/OSC and NUL in a title, shown in the terminal")
def controls_in_terminal(tmp: Path) -> str | None:
    root = project(tmp)
    add_paper(
        root,
        "    - key: mallory2023esc\n"
        '      title: "Esc \\e]8;;https://evil\\a link \\e[2J\\0 end"\n'
        '      authors: ["Eve \\e[31mMallory"]\n',
    )
    for args in (("show", "mallory2023esc"), ("search", "Esc"), ("list",), ("check",)):
        run = papers(root, *args)
        if traceback(run):
            return traceback(run)
        if TERMINAL_CONTROLS.search(run.out + run.err):
            return f"`papers {' '.join(args)}` printed a control character"
    return None


@case("10", "control characters from a .bib into the catalog and reading notes")
def controls_from_bib(tmp: Path) -> str | None:
    root = project(tmp)
    run = imported(
        root,
        tmp / "esc.bib",
        "@article{mallory2023esc,\n  title = {Esc \x1b]8;;https://evil\x07 link"
        " \x1b[2J end},\n  author = {Mallory, Eve\x00},\n"
        "  journal = {Proceedings of the VLDB Endowment},\n  year = {2023}\n}\n",
    )
    if traceback(run):
        return traceback(run)
    if TERMINAL_CONTROLS.search((root / "data" / "papers.yaml").read_text(encoding="utf-8")):
        return "a control character reached papers.yaml"
    for note in (
        (root / "data" / "readings").glob("*.md") if (root / "data" / "readings").exists() else []
    ):
        if TERMINAL_CONTROLS.search(note.read_text(encoding="utf-8")):
            return f"a control character reached {note.name}"
    return None


@case("11", "papers note on a hand-edited key ../../../x or an absolute path")
def note_path_traversal(tmp: Path) -> str | None:
    for key in ("../../../escaped", "/tmp/papers-attack-escaped"):
        root = project(tmp / key.strip("./").replace("/", "_"))
        add_paper(
            root, f'    - key: "{key}"\n      title: "Traversal"\n      authors: [Eve Mallory]\n'
        )
        run = papers(root, "note", key, env={"EDITOR": "true", "VISUAL": "true"})
        outside = [
            p
            for p in (tmp.parent / "escaped.md", Path(key + ".md"), root.parent / "escaped.md")
            if p.exists()
        ]
        if outside:
            for p in outside:
                p.unlink()
            return f"wrote {outside[0]}"
        if traceback(run):
            return traceback(run)
        if run.code == 0:
            return f"exit 0 for key {key!r}"
    return None
