"""Every code's example (its reference entry's, `scorer.code_example`) produces that code.

Each example is run as its entry says: ``annoscore check`` with the entry's
command line (the validation level the entry names, the gold and project
files it shows) in a folder holding just those files; for an example
shown in the editor, the language server's engine with the settings the
entry names; for a code only another command finds (its message naming no
code), the file read as ``leaks`` and ``split`` read it, or scored as
``evaluate`` scores it.  What it reports must be exactly the code (a validator entry:
the test id) and the codes the example declares come along with it
(``also``): an example that stops producing its code, or starts producing
others, fails here.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
from pathlib import Path

import pytest

from annoscore.scorer.code_example import Example
from annoscore.server.cli import main
from annoscore.server.code_entries import all_entries, example_of, example_level
from annoscore.server.engine.presentation import IN_EDITOR

ENTRIES = [e for e in all_entries() if example_of(e) is not None]


def write_files(folder: Path, example: Example) -> Path:
    """The example's files in ``folder``; the path of the file it is about."""
    for name, text in ((example.name, example.text), *example.files,
                       *(((example.gold_name(), example.gold),) if example.gold is not None else ())):
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        # (surrogate escapes stand for bytes that are not UTF-8, as an example of them needs)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return folder / example.name


def reported_by_check(folder: Path, example: Example, level: int) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main([*example.command(level), "--output-format", "json"])
    finally:
        os.chdir(here)
    return [d for f in json.loads(out.getvalue())["files"] for d in f["diagnostics"]]


def reported_in_the_editor(folder: Path, example: Example, level: int) -> list[dict]:
    from annoscore.server.config import ValidationConfig, load_project
    from annoscore.server.engine import Engine

    settings, problems = load_project(folder)
    wanted = dict(example.editor or ())
    keeps_lone_cr = wanted.pop("keeps_lone_cr", False)
    settings = dataclasses.replace(settings, **wanted, validation=ValidationConfig(level=level))
    path = str(write_files(folder, example))
    engine = Engine(str(folder), settings, presentation=IN_EDITOR)  # as the language server has it
    engine.lone_cr_ends_lines = not keeps_lone_cr  # as the server sets it for its client (server.lsp.server)
    # (the text as the client sends it: newline="" keeps a CR)
    engine.open(path, path, (folder / example.name).read_bytes().decode("utf-8", "replace"), 1)
    engine.rescore(path)
    found = [{"code": "config"} for _ in problems]  # the language server shows these on the project file
    for problem in engine.diagnostics(path):
        found.append({"code": problem.code, **({"test_id": problem.datum("test_id")}
                                               if problem.datum("test_id") else {})})
    return found


def read_as_leaks_does(folder: Path, example: Example, level: int) -> list[dict]:
    from annoscore.scorer.hygiene.items import read_items

    return [{"code": p.code, "message": p.message} for p in read_items(str(folder / example.name)).problems]


def evaluated(folder: Path, example: Example, level: int) -> list[dict]:
    """What evaluate refuses the pair for (segmentation files: the lines cannot be paired)."""
    from annoscore.scorer.segmentation.evaluate import evaluate_files

    error = evaluate_files(folder / example.name, folder / example.gold_name()).pairing_error
    return [] if error is None else [{"code": error.code, "message": error.message}]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.anchor for e in ENTRIES])
def test_the_example_yields_exactly_its_code(tmp_path, entry):
    example = example_of(entry)
    level = example_level(entry)
    if level >= 4:
        pytest.importorskip("udtools", reason="levels 4-5 read udtools' language data (the test extras)")
    write_files(tmp_path, example)
    run = read_as_leaks_does if example.found_by == "leaks" else \
        evaluated if example.found_by == "evaluate" else \
        reported_in_the_editor if example.editor is not None else reported_by_check
    found = run(tmp_path, example, level)
    if entry.kind == "annoscore":
        codes = {d["code"] for d in found}
    else:  # the validator's finding under its test id; annoscore's own findings of the same input as codes
        codes = {d.get("test_id") or d["code"] for d in found}
    said = [(d["code"], d.get("test_id"), d.get("message", "")[:80]) for d in found]
    assert entry.code in codes, said
    assert codes == {entry.code, *example.also}, said


# The entries without an example, each for its reason: no input reaches internal-error, nor the validator's
# three ids (scorer.validation.incident.UNREACHABLE).  Grow this list only with a reason.
WITHOUT_EXAMPLE = {"internal-error",
                   "invalid-word-interval", "extra-empty-line", "invalid-feature-value"}


def test_every_entry_has_an_example_but_the_listed():
    """A test that runs no example guards nothing: the entries without one are exactly those listed."""
    assert {e.anchor for e in all_entries() if example_of(e) is None} == WITHOUT_EXAMPLE


def test_every_entry_says_why_it_matters_and_how_to_fix_it():
    assert [e.anchor for e in all_entries() if not e.details["why"] or not e.details["fix"]] == []


def test_the_unreachable_ids_are_the_validators_unreachable():
    from annoscore.scorer.validation.incident import UNREACHABLE

    assert UNREACHABLE <= WITHOUT_EXAMPLE
