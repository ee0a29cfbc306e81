"""Key suggestion for new papers."""

from __future__ import annotations

import pytest

from catalog.ingest.citekeys import suggest_key


@pytest.mark.parametrize(
    ("authors", "year", "title", "key"),
    [
        (
            ["Chijun Sima", "Yao Fu"],
            2022,
            "Ekko: A Large-Scale Deep Learning Recommender System",
            "sima2022ekko",
        ),
        (["Xupeng Miao"], 2022, "HET-GMP: A Graph-based System Approach", "miao2022hetgmp"),
        (
            ["Dheevatsa Mudigere"],
            2022,
            "Software-Hardware Co-design for Fast and Scalable Training",
            "mudigere2022software",
        ),
        (["Thomas B. Preußer"], 2021, "The Ångström Effect", "preusser2021angstrom"),
        (
            ["Gabriel de Souza Pereira Moreira"],
            2021,
            "Transformers4rec: Bridging the gap",
            "moreira2021transformers4rec",
        ),
        (["Vincent van der Berg"], 2020, "A Study of Things", "berg2020study"),
        (
            ["Cheng, Heng-Tze"],
            2016,
            "Wide & Deep Learning for Recommender Systems",
            "cheng2016wide",
        ),
        (["张三"], 2020, "中文标题", "anon2020paper"),
        ([], 2020, "Orphan", "anon2020orphan"),
    ],
)
def test_suggest_key(authors: list[str], year: int, title: str, key: str) -> None:
    assert suggest_key(authors, year, title, set()) == key


def test_suffixes_on_a_clash() -> None:
    taken = {"sima2022ekko", "sima2022ekkoa"}
    assert suggest_key(["Chijun Sima"], 2022, "Ekko: again", taken) == "sima2022ekkob"
