"""The incremental-equals-fresh property, for the tests and for the fuzz
script (scripts/fuzz_incremental.py): random edits of a CoNLL-U document
applied to an engine that has it open, compared with a fresh engine opening
the edited text."""

from __future__ import annotations

import random

from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.presentation import Presentation
from annoscore.server.engine.conllu.handler import results_of


def open_pair(tmp_path, pred_text, name="x", settings=None, fold=False):
    # (fold: as the language server's engine, see server.engine.conllu.unparsed_fold)
    engine = Engine(str(tmp_path), settings or Settings(), presentation=Presentation(folds_unparsed=fold))
    path = str(tmp_path / f"{name}.conllu")
    engine.open(path, path, pred_text, 1)
    engine.rescore(path)
    return engine, path


def snapshot(engine, path):
    """Everything a rescore shows: the counts, the diagnostics (with the UD
    validator's test id and line that they carry) and the score payload."""
    document = engine.documents[path]
    diagnostics = sorted((p.code, p.line, p.start, p.end, p.message, str(p.datum("test_id")),
                          p.datum("ud_line", -1), tuple((r.line, r.start, r.end, r.message) for r in p.related))
                         for p in engine.diagnostics(path))
    score = results_of(document).score
    return (score.totals.values if score else None, diagnostics, engine.score(path))


EDITS = [
    ("cell", 3, ["NOUN", "VERB", "X"]),
    ("cell", 6, ["0", "1", "2", "_", "x"]),
    ("cell", 7, ["root", "dep", "obl:arg"]),
    ("cell", 1, ["dog", "dg", "ab"]),
    ("cell", 9, ["_", "Conf=0.1", "Conf=UPOS:zz"]),
    ("line", None, ["", "# note", "junk line"]),
    ("delete", None, [None]),  # a whole line goes: sentences merge, a token vanishes
]


def copies(text: str, n: int) -> str:
    """``n`` copies of a document, each sent_id made distinct: the same
    sentence texts over and over, as in a treebank made of copies."""
    import re
    return "".join(re.sub(r"(# sent_id = \S+)", lambda m: f"{m.group(1)}-c{i}", text) for i in range(n))


TEXT_EDITS = EDITS + [("cell", 1, ["a", "b", "The", "cat", "sat", "xyz", "do", "n't"]),
                      ("cell", 0, ["1", "2", "3", "1-2"])]
# What changes the UD validator's view of the document as a whole, too: sent_ids
# used twice, texts, paragraphs, features out of order, blank lines.
VALIDATION_EDITS = TEXT_EDITS + [("line", None, ["# sent_id = base-1-r0", "# text = The cat sleeps.", "# newpar",
                                                 " ", "", "# newdoc"]),
                                 ("cell", 5, ["Number=Sing|Case=Nom", "_", "Foo=Bar"]),
                                 ("cell", 9, ["SpaceAfter=No", "SpaceAfter=no", "_"])]
# Sentences parsed and unparsed whole (see server.engine.conllu.unparsed_fold).
PARSING_EDITS = VALIDATION_EDITS + [("heads", None, ["_", "tree"])] * 3


def random_edit(text: str, edits: list, rng: random.Random) -> tuple[tuple, str, str]:
    """One random edit of ``text`` (see EDITS): the change as the engine
    takes it, the edited text, and what kind of edit it was."""
    lines = text.split("\n")
    kind, column, values = rng.choice(edits)
    value = rng.choice(values)
    token_lines = [n for n, line in enumerate(lines) if line.count("\t") == 9]
    if kind == "cell" and token_lines:  # on a token line
        k = rng.choice(token_lines)
        cells = lines[k].split("\t")
        start = sum(len(c) + 1 for c in cells[:column])
        change = ((k, start), (k, start + len(cells[column])), value)
        cells[column] = value
        lines[k] = "\t".join(cells)
    elif kind == "heads" and token_lines:  # every HEAD of a sentence: _ (not parsed yet), or a tree again
        k = rng.choice(token_lines)
        first, last = k, k
        while first > 0 and lines[first - 1].count("\t") == 9:
            first -= 1
        while last + 1 < len(lines) and lines[last + 1].count("\t") == 9:
            last += 1
        rows = []
        for n in range(first, last + 1):
            cells = lines[n].split("\t")
            if "-" not in cells[0] and "." not in cells[0]:
                cells[6], cells[7] = ("_", "_") if value == "_" else (("0", "root") if n == first else ("1", "dep"))
            rows.append("\t".join(cells))
        change = ((first, 0), (last, len(lines[last])), "\n".join(rows))
        lines[first:last + 1] = rows
    elif kind == "delete" and len(lines) > 1:
        k = rng.randrange(len(lines) - 1)
        change = ((k, 0), (k + 1, 0), "")
        del lines[k]
    else:
        k = rng.randrange(len(lines))
        change = ((k, 0), (k, 0), str(value or "") + "\n")
        lines.insert(k, str(value or ""))
    return change, "\n".join(lines), f"{kind} {value!r}"


def edit_and_compare(tmp_path, text: str, edits: list, steps: int, seed: int) -> None:
    """Random edits of ``text`` (see EDITS), each applied to an engine that
    has the document open; after each, its results must equal those of a
    fresh engine opening the edited text."""
    rng = random.Random(seed)
    engine, path = open_pair(tmp_path, text)
    for step in range(steps):
        change, text, what = random_edit(text, edits, rng)
        engine.change(path, step + 2, [change])
        engine.rescore(path)
        fresh, fresh_path = open_pair(tmp_path, text, name="x")
        assert snapshot(engine, path) == snapshot(fresh, fresh_path), (step, what)


def race_and_compare(tmp_path, text: str, edits: list, steps: int, seed: int,
                     settings=None, fold: bool = False) -> tuple[int, int]:
    """Random edits with the engine's other calls interleaved as an editor
    and the language server interleave them: edits arriving before the last
    rescore's results were read (diagnostics, score, report between an edit
    and its rescore), several edits per rescore, rescores with nothing
    changed.  Whenever the engine has rescored the latest text, its results
    must equal a fresh engine's.  Returns how many edits were made and how
    many times the results were compared.  ``fold``: both engines fold
    unparsed sentences' findings, as the language server's does."""
    rng = random.Random(seed)
    engine, path = open_pair(tmp_path, text, settings=settings, fold=fold)
    snapshot(engine, path)
    version, compared, pending = 1, 0, False
    for _ in range(steps):
        action = rng.random()
        if action < 0.55:
            change, text, _ = random_edit(text, edits, rng)
            version += 1
            engine.change(path, version, [change])
            pending = True
        elif action < 0.75:
            engine.diagnostics(path)  # read before the latest edit is rescored
            engine.score(path)
        elif action < 0.8:
            engine.report(path)
        else:
            engine.rescore(path)
            pending = False
            if rng.random() < 0.5:
                fresh, fresh_path = open_pair(tmp_path, text, name="x", settings=settings, fold=fold)
                assert snapshot(engine, path) == snapshot(fresh, fresh_path), (seed, version)
                compared += 1
    if pending:
        engine.rescore(path)
    fresh, fresh_path = open_pair(tmp_path, text, name="x", settings=settings, fold=fold)
    assert snapshot(engine, path) == snapshot(fresh, fresh_path), (seed, version)
    return version - 1, compared + 1
