"""A document with one finding of each certain fix (for the `fix` tests)."""

from __future__ import annotations


def word(i: int, form: str, head: int, rel: str, feats: str = "_", misc: str = "_", lemma: str | None = None) -> str:
    return "\t".join([str(i), form, form.lower() if lemma is None else lemma, "X", "_", feats, str(head), rel, "_",
                      misc])


def sentence(sent_id: str, text: str | None, words: list[str]) -> str:
    head = [f"# sent_id = {sent_id}"] + ([] if text is None else [f"# text = {text}"])
    return "\n".join(head + words)


# (sentence, the codes it shows)
FAULTY = [
    (sentence("feats", "ñandú b", [word(1, "ñandú", 2, "dep", "Number=Sing|Case=Nom"), word(2, "b", 0, "root")]),
     {"unsorted-features"}),
    (sentence("values", "a b", [word(1, "a", 2, "dep", "PronType=Rel,Int"), word(2, "b", 0, "root")]),
     {"unsorted-feature-values"}),
    (sentence("mismatch", "a c", [word(1, "a", 2, "dep"), word(2, "b", 0, "root")]),
     {"text-form-mismatch", "text-extra-chars"}),
    (sentence("missing", None, [word(1, "a", 2, "dep"), word(2, "b", 0, "root")]), {"missing-text"}),
    (sentence("trailing", "a b ", [word(1, "a", 2, "dep"), word(2, "b", 0, "root")]), {"text-trailing-whitespace"}),
    (sentence("nospace", "ab", [word(1, "a", 2, "dep", misc="NoSpaceAfter=Yes"), word(2, "b", 0, "root")]),
     {"nospaceafter-yes"}),
    (sentence("value", "ab", [word(1, "a", 2, "dep", misc="SpaceAfter=no"), word(2, "b", 0, "root")]),
     {"spaceafter-value"}),
    (sentence("typo", "ab", [word(1, "a", 2, "dep", misc="spaceafter=No"), word(2, "b", 0, "root")]),
     {"misc-attr-typo"}),
    (sentence("extra", "ab", [word(1, "a", 2, "dep", misc="SpaceAfter =No"), word(2, "b", 0, "root")]),
     {"misc-extra-space", "misc-attr-typo"}),
    (sentence("lead", "a b", [word(1, "a", 2, "dep", lemma=" a"), word(2, "b", 0, "root")]), {"leading-whitespace"}),
    (sentence("trail", "a b", [word(1, "a", 2, "dep", lemma="a "), word(2, "b", 0, "root")]), {"trailing-whitespace"}),
    (sentence("spaces", "a b", [word(1, "a", 2, "dep").replace("\t", " "), word(2, "b", 0, "root")]),
     {"format-spaces"}),
    # A word inserted by hand after word 1, not renumbered (# text without it): every reference maps.
    (sentence("inserted", "a b c", [word(1, "a", 2, "dep"), word(2, "x", 2, "dep"), word(2, "b", 0, "root"),
                                      word(3, "c", 2, "dep")]), {"ids-out-of-sequence"}),
]
# Two blank lines before the last sentence, and no blank line after it.
FAULTY_TEXT = "\n\n".join(s for s, _ in FAULTY) + "\n\n\n" + sentence("last", "z", [word(1, "z", 0, "root")]) + "\n"
FAULTY_CODES = set().union(*(codes for _, codes in FAULTY)) | {"format-empty-sentence", "format-final-blank-line"}
