"""Every diagnostic code annoscore reports: its default severity and meaning.

One registry, so that what the server says, what the docs' tables list
and what the editor clients know cannot drift apart (a test holds all three
to it).  A problem's severity shown to the user is its code's here (unless
the user's ``severities`` setting says otherwise).

The UD validator's test ids (``unknown-upos`` …) are codes too: `VALIDATION`
registers each with the validator's severity, made from
`scorer.validation.incident.TESTS` (where the validator's checks look up a
test id's level, class and severity, so the two cannot differ).  One id is
also one of annoscore's codes (``multiple-roots``): annoscore's entry is the
code's; a problem both find is one diagnostic with annoscore's code and the
validator's test id in its data (server/engine/conllu/twins.py).  `ALL` is
both, what a user may name (``severities``, exclusions) and an editor knows.
"""

from __future__ import annotations

from dataclasses import dataclass

from .problems import Severity
from .validation.incident import TESTS

E, W, I, H = Severity.ERROR, Severity.WARNING, Severity.INFORMATION, Severity.HINT


@dataclass(frozen=True)
class Code:
    name: str
    severity: Severity
    formats: tuple[str, ...]   # conllu, segmentation, labels; project for the project file
    meaning: str


_CONLLU, _SEG, _LAB = ("conllu",), ("segmentation",), ("labels",)

CODES: dict[str, Code] = {code.name: code for code in (
    # CoNLL-U without gold: trees the official scorer refuses, and what a parser left undone.
    Code("unparsed", I, _CONLLU, "every HEAD of the sentence is _: not parsed yet"),
    Code("missing-head", E, _CONLLU, "HEAD is _ while other words of the sentence have one"),
    Code("head-out-of-range", E, _CONLLU, "HEAD points past the last word of the sentence"),
    Code("cycle", E, _CONLLU, "following HEADs from the word comes back to it"),
    Code("multiple-roots", E, _CONLLU, "more than one word has HEAD 0"),
    Code("no-root", E, _CONLLU, "no word has HEAD 0"),
    Code("low-confidence", H, _CONLLU, "cells whose Conf= is below the threshold"),
    Code("internal-error", E, ("conllu", "segmentation", "labels"), "annoscore itself failed on the document"),
    # CoNLL-U against gold.
    Code("text-mismatch", E, ("conllu", "segmentation"), "the text differs from gold's: the pair is not scored"),
    Code("segmentation-mismatch", W, ("conllu", "segmentation"), "a word not aligned with a gold word"),
    Code("sentence-boundary", W, _CONLLU, "the prediction's sentences end elsewhere than gold's"),
    Code("missing-sentence", I, ("conllu", "segmentation"), "gold sentences (lines) the prediction lacks"),
    Code("gold-diff", H, _CONLLU, "a cell differs from gold (only with goldDiff)"),
    Code("disagreement", I, _CONLLU, "another annotation of the same text fills a cell otherwise ([agreement])"),
    # Reading CoNLL-U.
    Code("format-columns", E, ("conllu", "labels"), "a line without the expected columns"),
    Code("format-spaces", E, _CONLLU, "spaces instead of a TAB between columns"),
    Code("format-id", E, ("conllu", "labels"), "an ID that cannot be read"),
    Code("format-id-order", E, _CONLLU, "a word ID out of order"),
    Code("ids-out-of-sequence", E, _CONLLU, "IDs out of sequence (a line inserted, deleted or moved by hand): "
         "in the editor, one error for the cause, its consequences related, with the fix that renumbers"),
    Code("format-mwt", E, _CONLLU, "a broken multiword range"),
    Code("format-empty-form", E, _CONLLU, "an empty FORM"),
    Code("format-head", E, _CONLLU, "HEAD not a number, or negative"),
    Code("format-deps", E, _CONLLU, "DEPS not HEAD:DEPREL pairs, or outside the sentence"),
    Code("format-conf", W, _CONLLU, "a Conf= value that cannot be read"),
    Code("format-comment-position", E, _CONLLU, "a comment among the token lines"),
    Code("format-empty-sentence", E, _CONLLU, "two blank lines in a row (an empty sentence)"),
    Code("format-blank-line", E, _CONLLU, "a line of only whitespace"),
    Code("format-final-blank-line", E, _CONLLU, "no blank line at the end of the file"),
    Code("format-newline", W, _CONLLU, "a lone CR kept inside a line by the editor"),
    Code("format-bom", W, ("conllu", "segmentation", "labels"), "a byte-order mark at the start of the file"),
    Code("format-encoding", E, ("conllu", "segmentation", "labels"), "bytes that are not UTF-8"),
    Code("format-binary", E, ("conllu", "segmentation", "labels"), "not a text file (NUL bytes, compressed, UTF-16)"),
    # Segmentation.
    Code("tag-mismatch", W, _SEG, "the word is right, its tag differs from gold's"),
    Code("format-unknown-tag", W, _SEG, "not one of the 17 UD UPOS tags: read as X"),
    Code("line-count", E, _SEG, "the files' lines cannot be paired by their text"),
    # Labels.
    Code("label-mismatch", W, _LAB, "the label differs from gold's"),
    Code("unknown-label", W, _LAB, "gold never uses this label"),
    Code("extra-item", W, _LAB, "no gold item has this ID (not scored)"),
    Code("missing-item", I, _LAB, "gold items without a prediction"),
    Code("format-empty-id", E, _LAB, "an empty ID"),
    Code("format-empty-label", E, _LAB, "an empty label"),
    Code("format-duplicate-id", E, _LAB, "an ID used twice"),
    Code("format-header", E, _LAB, "a table header that cannot be used"),
    Code("format-empty-text", W, _LAB, "an empty text in a labelled text file"),
    Code("format-csv", E, _LAB, "a CSV row that cannot be read"),
    Code("no-text", W, ("conllu",), "a sentence without # text or token lines (the leak check skips it)"),
    # Clean evaluation ([splits]).
    Code("leak", I, _CONLLU, "the sentence also occurs in an earlier split (train, or dev for test)"),
    # The project file.
    Code("config", W, ("project",), "an invalid setting in annoscore.toml or pyproject.toml"),
    # Untrusted workspaces (server/workspace.py).
    Code("gold-refused", W, ("conllu", "segmentation", "labels"),
         "the gold the workspace names is not read: outside the project folder, or not a regular file"),
)}


VALIDATION: dict[str, Code] = {
    test_id: Code(test_id, severity, _CONLLU, f"UD validation, level {level}, {test_class}")
    for test_id, (level, test_class, severity) in sorted(TESTS.items())}

ALL: dict[str, Code] = {**VALIDATION, **CODES}

