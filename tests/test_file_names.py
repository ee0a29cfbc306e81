"""A key's file names (PDFs, reading notes) and a page's name on the site: one name per
key, never a path, a hidden file or a name Windows reserves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalog.errors import CatalogError
from catalog.model import KEY_RE
from catalog.paths import RESERVED_NAMES, file_stem_key, key_file_stem, page_name

KEYS = st.from_regex(KEY_RE, fullmatch=True).filter(lambda k: len(k) <= 64)


def test_a_plain_key_is_its_own_file_name():
    assert key_file_stem("sima2022ekko") == "sima2022ekko"
    assert key_file_stem("behnelCythonBestBoth2011") == "behnelCythonBestBoth2011"
    assert key_file_stem("a.b+c_d-e") == "a.b+c_d-e"


def test_a_dblp_key_is_one_file_in_the_folder():
    assert key_file_stem("DBLP:conf/osdi/Sima22") == "DBLP%3Aconf%2Fosdi%2FSima22"
    assert file_stem_key("DBLP%3Aconf%2Fosdi%2FSima22") == "DBLP:conf/osdi/Sima22"


@pytest.mark.parametrize("key", ["con", "Con", "NUL", "com1", "lpt9.x", "aux.b.c"])
def test_a_reserved_name_is_not_a_file_name(key):
    stem = key_file_stem(key)
    assert stem.split(".")[0].casefold() not in RESERVED_NAMES
    assert file_stem_key(stem) == key


@pytest.mark.parametrize("key", ["../etc/passwd", ".hidden", "a/../b", "", "a b", "a%2Fb"])
def test_what_is_not_a_key_has_no_file_name(key):
    with pytest.raises(CatalogError, match="not a valid key"):
        key_file_stem(key)


@pytest.mark.parametrize("stem", ["a%2fb", "a%2Fb%", "%", "a/b", "con", "x%41"])
def test_a_file_no_key_names_is_no_key(stem):
    assert file_stem_key(stem) is None


@given(KEYS, KEYS)
def test_file_names_are_one_per_key_and_safe(a, b):
    stem = key_file_stem(a)
    assert "/" not in stem and ":" not in stem and not stem.startswith(".")
    assert file_stem_key(stem) == a
    assert (key_file_stem(b) == stem) == (a == b)


def test_page_names():
    assert page_name("he2021fastmoe") == "he2021fastmoe"
    assert page_name("model-update") == "model-update"
    assert page_name("DBLP:conf/x") == "_d_b_l_p_3aconf_2fx"
    assert page_name("index") == "index_"
    assert page_name("Index") == "_index"
    assert page_name("con") == "con_"
    assert page_name("") == "_"
    assert page_name("é") == "__e9_"


@given(st.text(max_size=12), st.text(max_size=12))
def test_page_names_are_one_per_name_whatever_the_case(a, b):
    name = page_name(a)
    assert name and name == name.lower()
    assert "/" not in name and "." not in name and not name.startswith(".")
    assert name not in RESERVED_NAMES and name != "index"
    assert (page_name(b) == name) == (a == b)


@given(st.text(alphabet="aA_-:/.0é", max_size=8), st.text(alphabet="aA_-:/.0é", max_size=8))
def test_page_names_of_alike_names_differ(a, b):
    assert (page_name(b) == page_name(a)) == (a == b)
