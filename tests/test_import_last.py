"""Issue 33: the last few percent of import, each item from a shape written here (after
the public lists and .bib files where it was seen): no field lost, none invented."""

from __future__ import annotations

import pytest

from catalog.data.registry import load_venues
from catalog.ingest import listfields, lists
from tests.conftest import REPO

REGISTRY = load_venues(REPO / "data" / "venues.yaml")


def parse(text: str) -> listfields.Parsed:
    return lists.parse(text, REGISTRY)


def one(text: str) -> listfields.Entry:
    parsed = parse(text)
    assert len(parsed.entries) == 1, parsed.not_papers
    return parsed.entries[0]


def test_capitalised_title_is_a_title_not_a_name() -> None:
    # 33.1: five capitalised words read as one person's name lost the paper
    entry = one(
        "# GNN\n\n1. **Multi-Component Graph Convolutional Collaborative Filtering.** "
        "AAAI, 2020. [paper](https://arxiv.org/abs/1911.10699)\n"
    )
    assert (entry.title, entry.venue, entry.year) == (
        "Multi-Component Graph Convolutional Collaborative Filtering",
        "AAAI",
        2020,
    )
    assert entry.authors == [] and entry.first_author is None


def test_a_short_name_list_is_still_names() -> None:
    assert listfields.names_of("Diego de las Casas, Michael I. Jordan")[0] == [
        "Diego de las Casas",
        "Michael I. Jordan",
    ]
    assert listfields.names_of("Yang You")[0] == ["Yang You"]
    assert listfields.names_of("Deep Interest Evolution Network")[0] is None
    assert listfields.names_of("Neural Computation")[0] is None


def test_venue_line_of_a_record_is_not_an_author() -> None:
    # 33.5: 'Title\\' / '_Authors_\\' / 'Venue, [[Paper](url)]\\' / 'Year'
    entry = one(
        "# MoE\n\n- **Adaptive Mixtures of Local Experts**\\\n"
        "_Michael I. Jordan, Robert A. Jacobs_\\\n"
        "Nature Communications, [[Paper](https://example.org/jordan.pdf)]\\\n1991\n"
    )
    assert entry.authors == ["Michael I. Jordan", "Robert A. Jacobs"]
    assert (entry.venue, entry.year) == ("Nature Communications", 1991)


def test_a_translated_note_is_not_an_author() -> None:
    # 33.6: a translation in 【】 after the venue
    entry = one(
        "# Rec\n\n- [Routing Transformer Trips](https://arxiv.org/abs/2201.00003) RecSys 2022 "
        "【利用多任务 Transformer 进行多目标的路线推荐】\n"
    )
    assert (entry.title, entry.venue, entry.year) == ("Routing Transformer Trips", "RecSys", 2022)
    assert entry.authors == [] and entry.first_author is None
    assert listfields.names_of("利用多任务 Transformer 进行多目标的路线推荐")[0] is None


# ------------------------------------------------ .bib: non-papers and new venues


def bib(entry: str, registry: dict | None = None):  # type: ignore[type-arg]
    from catalog.bib.bibtex import read_bib

    [record] = read_bib(entry, "t.bib", REGISTRY if registry is None else registry)
    return record


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ("journal = {Open{AI} {B}log}", "names an organisation"),
        ("journal = {OpenAI}, volume = {1}, number = {8}, pages = {9}", "names an organisation"),
        ("journal = {University of Montreal}, volume = {1341}", "names an organisation"),
        ("journal = {The New York Times}", "names a newspaper or blog"),
    ],
)
def test_an_article_in_no_venue_is_not_a_paper(fields: str, why: str) -> None:
    # 33.7: never a venue made up from an organisation, a newspaper or a blog
    record = bib(
        f"@article{{x, title = {{A Post}}, author = {{Doe, Jane}}, year = 2019, {fields}}}"
    )
    assert record.paper is None and not record.new_venue
    assert [p.message for p in record.problems if p.blocking] == [
        next(p.message for p in record.problems if why in p.message)
    ]
    assert "not a paper" in record.problems[0].message


@pytest.mark.parametrize(
    "fields",
    [
        "howpublished = {Stanford University}",  # a course
        "howpublished = {\\url{https://example.org/blog/post}}",  # a blog post
        "howpublished = {Some Team's Notes}, url = {https://example.org/notes}",
        "howpublished = {GitHub repository}, url = {https://github.com/example/tool}",
    ],
)
def test_a_misc_that_names_no_venue_is_not_a_paper(fields: str) -> None:
    record = bib(
        f"@misc{{x, title = {{Course Notes}}, author = {{Doe, Jane}}, year = 2020, {fields}}}"
    )
    assert record.paper is None and not record.new_venue
    assert any("not a paper" in p.message for p in record.problems)


def test_a_book_is_a_book() -> None:
    record = bib(
        "@book{x, title = {Pattern Recognition and Machine Learning}, author = {Bishop, "
        "Christopher}, year = 2006, publisher = {Springer}}"
    )
    assert record.paper is not None and record.venue is not None
    assert (record.venue.kind, record.paper.venue) == ("book", "Springer")


@pytest.mark.parametrize(
    ("entry_type", "container", "short", "kind"),
    [
        ("inproceedings", "{ACM} {SIGOPS} Operating Systems Review", "OSR", "journal"),
        ("inproceedings", "Ann. {M}ath.", "Ann. Math.", "journal"),
        ("inproceedings", "{ACM} {SIGPLAN} Notices", "ACM-SIGPLAN-Notices", "journal"),
        ("article", "Neural Computation", "Neural-Computation", "journal"),
        ("article", "Vision Research", "Vision-Research", "journal"),  # no organisation
        (
            "article",
            "IEEE Transactions on Pattern Analysis and Machine Intelligence",
            "TPAMI",
            "journal",
        ),
        ("article", "International Journal of Computer Vision", "IJCV", "journal"),
        ("inproceedings", "European Conference on Computer Vision", "ECCV", "conference"),
        ("inproceedings", "Proceedings of the Workshop on Widget Serving", "WWS", "workshop"),
        ("phdthesis", "University of Illinois at Urbana-Champaign", "UIUC", "thesis"),
        ("phdthesis", "Ph{D} Thesis, {CMU}", "CMU", "thesis"),
    ],
)
def test_a_new_venue_has_a_short_name_and_the_kind_its_name_says(
    entry_type: str, container: str, short: str, kind: str
) -> None:
    # 33.12: a short name the way the registry writes them; a Review is a journal
    field = {"article": "journal", "phdthesis": "school"}.get(entry_type, "booktitle")
    record = bib(
        f"@{entry_type}{{x, title = {{A Paper}}, author = {{Doe, Jane}}, year = 2019, "
        f"{field} = {{{container}}}}}"
    )
    assert record.new_venue and record.venue is not None and record.paper is not None
    assert (record.venue.short, record.venue.kind, record.paper.venue) == (short, kind, short)
    assert "&" not in record.venue.name


def test_an_html_entity_in_a_venue_is_read_and_the_registry_matched_first() -> None:
    record = bib(
        "@inproceedings{x, title = {A Paper}, author = {Doe, Jane}, year = 2019, booktitle = "
        "{Proceedings of the 25th ACM SIGKDD International Conference on Knowledge Discovery "
        "&amp; Data Mining}}"
    )
    assert record.paper is not None and record.paper.venue == "KDD" and not record.new_venue


# ------------------------------------------------ lists: tables, workshops, decorations


def test_a_remarks_column_is_never_the_title() -> None:
    # 33.2: a bold system name, a venue, links and a 'Remarks' cell
    parsed = parse(
        "# Systems\n\n<table>\n<tr><th>Name</th><th>Venue</th><th>Links</th>"
        "<th>Remarks</th></tr>\n<tr><td><b>Widget</b></td><td>OSDI 2022</td><td><a "
        'href="https://example.org/widget.pdf">paper</a></td><td>Interpretability.</td></tr>\n'
        '<tr><td><b>Gizmo</b></td><td>NSDI 2021</td><td><a href="https://example.org/g.pdf">'
        "paper</a></td><td>Serves many small models on one shared GPU pool.</td></tr>\n"
        "</table>\n"
    )
    got = [(e.title, e.venue, e.year) for e in parsed.entries]
    assert got == [("Widget", "OSDI", 2022), ("Gizmo", "NSDI", 2021)]


def test_a_source_column_of_titles_is_the_papers_column() -> None:
    parsed = parse(
        "# Systems\n\n| Source | Venue | Year |\n| --- | --- | --- |\n"
        "| [Gadget: Fast Training of Sparse Models](https://arxiv.org/abs/2101.00001) | NSDI |"
        " 2021 |\n| [Doohickey: Caching Embeddings at Scale](https://arxiv.org/abs/2101.00002)"
        " | SOSP | 2021 |\n"
    )
    got = [(e.title, e.venue, e.year) for e in parsed.entries]
    assert got == [
        ("Gadget: Fast Training of Sparse Models", "NSDI", 2021),
        ("Doohickey: Caching Embeddings at Scale", "SOSP", 2021),
    ]


@pytest.mark.parametrize(
    ("tag", "venue"),
    [("NeurIPS 2021 Workshop", "NeurIPS Workshop"), ("ICML 2022 Workshop", "ICML Workshop")],
)
def test_a_workshop_is_never_its_main_conference(tag: str, venue: str) -> None:
    # 33.4
    entry = one(
        f"# MoE\n\n- Scaling Sparse Experts. {tag}. [paper](https://arxiv.org/abs/2201.00005)\n"
    )
    assert (entry.title, entry.venue, entry.year) == (
        "Scaling Sparse Experts",
        venue,
        int(tag.split()[1]),
    )


def test_decorations_leave_a_tables_title() -> None:
    # 33.3: an emoji, a bracketed nickname and an affiliation around the title
    parsed = parse(
        "# LLM\n\n|Date|Title|Paper|Code|\n|:---:|:---:|:---:|:---:|\n"
        "|2023.12|🔥[**Efficient LLMs**] Efficient Large Language Models: A Survey(@Ohio State "
        "University etc)|[[pdf]](https://arxiv.org/abs/2312.03863)|[[GitHub]](https://github.com"
        "/example/effllm)|\n"
        "|2023.11|NVIDIA TensorRT LLM|[[docs]](https://nvidia.github.io/TensorRT-LLM/)|"
        "[[GitHub]](https://github.com/NVIDIA/TensorRT-LLM)|\n"
    )
    assert [e.title for e in parsed.entries] == ["Efficient Large Language Models: A Survey"]
    reasons = {n.line: n.reason for n in parsed.not_papers}
    assert "software, docs or a blog" in reasons[6]


def test_an_annotation_under_an_entry_is_not_a_paper() -> None:
    # 33.8: '  - arxiv version (2023): [link](...)' under its paper
    parsed = parse(
        "# Rank\n\n- **Some Real Paper on Ranking Things.** KDD 2021. "
        "[paper](https://arxiv.org/abs/2101.00009)\n"
        "  - arxiv version (2023): [link](https://arxiv.org/abs/2301.00010)\n"
        "- <b>1.1.1 User- and Item-level Feature Augmentation</b>\n"
        "- Contributed by Jane Example and others.\n- [WWW](https://www2024.thewebconf.org/)\n\n"
        "| Term | Meaning |\n| --- | --- |\n| QoS | Quality of Service |\n"
    )
    assert [e.title for e in parsed.entries] == ["Some Real Paper on Ranking Things"]
    assert {n.line for n in parsed.not_papers} >= {4, 5, 6, 7, 11}


def test_a_nested_byline_gives_its_papers_authors_and_venue() -> None:
    # the nested author and venue items of an ML-systems list
    parsed = parse(
        "# Serving\n\n- INFaaS: Automated Model-less Inference Serving "
        "[[Paper]](https://example.org/infaas.pdf)\n"
        "  - Francisco Romero, Qian Li, Neeraja J. Yadwadkar, and Christos Kozyrakis (*ATC 2021*)\n"
        "- TFX: A TensorFlow-Based Production-Scale Machine Learning Platform "
        "[[Paper]](https://example.org/tfx.pdf)\n  - Baylor, Denis, et al. (*KDD 2017*)\n"
        "- Cloudburst: Stateful Functions-as-a-Service. [[Paper]](https://arxiv.org/pdf/2001.04592.pdf)\n"
        "  - Vikram Sreekanti, Chenggang Wu\n  - VLDB 2020\n"
    )
    got = [(e.title, e.authors, e.et_al, e.venue, e.year) for e in parsed.entries]
    assert got == [
        (
            "INFaaS: Automated Model-less Inference Serving",
            ["Francisco Romero", "Qian Li", "Neeraja J. Yadwadkar", "Christos Kozyrakis"],
            False,
            "ATC",
            2021,
        ),
        (
            "TFX: A TensorFlow-Based Production-Scale Machine Learning Platform",
            ["Denis Baylor"],
            True,
            "KDD",
            2017,
        ),
        (
            "Cloudburst: Stateful Functions-as-a-Service",
            ["Vikram Sreekanti", "Chenggang Wu"],
            False,
            "VLDB",
            2020,
        ),
    ]


def test_a_reference_in_author_date_style_gives_title_authors_and_year() -> None:
    # a GNN-for-recommendation table whose Paper cell links a whole reference
    parsed = parse(
        "# GNN\n\n| **Name** | **Paper** | **Venue** | **Year** |\n| --- | --- | --- | --- |\n"
        "| GCMC | [Berg, R. V. D., Kipf, T. N., & Welling, M. (2017). Graph convolutional matrix "
        "completion. _arXiv preprint arXiv:1706.02263_.](https://arxiv.org/pdf/1706.02263.pdf)"
        " | arxiv | 2017 |\n"
        "| HMLET | [Kong, T., Kim, T., ... & Kim, S-W. (2022). Linear, or Non-Linear, That is "
        "the Question! In _WSDM_ (pp. 517-525).](https://example.org/hmlet) | WSDM | 2022 |\n"
    )
    got = [(e.title, e.authors, e.et_al, e.year, e.nickname) for e in parsed.entries]
    assert got == [
        (
            "Graph convolutional matrix completion",
            ["R. V. D. Berg", "T. N. Kipf", "M. Welling"],
            False,
            2017,
            "GCMC",
        ),
        (
            "Linear, or Non-Linear, That is the Question!",
            ["T. Kong", "T. Kim", "S-W. Kim"],
            True,
            2022,
            "HMLET",
        ),
    ]
    line = one(
        "# GNN\n\n- Rahman, T., Surma, B., & de Rijke, M. (2019). Fairwalk: Towards fair graph "
        "embedding. In IJCAI. [pdf](https://example.org/fairwalk.pdf)\n"
    )
    assert (line.title, line.authors, line.year) == (
        "Fairwalk: Towards fair graph embedding",
        ["T. Rahman", "B. Surma", "M. de Rijke"],
        2019,
    )


def test_a_title_listed_twice_is_filed_once_per_version_on_every_run(paths, tmp_path) -> None:
    # 33.9: an arXiv entry and an NSDI'25 entry of one title: re-imports add nothing
    from catalog.ingest import importer, inbox

    source = tmp_path / "twice.md"
    source.write_text(
        "# Systems\n\n## Preprints\n\n- [Widgetflow: Serving Many Models on One Pool]"
        "(https://arxiv.org/abs/2401.00011) arXiv 2024\n\n## NSDI\n\n"
        "- [Widgetflow: Serving Many Models on One Pool]"
        "(https://example.org/nsdi25/widgetflow) NSDI'25\n",
        encoding="utf-8",
    )
    importer.import_file(paths, source)
    first = [c.id for c in inbox.load(paths)]
    assert len(first) == 2
    for _ in range(2):
        importer.import_file(paths, source)
        assert [c.id for c in inbox.load(paths)] == first


def test_et_al_in_a_list_line_reaches_the_inbox_record(paths, tmp_path) -> None:
    # 33.11
    from catalog.ingest import importer, inbox

    source = tmp_path / "etal.md"
    source.write_text(
        "# Rec\n\n- [A Made-Up Paper on Session Graphs](https://example.org/x.pdf), "
        "Jane Example, Rick Sample et al., Made-Up Venue 2022\n",
        encoding="utf-8",
    )
    importer.import_file(paths, source)
    [candidate] = inbox.load(paths)
    assert candidate.authors == ["Jane Example", "Rick Sample"] and candidate.et_al
    assert "et_al: true" in inbox.inbox_path(paths).read_text(encoding="utf-8")


def test_a_standalone_html_list_is_read(paths, tmp_path) -> None:
    # 33.11: HTML inside Markdown was read; an .html file of the same was refused
    from catalog.ingest import importer

    source = tmp_path / "list.html"
    source.write_text(
        '<html><body>\n<ul>\n<li><a href="https://example.org/made-up.pdf">A Made-Up Paper on '
        "Session Graphs</a>, SIGIR 2022</li>\n</ul>\n</body></html>\n",
        encoding="utf-8",
    )
    report = importer.import_file(paths, source)
    assert [(o.action, o.title, o.venue, o.year) for o in report.outcomes] == [
        ("inbox", "A Made-Up Paper on Session Graphs", "SIGIR", 2022)
    ]


def test_a_bracketed_nickname_before_the_title_is_no_author() -> None:
    entry = one(
        "# LLM\n\n- 🔥🔥[Prompt Caching] Efficient Prompt Caching via Embedding Similarity"
        "(@UC Berkeley) [[pdf]](https://arxiv.org/pdf/2402.01173.pdf)\n"
    )
    assert entry.title == "Efficient Prompt Caching via Embedding Similarity"
    assert entry.authors == [] and entry.first_author is None


def test_one_arxiv_id_under_a_retitled_title_is_one_candidate(paths, tmp_path) -> None:
    # 33.11: the catalog's rule for one id under two titles of one paper, in the inbox too
    from catalog.ingest import importer, inbox

    source = tmp_path / "retitled.md"
    source.write_text(
        "# Serving\n\n- [Widgetflow: Serving Many Models on One Pool](https://arxiv.org/abs/"
        "2401.00011) arXiv 2024\n- [Widgetflow: Serving Many Small Models on One Shared Pool]"
        "(https://arxiv.org/abs/2401.00011) arXiv 2024\n",
        encoding="utf-8",
    )
    report = importer.import_file(paths, source)
    assert len(inbox.load(paths)) == 1
    assert "already in the inbox" in report.outcomes[1].reason


def test_a_reference_with_a_quoted_title_gives_its_fields() -> None:
    entry = one(
        '# Serving\n\n- Reddi, Vijay Janapa, et al. "Mlperf inference benchmark." arXiv '
        "preprint arXiv:1911.02549 (2019). [[Paper]](https://arxiv.org/pdf/1911.02549.pdf)\n"
    )
    assert (entry.title, entry.authors, entry.et_al, entry.year) == (
        "Mlperf inference benchmark",
        ["Vijay Janapa Reddi"],
        True,
        2019,  # never 1911, the arXiv id's digits
    )
