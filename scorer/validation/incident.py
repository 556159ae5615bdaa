"""What the validator reports: incidents, and the table of its test ids.

An incident is one finding of the UD validator's kind: a test id (the
official validator's own, e.g. ``unknown-upos``), its level (1-5), its class
(``FORMAT``, ``MORPHO``, ``SYNTAX``, ``ENHANCED``, ``METADATA``,
``UNICODE``) and whether it is an error or a warning, at a place: a 0-based
line and a span of code points in that line (the cell, or the item in the
cell, that is wrong; the whole line when nothing narrower makes sense).

``TESTS`` lists every test id the official validator (udtools 0.2.9) can
report at levels 1-5 with its level, class and severity; the checks look
their ids up there, so one id always has one level, class and severity.
(The official validator prints ``WARNING`` in place of the class of a
warning; ``test_class`` keeps the class the warning belongs to.)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from annoscore.scorer.problems import Related, Severity

ERROR = Severity.ERROR
WARNING = Severity.WARNING

CLASSES = ("UNICODE", "FORMAT", "MORPHO", "SYNTAX", "ENHANCED", "METADATA")

# test id -> (level, class, severity)
TESTS: dict[str, tuple[int, str, Severity]] = {}


def _register(level: int, test_class: str, severity: Severity, ids: str) -> None:
    for test_id in ids.split():
        TESTS[test_id] = (level, test_class, severity)


_register(1, "UNICODE", ERROR, "invalid-utf unicode-normalization")
_register(1, "FORMAT", ERROR, """
    misplaced-comment pseudo-empty-line extra-empty-line empty-sentence
    invalid-line missing-empty-line number-of-columns invalid-whitespace-mwt
    invalid-whitespace empty-column leading-whitespace trailing-whitespace
    repeated-whitespace invalid-word-id invalid-word-interval
    misplaced-word-interval misplaced-empty-node word-id-sequence
    reversed-word-interval word-interval-out overlapping-word-intervals
    non-unix-newline""")
_register(2, "FORMAT", ERROR, """
    mwt-nonempty-field empty-node-nonempty-field unsorted-deps unsorted-deps-2
    repeated-deps repeated-misc invalid-head invalid-deps invalid-ehead""")
_register(2, "FORMAT", WARNING, "empty-misc empty-misc-key misc-extra-space misc-attr-typo")
_register(2, "MORPHO", ERROR, """
    unknown-upos empty-string-in-xpos unsorted-features invalid-feature
    repeated-feature-value unsorted-feature-values invalid-feature-value
    repeated-feature""")
_register(2, "SYNTAX", ERROR, "invalid-deprel unknown-udeprel unknown-head head-self-loop "
          "multiple-roots non-tree")
_register(2, "ENHANCED", ERROR, "deps-self-loop invalid-edeprel unknown-eudeprel unknown-ehead "
          "edeps-only-sometimes unconnected-egraph")
_register(2, "METADATA", ERROR, """
    invalid-sent-id missing-sent-id multiple-sent-id non-unique-sent-id
    slash-in-sent-id invalid-parallel-id multiple-parallel-id
    non-unique-parallel-id parallel-id-alt parallel-id-part multiple-newdoc
    multiple-newpar spaceafter-newdocpar missing-text multiple-text empty-text
    text-trailing-whitespace nospaceafter-yes spaceafter-value
    spaceafter-empty-node spaceafter-mwt-node text-form-mismatch
    missing-spaceafter text-extra-chars""")
_register(3, "MORPHO", WARNING, "pron-det-without-prontype verbform-fin-without-mood "
          "flat-foreign-upos-feats")
_register(3, "MORPHO", ERROR, "goeswith-missing-typo goeswith-lemma goeswith-upos goeswith-feats")
_register(3, "SYNTAX", ERROR, """
    0-is-not-root root-is-not-0 rel-upos-det rel-upos-nummod rel-upos-advmod
    rel-upos-expl rel-upos-aux rel-upos-cop rel-upos-case rel-upos-mark
    rel-upos-cc rel-upos-punct upos-rel-punct rel-upos-fixed right-to-left-conj
    right-to-left-fixed right-to-left-flat right-to-left-goeswith
    right-to-left-appos too-many-subjects too-many-objects obl-should-be-nmod
    leaf-mark-case leaf-aux-cop leaf-det leaf-clf leaf-cc leaf-fixed
    leaf-goeswith leaf-punct goeswith-gap goeswith-nospace
    punct-causes-nonproj punct-is-nonproj""")
_register(3, "SYNTAX", WARNING, "fixed-without-extpos orphan-parent fixed-gap")
_register(3, "ENHANCED", ERROR, """
    enhanced-0-is-not-root enhanced-root-is-not-0 goeswith-edeps
    empty-node-after-eorphan eorphan-after-empty-node
    edeps-identical-to-basic-trees""")
_register(4, "FORMAT", ERROR, "invalid-word-with-space")
_register(4, "MORPHO", ERROR, """
    mwt-typo-repeated-at-word feature-unknown feature-not-permitted
    feature-value-unknown feature-upos-not-permitted
    feature-value-upos-not-permitted""")
_register(4, "MORPHO", WARNING, "unknown-lang")
_register(4, "SYNTAX", ERROR, "unknown-deprel")
_register(4, "ENHANCED", ERROR, "unknown-edeprel")
_register(5, "MORPHO", ERROR, "aux-lemma")
_register(5, "SYNTAX", ERROR, "cop-lemma")

# Ids in the official source that no input can produce: the ID regex that
# selects a multiword-token line is the one that would have to fail for
# ``invalid-word-interval``; ``extra-empty-line`` needs an empty line inside
# a sentence, but every empty line ends one; ``invalid-feature-value`` tests
# the values with the very character class that ``invalid-feature`` has
# already required of them.  They are kept in the table so that every
# official id has a level and class.
UNREACHABLE = frozenset({"invalid-word-interval", "extra-empty-line", "invalid-feature-value"})


@dataclass(frozen=True, slots=True)
class Incident:
    """One finding, at a 0-based line and a code-point span of that line."""

    test_id: str
    message: str
    line: int
    start: int = 0
    end: int = 0
    sent_id: str | None = None
    related: tuple[Related, ...] = ()

    @property
    def level(self) -> int:
        return TESTS[self.test_id][0]

    @property
    def test_class(self) -> str:
        return TESTS[self.test_id][1]

    @property
    def severity(self) -> Severity:
        return TESTS[self.test_id][2]

    @property
    def is_error(self) -> bool:
        return TESTS[self.test_id][2] is ERROR

    def shifted(self, lines: int) -> "Incident":
        """The same incident ``lines`` further down (blocks count from their
        own first line, documents from the top)."""
        if not lines:
            return self
        related = tuple(replace(r, line=r.line + lines) for r in self.related) if self.related else ()
        return Incident(self.test_id, self.message, self.line + lines, self.start, self.end, self.sent_id,
                        related)

    def key(self) -> tuple[int, str, str]:
        """What parity with the official validator compares: (line, id, type)."""
        return (self.line, self.test_id, "error" if self.is_error else "warning")
