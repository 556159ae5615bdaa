"""Level 2 metadata of one sentence: sent_id, parallel_id, newdoc/newpar, text.

What one sentence decides alone is reported here: a missing or repeated
``# sent_id`` in the sentence, a slash in it, ``# text`` missing or not
spelling the FORMs with their ``SpaceAfter=No``.  What needs the sentences
before (a sent_id used twice in the corpus, parallel ids' alt/part
sequences, a new paragraph after ``SpaceAfter=No``) is left to the document
check, through the facts collected in `MetaFacts`.

The text check walks the FORMs of the surface tokens (multiword tokens, and
words outside them) along ``# text``, as the validator does: each FORM must
come next in the text, followed by whitespace unless the token says
``SpaceAfter=No``; the first mismatch is reported and later ones are not.
"""

from __future__ import annotations

import re

from annoscore.scorer.problems import Related
from annoscore.scorer.excerpt import excerpt, quoted
from annoscore.scorer.columns import FORM, ID, MISC
from annoscore.scorer.validation.chars import NEWDOC, NEWPAR, PARALLEL_ID, SENT_ID, TEXT, cell_span, shorten
from annoscore.scorer.validation.level1 import ValidatedSentence
from annoscore.scorer.validation.memo import Memo
from annoscore.scorer.validation.registry import checks

_ALT_PART = re.compile(r"(?:alt([0-9]+))?(?:part([0-9]+))?")


class MetaFacts:
    """A sentence's metadata as the document-wide checks need it."""

    __slots__ = ("sent_id", "parallel", "newdocpar", "spaceafter")

    def __init__(self) -> None:
        self.sent_id: str | None = None          # the one well-formed sent_id, if exactly one
        self.parallel: tuple | None = None       # (pid, sentence, alt, part) of the one parallel_id
        self.newdocpar = False                   # a newdoc or newpar line (as the validator reads them)
        self.spaceafter: bool | None = None      # SpaceAfter=No in effect after it (None: unchanged)


def _comments(s: ValidatedSentence) -> list[tuple[int, str]]:
    n = s.sentence_line - s.comment_start
    return [(s.first + k, s.lines[k]) for k in range(n)]


@checks("invalid-sent-id missing-sent-id multiple-sent-id slash-in-sent-id")
def check_sent_id(s: ValidatedSentence, lang: str, facts: MetaFacts, comments=None) -> None:
    """Every sentence has exactly one well-formed ``# sent_id = ID`` (no
    whitespace in the ID); a slash in it is reserved for parallel treebanks
    (one, with the language 'ud').  Uniqueness in the corpus: the document's."""
    matched = []
    for lineno, line in comments if comments is not None else _comments(s):
        if "sent_id" not in line:
            continue
        match = SENT_ID.fullmatch(line)
        if match:
            matched.append((lineno, match))
        elif line.startswith("# sent_id") or line.startswith("#sent_id"):
            s.add("invalid-sent-id", s.sentence_line,
                  f"malformed sent_id line {quoted(line)}: expected '# sent_id = ID' (ID without "
                  "whitespace)", related=(Related(lineno, 0, len(line), "the sent_id line"),))
    if not matched:
        s.add("missing-sent-id", s.sentence_line, "the sentence has no sent_id")
    elif len(matched) > 1:
        s.add("multiple-sent-id", s.sentence_line, "the sentence has several sent_id lines",
              related=tuple(Related(n, 0, len(s.text_of(n)), "a sent_id line") for n, _ in matched))
    else:
        lineno, match = matched[0]
        sid = match.group(1)
        if sid.count("/") > 1 or (sid.count("/") == 1 and lang != "ud"):
            s.add("slash-in-sent-id", s.sentence_line,
                  f"the slash in sent_id {quoted(sid)} is reserved for parallel treebanks",
                  related=(Related(lineno, *match.span(1), "the sent_id"),))
        facts.sent_id = sid


@checks("invalid-parallel-id multiple-parallel-id")
def check_parallel_id(s: ValidatedSentence, facts: MetaFacts, comments=None) -> None:
    """At most one ``# parallel_id = corpus/sentence`` line, with an
    optional ``/altN``, ``/partN`` or ``/altNpartN``; the sequences of alts
    and parts across sentences are the document's."""
    matched = []
    for lineno, line in comments if comments is not None else _comments(s):
        if "parallel_id" not in line:
            continue
        match = PARALLEL_ID.fullmatch(line)
        if match:
            matched.append(match)
        elif line.startswith("# parallel_id") or line.startswith("#parallel_id"):
            s.add("invalid-parallel-id", s.sentence_line,
                  f"malformed parallel_id line {quoted(line)}: expected '# parallel_id = "
                  "corpus/sentence' with an optional /altN, /partN or /altNpartN",
                  related=(Related(lineno, 0, len(line), "the parallel_id line"),))
    if len(matched) > 1:
        s.add("multiple-parallel-id", s.sentence_line, "the sentence has several parallel_id lines")
    elif matched:
        match = matched[0]
        alt = part = None
        if match.group(4):
            numbers = _ALT_PART.fullmatch(match.group(4))
            if numbers:
                alt = int(numbers.group(1)) if numbers.group(1) else None
                part = int(numbers.group(2)) if numbers.group(2) else None
        facts.parallel = (match.group(1), match.group(2) + "/" + match.group(3), alt, part)


# An attribute SpaceAfter=... other than SpaceAfter=No, in MISC cells joined by '|'.
_ODD_SPACEAFTER = re.compile(r"(?:^|\|)SpaceAfter=(?!No(?:\||$))")


def _spelled(s: ValidatedSentence, kinds: str, text: str) -> bool | None:
    """The quick way through the FORMs-against-text walk, for a sentence
    whose cells hold no whitespace and are not empty (level 1 found none)
    and has no empty nodes: when the text is exactly the FORMs of its
    tokens joined by one space (none after SpaceAfter=No) and MISC has no
    odd SpaceAfter, the walk reports nothing.  Returns SpaceAfter=No of the
    last token then, or None when the walk must be done."""
    rows = s.rows
    miscs = [cols[MISC] for cols in rows]
    joined = "|".join(miscs)
    if "SpaceAfter" in joined and ("NoSpaceAfter=Yes" in joined or _ODD_SPACEAFTER.search(joined)):
        return None
    if "m" in kinds:
        tokens = []
        covered = 0
        for cols, kind in zip(rows, kinds):
            if kind == "m":
                covered = int(cols[ID].split("-")[1])
                tokens.append(cols)
            elif int(cols[ID]) > covered:
                tokens.append(cols)
            elif "SpaceAfter=No" in cols[MISC]:
                return None  # spaceafter-mwt-node
    else:
        tokens = rows
    if tokens is rows:
        forms, miscs = [cols[FORM] for cols in rows], miscs
    else:
        forms, miscs = [cols[FORM] for cols in tokens], [cols[MISC] for cols in tokens]
    gaps = list(map(_GAP.__getitem__, miscs))
    spelled = "".join(map(str.__add__, forms, gaps))
    last_no_space = not gaps[-1]
    if not last_no_space:
        spelled = spelled[:-1]
    return last_no_space if spelled == text else None


def _gap(misc: str) -> str:
    """What follows a token in the text: nothing after SpaceAfter=No, else a space."""
    return "" if misc == "SpaceAfter=No" or "SpaceAfter=No" in misc.split("|") else " "


_GAP = Memo(_gap)


@checks("multiple-newdoc multiple-newpar missing-text multiple-text empty-text text-trailing-whitespace")
def check_text(s: ValidatedSentence, kinds: str, facts: MetaFacts, clean_cells: bool = False,
               comments=None) -> None:
    """A sentence has at most one ``# newdoc`` and one ``# newpar`` line,
    and exactly one ``# text = ...``, neither empty nor ending in
    whitespace; then its FORMs must spell that text (`check_forms_spell_text`)."""
    newdocs = newpars = 0
    texts = []
    for lineno, line in comments if comments is not None else _comments(s):
        if "new" in line:
            if NEWDOC.fullmatch(line):
                newdocs += 1
            if NEWPAR.fullmatch(line):
                newpars += 1
        if "text" in line:
            match = TEXT.fullmatch(line)
            if match:
                texts.append((lineno, match))
    if newdocs > 1:
        s.add("multiple-newdoc", s.sentence_line, "several newdoc lines")
    if newpars > 1:
        s.add("multiple-newpar", s.sentence_line, "several newpar lines")
    facts.newdocpar = bool(newdocs or newpars)
    if not texts:
        s.add("missing-text", s.sentence_line, "the sentence has no '# text = ...' line")
        return
    if len(texts) > 1:
        s.add("multiple-text", s.sentence_line, "the sentence has several text lines")
        return
    text_line, match = texts[0]
    text = match.group(1)
    base = match.start(1)
    if not text:
        s.add("empty-text", s.sentence_line, "the text attribute is empty")
    elif text[-1].isspace():
        s.add("text-trailing-whitespace", s.sentence_line, "the text attribute ends with whitespace",
              related=(Related(text_line, base + len(text) - 1, base + len(text), "the trailing space"),))
    if clean_cells and "e" not in kinds:
        last = _spelled(s, kinds, text)
        if last is not None:
            facts.spaceafter = last
            return
    check_forms_spell_text(s, kinds, facts, text_line, text, base)


@checks("nospaceafter-yes spaceafter-value spaceafter-empty-node spaceafter-mwt-node text-form-mismatch "
        "missing-spaceafter text-extra-chars")
def check_forms_spell_text(s: ValidatedSentence, kinds: str, facts: MetaFacts, text_line: int, text: str,
                           base: int) -> None:
    """The tokens' FORMs, each followed by a space unless its MISC says
    SpaceAfter=No, spell out ``# text`` (the words of a multiword token are
    skipped: the token's FORM spells them).  SpaceAfter takes the value No
    only, not on an empty node nor on a word of a multiword token, and
    ``NoSpaceAfter=Yes`` is a misspelling of it.  ``text_line``: the line of
    ``# text``, whose value starts at code point ``base``."""
    skip_words: set[str] = set()
    mismatch_reported = False
    pos = 0  # how much of the text the FORMs so far have spelled
    spaceafter = facts.spaceafter
    for i, (cols, kind) in enumerate(zip(s.rows, kinds)):
        lineno = s.sentence_line + i
        misc = cols[MISC]
        if misc != "_":
            if "NoSpaceAfter=Yes" in misc:
                s.add("nospaceafter-yes", s.sentence_line,
                      "'NoSpaceAfter=Yes' should be 'SpaceAfter=No'",
                      related=(Related(lineno, *cell_span(s.text_of(lineno), MISC), "here"),))
            if "SpaceAfter=" in misc and any(a.startswith("SpaceAfter=") and a != "SpaceAfter=No"
                                             for a in misc.split("|")):
                s.add_cell("spaceafter-value", lineno, MISC,
                           "SpaceAfter can only be No (did you mean SpacesAfter?)")
        if kind == "e":
            if "SpaceAfter=No" in misc:
                s.add_cell("spaceafter-empty-node", lineno, MISC, "an empty node cannot have SpaceAfter=No")
            continue
        if kind == "m":
            beg, end = cols[ID].split("-")
            skip_words.update(str(k) for k in range(int(beg), int(end) + 1))
        elif cols[ID] in skip_words:
            if "SpaceAfter=No" in misc:
                s.add_cell("spaceafter-mwt-node", lineno, MISC,
                           "SpaceAfter=No belongs on the multiword token line, not on its words")
            continue
        form = cols[FORM]
        if not text.startswith(form, pos):
            if not mismatch_reported:
                hint = " (perhaps an extra SpaceAfter=No on the token before?)" if (
                    pos < len(text) and text[pos].isspace()) else ""
                s.add("text-form-mismatch", lineno,
                      f"FORM {quoted(form)} of {cols[ID]} is not what the text has next: "
                      f"'{excerpt(text[pos:pos + len(form) + 20])}...'{hint}",
                      cell_span(s.text_of(lineno), FORM),
                      related=(Related(text_line, base + pos, base + min(len(text), pos + 1),
                                       "where the text and the FORMs part"),))
                mismatch_reported = True
        else:
            pos += len(form)
            if "SpaceAfter=No" in misc.split("|"):
                spaceafter = True
            else:
                spaceafter = False
                if pos < len(text) and not text[pos].isspace():
                    s.add_cell("missing-spaceafter", lineno, MISC,
                               f"SpaceAfter=No is missing: the text goes on without a space: "
                               f"{quoted(shorten(form + text[pos:]))}")
                while pos < len(text) and text[pos].isspace():
                    pos += 1
    facts.spaceafter = spaceafter
    if pos < len(text):
        s.add("text-extra-chars", s.sentence_line,
              f"the text goes on after the last FORM: {quoted(text[pos:])}",
              related=(Related(text_line, base + pos, base + len(text), "not in any FORM"),))
