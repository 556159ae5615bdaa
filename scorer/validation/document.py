"""The checks that need the whole document, from the blocks' facts alone.

The official validator keeps a global state as it reads a corpus; here
each block reports the facts that state is made of (`BlockValidation`) and
this module replays them in order, never reading block text again:

* a sent_id (or parallel_id) used before; parallel ids' alt/part numbering;
* ``newdoc``/``newpar`` right after a sentence ending in ``SpaceAfter=No``;
* enhanced graphs in some sentences but not in others, empty nodes and
  enhanced ``orphan`` relations in the same corpus, enhanced graphs that
  are all copies of the basic trees;
* the warnings that wait for the corpus to have features (the validator
  holds them until it sees the first feature, and drops them if it never
  does), and its one quirk of learning ``ref`` as a universal relation
  when it first reads an enhanced graph;
* what lies between blocks (`FileFacts`): blank lines that are sentences of
  their own, and CR line ends.

Each step is a pass over the blocks that does almost nothing for a block
without the fact in question, so a 60k-sentence document takes a few ms.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Iterable, Sequence

from annoscore.scorer.validation.block import SENTENCE_LINE, BlockValidation
from annoscore.scorer.validation.incident import Incident
from annoscore.scorer.validation.settings import Prepared, ValidationSettings, prepare
from annoscore.scorer.validation.registry import checks


@dataclass(frozen=True)
class FileFacts:
    """What the document-wide checks need from outside the blocks."""

    line_count: int = 0                          # lines, as the validator counts them
    has_cr: bool = False                         # the raw text had CR (CRLF or lone CR) line ends
    blank_sentences: tuple[int, ...] = ()        # blank lines that end no block (each an empty sentence)


def blank_sentence_lines(segments: Iterable[tuple[int, int, int]]) -> tuple[int, ...]:
    """``FileFacts.blank_sentences`` from a segmentation: for each segment,
    (first line, lines of its block (0: none), blank lines after it).  The
    first blank line after a block ends it; every other one is a sentence."""
    lines = []
    for first, block_lines, blanks in segments:
        start = first + block_lines + (1 if block_lines else 0)
        lines.extend(range(start, first + block_lines + blanks))
    return tuple(lines)


def validate_document(blocks: Sequence[tuple[int, BlockValidation]], file_facts: FileFacts,
                      settings: ValidationSettings | Prepared) -> list[Incident]:
    """The incidents that only the whole document shows (absolute lines);
    the blocks' own incidents are not repeated here."""
    prepared = settings if isinstance(settings, Prepared) else prepare(settings)
    keep = prepared.keep
    out: list[Incident] = []
    if prepared.level >= 2:
        # The blocks with a rare fact; every check below but three needs only them.
        special = [(first, b) for first, b in blocks if b.special]
        check_unique_sent_ids(blocks, keep, out)
        check_parallel_id_sequences(special, keep, out)
        check_newdocpar_after_spaceafter(blocks, keep, out)
        check_enhanced_graphs(blocks, special, prepared, file_facts, keep, out)
        if special and any(b.has_features for _, b in blocks):
            for first, b in special:
                if b.if_features:
                    out.extend(i.shifted(first) for i in b.if_features)
        for first, b in blocks:
            if b.ref_candidates:
                out.extend(i.shifted(first) for i in b.ref_candidates)
            if b.deps_seen:
                break
    check_file_lines(file_facts, keep, out)
    return out


@checks("empty-sentence non-unix-newline")
def check_file_lines(file_facts: FileFacts, keep: frozenset[str], out: list[Incident]) -> None:
    """Lines end with LF only (no CR LF, no CR), and no empty line follows
    the empty line that ends a sentence (an empty sentence; inside a block,
    `level1.check_lines` reports it)."""
    if "empty-sentence" in keep:
        out.extend(Incident("empty-sentence", "an empty sentence: only one empty line is expected "
                            "after each sentence", line) for line in file_facts.blank_sentences)
    if file_facts.has_cr and "non-unix-newline" in keep:
        out.append(Incident("non-unix-newline", "only the Unix line end (LF) is allowed; the file "
                            "has CR LF or CR line ends", max(0, file_facts.line_count - 1)))


@checks("non-unique-sent-id")
def check_unique_sent_ids(blocks: Sequence[tuple[int, BlockValidation]], keep: frozenset[str],
              out: list[Incident]) -> None:
    """No two sentences of the document have the same sent_id."""
    ids = list(chain.from_iterable([b.ids for _, b in blocks]))
    if len(set(ids)) == len(ids) or "non-unique-sent-id" not in keep:
        return
    seen: set[str] = set()
    for first, b in blocks:
        for line, sid in b.sent_ids:
            if sid in seen:
                out.append(Incident("non-unique-sent-id", f"sent_id '{sid[:40]}' is used before",
                                    first + line, 0, 0, sid))
            seen.add(sid)


@checks("non-unique-parallel-id parallel-id-alt parallel-id-part")
def check_parallel_id_sequences(blocks: Sequence[tuple[int, BlockValidation]], keep: frozenset[str],
                  out: list[Incident]) -> None:
    """No two sentences have the same parallel_id; the sentences of one
    parallel sentence either all have an ``alt`` (``part``) suffix or none,
    numbered 1, 2, 3, ... in order (test id ``parallel-id-`` and the suffix)."""
    known: set[str] = set()
    last_alt: dict[str, int | None] = {}
    last_part: dict[str, int | None] = {}
    for first, b in blocks:
        for line, sid, (pid, sentence, alt, part) in b.parallel_ids:
            where = first + line
            if pid in known:
                _add(out, keep, "non-unique-parallel-id", f"parallel_id '{pid[:40]}' is used before", where, sid)
            else:
                for suffix, number, last in (("alt", alt, last_alt), ("part", part, last_part)):
                    test_id = "parallel-id-" + suffix
                    if sentence in last:
                        before = last[sentence]
                        if (before is None) != (number is None):
                            _add(out, keep, test_id, f"some sentences of parallel '{sentence[:40]}' have "
                                 f"the '{suffix}' suffix and others do not", where, sid)
                        elif number is not None and number != before + 1:  # type: ignore[operator]
                            _add(out, keep, test_id, f"the {suffix} suffix of parallel '{sentence[:40]}' "
                                 f"should be {before}+1, not {number}", where, sid)
                    elif number is not None and number != 1:
                        _add(out, keep, test_id, f"the {suffix} suffix of parallel '{sentence[:40]}' "
                             f"should be 1, not {number}", where, sid)
                    last[sentence] = number
            known.add(pid)


@checks("spaceafter-newdocpar")
def check_newdocpar_after_spaceafter(blocks: Sequence[tuple[int, BlockValidation]], keep: frozenset[str],
               out: list[Incident]) -> None:
    """Across blocks: a new document or paragraph does not start right
    after a sentence whose last token has SpaceAfter=No."""
    in_effect = False
    for first, b in blocks:
        if b.newdocpar_entry and in_effect:
            for line, sid in b.newdocpar_entry:
                _add(out, keep, "spaceafter-newdocpar", "a new document or paragraph starts after a "
                     "sentence whose last token has SpaceAfter=No", first + line, sid)
        if b.spaceafter_exit is not None:
            in_effect = b.spaceafter_exit


@checks("edeps-only-sometimes empty-node-after-eorphan eorphan-after-empty-node edeps-identical-to-basic-trees")
def check_enhanced_graphs(blocks: Sequence[tuple[int, BlockValidation]], special: Sequence[tuple[int, BlockValidation]],
              prepared: Prepared, file_facts: FileFacts, keep: frozenset[str], out: list[Incident]) -> None:
    """Enhanced graphs are in every sentence or in none; a corpus with empty
    nodes (gapping annotated with them) has no ``orphan`` in its enhanced
    graphs, and the other way round; and enhanced graphs that are all
    copies of the basic trees should be left out (DEPS ``_``)."""
    first_with = first_without = None
    for first, b in blocks:
        if first_with is None and b.egraph_first_with is not None:
            line, sid = b.egraph_first_with
            first_with = (first + line, sid)
        if first_without is None and b.egraph_first_without is not None:
            line, sid = b.egraph_first_without
            first_without = (first + line, sid)
        if first_with is not None and first_without is not None:
            break
    if first_with is not None and first_without is not None:
        if first_with[0] > first_without[0]:
            _add(out, keep, "edeps-only-sometimes", "this sentence has an enhanced graph, but the one "
                 f"on line {first_without[0] + 1} has none: all sentences or none", *first_with)
        else:
            _add(out, keep, "edeps-only-sometimes", "this sentence has no enhanced graph, but the one "
                 f"on line {first_with[0] + 1} has: all sentences or none", *first_without)
    if prepared.level < 3:
        return
    seen_empty = seen_orphan = None
    for first, b in special:
        for line, is_empty, orphan, sid in b.egraph_events:
            where = first + line
            if is_empty and seen_empty is None:
                seen_empty = where
                if seen_orphan is not None:
                    _add(out, keep, "empty-node-after-eorphan", "an empty node means the corpus "
                         "annotates gapping, so no 'orphan' should be in the enhanced graph; there is "
                         f"one on line {seen_orphan + 1}", where, sid)
            if orphan:
                if seen_orphan is None:
                    seen_orphan = where
                if seen_empty is not None:
                    _add(out, keep, "eorphan-after-empty-node", "'orphan' is not allowed in the "
                         f"enhanced graph: the corpus has an empty node (line {seen_empty + 1})", where, sid)
    if first_with is not None and not any(b.has_enhancement for _, b in blocks):
        _add(out, keep, "edeps-identical-to-basic-trees", "the enhanced graphs are copies of the basic "
             "trees in the whole document: leave DEPS empty (_) if nothing is enhanced",
             _default_line(blocks, file_facts), None)


def _default_line(blocks: Sequence[tuple[int, BlockValidation]], file_facts: FileFacts) -> int:
    """The line the validator gives an incident that names none at the end
    of a corpus: the last line its checks named (see `block.SENTENCE_LINE`)."""
    for first, b in reversed(blocks):
        if b.default_line is not None:
            if b.default_line != SENTENCE_LINE:
                return first + b.default_line
            if file_facts.blank_sentences and blocks and \
                    file_facts.blank_sentences[-1] > blocks[-1][0] + blocks[-1][1].n_lines:
                return file_facts.blank_sentences[-1]
            last_first, last = blocks[-1]
            return last_first + last.last_sentence_line
    return max(0, file_facts.line_count - 1)


def _add(out: list[Incident], keep: frozenset[str], test_id: str, message: str, line: int,
         sent_id: str | None) -> None:
    if test_id in keep:
        out.append(Incident(test_id, message, line, 0, 0, sent_id))

