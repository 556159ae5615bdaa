"""UD validation in the engine: what a document shows, kept up to date edit by edit.

The validator itself is held to udtools by tests/scorer/test_validation_*;
here: that the engine shows its findings on the exact cells with their test
ids, validates again only what an edit touched, merges the findings that
annoscore reports too into one diagnostic, follows the settings (level,
language, exclusions, off), gives what the helper processes give, and that
each quick fix removes its problem.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from annoscore.scorer.validation import ValidationSettings, validate_text
from annoscore.server.config import Settings, ValidationConfig, load_project
from annoscore.server.engine import Engine
from annoscore.server.engine.conllu import validation, validation_parts
from annoscore.server.engine.fixes import fix_for

SCORER_TESTS = Path(__file__).resolve().parents[2] / "scorer"
BASE = (SCORER_TESTS / "data" / "validation_base.conllu").read_text(encoding="utf-8")

def _without_deps(block: str) -> str:
    return "\n".join("\t".join(c[:8] + ["_", c[9]]) if len(c := line.split("\t")) == 10 else line
                     for line in block.split("\n"))


S1 = _without_deps(BASE.split("\n\n")[0]) + "\n\n"  # base-1: The cat sleeps. (No enhanced graph.)


def opened(tmp_path, text: str, name: str = "en_test-ud-dev.conllu", settings: Settings | None = None):
    engine = Engine(str(tmp_path), settings or Settings())
    path = str(tmp_path / name)
    engine.open(path, path, text, 1)
    engine.rescore(path)
    return engine, path


def found(engine, path) -> list[tuple]:
    return [(p.code, p.line, p.start, p.end, p.datum("test_id")) for p in engine.diagnostics(path)]


def line_of(text: str, start: str) -> int:
    return next(k for k, line in enumerate(text.split("\n")) if line.startswith(start))


def cell(text: str, line: int, column: int) -> tuple[int, int]:
    row = text.split("\n")[line]
    start = sum(len(c) + 1 for c in row.split("\t")[:column])
    return start, start + len(row.split("\t")[column])


def test_a_valid_document_shows_nothing_and_a_broken_one_its_cells(tmp_path):
    engine, path = opened(tmp_path, BASE)
    assert engine.diagnostics(path) == []
    cat = line_of(S1, "2\tcat")
    broken = S1.replace("2\tcat\tcat\tNOUN\tNN\tNumber=Sing", "2\tcat\tcat\tNOUNX\tNN\tNumber=Sing|Case=Nom")
    broken = broken.replace("# text = The cat sleeps.", "# text = The cats sleeps.")
    engine, path = opened(tmp_path, broken)
    problems = {p.code: p for p in engine.diagnostics(path)}
    upos = problems["unknown-upos"]
    assert (upos.line, upos.start, upos.end) == (cat, *cell(broken, cat, 3))
    assert dict(upos.data) == {"test_id": "unknown-upos", "level": 2, "class": "MORPHO"}
    assert (problems["unsorted-features"].line, problems["unsorted-features"].start) == (cat, cell(broken, cat, 5)[0])
    # The character of # text where the text and the FORMs part.
    mismatch = problems["text-form-mismatch"]
    text_line = line_of(broken, "# text")
    assert [(r.line, r.start) for r in mismatch.related] == [(text_line, len("# text = The cat"))]
    assert problems["unknown-upos"].severity.name == "ERROR"


def test_document_wide_checks_follow_edits(tmp_path):
    text = S1 + S1.replace("base-1", "base-2")
    engine, path = opened(tmp_path, text)
    assert engine.diagnostics(path) == []
    second = line_of(text, "# sent_id = base-2")
    engine.change(path, 2, [((second, 12), (second, 18), "base-1")])  # the same sent_id twice
    engine.rescore(path)
    first_word = second + 2  # after its text line
    assert found(engine, path) == [("non-unique-sent-id", first_word, 0, len(text.split("\n")[first_word]),
                                    "non-unique-sent-id")]
    engine.change(path, 3, [((second, 12), (second, 18), "base-9")])
    engine.rescore(path)
    assert engine.diagnostics(path) == []


def test_an_edit_validates_only_the_segments_it_touched(tmp_path, monkeypatch):
    text = "".join(S1.replace("base-1", f"s{k}") for k in range(40))
    engine, path = opened(tmp_path, text)
    calls = []
    original = validation.validate_block
    monkeypatch.setattr(validation, "validate_block", lambda *a, **k: calls.append(a[0]) or original(*a, **k))
    cat = line_of(text, "2\tcat")
    start, end = cell(text, cat, 1)
    engine.change(path, 2, [((cat, start), (cat, end), "dog")])
    engine.rescore(path)
    assert len(calls) == 1 and "\tdog\t" in calls[0]
    assert {p.code for p in engine.diagnostics(path)} == {"text-form-mismatch", "text-extra-chars"}
    engine.rescore(path)  # nothing changed: nothing validated
    assert len(calls) == 1


def test_the_document_wide_pass_runs_again_only_when_a_blocks_facts_change(tmp_path, monkeypatch):
    """A one-cell edit that leaves every block's document facts (sent_ids,
    newdoc/newpar, features, enhanced graphs, lines) as they were keeps the
    last pass's findings; one that changes them (a sent_id) runs it again."""
    text = "".join(S1.replace("base-1", f"s{k}") for k in range(40)) + S1.replace("base-1", "s0")
    engine, path = opened(tmp_path, text)
    passes = []
    original = validation.validate_document
    monkeypatch.setattr(validation, "validate_document", lambda *a, **k: passes.append(1) or original(*a, **k))
    assert sum(p.code == "non-unique-sent-id" for p in engine.diagnostics(path)) == 1
    sleeps = line_of(text, "3\tsleeps")
    start, end = cell(text, sleeps, 3)
    engine.change(path, 2, [((sleeps, start), (sleeps, end), "NOUN")])  # UPOS: no document fact
    engine.rescore(path)
    assert passes == []
    assert sum(p.code == "non-unique-sent-id" for p in engine.diagnostics(path)) == 1
    last = max(k for k, line in enumerate(text.split("\n")) if line == "# sent_id = s0")
    engine.change(path, 3, [((last, 12), (last, 14), "s99")])  # a fact: the duplicate goes
    engine.rescore(path)
    assert passes == [1]
    assert not any(p.code == "non-unique-sent-id" for p in engine.diagnostics(path))


def test_an_edit_shows_the_other_sentences_findings_as_the_same_objects(tmp_path, monkeypatch):
    """What is shown is kept by runs of segments (`validation.Page`): after a
    one-cell edit only the edited page's findings are made again, those of
    every other page are the very objects shown before (the language server
    reuses their JSON by the object), and a line added above moves them."""
    monkeypatch.setattr(validation, "PAGE_SEGMENTS", 4)
    broken = S1.replace("\tNOUN\t", "\tNOUNX\t")
    text = "".join(broken.replace("base-1", f"s{k}") for k in range(24))
    engine, path = opened(tmp_path, text)
    before = [p for p in engine.diagnostics(path) if p.datum("test_id") == "unknown-upos"]
    assert len(before) == 24
    listed = []
    made = validation.Page
    monkeypatch.setattr(validation, "Page", lambda *a, **k: listed.append(1) or made(*a, **k))
    last = max(k for k, line in enumerate(text.split("\n")) if "\tNOUNX\t" in line)
    start, end = cell(text, last, 3)
    engine.change(path, 2, [((last, start), (last, end), "NOUN")])
    engine.rescore(path)
    after = [p for p in engine.diagnostics(path) if p.datum("test_id") == "unknown-upos"]
    assert listed == [1]  # the edited page alone
    assert len(after) == 23 and all(a is b for a, b in zip(after, before))
    engine.change(path, 3, [((0, 0), (0, 0), "# newpar\n")])  # every line moves down one
    engine.rescore(path)
    moved = [p for p in engine.diagnostics(path) if p.datum("test_id") == "unknown-upos"]
    assert [p.line for p in moved] == [p.line + 1 for p in after]
    assert not any(a is b for a, b in zip(moved, after))


@pytest.mark.parametrize("seed,limit", [(0, 1000), (1, 1000), (2, 1000), (3, 12), (4, 40)])
def test_edits_racing_rescores_with_pages_and_a_cap_that_cuts_them(tmp_path, monkeypatch, seed, limit):
    """The racing property again, on a document of many pages (pages of 3
    segments) with a cap of 2 diagnostics per code, so that the cap cuts
    pages and sentences' low-confidence listings in every way, and (limit
    12 or 40) a limit per document that cuts what the cap leaves: the
    diagnostics, the summaries of what is not shown among them, equal a
    fresh engine's."""
    from tests.support.incremental import VALIDATION_EDITS, open_pair, race_and_compare
    from tests.support.validation_inject import inject, repeat

    monkeypatch.setattr(validation, "PAGE_SEGMENTS", 3)
    gold = repeat(BASE, 4)
    (tmp_path / "x.gold.conllu").write_text(gold, encoding="utf-8")
    settings = Settings(max_diagnostics=2, max_diagnostics_per_document=limit,
                        validation=ValidationConfig(lang="en"))
    # Low confidence on every word whose MISC is empty.
    noisy = "\n".join(line[:-1] + "Conf=0.2" if line.count("\t") == 9 and line.endswith("\t_") else line
                      for line in inject(gold, seed).split("\n"))
    edits, compared = race_and_compare(tmp_path, noisy, VALIDATION_EDITS, 120, seed, settings)
    assert edits > 40 and compared > 5
    engine, path = open_pair(tmp_path, noisy, name="x", settings=settings)
    shown = engine.diagnostics(path)
    summaries = [p for p in shown if " more " in p.message]
    if limit < 1000:  # the limit cuts (with more kinds left out than it, their summaries only)
        assert len(shown) == max(limit, len(summaries)) and any("per document" in p.message for p in summaries)
    else:
        assert 30 < len(shown) < limit and not any("per document" in p.message for p in summaries)


def test_a_kept_document_wide_finding_follows_the_length_of_its_edited_line(tmp_path, monkeypatch):
    """The last pass's findings are kept when no block's facts changed, but
    one on a line that was edited is made again: it covers its line (the
    validator names the line alone), whose length changed."""
    text = "".join(S1.replace("base-1", f"s{k}") for k in range(3)) + S1.replace("base-1", "s0")
    engine, path = opened(tmp_path, text)
    passes = []
    original = validation.validate_document
    monkeypatch.setattr(validation, "validate_document", lambda *a, **k: passes.append(1) or original(*a, **k))
    lines = text.split("\n")
    word = max(k for k, line in enumerate(lines) if line == "# sent_id = s0") + 2  # its first word

    def repeated():
        return [(p.line, p.start, p.end) for p in engine.diagnostics(path) if p.code == "non-unique-sent-id"]

    assert repeated() == [(word, 0, len(lines[word]))]
    start, end = cell(text, word, 2)
    engine.change(path, 2, [((word, start), (word, end), "thee")])  # LEMMA: no document fact
    engine.rescore(path)
    assert passes == []
    assert repeated() == [(word, 0, len(lines[word]) + 1)]
    lines[word] = lines[word].replace("\tthe\t", "\tthee\t")
    fresh, fresh_path = opened(tmp_path, "\n".join(lines), name="en_fresh-ud-dev.conllu")
    assert found(engine, path) == found(fresh, fresh_path)


def test_a_problem_both_find_is_shown_once_with_both_codes(tmp_path):
    # A cycle: annoscore marks each HEAD of it, the validator says non-tree once.
    cyclic = S1.replace("VerbForm=Fin\t0\troot", "VerbForm=Fin\t2\troot")  # 2 -> 3 -> 2
    cyclic = cyclic.replace("4\t.\t.\tPUNCT\t.\t_\t3\tpunct", "4\t.\t.\tPUNCT\t.\t_\t0\troot")
    engine, path = opened(tmp_path, cyclic)
    problems = engine.diagnostics(path)
    whole = Counter(i.test_id for i in validate_text(cyclic, ValidationSettings(5, "en")).incidents)
    assert whole["non-tree"] == 1
    assert "non-tree" not in {p.code for p in problems}  # not shown on its own ...
    carried = [p for p in problems if p.datum("test_id") == "non-tree"]
    assert len(carried) == 1 and carried[0].code == "cycle"  # ... but with the first mark of the cycle
    first_word = line_of(cyclic, "1\tThe")
    assert carried[0].datum("ud_line") == first_word and carried[0].line != first_word
    assert sum(p.code == "cycle" for p in problems) == 2  # words 2 and 3
    # A line with nine columns: format-columns, which is number-of-columns too.
    short = S1.replace("\tnsubj\t_\t_\n", "\tnsubj\t_\n", 1)
    assert short != S1
    engine, path = opened(tmp_path, short)
    codes = [(p.code, p.datum("test_id")) for p in engine.diagnostics(path)]
    assert ("format-columns", "number-of-columns") in codes and ("number-of-columns", "number-of-columns") not in codes


def test_settings_level_language_and_exclusions(tmp_path):
    noun = S1.replace("\tNOUN\tNN\tNumber=Sing\t", "\tNOUN\tNN\tNumber=Sing|Zzz=Bar\t")
    # A UD file name gives the language: level 5 (the data of the installed udtools).
    engine, path = opened(tmp_path, noun)
    assert {p.code for p in engine.diagnostics(path)} == {"feature-unknown"}
    assert engine.new_notes(path) == []
    # No language: levels 1-3, and why, once.
    engine, path = opened(tmp_path, noun, "plain.conllu")
    assert engine.diagnostics(path) == []
    notes = engine.new_notes(path)
    assert len(notes) == 1 and "levels 4-5 need a language" in notes[0]
    assert engine.new_notes(path) == []
    # The project file's lang, when the name says none.
    (tmp_path / "annoscore.toml").write_text('lang = "en"\n[validation]\nexclude = ["METADATA"]\n')
    settings, problems = load_project(tmp_path)
    assert not problems and settings.validation == ValidationConfig(exclude=("METADATA",), project_lang="en")
    engine, path = opened(tmp_path, noun.replace("# text = The cat sleeps.\n", ""), "plain.conllu", settings)
    assert {p.code for p in engine.diagnostics(path)} == {"feature-unknown"}  # missing-text excluded
    # Off; and an explicit level.
    off = replace(settings, validation=replace(settings.validation, level=0))
    engine.set_settings(off)
    engine.rescore(path)
    assert engine.diagnostics(path) == []
    engine.set_settings(replace(settings, validation=replace(settings.validation, level=2, exclude=())))
    engine.rescore(path)
    assert {p.code for p in engine.diagnostics(path)} == {"missing-text"}
    # A language the data does not know: level 3, and why.
    engine, path = opened(tmp_path, noun, "plain.conllu",
                          Settings(validation=ValidationConfig(level=5, lang="xq")))
    assert engine.diagnostics(path) == [] and "'xq' is not in the UD language data" in engine.new_notes(path)[0]
    # A data folder that is not there: level 3, and why.
    engine, path = opened(tmp_path, noun, settings=Settings(
        validation=ValidationConfig(level=4, data_dir=str(tmp_path / "nowhere"))))
    assert engine.diagnostics(path) == [] and "does not exist" in engine.new_notes(path)[0]


def test_line_ends_and_a_byte_order_mark(tmp_path):
    engine, path = opened(tmp_path, S1.replace("\n", "\r\n"))
    last = len(S1.split("\n")) - 2
    assert found(engine, path) == [("non-unix-newline", last, 0, 0, "non-unix-newline")]
    # A byte-order mark: for the validator the first line is not a comment, nor the next ones.
    engine, path = opened(tmp_path, "\ufeff" + S1)
    assert [(p.code, p.line, p.datum("test_id")) for p in engine.diagnostics(path)] == [
        ("format-bom", 0, "invalid-line")] + [("misplaced-comment", k, "misplaced-comment") for k in (1, 2, 3)]
    # The mark alone on the first line: for the validator, a line of the next block.
    for text in ("\ufeff\n" + S1, "\ufeff\n\n" + S1):
        engine, path = opened(tmp_path, text)
        whole = validate_text(text, ValidationSettings(5, "en")).incidents
        assert whole and sorted((p.datum("ud_line", p.line), p.datum("test_id")) for p in engine.diagnostics(path)
                                if p.datum("test_id")) == sorted((i.line, i.test_id) for i in whole)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_edits_show_what_a_fresh_validation_shows(tmp_path, seed):
    """Edits of every kind (cells, lines, blank lines, sent_ids), each
    followed by a rescore: the engine shows exactly the validator's
    incidents of the text as it is now (the twins counted by their test id)."""
    from tests.support.validation_inject import inject, repeat

    rng = random.Random(seed)
    text = inject(repeat(BASE, 3), seed)
    engine, path = opened(tmp_path, text)
    settings = ValidationSettings(5, "en")
    for step in range(40):
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.4 and lines[k].count("\t") == 9:
            cells = lines[k].split("\t")
            c = rng.randrange(10)
            start = sum(len(x) + 1 for x in cells[:c])
            change = ((k, start), (k, start + len(cells[c])), rng.choice(["_", "NOUNX", "0", "obj", "x y", "1"]))
        elif choice < 0.6:
            change = ((k, 0), (k, 0), rng.choice(["\n", "# sent_id = base-1-r0\n", " \n", "# newpar\n"]))
        elif choice < 0.8 and k + 1 < len(lines):
            change = ((k, len(lines[k])), (k + 1, 0), "")
        else:
            change = ((k, 0), (k, len(lines[k])), "")
        (a, b), (c, d), new = change
        before = sum(len(x) + 1 for x in lines[:a]) + b
        after = sum(len(x) + 1 for x in lines[:c]) + d
        text = text[:before] + new + text[after:]
        engine.change(path, step + 2, [change])
        engine.rescore(path)
        shown = Counter((p.datum("ud_line", p.line), p.datum("test_id")) for p in engine.diagnostics(path)
                        if p.datum("test_id"))
        expected = Counter((i.line, i.test_id) for i in validate_text(text, settings).incidents)
        assert shown == expected, (step, sorted((shown - expected).elements())[:3],
                                   sorted((expected - shown).elements())[:3])


@pytest.mark.parametrize("seed", range(4))
def test_edits_racing_rescores_validate_as_a_fresh_engine(tmp_path, seed):
    """The racing property of the engine (tests/support/incremental.py) at
    validation level 5: edits arriving between a rescore and the reading of
    its results, several per rescore; whenever the latest text is rescored,
    its diagnostics (the validator's among them) equal a fresh engine's."""
    from tests.support.incremental import VALIDATION_EDITS, race_and_compare
    from tests.support.validation_inject import inject, repeat

    gold = repeat(BASE, 3)
    (tmp_path / "x.gold.conllu").write_text(gold, encoding="utf-8")
    settings = Settings(validation=ValidationConfig(lang="en"))
    edits, compared = race_and_compare(tmp_path, inject(gold, seed), VALIDATION_EDITS, 120, seed, settings)
    assert edits > 40 and compared > 5


def test_the_helpers_give_what_validating_here_gives(tmp_path, monkeypatch):
    from tests.support.validation_inject import inject, repeat

    text = inject(repeat(BASE, 20), 5)
    here, path = opened(tmp_path, text, settings=Settings(validation=ValidationConfig(level=5)))
    expected = found(here, path)
    assert len(expected) > 50
    monkeypatch.setattr(validation, "MIN_BLOCKS", 10)
    jobs = []
    original = validation_parts.BlockJob.__init__

    def counted(self, *args, **kwargs):
        jobs.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(validation_parts.BlockJob, "__init__", counted)
    if validation_parts.helpers() < 2:
        pytest.skip("one core: no helper processes")
    there, path = opened(tmp_path, text, settings=Settings(validation=ValidationConfig(level=5)))
    assert len(jobs) == 1 and jobs[0].error is None and jobs[0].count > 100
    assert found(there, path) == expected
    # Left to the background (as the language server does), then taken; the
    # helpers start once annoscore's own pass is done (not while it runs, as
    # in check, where the pass is not waited on first).
    from annoscore.server.engine.conllu.handler import ConlluHandler
    events: list[str] = []
    score = ConlluHandler._score
    monkeypatch.setattr(ConlluHandler, "_score", lambda *a: (events.append("pass"), score(*a))[1])
    monkeypatch.setattr(validation_parts.BlockJob, "__init__",
                        lambda self, *a, **k: (events.append("helpers"), original(self, *a, **k))[1])
    opened(tmp_path, text, settings=Settings(validation=ValidationConfig(level=5)))
    assert events == ["helpers", "pass"]
    events.clear()
    monkeypatch.setattr(validation, "BACKGROUND_SEGMENTS", 10)
    later = Engine(str(tmp_path), Settings(validation=ValidationConfig(level=5)))
    later.background_validation = True
    later.open(path, path, text, 1)
    later.rescore(path)
    assert events == ["pass", "helpers"]
    pending = later.validation_pending(path)
    assert pending is not None
    pending.result(timeout=60)
    later.rescore(path)
    assert later.validation_pending(path) is None and found(later, path) == expected


def test_the_helpers_yield_the_cpu_to_this_process():
    """Their first validation runs while this process makes and publishes
    its own first results, which the editor waits for."""
    import os
    if validation_parts.helpers() < 1 or not hasattr(os, "nice"):
        pytest.skip("no helper processes, or no process priorities here")
    theirs = validation_parts._get_pool().submit(os.nice, 0).result(timeout=60)
    assert theirs == min(19, os.nice(0) + validation_parts.HELPER_NICENESS) > os.nice(0)


def test_when_a_helper_fails_the_blocks_are_validated_here(tmp_path, monkeypatch):
    from tests.support.validation_inject import inject, repeat

    text = inject(repeat(BASE, 8), 6)
    expected = found(*opened(tmp_path, text))
    monkeypatch.setattr(validation, "MIN_BLOCKS", 10)
    monkeypatch.setattr(validation, "helpers", lambda: 2)

    def broken(*args, **kwargs):
        raise OSError("no processes here")

    monkeypatch.setattr(validation_parts, "_get_pool", broken)
    logged = []
    engine = Engine(str(tmp_path), Settings(), log=logged.append)
    path = str(tmp_path / "en_test-ud-dev.conllu")
    engine.open(path, path, text, 1)
    engine.rescore(path)
    assert found(engine, path) == expected
    monkeypatch.setattr(validation_parts, "_broken", False)


def test_a_job_cancelled_before_its_blocks_were_handed_over_ends_and_leaves_no_file(monkeypatch):
    """The blocks go to the helpers from a thread; a job cancelled while that
    thread still waits for them (a new text came) sends nothing more, ends,
    says it was cancelled and removes its file of blocks."""
    import threading

    started, release = threading.Event(), threading.Event()
    sent = []

    class Pool:
        def submit(self, *args):
            sent.append(args)
            raise AssertionError("nothing is to be sent after the cancel")

    def slow_pool():
        started.set()
        release.wait(10)
        return Pool()

    monkeypatch.setattr(validation_parts, "_get_pool", slow_pool)
    job = validation_parts.BlockJob([(S1, True, False)] * 3, ValidationSettings(3, None), tasks=3)
    assert started.wait(10) and job._path is not None
    path = job._path
    job.cancel()
    release.set()
    job.future.result(timeout=10)
    assert job.results() is None and job.error == "cancelled" and not sent
    assert not Path(path).exists()


# --- quick fixes -----------------------------------------------------------------------

FIXED = [
    ("unsorted-features", lambda t: t.replace("Mood=Ind|Number=Sing|Person=3", "Number=Sing|Mood=Ind|Person=3")),
    ("unsorted-feature-values", lambda t: t.replace("PronType=Art", "PronType=Dem,Art", 1)),
    ("missing-text", lambda t: t.replace("# text = The cat sleeps.\n", "")),
    ("text-form-mismatch", lambda t: t.replace("# text = The cat sleeps.", "# text = The dog sleeps.")),
    ("text-extra-chars", lambda t: t.replace("# text = The cat sleeps.", "# text = The cat sleeps. Zzz")),
    ("text-trailing-whitespace", lambda t: t.replace("# text = The cat sleeps.", "# text = The cat sleeps. ")),
    ("nospaceafter-yes", lambda t: t.replace("\tSpaceAfter=No", "\tNoSpaceAfter=Yes|SpaceAfter=No")),
    ("spaceafter-value", lambda t: t.replace("\tSpaceAfter=No", "\tSpaceAfter=no")),
    ("spaceafter-value", lambda t: t.replace("3\tnsubj\t_\t_", "3\tnsubj\t_\tSpaceAfter=Yes")),
    ("misc-attr-typo", lambda t: t.replace("\tSpaceAfter=No", "\tspaceafter=No")),
    ("misc-extra-space", lambda t: t.replace("\tSpaceAfter=No", "\tSpaceAfter =No")),
    ("trailing-whitespace", lambda t: t.replace("\tcat\tcat\t", "\tcat\tcat \t")),
    ("leading-whitespace", lambda t: t.replace("\tcat\tcat\t", "\tcat\t cat\t")),
]


@pytest.mark.parametrize("code,damage", FIXED, ids=[c for c, _ in FIXED])
def test_each_quick_fix_removes_its_problem(tmp_path, code, damage):
    text = damage(S1)
    engine, path = opened(tmp_path, text, "plain.conllu")  # (levels 1-3: the language's lists aside)
    problems = [p for p in engine.diagnostics(path) if p.code == code]
    assert problems, f"the damage made no {code}"
    fix = fix_for(engine, path, code, problems[0].line, problems[0].start)
    assert fix is not None
    lines = text.split("\n")
    for l1, c1, l2, c2, new in sorted(fix.edits, reverse=True):
        before = sum(len(x) + 1 for x in lines[:l1]) + c1
        after = sum(len(x) + 1 for x in lines[:l2]) + c2
        text = text[:before] + new + text[after:]
        lines = text.split("\n")
        engine.change(path, 2, [((l1, c1), (l2, c2), new)])
    engine.rescore(path)
    assert code not in {p.code for p in engine.diagnostics(path)}
    assert engine.diagnostics(path) == [] or code in ("nospaceafter-yes",), \
        [(p.code, p.message) for p in engine.diagnostics(path)]


def test_content_problems_get_no_fix(tmp_path):
    text = S1.replace("\tNOUN\tNN\t", "\tNOUNX\tNN\t")
    engine, path = opened(tmp_path, text)
    problem = next(p for p in engine.diagnostics(path) if p.code == "unknown-upos")
    assert fix_for(engine, path, "unknown-upos", problem.line, problem.start) is None


# --- completion from the language's lists (levels 4-5) ---------------------------------------


def test_completion_offers_the_languages_features_subtypes_and_auxiliaries(tmp_path):
    from annoscore.server.engine.completion import complete

    engine, path = opened(tmp_path, BASE)  # en_…: validated at level 5 with the installed data
    cat = line_of(BASE, "2\tcat")
    start, end = cell(BASE, cat, 7)
    deprels = {c.value: c.detail for c in complete(engine, path, cat, start).candidates}
    assert deprels["nmod:poss"] == deprels["obl:tmod"] == "subtype documented for [en]"
    assert "nmod:xyz" not in deprels
    # FEATS: the item under the cursor is replaced; features the cell has are not offered.
    start, end = cell(BASE, cat, 5)  # Number=Sing
    offered = complete(engine, path, cat, start + 2)
    assert (offered.start, offered.end) == (start, end)
    values = [c.value for c in offered.candidates]
    assert "Number=Plur" in values and "Number=Sing" in values and "Mood=Ind" not in values  # (not with NOUN)
    text = BASE.replace("2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t", "2\tcat\tcat\tNOUN\tNN\tAbbr=Yes|Number=Sing\t", 1)
    engine, path = opened(tmp_path, text)
    start, end = cell(text, cat, 5)
    offered = complete(engine, path, cat, end)
    assert (offered.start, offered.end) == (start + len("Abbr=Yes|"), end)
    assert not [c for c in offered.candidates if c.value.startswith("Abbr=")]
    # Each value offered is one the validator accepts on that word.
    for candidate in offered.candidates:
        trial = text.replace("Abbr=Yes|Number=Sing\t", "Abbr=Yes|" + candidate.value + "\t", 1)
        incidents = validate_text(trial, ValidationSettings(level=4, lang="en")).incidents
        assert not [i for i in incidents if i.test_id.startswith("feature")], candidate.value
    # LEMMA of an AUX: the language's auxiliaries.
    wo = line_of(BASE, "2\two")
    lemmas = [c.value for c in complete(engine, path, wo, cell(BASE, wo, 2)[0]).candidates]
    assert "will" in lemmas and "be" in lemmas and "sleep" not in lemmas
    assert complete(engine, path, cat, cell(BASE, cat, 2)[0]) is None  # (not an AUX)
    # Without the language: the universal lists only, nothing for FEATS.
    engine, path = opened(tmp_path, BASE, name="plain.conllu")
    assert complete(engine, path, cat, cell(BASE, cat, 5)[0]) is None
    deprels = {c.value: c.detail for c in complete(engine, path, cat, cell(BASE, cat, 7)[0]).candidates}
    assert "obl:tmod" not in deprels and deprels["nmod:poss"] == "subtype used in this file"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_pages_and_segments_to_look_at_found_in_c_are_those_found_one_by_one(tmp_path, monkeypatch, seed):
    """After each random edit and rescore of a document of many pages (of 3
    segments): the pages made again from what the last pages were made of
    (`validation.pages`) are those made from scratch, and every other page
    is the object it was; the segments `_not_current` finds from the last
    document-wide pass are those it finds by looking at every segment; and a
    document-wide pass run again keeps the problem of every incident it
    found before on a segment that stayed (`_placed_problems`), each equal
    to one made afresh."""
    from tests.support.validation_inject import inject, repeat

    monkeypatch.setattr(validation, "PAGE_SEGMENTS", 3)
    monkeypatch.setattr(validation, "_CHANGED_BLOCKS_COMPARED", 0 if seed == 3 else 16)  # 3: a whole pass each time
    rng = random.Random(seed)
    text = inject(repeat(BASE, 4), seed)
    engine, path = opened(tmp_path, text)
    document = engine.documents[path]
    state = document.results.validation
    for step in range(30):
        before = list(validation.pages(document.store, state))
        last = state.last_pass
        lines = text.split("\n")
        k = rng.randrange(len(lines))
        if rng.random() < 0.7 and lines[k].count("\t") == 9:
            cells = lines[k].split("\t")
            c = rng.randrange(10)
            start = sum(len(x) + 1 for x in cells[:c])
            change = ((k, start), (k, start + len(cells[c])), rng.choice(["_", "NOUNX", "0", "obj", "NOUN"]))
        else:
            change = ((k, 0), (k, 0), rng.choice(["\n", "# newpar\n", "# sent_id = r\n"]))
        (a, b), (c2, d), new = change
        at = sum(len(x) + 1 for x in lines[:a]) + b
        text = text[:at] + new + text[sum(len(x) + 1 for x in lines[:c2]) + d:]
        engine.change(path, step + 2, [change])
        segments = document.store.segments
        joins = validation.bom_line_joins(segments)
        assert validation._not_current(segments, state.prepared, joins, state.last_pass) == \
            validation._not_current(segments, state.prepared, joins)
        engine.rescore(path)
        engine.diagnostics(path)
        made = validation.pages(document.store, state)
        validations = [s.validation for s in segments]
        firsts = [s.first_line for s in segments]
        size = validation.PAGE_SEGMENTS
        for n, page in enumerate(made):
            fresh = validation._page(segments[n * size:(n + 1) * size], validations[n * size:(n + 1) * size],
                                     firsts[n * size:(n + 1) * size], state.prepared)
            assert (page.problems, page.unfolded, page.folds, page.settled) == \
                (fresh.problems, fresh.unfolded, fresh.folds, fresh.settled)
            same = n < len(before) and all(v is w for v, w in zip(before[n].validations, fresh.validations)) \
                and len(before[n].validations) == len(fresh.validations) and before[n].firsts == fresh.firsts \
                and before[n].settled
            assert (page is before[n]) == same if len(made) == len(before) else True
        assert validation._not_current(segments, state.prepared, joins, state.last_pass) == []
        if last is not None and state.last_pass.layout[2] == last.layout[2]:
            old = dict(zip(last.incidents, last.problems))
            for incident, problem in zip(state.last_pass.incidents, state.last_pass.problems):
                assert problem == validation.problem_of(incident, document.store.line(incident.line))
                where = document.store.segment_at(incident.line)
                if seed == 3 and incident in old and last.segments[where] is segments[where]:
                    assert problem is old[incident]
