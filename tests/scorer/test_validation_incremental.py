"""Incremental validation: blocks validated one by one (and cached by their
text, as the engine will) plus `validate_document` give what `validate_text`
gives for the final text, after random edit sequences on a document kept
the way the engine keeps it (`server.textstore.TextStore` segments)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from annoscore.scorer.validation import (FileFacts, ValidationSettings, blank_sentence_lines, prepare,
                               validate_block, validate_document, validate_text)
from annoscore.server.textstore import TextStore
from tests.support.validation_inject import inject, repeat

BASE = Path(__file__).parent / "data" / "validation_base.conllu"


class IncrementalValidator:
    """What the engine will do: a cache of block results by text, then the document."""

    def __init__(self, settings: ValidationSettings) -> None:
        self.prepared = prepare(settings)
        self.cache: dict[tuple[str, bool, bool], object] = {}
        self.computed = 0

    def block(self, text: str, terminated: bool, bom: bool):
        key = (text, terminated, bom)
        result = self.cache.get(key)
        if result is None:
            result = self.cache[key] = validate_block(text, self.prepared, terminated, bom)
            self.computed += 1
        return result

    def validate(self, store: TextStore) -> Counter:
        blocks = []
        segments = []
        joined = ""  # the byte-order mark's line, when it joins the next block
        for segment in store.segments:
            if segment.has_block:
                block = joined + segment.block
                first = segment.first_line - joined.count("\n")
                terminated = segment.text.endswith("\n\n")
                blocks.append((first, self.block(block, terminated, segment.bom or bool(joined))))
                n_block = block.count("\n") + 1
                blanks = len(segment.text) - len(segment.text.rstrip("\n")) - 1
                segments.append((first, n_block, max(0, blanks)))
                joined = ""
            elif segment.bom:
                # The byte-order mark alone on the first line: the engine sets
                # it apart as blank, but for the validator that line holds
                # U+FEFF: with no blank line after it, it is the first line of
                # the next block; else a sentence of its own.
                if segment.text.count("\n") == 1 and segment is not store.segments[-1]:
                    joined = "\n"
                else:
                    ended = segment.text.count("\n") >= 2
                    blocks.append((segment.first_line, self.block("", ended, True)))
                    segments.append((segment.first_line, 1, segment.text.count("\n") - 1))
            else:
                segments.append((segment.first_line, 0, segment.text.count("\n")))
        text = store.text
        facts = FileFacts(line_count=text.count("\n") + (0 if text.endswith("\n") or not text else 1),
                          has_cr=False, blank_sentences=blank_sentence_lines(segments))
        incidents = [i for first, result in blocks for i in result.shifted_incidents(first)]
        incidents += validate_document(blocks, facts, self.prepared)
        return Counter((i.line, i.test_id, i.start, i.end, i.message) for i in incidents)


def _edit(rng: random.Random, store: TextStore) -> None:
    """One random edit, as an editor sends it (a range and new text)."""
    lines = store.text.split("\n")
    line = rng.randrange(len(lines))
    text = lines[line]
    choice = rng.random()
    if choice < 0.35 and "\t" in text:
        # Change one cell.
        cells = text.split("\t")
        k = rng.randrange(len(cells))
        start = sum(len(c) + 1 for c in cells[:k])
        new = rng.choice(["_", "NOUNX", "nsubj", "0", "1", "Case=Nom", "SpaceAfter=No", "x y", "obj", "root",
                          "PUNCT", "punct", "2:nsubj", "Typo=Yes"])
        store.apply_change((line, start), (line, start + len(cells[k])), new)
    elif choice < 0.5:
        store.apply_change((line, 0), (line, 0), rng.choice(["\n", "\n\n", "# newpar\n", " \n"]))
    elif choice < 0.65 and line + 1 < len(lines):
        store.apply_change((line, len(text)), (line + 1, 0), "")  # join two lines (or remove a blank one)
    elif choice < 0.75:
        other = rng.randrange(len(lines))
        a, b = sorted((line, other))
        b = min(b, a + 12)
        copied = "\n".join(lines[a:b]) + "\n"
        store.apply_change((a, 0), (a, 0), copied)
    elif choice < 0.85 and text.startswith("# sent_id"):
        store.apply_change((line, 0), (line, len(text)), "# sent_id = base-1")
    else:
        store.apply_change((line, 0), (line, len(text)), rng.choice(["", "x", text + "\t_", text[:-1]]))


@pytest.mark.parametrize("level,lang,seed", [(2, None, 1), (3, None, 2), (5, "en", 3), (5, "en", 4)])
def test_random_edits_validate_as_the_whole_text(level, lang, seed):
    rng = random.Random(seed)
    text = inject(repeat(BASE.read_text(encoding="utf-8"), 6), seed)
    store = TextStore(text)
    settings = ValidationSettings(level=level, lang=lang)
    incremental = IncrementalValidator(settings)
    for step in range(60):
        _edit(rng, store)
        if step % 6 == 5:
            got = incremental.validate(store)
            whole = validate_text(store.text, settings).incidents
            expected = Counter((i.line, i.test_id, i.start, i.end, i.message) for i in whole)
            assert got == expected, f"step {step}: {sorted((got - expected).elements())[:5]} " \
                                    f"{sorted((expected - got).elements())[:5]}"
    # The cache did its work: far fewer blocks validated than 10 passes would.
    assert incremental.computed < 4 * len([s for s in store.segments if s.has_block])


def test_an_edit_revalidates_only_its_block():
    text = repeat(BASE.read_text(encoding="utf-8"), 3)
    store = TextStore(text)
    incremental = IncrementalValidator(ValidationSettings(level=3))
    incremental.validate(store)
    before = incremental.computed
    line = store.text.split("\n").index("3\tsleeps\tsleep\tVERB\tVBZ\tMood=Ind|Number=Sing|Person=3|Tense=Pres|"
                                         "VerbForm=Fin\t0\troot\t0:root\tSpaceAfter=No")
    store.apply_change((line, 0), (line, 1), "3")
    store.apply_change((line, 0), (line, 1), "9")
    got = incremental.validate(store)
    assert incremental.computed == before + 1
    assert any(test_id == "word-id-sequence" for _, test_id, *_ in got)


@pytest.mark.parametrize("head,tail", [("\ufeff", None), ("\ufeff\n", None), ("\ufeff\n\n\n", None),
                                       ("\n\n", None), ("", None), ("\ufeff", ""), ("\ufeff\n", ""),
                                       ("\ufeff\n\n", "")])
def test_segments_with_a_byte_order_mark_or_blank_lines_first(head, tail):
    text = head + (repeat(BASE.read_text(encoding="utf-8"), 1) if tail is None else tail)
    store = TextStore(text)
    settings = ValidationSettings(level=3)
    got = IncrementalValidator(settings).validate(store)
    whole = validate_text(text, settings).incidents
    assert got == Counter((i.line, i.test_id, i.start, i.end, i.message) for i in whole)
