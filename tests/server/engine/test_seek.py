"""The next place of a kind, from the engine's results (``annoscore/next``):
every place is reached, in order, past the diagnostics' cap, and the walk
says when there is no further one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.lsp import GOLD, PRED, line_of
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.seek import KINDS, VALIDATION_OFF, find
from tests.server.engine.test_tree import opened
from tests.support.treebank_maker import make_gold, make_prediction

SCORER_TESTS = Path(__file__).resolve().parents[2] / "scorer"


def with_confidences(text: str, seed: int) -> str:
    """Conf= on every word, about one cell in six below 0.8."""
    rng = random.Random(seed)
    out = []
    for line in text.split("\n"):
        cells = line.split("\t")
        if len(cells) == 10 and cells[0].isdigit():
            values = ",".join(f"{name}:{rng.choice([0.3, 0.9, 0.95, 0.97, 0.99, 0.99]):.2f}"
                              for name in ("UPOS", "HEAD", "DEPREL"))
            cells[9] = f"Conf={values}"
        out.append("\t".join(cells))
    return "\n".join(out)


@pytest.fixture
def treebank(tmp_path):
    """A generated pair (merged sentences, a cycle, label noise, confidences),
    opened and scored, with settings that show every diagnostic."""
    gold = make_gold(tmp_path / "x.gold.conllu", seed=3, sentences=60)
    pred = make_prediction(gold, tmp_path / "x.conllu", seed=4, merge=0.1, cycle=True)
    text = with_confidences(pred.read_text(encoding="utf-8"), seed=5)
    pred.write_text(text, encoding="utf-8")
    engine = Engine(str(tmp_path), Settings(max_diagnostics=1_000_000, max_diagnostics_per_document=1_000_000))
    path = str(pred)
    engine.open(path, path, text, 1)
    engine.rescore(path)
    return engine, path


def walk(engine, key: str, kind: str, direction: str = "next", start: tuple[int, int] = (0, 0)) -> list[tuple]:
    """Every place, asking again from each one, until there is no further one."""
    out, (line, column) = [], start
    while True:
        found = find(engine, key, line, column, kind, direction)
        if found.line is None:
            return out
        out.append((found.line, found.start, found.end))
        line, column = found.line, found.start
        assert len(out) < 100_000


def diagnostics(engine, key: str, code: str) -> list[tuple]:
    return sorted({(p.line, p.start, p.end) for p in engine.diagnostics(key) if p.code == code})


def test_every_place_in_order_both_ways_as_the_uncapped_diagnostics_show_them(treebank):
    engine, path = treebank
    last = engine.documents[path].store.last_line
    for kind, codes in (("low-confidence", ["low-confidence"]), ("unparsed", ["unparsed"]),
                        ("segmentation-mismatch", ["segmentation-mismatch", "sentence-boundary"])):
        places = walk(engine, path, kind)
        assert places == sorted(set().union(*(diagnostics(engine, path, c) for c in codes))), kind
        assert walk(engine, path, kind, "previous", (last + 1, 0)) == places[::-1], kind
    assert len(walk(engine, path, "low-confidence")) > 100
    assert len(walk(engine, path, "segmentation-mismatch")) >= 2
    # gold-diff with goldDiff off: the cells the gold-diff diagnostics show with it on.
    places = walk(engine, path, "gold-diff")
    shown = Engine(engine.root, Settings(max_diagnostics=1_000_000, max_diagnostics_per_document=1_000_000,
                                           gold_diff=True))
    shown.open(path, path, engine.documents[path].store.text, 1)
    shown.rescore(path)
    assert places == diagnostics(shown, path, "gold-diff") and len(places) > 50
    assert walk(shown, path, "gold-diff") == places  # (and with it on, from the pairing's own)


def test_refused_stops_once_per_refused_sentence_and_error_at_each_error(treebank):
    engine, path = treebank
    refused = walk(engine, path, "refused")
    index = engine.documents[path].results.sentences
    firsts = sorted(i.first_line for i in index.infos if i.refused and not i.unparsed)
    assert len(refused) == index.refused == len(firsts) >= 1
    assert [engine.documents[path].store.segment_at(line) for line, _, _ in refused] == \
        [engine.documents[path].store.segment_at(line) for line in firsts]
    errors = walk(engine, path, "error")
    assert errors == sorted({(p.line, p.start, p.end) for p in engine.diagnostics(path)
                             if p.severity == 1 and p.code != "cycle"} | set(diagnostics(engine, path, "cycle")))


def test_past_the_diagnostics_cap_every_place_is_reached(treebank):
    engine, path = treebank
    everything = walk(engine, path, "low-confidence")
    engine.settings = Settings(max_diagnostics=5)
    published = [p for p in engine.diagnostics(path) if p.code == "low-confidence"]
    assert len(published) == 6  # five, and the one that says how many more
    assert walk(engine, path, "low-confidence") == everything


def test_no_further_one_is_said_and_never_wraps(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s1 = line_of(PRED, "# sent_id = s1")
    found = find(engine, path, 0, 0, "low-confidence")
    assert (found.line, found.sent_id, found.total) == (s1 + 2, "s1", 1)
    beyond = find(engine, path, found.line, found.start, "low-confidence")
    assert beyond.line is None
    assert beyond.message == f"no further low-confidence word below line {s1 + 3} (1 low-confidence cell in the document)"
    before = find(engine, path, 0, 0, "unparsed", "previous")
    assert before.line is None and before.message == "no further unparsed sentence above line 1 (1 unparsed sentence in the document)"
    assert find(engine, path, 0, 0, "unparsed").sent_id == "s5"


def test_kinds_against_gold_without_gold(tmp_path):
    engine, path = opened(tmp_path, PRED)
    against_gold = [k for k in KINDS if find(engine, path, 0, 0, k).message.endswith(": this document has no gold")]
    assert against_gold == ["segmentation-mismatch", "gold-diff"]
    assert find(engine, "/not/open.conllu", 0, 0, "refused") is None


def test_validation_walks_every_finding_of_the_validator(tmp_path):
    """``validation`` goes to each place the UD validator reports (the
    library's own run is the expectation), both ways, document-wide
    findings and the ones annoscore reports too included; ``error`` takes
    the validator's errors; with validation off it answers none, saying why."""
    from dataclasses import replace as changed

    from annoscore.scorer.validation import ValidationSettings, validate_text
    from annoscore.server.config import ValidationConfig
    from tests.support.validation_inject import inject, repeat

    base = (Path(__file__).resolve().parents[2] / "scorer" / "data" / "validation_base.conllu").read_text("utf-8")
    text = inject(repeat(base, 6), 3)
    engine = Engine(str(tmp_path), Settings(validation=ValidationConfig(level=5, lang="en")))
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, text, 1)
    engine.rescore(path)
    incidents = validate_text(text, ValidationSettings(level=5, lang="en")).incidents
    expected = sorted({(i.line, i.start) for i in incidents})
    assert len(expected) > 50 and any(i.start == i.end == 0 for i in incidents)  # (document-wide ones too)
    walked, at = [], (-1, 0)
    while (found := find(engine, path, *at, "validation")).line is not None:
        at = (found.line, found.start)
        walked.append(at)
    assert walked == expected
    assert found.message.startswith(f"no further validation problem below line {at[0] + 1}")
    backward, at = [], (len(text.split("\n")), 0)
    while (found := find(engine, path, *at, "validation", "previous")).line is not None:
        at = (found.line, found.start)
        backward.append(at)
    assert backward == expected[::-1]
    # The validator's errors are errors.
    from annoscore.server.engine.conllu.twins import TWIN_IDS
    errors = [i for i in incidents if i.is_error and i.test_id not in TWIN_IDS and i.start > 0]
    assert len(errors) > 10
    for error in errors:
        found = find(engine, path, error.line, error.start - 1, "error")
        assert (found.line, found.start) == (error.line, error.start), error.test_id
    # Off: none, and why.
    engine.settings = changed(engine.settings, validation=ValidationConfig(level=0))
    engine.rescore(path)
    found = find(engine, path, 0, 0, "validation")
    assert found.line is None and found.message == f"no validation problem: {VALIDATION_OFF}"


def test_an_edit_not_rescored_yet_is_seen(tmp_path):
    """A cell made low-confidence by an edit is found before the rescore
    (the edited sentence is analysed as it is now)."""
    text = PRED.replace("Conf=UPOS:0.30", "Conf=UPOS:0.99")
    engine, path = opened(tmp_path, text)
    assert find(engine, path, 0, 0, "low-confidence").line is None
    s2 = line_of(text, "# sent_id = s2")
    row = text.split("\n")[s2 + 2]
    engine.change(path, 2, [((s2 + 2, len(row) - 1), (s2 + 2, len(row)), "Conf=0.1")])
    found = find(engine, path, 0, 0, "low-confidence")
    assert found.line == s2 + 2
