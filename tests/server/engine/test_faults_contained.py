"""A fault in one sentence's checks costs that sentence only.

A check made to fail on one sentence (as a bug of ours would) gives one
``internal-error`` diagnostic on it; every other sentence keeps what a
fresh run without the fault gives it, in ``check`` (which runs the
engine the language server runs).  And the fault the fuzzing found: a
U+FFFD in a column past the tenth, on which the official validator fails.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import annoscore.scorer.validation.block as block_module
from annoscore.server.cli import main

SCORER_TESTS = Path(__file__).resolve().parents[2] / "scorer"

from tests.support.validation_inject import inject, repeat  # noqa: E402

BASE = (SCORER_TESTS / "data" / "validation_base.conllu").read_text(encoding="utf-8")


def checked(capsys, path: Path, *options: str) -> tuple[int, list[dict]]:
    status = main(["check", "--json", "--lang", "en", "--level", "5", str(path), *options])
    out = capsys.readouterr().out
    return status, json.loads(out)["files"][0]["diagnostics"]


def sentence_spans(text: str) -> list[tuple[int, int, str]]:
    """(first line, stop line, sent_id) of each sentence (1-based lines, as check's JSON)."""
    spans, first, sid = [], None, None
    for number, line in enumerate(text.split("\n"), 1):
        if line.strip() and first is None:
            first = number
        if line.startswith("# sent_id = "):
            sid = line[len("# sent_id = "):]
        if not line.strip() and first is not None:
            spans.append((first, number, sid))
            first, sid = None, None
    return spans


def test_a_fault_in_one_sentence_costs_that_sentence_only(capsys, tmp_path, monkeypatch):
    text = inject(repeat(BASE, 4), 1)
    path = tmp_path / "en_faulty-ud-test.conllu"
    path.write_text(text, encoding="utf-8")
    _, fresh = checked(capsys, path)
    spans = sentence_spans(text)
    # A sentence in the middle with findings of the validator's, its sent_id unique.
    ids = [sid for _, _, sid in spans]
    first, stop, faulty = next(
        (a, b, sid) for a, b, sid in spans[len(spans) // 3:]
        if sid and ids.count(sid) == 1 and any(a <= d["line"] < b and "test_id" in d for d in fresh))

    real = block_module.check_roots

    def failing_check_roots(s, *args):
        if f"# sent_id = {faulty}" in s.lines:
            raise ZeroDivisionError("injected")
        return real(s, *args)

    monkeypatch.setattr(block_module, "check_roots", failing_check_roots)
    status, faulted = checked(capsys, path)

    errors = [d for d in faulted if d["code"] == "internal-error"]
    assert len(errors) == 1, errors
    assert first <= errors[0]["line"] < stop
    assert "ZeroDivisionError: injected" in errors[0]["message"]
    assert status == 1

    def outside(diagnostics: list[dict]) -> list[dict]:
        return [d for d in diagnostics if not first <= d["line"] < stop]

    # Every other sentence: exactly what the fresh run gives it.
    assert outside(faulted) == outside(fresh)
    assert len(outside(fresh)) > 20
    # The faulty sentence: no validator finding (they are not trusted), annoscore's own kept.
    inside = [d for d in faulted if first <= d["line"] < stop and d["code"] != "internal-error"]
    assert not [d for d in inside if "test_id" in d]


def test_a_replacement_character_past_the_tenth_column_is_reported_not_a_crash(capsys, tmp_path):
    path = tmp_path / "en_fffd-ud-test.conllu"
    path.write_text("# sent_id = 1\n# text = x\n1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_\t\ufffd\n\n"
                    "# sent_id = 2\n# text = y\n1\ty\ty\tNOUN\t_\t_\t0\troot\t_\t_\n\n", encoding="utf-8")
    status, diagnostics = checked(capsys, path)
    assert status == 1
    assert not [d for d in diagnostics if d["code"] == "internal-error"]
    utf = [d for d in diagnostics if d.get("test_id") == "invalid-utf"]
    assert len(utf) == 1 and "column 11.character[0]" in utf[0]["message"] and utf[0]["line"] == 3
