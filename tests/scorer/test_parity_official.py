"""Our raw counts equal the official conll18_ud_eval.py's (udtools 0.2.9) on real data.

- the official scorer's own fixtures;
- real CoNLL 2018 system outputs, which did their own sentence splitting and
  tokenization (so whole-file stream alignment is exercised);
- predictions generated with mkpred.py from every treebank in ../shared/data/ud,
  with label noise, tokenization changes, merged sentences, Conf values,
  empty nodes kept, # text dropped;
- partial files, compared with the official script run on the matching subset.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.data import SHARED, mkpred, official_counts, shared_path
from annoscore.scorer.conllu.counts import METRICS
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from tests.support.data import read_file


def our_counts(system: Path, gold: Path, **options) -> dict[str, tuple]:
    result = evaluate_files(system, gold, ConlluOptions(**options))
    out = {}
    for name in METRICS:
        s = result.counts.score(name)
        out[name] = (s.correct, s.gold_total, s.system_total, s.aligned_total)
    return out


def assert_same(ours: dict, official: dict) -> None:
    differences = {name: (ours[name], official[name]) for name in METRICS if ours[name] != official[name]}
    assert not differences, differences


FIXTURES = [
    ("gold.conllu", "sys1.conllu"),
    ("gold.conllu", "sys2.conllu"),
    ("gold.conllu", "sys-space.conllu"),
    ("case-gold.conllu", "case-sys.conllu"),
    ("func-gold.conllu", "func-sys.conllu"),
]


@pytest.mark.parametrize("gold,system", FIXTURES)
def test_official_fixtures(gold, system):
    folder = shared_path("data", "predicted", "conll18-eval-tests")
    assert_same(our_counts(folder / system, folder / gold), official_counts(folder / gold, folder / system))


def test_func_fixture_counts_file():
    """The fixture's expected --counts output, read from the file itself."""
    folder = shared_path("data", "predicted", "conll18-eval-tests")
    expected = {}
    for line in (folder / "func-expected.counts").read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        expected[cells[0]] = tuple(int(c) if c else None for c in cells[1:])
    ours = our_counts(folder / "func-sys.conllu", folder / "func-gold.conllu")
    for name, (correct, gold, system, aligned) in expected.items():
        assert ours[name][:3] == (correct, gold, system), name
        if name not in ("Words",) and ours[name][3] is not None:
            assert ours[name][3] == aligned, name


REAL = [
    ("en_ewt.UDPipe-Future.conllu", "en_ewt.conllu"),
    ("fr_gsd.conll18-baseline.conllu", "fr_gsd.conllu"),
]


@pytest.mark.parametrize("system,gold", REAL)
def test_conll2018_system_outputs(system, gold):
    folder = shared_path("data", "predicted", "conll2018")
    system_path, gold_path = folder / "pred" / system, folder / "gold" / gold
    assert_same(our_counts(system_path, gold_path), official_counts(gold_path, system_path))


@pytest.mark.parametrize("system,gold", REAL)
def test_conll2018_published_f1(system, gold):
    """The F1 column of the official results file shipped with the data."""
    folder = shared_path("data", "predicted", "conll2018")
    result = evaluate_files(folder / "pred" / system, folder / "gold" / gold)
    expected_file = folder / "expected" / (system.rsplit(".", 1)[0] + ".conll18_ud_eval-v.results")
    for line in expected_file.read_text().splitlines()[2:]:
        cells = [c.strip() for c in line.split("|")]
        score = result.counts.score(cells[0])
        assert f"{100 * score.precision:.2f}" == cells[1], cells[0]
        assert f"{100 * score.recall:.2f}" == cells[2], cells[0]
        assert f"{100 * score.f1:.2f}" == cells[3], cells[0]


def treebanks() -> list[Path]:
    folder = SHARED / "data" / "ud"
    files = sorted(p for p in folder.glob("*/*.conllu") if "train" not in p.name)
    return files or [Path("missing-shared-data")]


GENERATED = [
    ("labels", ["--label-noise", "0.1", "--conf"]),
    ("tokens", ["--tok-noise", "0.4"]),
    ("merged", ["--merge-sents", "0.2", "--tok-noise", "0.1", "--drop-text"]),
    ("empty-nodes", ["--keep-empty", "--tok-noise", "0.2", "--label-noise", "0.03"]),
]


@pytest.mark.parametrize("gold", treebanks(), ids=lambda p: p.name)
@pytest.mark.parametrize("kind,options", GENERATED, ids=[g[0] for g in GENERATED])
def test_generated_pairs(gold, kind, options, tmp_path):
    gold = shared_path("data", "ud", gold.parent.name, gold.name)
    system = mkpred(gold, tmp_path / "pred.conllu", 7, *options)
    assert_same(our_counts(system, gold), official_counts(gold, system))


# --------------------------------------------------------------------------
# Partial files
# --------------------------------------------------------------------------


def write_subset(source: Path, keep_ids: list[str], out: Path) -> Path:
    """The sentences of ``source`` whose sent_id is in keep_ids, in that order."""
    by_id = {s.sent_id: s.body for s in read_file(source).sentences}
    out.write_text("".join(by_id[i] + "\n\n" for i in keep_ids), encoding="utf-8")
    return out


@pytest.mark.parametrize("name", ["UD_French-GSD/fr_gsd-ud-test.conllu", "UD_English-EWT/en_ewt-ud-test.conllu"])
def test_dropped_sentences_predicted_only(name, tmp_path):
    gold = shared_path("data", "ud", *name.split("/"))
    system = mkpred(gold, tmp_path / "pred.conllu", 3, "--drop", "0.3", "--tok-noise", "0.2")
    kept = [s.sent_id for s in read_file(system).sentences]
    subset = write_subset(gold, kept, tmp_path / "gold-subset.conllu")
    assert_same(our_counts(system, gold, predicted_only=True), official_counts(subset, system))


def test_dropped_sentences_count_against_recall(tmp_path):
    gold = shared_path("data", "ud", "UD_French-GSD", "fr_gsd-ud-test.conllu")
    system = mkpred(gold, tmp_path / "pred.conllu", 4, "--drop", "0.25")
    kept = [s.sent_id for s in read_file(system).sentences]
    subset = write_subset(gold, kept, tmp_path / "gold-subset.conllu")
    ours = our_counts(system, gold)
    on_subset = official_counts(subset, system)
    whole_gold = official_counts(gold, gold)
    for name in METRICS:
        correct, _, system_total, _ = on_subset[name]
        assert ours[name][0] == correct, name
        assert ours[name][2] == system_total, name
        assert ours[name][1] == whole_gold[name][1], name  # every gold word counts


def test_unparsed_tail_annotated_only(tmp_path):
    gold = shared_path("data", "ud", "UD_German-GSD", "de_gsd-ud-test.conllu")
    system = mkpred(gold, tmp_path / "pred.conllu", 5, "--unparsed", "300", "--tok-noise", "0.2")
    sentences = read_file(system).sentences
    parsed = [s for s in sentences if not s.has_missing_heads]
    assert len(parsed) == len(sentences) - 300
    parsed_file = tmp_path / "parsed.conllu"
    parsed_file.write_text("".join(s.body + "\n\n" for s in parsed), encoding="utf-8")
    subset = write_subset(gold, [s.sent_id for s in parsed], tmp_path / "gold-subset.conllu")
    assert_same(our_counts(system, gold, annotated_only=True), official_counts(subset, parsed_file))


def test_unparsed_sentences_count_as_wrong_attachments(tmp_path):
    gold = shared_path("data", "ud", "UD_German-GSD", "de_gsd-ud-test.conllu")
    system = mkpred(gold, tmp_path / "pred.conllu", 5, "--unparsed", "100")
    result = evaluate_files(system, gold)
    assert result.unparsed.count == 100
    annotated = evaluate_files(system, gold, ConlluOptions(annotated_only=True))
    # Same tagging, but the unparsed words are in the totals with no correct head.
    las, las_annotated = result.counts.score("LAS"), annotated.counts.score("LAS")
    assert las.correct == las_annotated.correct
    assert las.gold_total > las_annotated.gold_total
    assert result.counts.score("UPOS").correct > annotated.counts.score("UPOS").correct
