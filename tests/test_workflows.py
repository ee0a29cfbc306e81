"""The GitHub workflows are valid (check-jsonschema's copy of GitHub's workflow schema), and
the tests workflow runs what CI runs."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import yaml

from tests.conftest import REPO, require

WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))


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
