"""An unparsed sentence in the editor: one ``unparsed`` diagnostic carrying
the UD validator's findings on its missing HEADs (issue 25, friction), see
server/engine/conllu/unparsed_fold.py.

Held here, at the engine: the folded findings are exactly those shown one by
one without folding (nothing lost, nothing added), each at its place with
its test id and message; what does not follow from the missing HEADs stays
on its cell; the setting, the severities and the summary of many unparsed
sentences; ``check`` keeps every finding (udvalidate's parity); edits that
parse and unparse sentences show what a fresh engine shows.  The wire is
held in tests/server/lsp/test_lsp_validation.py."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from annoscore.scorer.problems import Problem
from annoscore.scorer.validation import RULES, TESTS, ValidationSettings, validate_text
from annoscore.server.config import Settings, ValidationConfig
from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import Presentation
from annoscore.server.engine.conllu import unparsed_fold
from annoscore.server.engine.conllu.handler import UNPARSED_CAP
from annoscore.server.textstore import TextStore

PARSED = """# sent_id = a1
# text = It runs.
1\tIt\tit\tPRON\tPRP\tCase=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs\t2\tnsubj\t_\t_
2\truns\trun\tVERB\tVBZ\tMood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t0\troot\t_\tSpaceAfter=No
3\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_

"""


def unparsed(sent_id: str, form: str = "runs") -> str:
    """A sentence not parsed yet (HEAD and DEPREL _), its second FORM ``form``."""
    return (f"# sent_id = {sent_id}\n# text = It {form}.\n"
            "1\tIt\tit\tPRON\tPRP\tCase=Nom|Gender=Neut|Number=Sing|Person=3|PronType=Prs\t_\t_\t_\t_\n"
            f"2\t{form}\trun\tVERB\tVBZ\tMood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t_\t_\t_\tSpaceAfter=No\n"
            "3\t.\t.\tPUNCT\t.\t_\t_\t_\t_\t_\n\n")


# A parsed sentence with a finding, an unparsed one, and an unparsed one
# with a FORM not in NFC (a level-1 finding that stays on its cell).
DEMO = PARSED.replace("PUNCT\t.\t_", "PUNCTX\t.\t_") + unparsed("a2") + unparsed("a3", "rune\u0301")
SETTINGS = Settings(validation=ValidationConfig(level=5, lang="en"))


def shown(tmp_path: Path, text: str, fold: bool, settings: Settings = SETTINGS) -> list[Problem]:
    engine = Engine(str(tmp_path), settings, presentation=Presentation(folds_unparsed=fold))  # (the editor's: fold)
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, text, 1)
    engine.rescore(path)
    return engine.diagnostics(path)


def key(p: Problem) -> tuple:
    return (p.code, p.line, p.start, p.end, p.message)


def related_key(r) -> tuple:
    """A related entry as the finding it stands for: (test id, line, start, end, message)."""
    code, _, message = r.message.partition(": ")
    return (code, r.line, r.start, r.end, message)


def test_the_folded_findings_are_exactly_those_shown_one_by_one_otherwise(tmp_path):
    each = shown(tmp_path, DEMO, fold=False)
    folded = shown(tmp_path, DEMO, fold=True)
    unparsed_each = [p for p in each if p.code == "unparsed"]
    unparsed_folded = [p for p in folded if p.code == "unparsed"]
    assert len(unparsed_each) == len(unparsed_folded) == 2 and not any(p.related for p in unparsed_each)
    # The same diagnostics but the findings folded, and the unparsed ones carrying them.
    gone = {key(p) for p in each} - {key(p) for p in folded} - {key(p) for p in unparsed_each}
    carried = [related_key(r) for p in unparsed_folded for r in p.related]
    assert sorted(carried) == sorted(gone) and len(carried) == len(set(carried)) == 12
    assert {k[0] for k in gone} == {"invalid-head", "unknown-head"}
    assert {key(p) for p in folded} - {key(p) for p in unparsed_folded} == \
        {key(p) for p in each} - gone - {key(p) for p in unparsed_each}
    # Each carries its own sentence's, in order, and says how many.
    for before, after in zip(unparsed_each, unparsed_folded):
        lines = [r.line for r in after.related]  # (the unparsed diagnostic is on the first word)
        assert lines == [before.line, before.line, before.line + 1, before.line + 1, before.line + 2, before.line + 2]
        assert after.message.startswith(before.message + "; folded here: the UD validator's 6 findings on the "
                                        "missing HEADs (invalid-head, unknown-head; ")
        assert (after.line, after.start, after.end, after.severity) == \
            (before.line, before.start, before.end, before.severity)
    # What does not follow from the missing HEADs stays on its cell: the
    # parsed sentence's UPOS, the unparsed one's FORM not in NFC.
    stays = {(p.code, p.line) for p in folded if p.code != "unparsed"}
    assert ("unknown-upos", 4) in stays and ("unicode-normalization", 15) in stays


def test_check_lists_every_finding_as_udvalidate_does(tmp_path):
    path = tmp_path / "x.conllu"
    path.write_text(DEMO, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "annoscore", "check", "--lang", "en", "--level", "5", "--json",
                          str(path)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert out.returncode == 1, out.stderr
    found = sorted((d["line"] - 1, d["test_id"]) for d in json.loads(out.stdout)["files"][0]["diagnostics"]
                   if "test_id" in d)
    incidents = validate_text(DEMO, ValidationSettings(5, "en")).incidents
    assert found == sorted((i.line, i.test_id) for i in incidents)
    assert sum(code == "invalid-head" for _, code in found) == 6
    assert not any("folded" in d["message"] for d in json.loads(out.stdout)["files"][0]["diagnostics"])


def test_the_setting_off_shows_each(tmp_path):
    off = replace(SETTINGS, fold_unparsed_findings=False)
    assert [key(p) for p in shown(tmp_path, DEMO, fold=True, settings=off)] == \
        [key(p) for p in shown(tmp_path, DEMO, fold=False)]


def test_codes_turned_off_are_not_folded_and_nothing_folds_into_an_unparsed_turned_off(tmp_path):
    quiet = replace(SETTINGS, severities={"unknown-head": None})
    folded = [p for p in shown(tmp_path, DEMO, fold=True, settings=quiet) if p.code == "unparsed"]
    assert {related_key(r)[0] for p in folded for r in p.related} == {"invalid-head"}
    assert "3 findings on the missing HEADs (invalid-head; " in folded[0].message
    # No unparsed diagnostic to fold into: the findings are shown one by one.
    hidden = replace(SETTINGS, severities={"unparsed": None})
    assert [key(p) for p in shown(tmp_path, DEMO, fold=True, settings=hidden)] == \
        [key(p) for p in shown(tmp_path, DEMO, fold=False, settings=hidden)]


def test_many_unparsed_sentences_fold_into_their_summary_with_a_bounded_list(tmp_path):
    n = UNPARSED_CAP + 5
    text = PARSED + "".join(unparsed(f"u{k}") for k in range(n))
    each = shown(tmp_path, text, fold=False)
    folded = shown(tmp_path, text, fold=True)
    assert sum(p.code == "invalid-head" for p in each) == 3 * n and not any(p.code == "invalid-head" for p in folded)
    summary, = [p for p in folded if p.code == "unparsed"]
    assert f"{n} sentences are not parsed yet" in summary.message
    assert f"folded here: the UD validator's {6 * n} findings on the missing HEADs" in summary.message
    listed, rest = summary.related[:-1], summary.related[-1]
    assert len(listed) == unparsed_fold.RELATED_SHOWN
    assert [related_key(r) for r in listed] == [key(p) for p in each if p.code in ("invalid-head", "unknown-head")
                                                ][:unparsed_fold.RELATED_SHOWN]
    assert rest.message.startswith(f"{6 * n - unparsed_fold.RELATED_SHOWN} more folded findings")
    assert {key(p) for p in folded} - {key(summary)} == \
        {key(p) for p in each if p.code not in ("invalid-head", "unknown-head", "unparsed")}


def test_a_sentence_with_some_heads_is_not_unparsed_and_folds_nothing(tmp_path):
    partial = unparsed("a2").replace("3\t.\t.\tPUNCT\t.\t_\t_\t_", "3\t.\t.\tPUNCT\t.\t_\t2\tpunct")
    each, folded = shown(tmp_path, PARSED + partial, False), shown(tmp_path, PARSED + partial, True)
    assert [key(p) for p in each] == [key(p) for p in folded]
    assert any(p.datum("test_id") == "invalid-head" for p in folded) and not any(p.related for p in folded)


def test_only_findings_on_the_heads_fold_and_no_document_wide_check_reports_one():
    """The rule (unparsed_fold's docstring): invalid-head and the SYNTAX
    tests fold; FEATS, UPOS, metadata, DEPS and level-1 findings stay, even
    in an unparsed sentence (udtools reports none of them there today, but
    the rule does not hang on it)."""
    assert unparsed_fold.FOLDED_IDS == {"invalid-head"} | {t for t, (_, c, _) in TESTS.items() if c == "SYNTAX"}
    for test_id in ("invalid-feature", "unknown-upos", "text-form-mismatch", "missing-text", "invalid-deps",
                    "unicode-normalization", "trailing-whitespace", "feature-value-unknown", "misc-attr-typo"):
        assert test_id not in unparsed_fold.FOLDED_IDS
    # Only block-level checks report folded ids (the engine folds a segment's findings).
    for test_id in unparsed_fold.FOLDED_IDS:
        rule = RULES[test_id]
        assert not any(f.startswith("annoscore.scorer.validation.document.") for f in (rule.function, *rule.also))
    store = TextStore(PARSED + unparsed("a2"))
    segment = store.segments[1]
    from annoscore.server.engine.conllu.analysis import analyze_segment
    segment.analysis = (0.8, analyze_segment(segment, 0.8)[0])
    line = segment.first_line
    problems = (Problem("invalid-feature", "f", line + 2, 40, 47), Problem("invalid-head", "h", line + 2, 60, 61),
                Problem("text-form-mismatch", "t", line + 1, 0, 5), Problem("unknown-head", "u", line + 4, 20, 21))
    kept, folds = unparsed_fold.split(segment, problems, line)
    assert [p.code for p in kept] == ["invalid-feature", "text-form-mismatch"]
    assert folds == [(line, (problems[1], problems[3]))]
    # Not analysed yet: not known.
    segment.analysis = None
    assert unparsed_fold.split(segment, problems, line) is None


@pytest.mark.parametrize("seed", range(3))
def test_edits_that_parse_and_unparse_sentences_show_what_a_fresh_engine_shows(tmp_path, seed):
    """The racing property (tests/support/incremental.py) with folding on:
    random edits, among them whole sentences unparsed and parsed again,
    several per rescore; each rescore of the latest text shows a fresh
    engine's diagnostics, messages and related information included."""
    from tests.support.incremental import PARSING_EDITS, race_and_compare

    text = PARSED + unparsed("b1") + PARSED.replace("a1", "b2") + unparsed("b3") + PARSED.replace("a1", "b4")
    edits, compared = race_and_compare(tmp_path, text, PARSING_EDITS, 150, seed, SETTINGS, fold=True)
    assert edits > 50 and compared > 5
