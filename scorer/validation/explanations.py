"""Each validator test id's reference texts: why it matters, how to fix it, an example.

What a test id means is its checking function's docstring (`rules.RULES`);
this table adds, beside it, what the reference entry needs for a user who
meets the id (docs/reference/codes.md, ``annoscore explain``): why the
finding matters, how to fix it (which column, which value, which quick
fix), and a few lines of CoNLL-U that produce it at the id's level, which
tests/server/test_code_examples.py runs through ``annoscore check``.
Families of ids with one cause share a text (`_family`), written so that it
reads right for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from annoscore.scorer.code_example import Example, conllu, sentence
from annoscore.scorer.validation.incident import TESTS


@dataclass(frozen=True)
class Explanation:
    why: str
    fix: str
    example: Example | None = None


EXPLANATIONS: dict[str, Explanation] = {}


def _explain(test_id: str, why: str, fix: str, example: Example | None = None) -> None:
    if test_id not in TESTS:  # (a typo would leave the id without its entry's texts)
        raise ValueError(f"not a validator test id: {test_id}")
    EXPLANATIONS[test_id] = Explanation(why, fix, example)


# The sentence the examples start from, and its tokens (valid at every level, in English at levels 4-5).
_TEXT = "Dogs bark."
_DOGS = "1 Dogs dog NOUN _ Number=Plur 2 nsubj _ _"
_BARK = "2 bark bark VERB _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No"
_STOP = "3 . . PUNCT _ _ 2 punct _ _"
_GOOD = sentence(_TEXT, _DOGS, _BARK, _STOP)
_CATS = sentence("Cats purr.", "1 Cats cat NOUN _ Number=Plur 2 nsubj _ _",
                 "2 purr purr VERB _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No",
                 _STOP, sent_id="2")


def _tsv(line: str) -> str:
    return "\t".join(line.split())


def _with(old: str, new: str, text: str = _GOOD) -> str:
    """The example sentence with one token line (given as in `conllu`) replaced by ``new`` (written out)."""
    old = _tsv(old)
    if old not in text:
        raise ValueError(f"not in the example: {old!r}")
    return text.replace(old, new, 1)


def _cell(line: str, column: int, value: str) -> str:
    """A token line (as in `conllu`) with one column (1-based) set to ``value`` (which may hold spaces)."""
    cells = line.split()
    cells[column - 1] = value
    return "\t".join(cells)


_BROKEN = ("A file with this error is not valid CoNLL-U: the UD release rejects it, and the validator stops "
           "checking the sentence at level 1, so its other errors stay hidden until this one is fixed.")
_WHITESPACE = ("Whitespace is the CoNLL-U separator: a stray space or TAB in a cell makes it another value than "
               "meant (`NOUN ` is not `NOUN`), and the UD release rejects the file.")
_IDS = ("IDs are how HEAD and DEPS name words: when they are not 1, 2, 3 … in order, with ranges and empty "
        "nodes where they belong, no HEAD can be trusted and the validator skips the sentence's tree checks.")

# --------------------------------------------------------------------------
# Level 1: the lines and cells of the file.

_explain("invalid-utf", "CoNLL-U is UTF-8: a byte that is not UTF-8 (a Latin-1 or Windows-1252 file, or one cut "
         "mid-character) reads as U+FFFD, so the FORM or LEMMA is not the word. " + _BROKEN,
         "Convert the file to UTF-8 (`iconv -f latin1 -t utf-8 file.conllu`), or retype the characters marked. "
         "annoscore reports it as `format-encoding` too.",
         Example(_GOOD.replace("bark\tbark", "bark\tb\udce4rk")))
_explain("unicode-normalization", "The same letter can be written as one character (é) or as a letter and a "
         "combining mark (e + ◌́); UD requires the first form (NFC) so that words compare equal and searches "
         "find them.",
         "Normalize the file to NFC (`python -c \"import sys, unicodedata; sys.stdout.write(unicodedata."
         "normalize('NFC', sys.stdin.read()))\" < in > out`, or `uconv -x any-nfc`).",
         Example(sentence("Cafe\u0301s close.", "1 Cafe\u0301s cafe\u0301 NOUN _ Number=Plur 2 nsubj _ _",
                          "2 close close VERB _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 0 root _ "
                          "SpaceAfter=No", _STOP)))
_explain("misplaced-comment", "Comments (`#` lines) belong before a sentence's first token line; one among the "
         "token lines is not CoNLL-U. " + _BROKEN,
         "Move the comment above the sentence's first token line, or delete it. annoscore reports it as "
         "`format-comment-position` too.",
         Example(sentence(_TEXT, _DOGS, "# a note", _BARK, _STOP)))
_explain("pseudo-empty-line", "A line of spaces or TABs looks empty but is not the empty line that ends a "
         "sentence: tools disagree on where the sentence ends. " + _BROKEN,
         "Delete the spaces and TABs on the line, leaving it empty. annoscore reports it as `format-blank-line` "
         "too.",
         Example(_GOOD[:-1] + " \n" + _CATS))
_explain("extra-empty-line", "No input produces this id: it stands for an empty line inside a sentence, and every "
         "empty line ends one. It is listed because the official validator's source has it; two empty lines in a "
         "row are reported as `empty-sentence`.",
         "Nothing to fix; for two empty lines in a row see `empty-sentence`.")
_explain("empty-sentence", "One empty line ends a sentence: a second one in a row, or comment lines with no token "
         "line after them, make an empty sentence, which the official scorer and the UD release refuse. "
         + _BROKEN.split(": ", 1)[1][0].upper() + _BROKEN.split(": ", 1)[1][1:],
         "Delete the extra empty line (the quick fix of `format-empty-sentence`, or `annoscore fix --select "
         "format-empty-sentence`), or give the comments their token lines.",
         Example(_GOOD + "\n" + _CATS))
_explain("invalid-line", "Every line that is not empty starts with a digit (a token line) or `#` (a comment); "
         "any other line (a note, a line broken in two) is not CoNLL-U. " + _BROKEN,
         "Start the line with `#` if it is a comment, delete what comes before a token line's ID (a space, as "
         "here), join the line to the token line it was broken from, or delete it.",
         Example(_with(_DOGS, " " + _tsv(_DOGS))))
_explain("missing-empty-line", "Every sentence, the last one too, ends with an empty line; a file without it "
         "was cut short, or merges with the next file when they are concatenated.",
         "Add an empty line at the end of the file: the quick fix of `format-final-blank-line`, or `annoscore fix "
         "--select format-final-blank-line`.",
         Example(_GOOD[:-1]))
_explain("number-of-columns", "A token line has exactly ten TAB-separated columns (ID, FORM, LEMMA, UPOS, XPOS, "
         "FEATS, HEAD, DEPREL, DEPS, MISC); with fewer or more, every cell after the fault is read as another "
         "column. " + _BROKEN,
         "Add the missing columns (`_` for an empty one) or remove the extra TABs. Columns separated by spaces "
         "instead of TABs have the quick fix of `format-spaces` (`annoscore fix --select format-spaces`).",
         Example(_with(_DOGS, "1\tDogs\tdog\tNOUN\t_\tNumber=Plur\t2\tnsubj\t_")))
_explain("invalid-whitespace-mwt", "A multiword token is one surface token split into words: its FORM (and "
         "LEMMA) cannot hold a space, for a space would make it two tokens.",
         "Remove the space from the multiword token's FORM; if it really is two tokens, make them two token lines "
         "(and drop the range line).",
         Example(sentence("Dogs don't bark.", _DOGS, "2-3 do n't _ _ _ _ _ _ _ _".replace("do n't", "do_n't"),
                          "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 4 aux _ _",
                          "3 n't not PART _ Polarity=Neg 4 advmod _ _",
                          "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
                          "5 . . PUNCT _ _ 4 punct _ _").replace("do_n't\t_", "do n't\t_")))
_explain("invalid-whitespace", "Only FORM, LEMMA and MISC may hold a space: in ID, UPOS, XPOS, FEATS, HEAD, "
         "DEPREL or DEPS a space makes the value another one (`NO UN`, `nsubj `). " + _WHITESPACE.split(": ", 1)[0]
         + ".",
         "Delete the space in the cell named (or, where it separated two columns, make it a TAB).",
         Example(_with(_DOGS, _cell(_DOGS, 8, "nsubj "))))
_explain("empty-column", "No cell is empty in CoNLL-U: `_` stands for \"no value\". An empty cell is usually two "
         "TABs in a row, which shift the columns after them.",
         "Write `_` in the empty cell, or remove the doubled TAB.",
         Example(_with(_DOGS, _cell(_DOGS, 5, "\u0000").replace("\u0000", ""))))
_explain("leading-whitespace", _WHITESPACE + " A FORM or LEMMA that starts with a space does not match the text.",
         "Delete the space at the start of the cell: the quick fix, or `annoscore fix --select leading-whitespace`.",
         Example(_with(_DOGS, _cell(_DOGS, 3, " dog"))))
_explain("trailing-whitespace", _WHITESPACE + " A FORM or LEMMA that ends with a space does not match the text.",
         "Delete the space at the end of the cell: the quick fix, or `annoscore fix --select trailing-whitespace`.",
         Example(_with(_DOGS, _cell(_DOGS, 3, "dog "))))
_explain("repeated-whitespace", "A FORM or LEMMA may hold single spaces between its parts (as the language data "
         "allows, level 4), never two in a row: `New  York` is not `New York`, and will not match it.",
         "Make the double space one space (or, if the word has no space, none).",
         Example(_with(_DOGS, _cell(_DOGS, 3, "do  g"))))
_explain("invalid-word-id", "A word's ID is a whole number (`3`), a multiword range (`3-4`) or an empty node "
         "(`3.1`), written without leading zeros; anything else names no word. " + _IDS,
         "Write the ID (column 1) as the word's position in the sentence, counting from 1 (a range as its first "
         "and last words, `1-2`). annoscore reports most such IDs as `format-id` too.",
         Example(sentence(_TEXT, "1-02 Dogs _ _ _ _ _ _ _ _", _DOGS, _BARK, _STOP)))
_explain("invalid-word-interval", "No input produces this id: a line is taken for a multiword range only when its "
         "ID already reads as `N-M`, the very test that would have to fail here. A range that cannot be read is "
         "reported as `invalid-word-id`; the id is listed because the official validator's source has it.",
         "Nothing to fix; for a range that cannot be read see `invalid-word-id`.")
_explain("misplaced-word-interval", "A multiword range comes right before the first word it covers: elsewhere it "
         "splits a token that is not there. " + _IDS,
         "Move the range line above its first word, or correct its numbers to the words that follow it.",
         Example(sentence("Dogs don't bark.", _DOGS, "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|"
                          "VerbForm=Fin 4 aux _ _", "2-3 don't _ _ _ _ _ _ _ _", "3 n't not PART _ Polarity=Neg 4 "
                          "advmod _ _", "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
                          "5 . . PUNCT _ _ 4 punct _ _")))
_explain("misplaced-empty-node", "An empty node `N.k` comes right after word N (after N.k-1 when there are "
         "several), and before a multiword range that starts at N+1. " + _IDS,
         "Move the empty node's line after its word, or renumber it to the word it follows (`2.1` after word 2).",
         Example(sentence(_TEXT, _DOGS, "2.1 bark bark VERB _ _ _ _ 0:root _", _BARK, _STOP)))
_explain("word-id-sequence", "Words are numbered 1, 2, 3 … without gaps or repeats: a number skipped or "
         "repeated (a line inserted, deleted or moved by hand) changes what every HEAD after it means. " + _IDS,
         "Renumber the sentence: in the editor the quick fix of `ids-out-of-sequence` renumbers the IDs and every "
         "HEAD and DEPS pointing at them (`annoscore fix --select ids-out-of-sequence` in files).",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 3 nsubj _ _", _tsv(_BARK).replace("2", "3", 1),
                          "2 . . PUNCT _ _ 3 punct _ _"), also=("format-id-order", "cycle")))
_explain("reversed-word-interval", "A multiword range `N-M` runs from N up to M: `3-2` covers no word. " + _IDS,
         "Swap the numbers of the range (column 1): `2-3`.",
         Example(sentence("Dogs don't bark.", _DOGS, "3-2 don't _ _ _ _ _ _ _ _",
                          "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 4 aux _ _",
                          "3 n't not PART _ Polarity=Neg 4 advmod _ _",
                          "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No", "5 . . PUNCT _ _ 4 punct _ _")))
_explain("word-interval-out", "A multiword range covers words of its own sentence: one that runs past the last "
         "word names words that are not there. " + _IDS,
         "Correct the range's last number to the token's last word, or add the words it is split into.",
         Example(sentence(_TEXT, _DOGS, "2-4 bark. _ _ _ _ _ _ _ _", _BARK, _STOP)))
_explain("overlapping-word-intervals", "A word belongs to one surface token at most: two multiword ranges that "
         "share a word split the text in two ways at once. " + _IDS,
         "Correct the ranges so that they do not share a word (`1-2` and `3-4`, not `1-2` and `2-3`).",
         Example(sentence("ab c", "1-2 ab _ _ _ _ _ _ _ _", "1 a a NOUN _ _ 0 root _ _", "2-3 bc _ _ _ _ _ _ _ _",
                          "2 b b NOUN _ _ 1 dep _ _", "3 c c NOUN _ _ 1 dep _ _"),
                 also=("format-mwt", "missing-head", "format-id-order")))
_explain("non-unix-newline", "Lines end with LF only: a CR (a file saved on Windows, CR LF) is part of the line "
         "to the official tools, so the last cell of every line (MISC) holds an invisible character.",
         "Make the line ends LF: `annoscore fix --select non-unix-newline`, or in VS Code the line-end setting "
         "in the status bar (CRLF → LF) and save.",
         Example(_GOOD.replace("\n", "\r\n")))
