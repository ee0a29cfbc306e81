"""Every YAML file papers ships or writes reads the same in YAML 1.1 (PyYAML, pure
Python) and YAML 1.2 (ruamel) readers: no value a reader takes for syntax or for
another type."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from catalog.edit import writer
from catalog.paths import Paths
from tests.conftest import REPO


def both(text: str) -> tuple[object, object]:
    return yaml.load(text, Loader=yaml.SafeLoader), YAML(typ="safe", pure=True).load(text)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    sorted((REPO / "data").glob("*.yaml")) + sorted((REPO / "tests" / "data").glob("*.yaml")),
    ids=lambda p: p.name,
)
def test_shipped_yaml_reads_the_same_in_yaml_1_1_and_1_2(path: Path) -> None:
    one, two = both(path.read_text(encoding="utf-8"))
    assert one == two


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.sampled_from(["on", "yes", "No", "0o17", "1e3", "a?b", "x: y", "null", "~", "07"])
        | st.from_regex(r"[a-z][a-z?=&./:-]{0,12}", fullmatch=True),
        min_size=1,
        max_size=4,
    )
)
def test_values_the_writer_writes_read_the_same_in_both(tmp_path_factory, values) -> None:
    from tests.conftest import write_catalog

    paths: Paths = write_catalog(tmp_path_factory.mktemp("cat"))
    key = "he2021fastmoe"
    with writer.edit(paths, refresh=False) as session:
        session.update(
            key,
            sources=[f"https://example.org/{v.replace(' ', '-')}" for v in values],
            summary=" ".join(values),
        )
    one, two = both(paths.catalog.read_text(encoding="utf-8"))
    assert one == two
