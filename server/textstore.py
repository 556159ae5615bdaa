"""A document's text kept as segments, one per sentence block.

An editor sends each change as a range of (line, character) and new text.
Applying that to one big string and splitting it into sentences again would
cost a pass over the whole text per keystroke — seconds for a million-word
file.  Here the text is a list of *segments*: each holds one block of lines
(a sentence) and the blank lines after it.  A change touches one or a few
segments; only those (and their neighbours, in case a blank line appeared or
vanished) are cut into blocks again, so the cost of an edit does not grow
with the file.  A neighbour that comes out the same is kept (the same
object), so that what the engine derived from it stays: an edit inside one
sentence gives one new segment.

Positions here are in code points (Python string indices); the LSP adapter
converts from the client's position encoding before calling `apply_change`.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from annoscore.scorer.conllu.blocks import BlockSplitter, normalize_newlines
from annoscore.scorer.problems import Problem


@dataclass(eq=False, slots=True)
class Segment:
    """Lines ``first_line`` .. of the document: a block, then its blank lines."""

    text: str              # exact text, newlines included
    first_line: int
    has_block: bool        # False: blank lines only (before the first block)
    problems: list[Problem] = field(default_factory=list)  # between-sentence problems, absolute
    bom: bool = False      # the text starts with a byte-order mark (not part of the block)
    # What the engine derived from this text (kept until the text changes).
    analysis: object = None
    # The subtyped relations its DEPREL cells use (made when completion asks).
    subtypes: frozenset | None = None
    # Its UD validation (see server.engine.conllu.validation), kept as long as the text.
    validation: object = None
    # Its sentences as outline entries, lines relative to it (made when the outline is asked).
    outline: tuple | None = None
    # Its multiword tokens' folding ranges, lines relative to it (see server.engine.reading).
    folds: list | None = None
    # Where its sentence occurs in earlier splits: (the index asked, the
    # occurrences) (see server.engine.splits).
    leaks: tuple | None = None
    n_lines: int = 0       # lines this segment starts (a last segment without a final newline has one more)

    def __post_init__(self) -> None:
        self.n_lines = self.text.count("\n") + (0 if self.text.endswith("\n") else 1)

    @property
    def block(self) -> str | None:
        """The block's lines without the blank lines after them (made on demand,
        so that a document is not held twice)."""
        if not self.has_block:
            return None
        block = self.text.rstrip("\n")
        return block[1:] if self.bom else block


def forget_segments(segments) -> None:
    """Segments that left their document: drop what the engine derived from
    them, which breaks the one reference cycle it makes (an analysis holds
    infos that point back at their segment), so that reference counting
    frees them even when a pass froze them (see server.engine.conllu.handler)."""
    for segment in segments:
        if getattr(segment, "analysis", None) is not None:
            segment.analysis = None


# Where a block starts: after a run of two or more newlines (a blank line).
_BLOCK_START = re.compile(r"\n\n+")
SPLITTER_CHUNK = 1 << 20


def segments_of(text: str, first_line: int, at_file_start: bool) -> list[Segment]:
    """Cut text into segments.  The text must end at the document's end or
    with a complete segment (a block and its blank line), so that the
    splitter judges the ending as it would in the whole document.

    Blocks start after each run of blank lines, as `BlockSplitter` cuts
    them.  The splitter itself is needed only for the problems it reports
    between sentences — a byte-order mark, more than one blank line, no
    blank line at the end — so it reads the text (a chunk at a time, never
    holding it twice more) only when one of those is there.
    """
    bom = at_file_start and text.startswith("\ufeff")
    lead = 1 if bom else 0
    while lead < len(text) and text[lead] == "\n":
        lead += 1
    runs = [m.span() for m in _BLOCK_START.finditer(text, lead)]
    splitter = BlockSplitter(first_line, at_file_start=at_file_start)
    if bom or lead or not text.endswith("\n\n") or any(b - a > 2 for a, b in runs):
        for start in range(0, len(text), SPLITTER_CHUNK):
            splitter.feed(text[start:start + SPLITTER_CHUNK])
        splitter.finish()
    starts = [lead] if lead < len(text) else []
    starts += [b for _, b in runs if b < len(text)]
    cuts = [(offset, True) for offset in starts]
    if not cuts or cuts[0][0] > 0:
        if bom and cuts and cuts[0][0] == 1:
            cuts[0] = (0, True)  # the byte-order mark goes with the first block
        else:
            cuts.insert(0, (0, False))  # blank lines before the first block
    segments = []
    line = first_line
    for k, (offset, has_block) in enumerate(cuts):
        end = cuts[k + 1][0] if k + 1 < len(cuts) else len(text)
        piece = text[offset:end]
        segment = Segment(piece, line, has_block, bom=bom and offset == 0)
        segments.append(segment)
        line += segment.n_lines if piece.endswith("\n") else segment.n_lines - 1  # its newlines
    firsts = [s.first_line for s in segments]
    for problem in splitter.problems:
        segments[max(0, bisect.bisect_right(firsts, problem.line) - 1)].problems.append(problem)
    return segments


class TextStore:
    """A document as segments, with edits applied locally.

    ``lone_cr_ends_lines``: whether a CR not followed by LF ends a line, as
    the LSP says and files are read; False for editors that keep it inside
    the line as a character (Neovim, Emacs), so that positions agree with
    theirs (the engine reports the CR, see `reader.lone_cr_problems`)."""

    def __init__(self, text: str, lone_cr_ends_lines: bool = True) -> None:
        self.lone_cr_ends_lines = lone_cr_ends_lines
        # Whether the text came with CR line ends (CR LF, or a lone CR), which
        # the segments no longer show: the UD validator reports them.  An
        # edit that brings a CR sets it; only a whole new text clears it.
        self.has_cr = "\r" in text
        text = normalize_newlines(text, lone_cr_ends_lines)
        self.segments: list[Segment] = segments_of(text, 0, at_file_start=True)
        self._firsts = [s.first_line for s in self.segments]
        self._lines_of: tuple[Segment, list[str]] | None = None
        self.version = getattr(self, "version", 0) + 1  # changes with every edit

    # --- reading --------------------------------------------------------------

    @property
    def text(self) -> str:
        return "".join(s.text for s in self.segments)

    def segment_at(self, line: int) -> int:
        """Index of the segment holding ``line``."""
        return max(0, min(len(self.segments) - 1, bisect.bisect_right(self._firsts, line) - 1))

    def segment_of(self, line: int) -> Segment:
        """The segment holding ``line`` (its lines are ``first_line`` on)."""
        return self.segments[self.segment_at(line)]

    def line(self, line: int) -> str:
        segment = self.segments[self.segment_at(line)]
        # Callers ask for lines in order (diagnostics): keep the last
        # segment's lines rather than splitting it again for each.
        cached = self._lines_of
        if cached is None or cached[0] is not segment:
            cached = self._lines_of = (segment, segment.text.split("\n"))
        lines = cached[1]
        offset = line - segment.first_line
        return lines[offset] if 0 <= offset < len(lines) else ""

    @property
    def last_line(self) -> int:
        """The document's last line: the one after its last newline (empty
        when the text ends with one)."""
        if not self.segments:
            return 0
        last = self.segments[-1]
        return last.first_line + last.text.count("\n")

    # --- editing --------------------------------------------------------------

    def apply_change(self, start: tuple[int, int], end: tuple[int, int],
                     new_text: str) -> tuple[int, list[Segment], int]:
        """Replace the text between two (line, column) positions.

        Returns (first segment index, the segments removed, how many were inserted).
        """
        if "\r" in new_text:
            self.has_cr = True
        new_text = normalize_newlines(new_text, self.lone_cr_ends_lines)
        first = max(0, self.segment_at(start[0]) - 1)
        last = min(len(self.segments) - 1, self.segment_at(end[0]) + 1)
        base_line = self.segments[first].first_line
        local = "".join(s.text for s in self.segments[first:last + 1])
        a = _offset(local, start[0] - base_line, start[1])
        b = _offset(local, end[0] - base_line, end[1])
        if b < a:
            a, b = b, a
        local = local[:a] + new_text + local[b:]
        at_end = last == len(self.segments) - 1
        if not at_end and not local.endswith("\n\n"):
            # The edit ate the blank line before the next segment: take it in too.
            last += 1
            local += self.segments[last].text
            at_end = last == len(self.segments) - 1
        replacement = segments_of(local, base_line, at_file_start=first == 0)
        # The neighbours cut again along with the edit are usually the same
        # text as before: keep those segments (and what the engine derived
        # from them), so that only the segments whose text changed are new.
        old = self.segments[first:last + 1]
        head = 0
        while head < min(len(old), len(replacement)) and _same(old[head], replacement[head], 0):
            head += 1
        shift = sum(s.n_lines for s in replacement) - sum(s.n_lines for s in old)
        tail = 0
        while tail < min(len(old), len(replacement)) - head and \
                _same(old[-1 - tail], replacement[-1 - tail], shift):
            tail += 1
        removed = old[head:len(old) - tail]
        inserted = replacement[head:len(replacement) - tail]
        self.segments[first + head:last + 1 - tail] = inserted
        if shift:
            self._renumber(first + head + len(inserted))
        else:
            # Same number of lines: the segments after the edit keep their numbers.
            self._firsts[first + head:last + 1 - tail] = [s.first_line for s in inserted]
        self.version += 1
        return first + head, removed, len(inserted)

    def replace_all(self, text: str) -> None:
        self.__init__(text, self.lone_cr_ends_lines)  # type: ignore[misc]

    def _renumber(self, start: int) -> None:
        """Line numbers of the segments after an edit."""
        segments = self.segments
        if start == 0:
            line = 0
        else:
            previous = segments[start - 1]
            line = previous.first_line + previous.n_lines
        for segment in segments[start:]:
            shift = line - segment.first_line
            if shift:
                segment.first_line = line
                segment.problems = [p.shifted(shift) for p in segment.problems]
            line += segment.n_lines
        self._firsts = [s.first_line for s in segments]


def _same(old: Segment, new: Segment, shift: int) -> bool:
    """Whether a segment cut again is the old one, ``shift`` lines further on."""
    return (old.text == new.text and old.first_line + shift == new.first_line and old.has_block == new.has_block
            and old.bom == new.bom and not old.problems and not new.problems)


def _offset(text: str, line: int, column: int) -> int:
    """Offset in ``text`` of (line, column); past the end clamps to the end."""
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    nl = text.find("\n", pos)
    line_end = len(text) if nl < 0 else nl
    return min(pos + max(column, 0), line_end)


class LineStore:
    """A line-oriented document (segmentation, labels): a list of lines.

    The same editing interface as `TextStore`; an edit replaces the lines it
    touches (one list slice), so its cost does not grow with the file.
    """

    def __init__(self, text: str, lone_cr_ends_lines: bool = True) -> None:
        self.lone_cr_ends_lines = lone_cr_ends_lines
        self.lines = normalize_newlines(text, lone_cr_ends_lines).split("\n")
        self.version = getattr(self, "version", 0) + 1

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def line(self, line: int) -> str:
        return self.lines[line] if 0 <= line < len(self.lines) else ""

    def apply_change(self, start: tuple[int, int], end: tuple[int, int], new_text: str) -> tuple[int, list, int]:
        if end < start:
            start, end = end, start
        last_line = len(self.lines) - 1
        l1, l2 = min(start[0], last_line), min(end[0], last_line)
        head = self.lines[l1][:min(start[1], len(self.lines[l1]))] if start[0] <= last_line else self.lines[l1]
        tail = self.lines[l2][min(end[1], len(self.lines[l2])):] if end[0] <= last_line else ""
        replacement = (head + normalize_newlines(new_text, self.lone_cr_ends_lines) + tail).split("\n")
        self.lines[l1:l2 + 1] = replacement
        self.version += 1
        return l1, [], len(replacement)

    def replace_all(self, text: str) -> None:
        self.__init__(text, self.lone_cr_ends_lines)  # type: ignore[misc]
