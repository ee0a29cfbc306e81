"""`papers init` starts a catalog, `papers demo` copies the shipped one, and both work from
a wheel installed outside the checkout (issue 31, parts 1 and 5)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from catalog.cli import app
from catalog.data import reader
from catalog.data.registry import load_tags, load_venues
from catalog.paths import REQUIRED_FILES, SHIPPED, resolve
from tests.conftest import REPO

IJCAI_BIB = """\
@inproceedings{zhang2021deep,
  title = {Deep Learning for Click-Through Rate Estimation},
  author = {Zhang, Weinan and Qin, Jiarui and Guo, Wei and Tang, Ruiming and He, Xiuqiang},
  booktitle = {Proceedings of the Thirtieth International Joint Conference on
               Artificial Intelligence, {IJCAI-21}},
  pages = {4695--4703},
  year = {2021},
  doi = {10.24963/ijcai.2021/636},
}
"""


@pytest.fixture
def bare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """papers ARGS run in tmp_path, with no catalog named: as a new user types them."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAPERS_CATALOG", raising=False)
    monkeypatch.delenv("PAPERS_DB", raising=False)

    def run(*args: str):
        return CliRunner().invoke(app, list(args))

    return run


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_init_starts_a_catalog_that_check_finds_clean(bare, tmp_path: Path):
    result = bare("init", "mylist")
    assert result.exit_code == 0, result.output
    root = tmp_path / "mylist"
    for name in (*REQUIRED_FILES, "records.yaml", "authors.yaml", "protected-terms.txt"):
        assert (root / "data" / name).is_file(), name
    for name in (".gitignore", "mkdocs.yml", "site/index.md"):
        assert (root / name).is_file(), name
    assert "build/" in (root / ".gitignore").read_text().splitlines()
    assert "  - papers" in (root / "mkdocs.yml").read_text()
    assert (root / "data" / "venues.yaml").read_bytes() == (
        SHIPPED / "data/venues.yaml"
    ).read_bytes()
    assert (root / "data" / "tags.yaml").read_bytes() == (SHIPPED / "data/tags.yaml").read_bytes()
    assert (root / "data" / "papers.yaml").read_text().startswith("# papers.yaml")
    os.chdir(root)
    check = bare("check")
    assert check.exit_code == 0, check.output
    assert "no problems" in check.output


def test_init_without_a_folder_starts_the_catalog_here_and_reports_json(bare, tmp_path: Path):
    (tmp_path / "notes.txt").write_text("mine")
    result = bare("init", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["folder"] == "." and report["kept"] == []
    assert report["written"][-1] == "data/papers.yaml" and "mkdocs.yml" in report["written"]
    assert (tmp_path / "notes.txt").read_text() == "mine"
    assert bare("list").exit_code == 0


def test_outside_a_catalog_papers_says_init_starts_one(bare):
    result = bare("search", "x")
    assert result.exit_code == 1
    assert "no catalog here" in result.output and "`papers init DIR`" in result.output


def test_the_site_is_titled_by_a_plain_folder_name_only(bare, tmp_path: Path):
    import yaml

    for folder, title in (("rec-sys papers", "rec-sys papers"), ("<b>x", "papers")):
        assert bare("init", folder).exit_code == 0
        config = (tmp_path / folder / "mkdocs.yml").read_text()
        config = config.replace("!ENV", "")  # mkdocs's tag, which PyYAML does not know
        assert yaml.safe_load(config)["site_name"] == title


def test_init_refuses_a_folder_that_holds_a_catalog(bare, tmp_path: Path):
    assert bare("init", "mylist").exit_code == 0
    before = _files(tmp_path / "mylist")
    again = bare("init", "mylist")
    assert again.exit_code == 2, again.output
    assert "already holds a catalog" in again.output
    assert _files(tmp_path / "mylist") == before
    (tmp_path / "afile").write_text("x")
    assert bare("init", "afile").exit_code == 2


def test_init_empty_writes_the_registries_headers_alone(bare, tmp_path: Path):
    result = bare("init", "--empty", "blank")
    assert result.exit_code == 0, result.output
    data = tmp_path / "blank" / "data"
    assert load_venues(data / "venues.yaml") == {}
    assert load_tags(data / "tags.yaml") == {}
    assert (data / "venues.yaml").read_text().startswith("# venues.yaml")
    os.chdir(tmp_path / "blank")
    assert bare("check").exit_code == 0


def test_a_folder_missing_files_gets_one_message_and_init_adds_only_those(bare, tmp_path: Path):
    data = tmp_path / "half" / "data"
    data.mkdir(parents=True)
    own = "# my catalog\n"
    (data / "papers.yaml").write_text(own)
    (tmp_path / "half" / "mkdocs.yml").write_text("site_name: mine\n")
    os.chdir(tmp_path / "half")
    result = bare("search", "x")
    assert result.exit_code == 1
    problems = [line for line in result.output.splitlines() if line.strip()]
    assert len(problems) == 1, result.output
    assert "venues.yaml and tags.yaml" in problems[0]
    assert f"papers init {tmp_path / 'half'}" in problems[0]
    fixed = bare("init", str(tmp_path / "half"))
    assert fixed.exit_code == 0, fixed.output
    assert "kept what was there: mkdocs.yml, data/papers.yaml" in fixed.output
    assert (data / "papers.yaml").read_text() == own
    assert (tmp_path / "half" / "mkdocs.yml").read_text() == "site_name: mine\n"
    assert bare("check").exit_code == 0


def test_init_stops_before_writing_at_a_file_or_dangling_link_in_its_way(bare, tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "data").write_text("mine")
    result = bare("init", "a")
    assert result.exit_code == 2 and "is a file where papers init makes a folder" in result.output
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["data"]
    (tmp_path / "b" / "data").mkdir(parents=True)
    (tmp_path / "b" / "data" / "tags.yaml").symlink_to(tmp_path / "nowhere")
    result = bare("init", "b")
    assert result.exit_code == 2 and "which does not exist" in result.output
    assert [p.name for p in (tmp_path / "b" / "data").iterdir()] == ["tags.yaml"]


def test_a_failed_init_leaves_no_folder_behind(bare, tmp_path: Path, monkeypatch):
    monkeypatch.setattr("catalog.start.create.SHIPPED", tmp_path / "no-such-install")
    result = bare("init", "mylist")
    assert result.exit_code == 1
    assert "lacks its shipped registries" in result.output
    assert not (tmp_path / "mylist").exists()


def test_a_failed_init_in_a_folder_takes_away_only_what_it_wrote(bare, tmp_path, monkeypatch):
    half = tmp_path / "half-install"
    (half / "data").mkdir(parents=True)
    shutil.copy(SHIPPED / "data" / "venues.yaml", half / "data")  # and no tags.yaml
    monkeypatch.setattr("catalog.start.create.SHIPPED", half)
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "README.md").write_text("mine")
    result = bare("init", "repo")
    assert result.exit_code == 1, result.output
    assert [p.name for p in (tmp_path / "repo").iterdir()] == ["README.md"]


def test_a_first_import_files_ijcai_under_its_registry_name(bare, tmp_path: Path):
    assert bare("init", "mylist").exit_code == 0
    (tmp_path / "library.bib").write_text(IJCAI_BIB)
    os.chdir(tmp_path / "mylist")
    result = bare("import", str(tmp_path / "library.bib"))
    assert result.exit_code == 0, result.output
    (paper,) = reader.load(resolve(tmp_path / "mylist").catalog)
    assert (paper.venue, paper.year) == ("IJCAI", 2021)
    # the registry's entry matched: no venue was added
    assert (tmp_path / "mylist/data/venues.yaml").read_bytes() == (
        SHIPPED / "data/venues.yaml"
    ).read_bytes()
    assert bare("search", "click").output.startswith("zhang2021deep")


def test_demo_outside_any_catalog_copies_the_shipped_one(bare, tmp_path: Path):
    result = bare("demo", "tour")
    assert result.exit_code == 0, result.output
    tour = tmp_path / "tour"
    assert (tour / "data/papers.yaml").read_bytes() == (SHIPPED / "data/papers.yaml").read_bytes()
    assert (tour / "site" / "notes").is_dir() and (tour / "examples").is_dir()
    assert "  - papers" in (tour / "mkdocs.yml").read_text()


def test_a_failed_demo_leaves_no_folder_behind(bare, tmp_path: Path, monkeypatch):
    broken = tmp_path / "shipped"
    (broken / "data").mkdir(parents=True)
    (broken / "data" / "papers.yaml").write_text("2022: [unclosed\n")
    monkeypatch.setattr("catalog.commands.demo.SHIPPED", broken)
    result = bare("demo", "tour")
    assert result.exit_code == 1, result.output
    assert not (tmp_path / "tour").exists()
    (tmp_path / "empty").mkdir()
    assert bare("demo", "empty").exit_code == 1
    assert list((tmp_path / "empty").iterdir()) == []


def test_the_site_plugin_is_an_entry_point_of_the_package():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    target = project["entry-points"]["mkdocs.plugins"]["papers"]
    module, _, name = target.partition(":")
    from mkdocs.plugins import BasePlugin

    assert issubclass(getattr(__import__(module, fromlist=[name]), name), BasePlugin)


# ---------------------------------------------------------------- from a wheel

# What a wheel is built from: the package (whose catalog/shipped links to the folders
# beside it) and what pyproject.toml names.
_SOURCES = ("catalog", "data", "site", "overrides", "examples", "pyproject.toml", "README.md")


@pytest.mark.slow
def test_from_a_wheel_init_import_search_site_and_demo_work(tmp_path: Path):
    source = tmp_path / "src"
    source.mkdir()
    for name in _SOURCES:
        path = REPO / name
        ignore = shutil.ignore_patterns("__pycache__", ".*")
        if path.is_dir():
            shutil.copytree(path, source / name, symlinks=True, ignore=ignore)
        else:
            shutil.copy(path, source / name)
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", str(source), "--no-deps", "-w", str(wheels)], check=True)
    venv = tmp_path / "venv"
    # The venv sees the dependencies installed here; papers itself comes from the wheel.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    (wheel,) = wheels.glob("*.whl")
    subprocess.run([str(python), "-m", "pip", "-q", "install", "--no-deps", str(wheel)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    (home / "library.bib").write_text(IJCAI_BIB)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAPERS_")}
    env.pop("PYTHONPATH", None)

    def papers(*args: str, cwd: Path) -> str:
        run = subprocess.run(
            [str(venv / "bin" / "papers"), *args], cwd=cwd, env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, f"papers {' '.join(args)}:\n{run.stdout}{run.stderr}"
        return run.stdout

    where = subprocess.run(
        [str(python), "-c", "import catalog; print(catalog.__file__)"],
        cwd=home,
        env=env,
        capture_output=True,
        text=True,
    )
    assert where.stdout.startswith(str(venv)), where.stdout
    papers("init", "mylist", cwd=home)
    mylist = home / "mylist"
    assert "IJCAI 2021" in papers("import", "../library.bib", cwd=mylist)
    assert papers("search", "click", cwd=mylist).startswith("zhang2021deep")
    assert "built" in papers("site", "build", cwd=mylist)
    site = mylist / "build" / "site"
    for asset in (
        "javascripts/papers.js",
        "stylesheets/extra.css",
        "assets/javascripts/papers-search-setup.js",
    ):
        assert (site / asset).is_file(), asset
    assert (site / "papers" / "zhang2021deep" / "index.html").is_file()
    # the site as plain sources builds with mkdocs alone: the plugin's theme and assets
    # came along as files, and the plugin is not named
    papers("site", "sources", "-o", "build/src", cwd=mylist)
    assert "- papers\n" not in (mylist / "build/src/mkdocs.yml").read_text()
    plain = subprocess.run(
        [str(python), "-m", "mkdocs", "build", "-q", "-f", "build/src/mkdocs.yml"],
        cwd=mylist,
        env=env,
        capture_output=True,
        text=True,
    )
    assert plain.returncode == 0, plain.stderr
    built = mylist / "build" / "src" / "site"
    assert (built / "javascripts" / "papers.js").is_file()
    assert (built / "assets" / "javascripts" / "papers-search-setup.js").is_file()
    assert "papers" in papers("demo", "tour", cwd=home)
    assert "built" in papers("site", "build", cwd=home / "tour")
