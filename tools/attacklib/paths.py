"""Attacks on the user's files and paths: --db, -o, symlinks, two catalogs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from attacklib import (
    REPO,
    TRACEBACK,
    case,
    first_key,
    papers,
    project,
    snapshot,
    traceback,
)

# ------------------------------------------------------------------ data loss


@case("1", "--db names the catalog itself")
def db_is_the_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root / "data")
    run = papers(root, "--db", "data/papers.yaml", "search", "embedding")
    if snapshot(root / "data") != before:
        return "data/papers.yaml was replaced"
    return traceback(run) or (None if run.code != 0 else "exit 0 with a foreign --db")


@case("1", "PAPERS_DB names a user's file (thesis.tex, venues.yaml)")
def db_env_is_a_users_file(tmp: Path) -> str | None:
    root = project(tmp)
    (root / "thesis.tex").write_text("\\documentclass{article}\n", encoding="utf-8")
    for target in ("thesis.tex", "data/venues.yaml"):
        before = (root / target).read_bytes()
        run = papers(root, "list", env={"PAPERS_DB": target})
        if (root / target).read_bytes() != before:
            return f"{target} was replaced"
        if traceback(run) or run.code == 0:
            return traceback(run) or f"exit 0 with PAPERS_DB={target}"
    return None


@case("2", "site build -o data/ (the catalog's folder)")
def site_into_data(tmp: Path) -> str | None:
    root = project(tmp)
    before = snapshot(root / "data")
    run = papers(root, "site", "build", "-o", "data", timeout=300)
    if snapshot(root / "data") != before:
        return "files in data/ were deleted or changed"
    return traceback(run) or (None if run.code != 0 else "exit 0 building into data/")


@case("2", "site build -o a folder holding the user's thesis.tex")
def site_into_users_folder(tmp: Path) -> str | None:
    root = project(tmp)
    victim = root / "victim"
    victim.mkdir()
    (victim / "thesis.tex").write_text("mine\n", encoding="utf-8")
    run = papers(root, "site", "build", "-o", "victim/", timeout=300)
    if not (victim / "thesis.tex").exists():
        return "victim/thesis.tex was deleted"
    return traceback(run) or (None if run.code != 0 else "exit 0 building over thesis.tex")


@case("3", "tag on a symlinked catalog")
def symlinked_catalog(tmp: Path) -> str | None:
    root = project(tmp)
    store = tmp / "store"
    store.mkdir()
    shutil.move(root / "data" / "papers.yaml", store / "papers.yaml")
    (root / "data" / "papers.yaml").symlink_to(Path("..", "..", "store", "papers.yaml"))
    key = first_key(root, store / "papers.yaml")
    run = papers(root, "tag", key, "-t", "gpu")
    if not (root / "data" / "papers.yaml").is_symlink():
        return "the link became a regular file"
    text = (store / "papers.yaml").read_text(encoding="utf-8")
    block = text[text.index(f"key: {key}") :].split("- key:")[0]
    if "gpu" not in block:
        return "the link's target never got the tag"
    return traceback(run) or (None if run.code == 0 else f"exit {run.code}: {run.err[:80]}")


@case("4", "two catalogs in one folder, ten `tag --new` each at once")
def two_catalogs_one_folder(tmp: Path) -> str | None:
    root = project(tmp)
    shutil.copy(root / "data" / "papers.yaml", root / "data" / "other.yaml")
    procs = []
    full = {**os.environ, "PYTHONPATH": str(REPO)}
    for i in range(10):
        for name in ("papers.yaml", "other.yaml"):
            key = first_key(root)
            args = [
                sys.executable,
                "-m",
                "catalog.cli",
                "--catalog",
                f"data/{name}",
                "--db",
                f"build/{name}.db",
                "tag",
                key,
                "-t",
                f"new-{name[:5]}-{i}",
                "--new",
            ]
            procs.append(
                subprocess.Popen(
                    args,
                    cwd=root,
                    env=full,
                    text=True,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )
    errors = []
    for proc in procs:
        _, err = proc.communicate(timeout=300)
        if TRACEBACK in err or proc.returncode != 0:
            errors.append((err.strip().splitlines() or [f"exit {proc.returncode}"])[-1][:160])
    tags = (root / "data" / "tags.yaml").read_text(encoding="utf-8")
    lost = [
        f"new-{n[:5]}-{i}"
        for i in range(10)
        for n in ("papers.yaml", "other.yaml")
        if f"new-{n[:5]}-{i}:" not in tags
    ]
    if lost:
        return f"{len(lost)} of 20 new tags lost" + (f" ({errors[0]})" if errors else "")
    return f"{len(errors)} crashed: {errors[0]}" if errors else None


@case("5", "tag with a corrupted index reports the write")
def tag_with_corrupt_index(tmp: Path) -> str | None:
    root = project(tmp)
    papers(root, "index")
    db = root / "build" / "catalog.db"
    data = bytearray(db.read_bytes())  # the header stays: still papers' index, but broken
    data[100:] = b"\xff" * (len(data) - 100)
    db.write_bytes(bytes(data))
    key = first_key(root)
    run = papers(root, "tag", key, "-t", "gpu")
    text = (root / "data" / "papers.yaml").read_text(encoding="utf-8")
    wrote = "gpu" in text[text.index(f"key: {key}") :].split("- key:")[0]
    if wrote and run.code != 0:
        return f"wrote the tag but exited {run.code}"
    if not wrote:
        return "the tag was not written"
    return traceback(run)
