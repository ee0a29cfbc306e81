"""papers import of real .bib files: keys kept, venue spellings folded, bad entries refused alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from catalog.check.rules import check
from catalog.data import reader
from catalog.data.registry import load_venues
from catalog.ingest import importer, keymap
from catalog.paths import Paths


def write(tmp_path: Path, text: str, name: str = "refs.bib") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- keys

# collective.bib and recommender.bib: a valid key, an upper-case one, and a valid key that
# the catalog already gives another paper.
KEYS_BIB = """\
@article{shoeybi2019megatron,
  title={Megatron-lm: Training multi-billion parameter language models using model parallelism},
  author={Shoeybi, Mohammad and Patwary, Mostofa and Puri, Raul and LeGresley, Patrick and Casper, Jared and Catanzaro, Bryan},
  journal={arXiv preprint arXiv:1909.08053},
  year={2019}
}

@inproceedings{NIPS2015_86df7dcf,
 author = {Sculley, D. and Holt, Gary and Golovin, Daniel and Davydov, Eugene},
 booktitle = {Advances in Neural Information Processing Systems},
 title = {Hidden Technical Debt in Machine Learning Systems},
 volume = {28},
 year = {2015}
}

@article{sima2022ekko,
  title={Mu: An Efficient, Fair and Responsive Serverless Framework},
  author={Sima, Chijun and Doe, Jane},
  journal={arXiv preprint arXiv:2399.00077},
  year={2023}
}
"""


def test_a_bib_keeps_its_own_keys_when_valid_and_free(run, shipped: Paths, tmp_path: Path) -> None:
    result = run("import", str(write(tmp_path, KEYS_BIB)))
    assert result.exit_code == 0, result.output
    assert "refs.bib:1: added shoeybi2019megatron: Megatron-lm" in result.output
    # any key BibTeX takes is kept, upper case too (issue 21); a taken key is not reused: a
    # key is made, reported and written to the key map
    assert "refs.bib:8: added NIPS2015_86df7dcf: Hidden Technical Debt" in result.output
    assert "refs.bib:16: added sima2023mu (was sima2022ekko)" in result.output
    keys = {p.key for p in reader.load(shipped.catalog)}
    assert {"shoeybi2019megatron", "NIPS2015_86df7dcf", "sima2023mu", "sima2022ekko"} <= keys
    assert keymap.load(shipped) == {"sima2022ekko": "sima2023mu"}
    # The document the .bib came from cites its keys: export --aux finds the kept ones
    aux = write(
        tmp_path,
        "\\relax\n\\citation{shoeybi2019megatron}\n\\citation{NIPS2015_86df7dcf}\n",
        "doc.aux",
    )
    exported = run("export", "--aux", str(aux))
    assert exported.exit_code == 0, exported.output
    assert "{shoeybi2019megatron," in exported.stdout and "{NIPS2015_86df7dcf," in exported.stdout
    # ... and with --keymap, the renamed one under the key the document cites
    aux.write_text("\\relax\n\\citation{sima2022ekko}\n", encoding="utf-8")
    plain = run("export", "--aux", str(aux))  # the catalog's own sima2022ekko, another paper
    assert "{sima2022ekko," in plain.stdout and "Mu: An Efficient" not in plain.stdout
    mapped = run("export", "--aux", str(aux), "--keymap")
    assert mapped.exit_code == 0, mapped.output
    assert "{sima2022ekko," in mapped.stdout and "Mu: An Efficient" in mapped.stdout
    # the catalog's own sima2022ekko is another paper: with --keymap it keeps its key
    both = run("export", "sima", "--keymap")
    assert both.stdout.count("{sima2022ekko,") == 1 and "{sima2023mu," in both.stdout
    assert "kept, as its old key 'sima2022ekko' is another paper's" in both.output


def test_keys_are_unique_without_regard_to_case(shipped: Paths, tmp_path: Path) -> None:
    bib = KEYS_BIB.replace("NIPS2015_86df7dcf", "Sima2022EKKO")
    report = importer.import_file(shipped, write(tmp_path, bib))
    keys = {o.source_key: o.key for o in report.outcomes}
    assert keys["Sima2022EKKO"] == "sculley2015hidden"  # 'sima2022ekko' is taken
    assert report.renamed == {"Sima2022EKKO": "sculley2015hidden", "sima2022ekko": "sima2023mu"}


def test_reimporting_a_bib_with_kept_keys_adds_nothing(shipped: Paths, tmp_path: Path) -> None:
    bib = write(tmp_path, KEYS_BIB)
    first = importer.import_file(shipped, bib)
    assert first.count("added") == 3
    after = shipped.catalog.read_bytes()
    second = importer.import_file(shipped, bib)
    assert second.counts == {"added": 0, "merged": 0, "duplicate": 3, "inbox": 0, "refused": 0}
    assert shipped.catalog.read_bytes() == after


# ---------------------------------------------------------------- venues

# explainable.bib: one conference written with two capitalisations, and a third name that
# is a different string ('IEEE' without '/CVF'), which stays apart.
CVPR_BIB = """\
@inproceedings{zhang2019interpreting,
  title={Interpreting cnns via decision trees},
  author={Zhang, Quanshi and Yang, Yu and Ma, Haotian and Wu, Ying Nian},
  booktitle={Proceedings of the IEEE/CVF conference on computer vision and pattern recognition},
  pages={6261--6270},
  year={2019}
}

@inproceedings{zhang2018interpretable,
  title={Interpretable convolutional neural networks},
  author={Zhang, Quanshi and Wu, Ying Nian and Zhu, Song-Chun},
  booktitle={Proceedings of the IEEE conference on computer vision and pattern recognition},
  pages={8827--8836},
  year={2018}
}

@inproceedings{nauta2021neural,
  title={Neural prototype trees for interpretable fine-grained image recognition},
  author={Nauta, Meike and van Bree, Ron and Seifert, Christin},
  booktitle={Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition},
  pages={14933--14943},
  year={2021}
}
"""


def test_venue_spellings_differing_in_case_are_one_new_venue(
    shipped_used: Paths, tmp_path: Path
) -> None:
    # Against the venues the catalog uses: the shipped registry knows CVPR.
    before = set(load_venues(shipped_used.venues))
    report = importer.import_file(shipped_used, write(tmp_path, CVPR_BIB))
    assert report.count("added") == 3
    assert len(report.venues_added) == 2
    papers = {p.key: p for p in reader.load(shipped_used.catalog)}
    assert papers["zhang2019interpreting"].venue == papers["nauta2021neural"].venue
    assert papers["zhang2018interpretable"].venue != papers["nauta2021neural"].venue
    venues = load_venues(shipped_used.venues)
    assert len(set(venues) - before) == 2
    folded = [v.casefold() for v in venues]
    assert len(folded) == len(set(folded))
    assert not [p for p in check(shipped_used) if p.blocking]


def test_a_venue_spelling_matches_the_registry_case_insensitively(
    shipped: Paths, tmp_path: Path
) -> None:
    importer.import_file(shipped, write(tmp_path, CVPR_BIB))
    venues = set(load_venues(shipped.venues))
    later = write(
        tmp_path,
        CVPR_BIB.replace("zhang2019interpreting", "other2019x")
        .replace("Interpreting cnns via decision trees", "A Later Paper on Trees")
        .replace(
            "IEEE/CVF conference on computer vision and pattern recognition",
            "IEEE/CVF  CONFERENCE on Computer Vision and Pattern Recognition.",
        ),
        "later.bib",
    )
    report = importer.import_file(shipped, later)
    assert report.venues_added == [] and set(load_venues(shipped.venues)) == venues
    added = next(o for o in report.outcomes if o.action == "added")
    assert added.key == "other2019x"
    papers = {p.key: p for p in reader.load(shipped.catalog)}
    assert papers["other2019x"].venue == papers["zhang2019interpreting"].venue


# ---------------------------------------------------------------- entries that cannot be read

# dup-probe.bib: the same key twice (the preprint, then its published version)
DUPLICATE_KEY_BIB = """\
@inproceedings{li2014scaling,
  title = {Scaling Distributed Machine Learning with the Parameter Server},
  author = {Li, Mu and Andersen, David G.},
  booktitle = {11th USENIX Symposium on Operating Systems Design and Implementation (OSDI 14)},
  year = {2014}
}

 @article{miao2021het,
   title={HET: Scaling out Huge Embedding Model Training via Cache-enabled Distributed Framework},
   author={Miao, Xupeng and Zhang, Hailin and Shi, Yining and Nie, Xiaonan and Yang, Zhi and Tao, Yangyu and Cui, Bin},
   journal={arXiv preprint arXiv:2112.07221},
   year={2021}
 }

 @article{miao2021het,
   title={HET: Scaling out Huge Embedding Model Training via Cache-enabled Distributed Framework},
   author={Miao, Xupeng and Zhang, Hailin and Shi, Yining and Nie, Xiaonan and Yang, Zhi and Tao, Yangyu and Cui, Bin},
   journal = {Proc. {VLDB} Endow.},
   volume = {15},
   year = {2022}
 }
"""
# min/truncated.bib: the file ends inside the second entry
TRUNCATED_BIB = """\
@inproceedings{10.1145/2988450.2988454,
author = {Cheng, Heng-Tze and Koc, Levent and Harmsen, Jeremiah},
title = {Wide \\& Deep Learning for Recommender Systems},
year = {2016},
booktitle = {Proceedings of the 1st Workshop on Deep Learning for Recommender Systems},
series = {DLRS 2016}
}

@inproceedings{10.1145/3124749.3124754,
author = {Wang, Ruoxi and Fu, Bin and Fu, Gang and Wang, Mingliang},
title = {Deep \\& Cross Network for Ad Click Predictions},
year = {2017},
abstract = {Feature engineering has been the key to the success of many prediction"""


def test_a_duplicate_key_is_refused_alone(run, shipped: Paths, tmp_path: Path) -> None:
    result = run("import", str(write(tmp_path, DUPLICATE_KEY_BIB)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    outcomes = {o["line"]: o for o in data["outcomes"]}
    assert set(outcomes) == {1, 8, 15}  # every entry accounted for
    assert outcomes[1]["action"] == "added" and outcomes[1]["key"] == "li2014scaling"
    assert outcomes[8]["action"] == "duplicate"  # the catalog has HET already
    assert outcomes[15]["action"] == "refused"
    assert "duplicate key 'miao2021het' (first at line 8)" in outcomes[15]["reason"]
    assert "li2014scaling" in {p.key for p in reader.load(shipped.catalog)}


def test_a_truncated_entry_is_refused_alone_and_bibtexparser_stays_quiet(
    run, shipped: Paths, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    result = run("import", str(write(tmp_path, TRUNCATED_BIB)))
    assert result.exit_code == 0, result.output
    assert "refs.bib:1: added cheng2016wide (was 10.1145/2988450.2988454)" in result.output
    assert "refs.bib:9: refused: 10.1145/3124749.3124754 — malformed entry" in result.output
    assert "added 1, merged 0, skipped 0 duplicates, refused 1" in result.output
    # bibtexparser's own 'Parsing of @inproceedings block (line 8) aborted ...' is not shown
    captured = capfd.readouterr()
    assert "aborted" not in result.output + captured.out + captured.err
    assert "cheng2016wide" in {p.key for p in reader.load(shipped.catalog)}


# ------------------------------------------------ shapes seen in public .bib files (trials)
# Our own entries, in the shape of entries a public paper's references had.

# One title inside the other, the same year, no author in common: two papers (a public
# references.bib lost 'Intent Contrastive ...' as a duplicate of 'Contrastive ...').
ALIKE_BIB = """\
@inproceedings{first2022widgets,
  title = {Contrastive Widget Learning for Sequential Gadgets},
  author = {First, Ann and Second, Bo and Liu, Zhaoyi},
  booktitle = {Proceedings of the 40th IEEE International Conference on Data Engineering},
  year = {2022},
}

@article{other2022widgets,
  title = {Intent Contrastive Widget Learning for Sequential Gadgets},
  author = {Other, Cy and Liu, Zhiwen and Third, Di},
  journal = {arXiv preprint arXiv:2202.99999},
  year = {2022},
}

@article{first2022widgetspre,
  title = {Contrastive Widget Learning for Sequential Gadget},
  author = {First, A. and Second, Bo},
  journal = {arXiv preprint arXiv:2109.99999},
  year = {2021},
}
"""


def test_alike_titles_by_other_people_are_two_papers_and_a_preprint_is_one(
    shipped: Paths, tmp_path: Path
) -> None:
    report = importer.import_file(shipped, write(tmp_path, ALIKE_BIB))
    actions = {o.source_key: (o.action, o.key) for o in report.outcomes}
    assert actions["first2022widgets"] == ("added", "first2022widgets")
    # 'Liu' is in both lists, but Zhaoyi is not Zhiwen: nobody is in both
    assert actions["other2022widgets"] == ("added", "other2022widgets")
    added = next(o for o in report.outcomes if o.source_key == "other2022widgets")
    assert added.reason.startswith("possible duplicate of first2022widgets")
    # the same people a year earlier ('A.' is Ann): the preprint of the first
    assert actions["first2022widgetspre"] == ("duplicate", "first2022widgets")


# A DBLP-style file whose papers take their year and booktitle from a crossref'd volume,
# and a Mendeley-style web page with no year.
CROSSREF_IMPORT_BIB = """\
@inproceedings{quill2010gadgets,
  author = {Ada Quill and Bo Rivet},
  title = {Gadget Tables in Eleven Pages},
  pages = {101--11},
  crossref = {conf/icde/2010},
}

@proceedings{conf/icde/2010,
  title = {Proceedings of the 26th International Conference on Data Engineering, Lake
           Placid, NY, USA, March 1-6, 2010},
  publisher = {{IEEE} Computer Society},
  year = {2010},
}

@misc{Gadgetpedia,
  author = {Gadgetpedia},
  title = {{Gadget}},
  url = {http://gadgets.example.org/wiki/Gadget},
}
"""


def test_crossref_years_and_web_pages_are_accounted_for(
    run, shipped: Paths, tmp_path: Path
) -> None:
    result = run("import", str(write(tmp_path, CROSSREF_IMPORT_BIB)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    outcomes = {o["line"]: o for o in data["outcomes"]}
    assert set(outcomes) == {1, 8, 15}  # every entry accounted for
    assert (outcomes[1]["action"], outcomes[1]["venue"], outcomes[1]["year"]) == (
        "added",
        "ICDE",
        2010,
    )
    assert outcomes[8]["reason"].startswith("a proceedings volume, not a paper: skipped")
    assert outcomes[15]["reason"].startswith("not a paper (web page / software): skipped")
    assert data["venues_added"] == []  # the registry's ICDE, not a new one
    paper = next(p for p in reader.load(shipped.catalog) if p.key == "quill2010gadgets")
    assert paper.pages == "101-111"


# A team paper as some arXiv exports write it: a lone ':' between the names.
TEAM_BIB = """\
@misc{team2024made,
  title={A Made-Up Report of a Large Team},
  author={Ann Example and : and Bo Sample},
  year={2024},
  eprint={2401.00001},
  archivePrefix={arXiv}
}
"""


def test_a_name_without_a_letter_is_left_out_with_a_note(
    run, shipped: Paths, tmp_path: Path
) -> None:
    result = run("import", str(write(tmp_path, TEAM_BIB)), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    [outcome] = data["outcomes"]
    assert outcome["action"] == "added", outcome
    assert any("author 2 ':' names no one: left out" in w for w in data["warnings"]), data
    paper = next(p for p in reader.load(shipped.catalog) if p.key == outcome["key"])
    assert paper.authors == ["Ann Example", "Bo Sample"]


def test_check_refuses_an_author_without_a_letter(shipped: Paths) -> None:
    text = shipped.catalog.read_text(encoding="utf-8")
    shipped.catalog.write_text(text.replace("authors: [", "authors: ['-', ", 1), encoding="utf-8")
    problems = [str(p) for p in check(shipped)]
    assert any("author '-' has no letter, so names no one" in p for p in problems), problems
