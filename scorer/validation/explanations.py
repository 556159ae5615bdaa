"""Each validator test id's reference texts: why it matters, how to fix it, an example.

What a test id means is its checking function's docstring (`rules.RULES`);
this table adds, beside it, what the reference entry needs for a user who
meets the id (docs/reference/codes.md, ``annoscore explain``): why the
finding matters, how to fix it (which column, which value, which quick
fix), and a few lines of CoNLL-U that produce it at the id's level, which
tests/project/test_code_examples.py runs through ``annoscore check``.
Families of ids with one cause share a text (`_family`), written so that it
reads right for each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from annoscore.scorer.code_example import Example, sentence
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
         "line after them, make an empty sentence, which the official scorer and the UD release refuse; the "
         "validator stops checking the sentence at level 1, so its other errors stay hidden until this one is "
         "fixed.",
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
         Example(sentence("Dogs don't bark.", "1 Dogs dog NOUN _ Number=Plur 4 nsubj _ _",
                          "\t".join(("2-3", "do n't", *"_" * 8)),
                          "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 4 aux _ _",
                          "3 n't not PART _ Polarity=Neg 4 advmod _ _",
                          "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
                          "5 . . PUNCT _ _ 4 punct _ _")))
_explain("invalid-whitespace", "Only FORM, LEMMA and MISC may hold a space: in ID, UPOS, XPOS, FEATS, HEAD, "
         "DEPREL or DEPS a space makes the value another one (`NO UN`, `nsubj `). " + _WHITESPACE.split(": ", 1)[0]
         + ".",
         "Delete the space in the cell named (or, where it separated two columns, make it a TAB).",
         Example(_with(_DOGS, _cell(_DOGS, 8, "nsubj "))))
_explain("empty-column", "No cell is empty in CoNLL-U: `_` stands for \"no value\". An empty cell is usually two "
         "TABs in a row, which shift the columns after them.",
         "Write `_` in the empty cell, or remove the doubled TAB.",
         Example(_with(_DOGS, _cell(_DOGS, 5, ""))))
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

# --------------------------------------------------------------------------
# Level 2: each cell's value, each sentence's tree and metadata.

_DONT = ("Dogs don't bark.", "1 Dogs dog NOUN _ Number=Plur 4 nsubj _ _", "2-3 don't _ _ _ _ _ _ _ _",
         "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 4 aux _ _",
         "3 n't not PART _ Polarity=Neg 4 advmod _ _", "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
         "5 . . PUNCT _ _ 4 punct _ _")
_ENHANCED = ("1 Dogs dog NOUN _ Number=Plur 2 nsubj 2:nsubj _",
             "2 bark bark VERB _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 0 root 0:root SpaceAfter=No",
             "3 . . PUNCT _ _ 2 punct 2:punct _")
_TREE = ("The tree checks (levels 2-3) and the official scorer need a well-formed tree: until this is fixed, the "
         "sentence cannot be scored, and the validator's later checks of it do not run.")
_FEATS = ("FEATS is read by every tool that uses morphology (search, conversion, the MLAS and UFeats scores): "
          "a cell that is not `Feature=Value` items, sorted, each once, is read differently by each, or not at "
          "all.")
_DEPS = ("DEPS is the enhanced graph, read by the EULAS/ELAS scores and by tools that use it: a cell whose "
         "items are not sorted and unique is not the canonical form, so equal graphs would compare unequal.")
_MISC = ("MISC holds attributes tools read by name (SpaceAfter, Translit, Lang …): one they cannot find, "
         "because its name is empty, misspelt or padded with spaces, is silently ignored.")
_METADATA = ("The metadata comments identify each sentence and its text: tools (search, the scorer's alignment, "
             "`annoscore leaks`, the UD release) rely on them being present, unique and well formed.")
_SPELL = ("`# text` is the sentence as written, and the FORMs (each followed by a space unless MISC says "
          "SpaceAfter=No) must spell it exactly: that is how the text is rebuilt from the tokens and how the "
          "scorer aligns words with gold.")


def _misc(value: str) -> Example:
    return Example(_with(_DOGS, _cell(_DOGS, 10, value)))


_explain("mwt-nonempty-field", "A multiword token's line is the surface token only: its words' lines carry the "
         "LEMMA, UPOS, FEATS, HEAD and the rest. A value on the token's line is annotation that no tool reads.",
         "Move the value to the word it belongs to and write `_` in the token line's column (all but ID, FORM "
         "and MISC).",
         Example(sentence(*_DONT[:2], "2-3 don't do _ _ _ _ _ _ _", *_DONT[3:])))
_explain("empty-node-nonempty-field", "An empty node (`3.1`, an elided word of the enhanced graph) has no place "
         "in the basic tree: its HEAD and DEPREL are `_`, and its attachment is in DEPS.",
         "Write `_` in the empty node's HEAD and DEPREL (columns 7 and 8) and attach it in DEPS (column 9).",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 2 nsubj 2:nsubj _", _ENHANCED[1],
                          "2.1 bark bark VERB _ _ 2 conj 0:root _", _ENHANCED[2])))
_explain("unsorted-deps", _DEPS, "Sort the DEPS items by head ID (`1:nsubj|3:obj`, not `3:obj|1:nsubj`).",
         Example(sentence(_TEXT, _ENHANCED[0], _ENHANCED[1], "3 . . PUNCT _ _ 2 punct 2:punct|0:root _")))
_explain("unsorted-deps-2", _DEPS, "Sort the DEPS items of one head by relation (`2:nsubj|2:obj`, not "
         "`2:obj|2:nsubj`).",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 2 nsubj 2:nsubj|2:dep _", *_ENHANCED[1:])))
_explain("repeated-deps", _DEPS, "Delete the repeated DEPS item (the same head and relation twice).",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 2 nsubj 2:nsubj|2:nsubj _", *_ENHANCED[1:])))
_explain("repeated-misc", _MISC.split(":")[0] + ": when one the validator knows appears twice, tools read one "
         "of the two values, and not all the same one.",
         "Keep one of the attributes in MISC (column 10) and delete the other.",
         Example(_with(_BARK, _cell(_BARK, 10, "SpaceAfter=No|SpaceAfter=No"))))
_explain("invalid-head", "HEAD is the ID of the word's head: a whole number (0 for the root), never an empty "
         "node's ID or anything else. " + _TREE,
         "Write the head word's ID in HEAD (column 7), or 0 for the root. annoscore reports it as `format-head` "
         "too.",
         Example(_with(_DOGS, _cell(_DOGS, 7, "two")), also=("unknown-head",)))
_explain("invalid-deps", "DEPS is `_` or `head:relation` items separated by `|`: one it cannot read leaves the "
         "word out of the enhanced graph (the official scorer stops on it).",
         "Write DEPS (column 9) as `2:nsubj` (a head's ID, a colon, the relation), several joined by `|`. annoscore "
         "reports it as `format-deps` too.",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 2 nsubj 2nsubj _", *_ENHANCED[1:])))
_explain("invalid-ehead", "A head in DEPS is 0, a word's ID or an empty node's (`2.1`): anything else names no "
         "node of the enhanced graph.",
         "Write the head's ID before the colon of the DEPS item (`2:nsubj`).",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 2 nsubj 2.x:nsubj _", *_ENHANCED[1:]),
                 also=("unknown-ehead",)))
_explain("empty-misc", _MISC, "Delete the empty attribute: two `|` in a row, or one at the start or end of MISC "
         "(column 10).",
         Example(_with(_BARK, _cell(_BARK, 10, "SpaceAfter=No|"))))
_explain("empty-misc-key", _MISC, "Write the attribute's name before its `=` in MISC (column 10), or delete it.",
         _misc("=dogs"))
_explain("misc-extra-space", _MISC, "Delete the spaces around the attribute's name or `=` in MISC (column 10): "
         "the quick fix, or `annoscore fix --select misc-extra-space`.",
         _misc("Translit= dogs"))
_explain("misc-attr-typo", _MISC, "Spell the attribute as the validator knows it (`Translit`, not `translit`): "
         "the quick fix, or `annoscore fix --select misc-attr-typo`.",
         _misc("translit=dogs"))
_explain("unknown-upos", "UPOS is one of the 17 universal tags (ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON "
         "PROPN PUNCT SCONJ SYM VERB X), written in capitals: any other value is no part of speech to the tools "
         "and scores that use it (UPOS, MLAS).",
         "Write one of the 17 tags in UPOS (column 4); the quick fix offers the nearest ones. A treebank's own "
         "tags go in XPOS (column 5).",
         Example(_with(_DOGS, _cell(_DOGS, 4, "NOUNS"))))
_explain("empty-string-in-xpos", "XPOS is `_` when there is no language-specific tag, never the empty string: an "
         "empty cell shifts the columns for tools that split on runs of TABs.",
         "Write `_` in XPOS (column 5).",
         Example(_with(_DOGS, _cell(_DOGS, 5, "")), also=("empty-column",)))
_explain("unsorted-features", _FEATS, "Sort the FEATS items by feature name, case-insensitively "
         "(`Case=Nom|Number=Plur`): the quick fix, or `annoscore fix --select unsorted-features`.",
         Example(_with(_DOGS, _cell(_DOGS, 6, "Number=Plur|Case=Nom"))))
_explain("invalid-feature", _FEATS, "Write each FEATS item as `Feature=Value`: the feature capitalized "
         "(`Number`), letters and digits only, then `=` and the value (`Plur`), items joined by `|`.",
         Example(_with(_DOGS, _cell(_DOGS, 6, "number=Plur"))))
_explain("repeated-feature-value", _FEATS, "Delete the repeated value (`PronType=Int,Rel`, not `PronType=Int,Int`).",
         Example(_with(_DOGS, _cell(_DOGS, 6, "Number=Plur,Plur"))))
_explain("unsorted-feature-values", _FEATS, "Sort a feature's values (`PronType=Int,Rel`): the quick fix, or "
         "`annoscore fix --select unsorted-feature-values`.",
         Example(_with(_DOGS, _cell(_DOGS, 6, "Number=Sing,Plur"))))
_explain("invalid-feature-value", "No input produces this id: it tests a feature's values with the very pattern "
         "`invalid-feature` has already required of them. It is listed because the official validator's source "
         "has it.",
         "Nothing to fix; for a value that is not letters and digits see `invalid-feature`.")
_explain("repeated-feature", _FEATS, "Keep each feature once in FEATS: join its values with a comma "
         "(`PronType=Int,Rel`), or delete the wrong one.",
         Example(_with(_DOGS, _cell(_DOGS, 6, "Number=Plur|Number=Sing"))))
_explain("invalid-deprel", "DEPREL is a universal relation in lowercase, optionally with one subtype after a "
         "colon (`nsubj:pass`): another shape is no relation to the tools and the LAS.",
         "Write DEPREL (column 8) in lowercase as `relation` or `relation:subtype` (one subtype).",
         Example(_with(_DOGS, _cell(_DOGS, 8, "nsubj:pass:x"))))
_explain("unknown-udeprel", "The part of DEPREL before the colon is one of the 37 universal relations (nsubj, "
         "obj, obl, amod, …): another is no relation that tools, the guidelines or the LAS know.",
         "Write one of the universal relations in DEPREL (column 8), with a subtype after a colon if needed; the "
         "quick fix offers the nearest ones.",
         Example(_with(_DOGS, _cell(_DOGS, 8, "subj"))))
_explain("unknown-head", "HEAD names a word of the sentence (or 0): one past the last word leaves this word "
         "unattached. " + _TREE,
         "Set HEAD (column 7) to the ID of a word of this sentence, or 0. annoscore reports it as "
         "`head-out-of-range` too.",
         Example(_with(_DOGS, _cell(_DOGS, 7, "4"))))
_explain("head-self-loop", "A word cannot be its own head: HEAD equal to its own ID is a loop, not a tree. " + _TREE,
         "Set HEAD (column 7) to the word it depends on, or 0 if it is the root. annoscore reports it as `cycle` "
         "too.",
         Example(_with(_DOGS, _cell(_DOGS, 7, "1"))))
_explain("multiple-roots", "A basic tree has exactly one root: more than one word with HEAD 0 is a forest. "
         + _TREE,
         "Keep HEAD 0 and DEPREL `root` on the main predicate; attach the others to it (or to the word they "
         "depend on). annoscore reports it as its own `multiple-roots` too.",
         Example(_with(_DOGS, _cell(_cell(_DOGS, 7, "0").replace("\t", " "), 8, "root"))))
_explain("non-tree", "Every word is reached from the root by following HEADs down: a cycle (1 → 3 → 1) is cut off "
         "from it. " + _TREE,
         "Change the HEAD (column 7) of one word of the cycle so that it leads to the root. annoscore reports it as "
         "`cycle` too.",
         Example(sentence(_TEXT, "1 Dogs dog NOUN _ Number=Plur 3 nsubj _ _", _BARK, "3 . . PUNCT _ _ 1 punct _ _"),
                 also=("cycle",)))


def _enhanced(dogs: str = "2:nsubj", bark: str = "0:root", stop: str = "2:punct") -> str:
    """The example sentence with an enhanced graph (DEPS) whose cells are these."""
    return sentence(_TEXT, _cell(_ENHANCED[0], 9, dogs).replace("\t", " "), _ENHANCED[1].replace("0:root", bark),
                    _cell(_ENHANCED[2], 9, stop).replace("\t", " "))


_EGRAPH = ("The enhanced graph (DEPS) is what the ELAS and EULAS scores and the tools that use it read: an item "
           "that is not a relation between existing nodes makes the graph mean something else, or nothing.")

_explain("deps-self-loop", "A node is not its own head in the enhanced graph either: a DEPS item naming the word "
         "itself is a loop. " + _EGRAPH.split(": ", 1)[0] + ".",
         "Write the ID of the word's enhanced head in the DEPS item (column 9), not its own ID.",
         Example(_enhanced(dogs="1:dep|2:nsubj")))
_explain("invalid-edeprel", "An enhanced relation is a universal relation with at most three subtypes (the last "
         "may be a lowercase word, such as a case marker: `obl:in`), in lowercase. " + _EGRAPH.split(": ", 1)[0]
         + ".",
         "Write the relation after the DEPS item's colon in lowercase, with at most three subtypes (`nsubj:pass`, "
         "`obl:arg:in`).",
         Example(_enhanced(dogs="2:NSUBJ")))
_explain("unknown-eudeprel", "The first part of an enhanced relation is one of the universal relations (or `ref`): "
         "another is no relation the tools or the ELAS score know.",
         "Write a universal relation after the DEPS item's colon (`2:nsubj`, with a subtype after another colon "
         "if needed).",
         Example(_enhanced(dogs="2:subj")))
_explain("unknown-ehead", "A DEPS item's head is a node of the sentence: 0, a word or an empty node that exists. "
         + _EGRAPH.split(": ", 1)[0] + ".",
         "Write the ID of an existing word (or empty node, or 0) before the DEPS item's colon.",
         Example(_enhanced(dogs="4:nsubj")))
_explain("edeps-only-sometimes", "A treebank has enhanced graphs in every sentence or in none: in a treebank that has "
         "them, a sentence with DEPS `_` has no enhanced relations to score (ELAS and EULAS count its words "
         "as missing or wrong), and users of the graphs cannot tell a sentence not annotated from one left out.",
         "Fill in DEPS (column 9) in every sentence (a copy of HEAD:DEPREL where nothing is enhanced), or write `_` "
         "in all of them.",
         Example(_enhanced() + _CATS))
_explain("unconnected-egraph", "Every node of the enhanced graph is reached from the root (0) through DEPS: a node "
         "or group of nodes cut off from it is attached nowhere. " + _EGRAPH.split(": ", 1)[0] + ".",
         "Attach the nodes named to the graph through DEPS (column 9): give one of them a head that is reached "
         "from 0.",
         Example(_enhanced(dogs="3:nsubj", stop="1:punct")))

_explain("invalid-sent-id", _METADATA + " An ID with whitespace in it cannot be written or searched as one.",
         "Write the ID after `# sent_id = ` without spaces (`en_ewt-dev-0001`).",
         Example(_GOOD.replace("# sent_id = 1", "# sent_id = 1 a"), also=("missing-sent-id",)))
_explain("missing-sent-id", _METADATA, "Add a `# sent_id = ID` line before the sentence's token lines, with an ID no "
         "other sentence has.",
         Example(_GOOD.replace("# sent_id = 1\n", "")))
_explain("multiple-sent-id", _METADATA + " A sentence with two IDs has none that can be trusted.",
         "Keep one `# sent_id` line in the sentence and delete the other.",
         Example(_GOOD.replace("# sent_id = 1\n", "# sent_id = 1\n# sent_id = 2\n")))
_explain("non-unique-sent-id", _METADATA + " Two sentences with one ID cannot be told apart (`annoscore agree` "
         "pairs sentences by it).",
         "Give one of the sentences another `# sent_id`.",
         Example(_GOOD + _CATS.replace("# sent_id = 2", "# sent_id = 1")))
_explain("slash-in-sent-id", _METADATA + " A slash in a sent_id is reserved for the parallel treebanks' IDs "
         "(one slash, in the language `ud` only).",
         "Write the ID without `/` (`-` instead, say); a parallel treebank says the parallel sentence in "
         "`# parallel_id`.",
         Example(_GOOD.replace("# sent_id = 1", "# sent_id = doc/part/1")))
_explain("invalid-parallel-id", "`# parallel_id` names the parallel sentence (`corpus/sentence`, optionally "
         "`/alt1`, `/part1` or `/alt1part1`) that links translations across treebanks: another shape links "
         "nothing.",
         "Write it as `# parallel_id = pud/n01001011` (a corpus, a slash, the sentence's ID).",
         Example(_GOOD.replace("# text", "# parallel_id = pud\n# text")))
_explain("multiple-parallel-id", "A sentence is one parallel sentence (or one of its alternatives or parts): two "
         "`# parallel_id` lines link it twice.",
         "Keep one `# parallel_id` line in the sentence.",
         Example(_GOOD.replace("# text", "# parallel_id = pud/1\n# parallel_id = pud/2\n# text")))
_explain("non-unique-parallel-id", "Two sentences with the same parallel_id are two translations of one sentence "
         "in one treebank: if both are meant, they are alternatives (`/alt1`, `/alt2`) or parts (`/part1`, "
         "`/part2`).",
         "Give the sentences their own parallel IDs, or mark them `/alt1`, `/alt2` or `/part1`, `/part2`.",
         Example(_GOOD.replace("# text", "# parallel_id = pud/1\n# text")
                 + _CATS.replace("# text", "# parallel_id = pud/1\n# text")))
_explain("parallel-id-alt", "The alternatives of one parallel sentence are numbered `/alt1`, `/alt2`, … in order, "
         "and all of them have the suffix: a gap or a sentence without it breaks the link.",
         "Number the alternatives from `/alt1` on, in order, and give each of them the suffix.",
         Example(_GOOD.replace("# text", "# parallel_id = pud/1/alt1\n# text")
                 + _CATS.replace("# text", "# parallel_id = pud/1/alt3\n# text")))
_explain("parallel-id-part", "The parts of one parallel sentence (a sentence split in this treebank) are "
         "numbered `/part1`, `/part2`, … in order: a gap or a part without the suffix breaks the link.",
         "Number the parts from `/part1` on, in order, and give each of them the suffix.",
         Example(_GOOD.replace("# text", "# parallel_id = pud/1/part1\n# text")
                 + _CATS.replace("# text", "# parallel_id = pud/1/part3\n# text")))
_explain("multiple-newdoc", "`# newdoc` marks where a document starts; a sentence starts one document at most.",
         "Keep one `# newdoc` line in the sentence.",
         Example(_GOOD.replace("# sent_id", "# newdoc\n# newdoc\n# sent_id")))
_explain("multiple-newpar", "`# newpar` marks where a paragraph starts; a sentence starts one paragraph at most.",
         "Keep one `# newpar` line in the sentence.",
         Example(_GOOD.replace("# sent_id", "# newpar\n# newpar\n# sent_id")))
_explain("spaceafter-newdocpar", "A document or paragraph does not run on without a space from the sentence before "
         "it: SpaceAfter=No on the last token of the sentence before a `# newdoc` or `# newpar` glues the two "
         "texts together when the text is rebuilt.",
         "Delete SpaceAfter=No from the MISC of the last token before the new document or paragraph.",
         Example(sentence(_TEXT, _DOGS, _BARK, "3 . . PUNCT _ _ 2 punct _ SpaceAfter=No")
                 + _CATS.replace("# sent_id", "# newpar\n# sent_id")))
_explain("missing-text", _METADATA + " " + _SPELL.split(":")[0] + ": without it the sentence's text is lost.",
         "Add `# text = …` before the token lines: the quick fix writes it from the FORMs and SpaceAfter "
         "(`annoscore fix --select missing-text`).",
         Example(_GOOD.replace("# text = Dogs bark.\n", "")))
_explain("multiple-text", _METADATA + " Two `# text` lines give the sentence two texts, and the FORMs can spell "
         "only one.",
         "Keep the `# text` line the FORMs spell and delete the other.",
         Example(_GOOD.replace("# text = Dogs bark.\n", "# text = Dogs bark.\n# text = Dogs bark.\n")))
_explain("empty-text", _METADATA + " An empty `# text` is a sentence without text, which its FORMs contradict.",
         "Write the sentence after `# text = `: the FORMs, each followed by a space unless SpaceAfter=No.",
         Example(_GOOD.replace("# text = Dogs bark.", "# text ="), also=("text-form-mismatch",)))
_explain("text-trailing-whitespace", _SPELL + " A space at the end of `# text` is not part of the sentence.",
         "Delete the whitespace at the end of the `# text` line: the quick fix, or `annoscore fix --select "
         "text-trailing-whitespace`.",
         Example(_GOOD.replace("# text = Dogs bark.", "# text = Dogs bark. ")))
_explain("nospaceafter-yes", _SPELL + " `NoSpaceAfter=Yes` is not an attribute the tools know: the space is "
         "taken to be there.",
         "Write `SpaceAfter=No` instead of `NoSpaceAfter=Yes` in MISC: the quick fix, or `annoscore fix --select "
         "nospaceafter-yes`.",
         Example(_with(_DOGS, _cell(_DOGS, 10, "NoSpaceAfter=Yes"))))
_explain("spaceafter-value", _SPELL + " SpaceAfter takes the value No only (a space is the default).",
         "Write `SpaceAfter=No` where no space follows, and delete `SpaceAfter=Yes` where one does: the quick fix, "
         "or `annoscore fix --select spaceafter-value`.",
         Example(_with(_DOGS, _cell(_DOGS, 10, "SpaceAfter=Yes"))))
_explain("spaceafter-empty-node", _SPELL + " An empty node is not in the text, so nothing can follow it.",
         "Delete SpaceAfter from the empty node's MISC; put it on the token before it if that one has no space "
         "after.",
         Example(sentence(_TEXT, _ENHANCED[0], _ENHANCED[1], "2.1 bark bark VERB _ _ _ _ 0:root SpaceAfter=No",
                          _ENHANCED[2])))
_explain("spaceafter-mwt-node", _SPELL + " Inside a multiword token there is no space to speak of: SpaceAfter "
         "belongs on the token's line (`2-3`), not on its words'.",
         "Move `SpaceAfter=No` from the word's MISC to the multiword token's line.",
         Example(sentence(*_DONT[:3], _cell(_DONT[3], 10, "SpaceAfter=No").replace("\t", " "), *_DONT[4:])))
_explain("text-form-mismatch", _SPELL + " A FORM that differs from the text (a typo corrected in one and not the "
         "other) breaks the alignment there.",
         "Make the FORM (column 2) and `# text` agree: correct whichever is wrong; the quick fix rewrites "
         "`# text` from the FORMs (`annoscore fix --select text-form-mismatch`).",
         Example(_with(_DOGS, _cell(_DOGS, 2, "Hogs")), also=("text-extra-chars",)))
_explain("missing-spaceafter", _SPELL + " Where the text has no space after a token, its MISC must say "
         "SpaceAfter=No.",
         "Add `SpaceAfter=No` to the token's MISC (column 10), or a space to `# text` if one belongs there; "
         "`annoscore fix` adds the SpaceAfter where the text is right.",
         Example(_with(_BARK, _cell(_BARK, 10, "_"))))
_explain("text-extra-chars", _SPELL + " Text left over after the last FORM is text with no token.",
         "Add the tokens for the rest of `# text`, or delete it from `# text`: the quick fix rewrites `# text` "
         "from the FORMs (`annoscore fix --select text-extra-chars`).",
         Example(_GOOD.replace("# text = Dogs bark.", "# text = Dogs bark. Woof.")))

# --------------------------------------------------------------------------
# Level 3: the guidelines' rules on relations, parts of speech and the tree's
# shape.  The examples have no features (FEATS _), which the rules that need
# features then leave alone.

def _s3(text: str, *tokens: str, **kwargs) -> str:
    """A sentence of a level-3 example: tokens as in `conllu`, whose last token ("." unless said) ends it."""
    return sentence(text, *tokens, **kwargs)


_THE_DOG = ("The dog barks.", "1 The the DET _ _ 2 det _ _", "2 dog dog NOUN _ _ 3 nsubj _ _",
            "3 barks bark VERB _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")


def _the_dog(k: int, line: str) -> str:
    """"The dog barks." with its token ``k`` (1-based) replaced."""
    tokens = list(_THE_DOG[1:])
    tokens[k - 1] = line
    return _s3(_THE_DOG[0], *tokens)


_GUIDELINES = ("The UD guidelines tie relations to parts of speech and shapes of tree, so that one construction "
               "is annotated one way in every treebank: this combination is one they rule out, and usually a "
               "wrong UPOS or DEPREL.")
_REL_UPOS = ("{rel} is a relation of {what}. " + _GUIDELINES.split(": ")[0] + ": a word attached as {rel} with "
             "another UPOS has a wrong UPOS or a wrong DEPREL.")


def _rel_upos(test_id: str, rel: str, what: str, upos: str, example: Example) -> None:
    _explain(test_id, _REL_UPOS.format(rel=f"`{rel}`", what=what),
             f"Correct the word's UPOS (column 4) to {upos} if the relation is right, or its DEPREL (column 8) "
             "if the part of speech is.", example)


_rel_upos("rel-upos-det", "det", "determiners", "DET, or PRON for a pronominal determiner",
          Example(_the_dog(1, "1 The the ADJ _ _ 2 det _ _")))
_rel_upos("rel-upos-nummod", "nummod", "numerals", "NUM (or NOUN, SYM where a numeral is one)",
          Example(_s3("Two dogs bark.", "1 Two two ADJ _ _ 2 nummod _ _", "2 dogs dog NOUN _ _ 3 nsubj _ _",
                      "3 bark bark VERB _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")))
_rel_upos("rel-upos-advmod", "advmod", "adverbs (ADV, and ADJ, CCONJ, DET, PART or SYM used as one)", "ADV",
          Example(_s3("Dogs bark loudly.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                      "3 loudly loudly NOUN _ _ 2 advmod _ SpaceAfter=No", "4 . . PUNCT _ _ 2 punct _ _")))
_rel_upos("rel-upos-expl", "expl", "expletive pronouns (PRON, DET or PART)", "PRON",
          Example(_s3("There is a dog.", "1 There there ADV _ _ 2 expl _ _", "2 is be VERB _ _ 0 root _ _",
                      "3 a a DET _ _ 4 det _ _", "4 dog dog NOUN _ _ 2 nsubj _ SpaceAfter=No",
                      "5 . . PUNCT _ _ 2 punct _ _")))
_rel_upos("rel-upos-aux", "aux", "auxiliaries (AUX)", "AUX",
          Example(_s3("Dogs can bark.", "1 Dogs dog NOUN _ _ 3 nsubj _ _", "2 can can VERB _ _ 3 aux _ _",
                      "3 bark bark VERB _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")))
_rel_upos("rel-upos-cop", "cop", "copulas (AUX, or PRON, DET where a pronoun is the copula)", "AUX",
          Example(_s3("Dogs are loud.", "1 Dogs dog NOUN _ _ 3 nsubj _ _", "2 are be VERB _ _ 3 cop _ _",
                      "3 loud loud ADJ _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")))
_rel_upos("rel-upos-case", "case", "adpositions and other case markers (not PROPN, ADJ, PRON, DET, NUM or AUX)",
          "ADP", Example(_s3("Dogs bark at cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                             "3 at at PRON _ _ 4 case _ _", "4 cats cat NOUN _ _ 2 obl _ SpaceAfter=No",
                             "5 . . PUNCT _ _ 2 punct _ _")))
_rel_upos("rel-upos-mark", "mark", "subordinating markers (SCONJ, ADP, PART …; not nominals, AUX or INTJ)", "SCONJ",
          Example(_s3("Dogs bark if cats come.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                      "3 if if NOUN _ _ 5 mark _ _", "4 cats cat NOUN _ _ 5 nsubj _ _",
                      "5 come come VERB _ _ 2 advcl _ SpaceAfter=No", "6 . . PUNCT _ _ 2 punct _ _")))
_rel_upos("rel-upos-cc", "cc", "coordinating conjunctions (CCONJ and the like; not nominals, verbs or INTJ)",
          "CCONJ", Example(_s3("Dogs and cats bark.", "1 Dogs dog NOUN _ _ 4 nsubj _ _", "2 and and VERB _ _ 3 cc _ _",
                               "3 cats cat NOUN _ _ 1 conj _ _", "4 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                               "5 . . PUNCT _ _ 4 punct _ _")))
_explain("rel-upos-punct", _REL_UPOS.format(rel="`punct`", what="punctuation (PUNCT)"),
         "Make the word's UPOS PUNCT (column 4) if it is punctuation; a symbol (SYM) or word attaches otherwise "
         "(DEPREL, column 8).",
         Example(_the_dog(4, "4 . . SYM _ _ 3 punct _ _")))
_explain("upos-rel-punct", "Punctuation (UPOS PUNCT) attaches as `punct`, or is the root of a sentence of "
         "punctuation only. " + _GUIDELINES.split(": ")[0] + ": another relation means a wrong UPOS or a wrong "
         "DEPREL.",
         "Make the DEPREL `punct` (column 8), or correct UPOS (column 4) if the word is not punctuation.",
         Example(_the_dog(4, "4 . . PUNCT _ _ 3 dep _ _")))
_explain("rel-upos-fixed", "`fixed` is for grammaticalized function-word expressions (`because of`, `as well "
         "as`); a proper noun of several words (`New York`) is `flat`.",
         "Attach the name's other words with `flat` (DEPREL, column 8), or correct the UPOS (column 4) if the word "
         "is not a proper noun.",
         Example(_s3("Dogs love New York.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 love love VERB _ _ 0 root _ _",
                     "3 New New PROPN _ ExtPos=PROPN 2 obj _ _", "4 York York PROPN _ _ 3 fixed _ SpaceAfter=No",
                     "5 . . PUNCT _ _ 2 punct _ _")))
_explain("fixed-without-extpos", "A `fixed` expression acts as one word of another category (`because of` as an "
         "adposition): the head's ExtPos feature says which, so that the rules on relations and parts of speech "
         "judge the expression, not its first word.",
         "Add `ExtPos=…` to the expression's head's FEATS (column 6), the UPOS of the whole (`ExtPos=ADP` for "
         "`because of`).",
         Example(_s3("Dogs bark because of cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _",
                     "2 bark bark VERB _ _ 0 root _ _", "3 because because SCONJ _ _ 5 case _ _",
                     "4 of of ADP _ _ 3 fixed _ _", "5 cats cat NOUN _ _ 2 obl _ SpaceAfter=No",
                     "6 . . PUNCT _ _ 2 punct _ _")))


def _left_headed(rel: str, what: str, example: Example) -> None:
    _explain(f"right-to-left-{rel}", f"`{rel}` is annotated left to right in every language ({what}): the first "
             "word is the head and the others attach to it. A treebank that annotates otherwise cannot be "
             "compared or searched with the others.",
             f"Make the first word the head: attach the later word(s) to it with `{rel}` (HEAD, column 7) and "
             "give the first word the relation the whole had.", example)


_left_headed("conj", "the first conjunct heads a coordination",
             Example(_s3("Dogs and cats bark.", "1 Dogs dog NOUN _ _ 3 conj _ _", "2 and and CCONJ _ _ 3 cc _ _",
                         "3 cats cat NOUN _ _ 4 nsubj _ _", "4 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                         "5 . . PUNCT _ _ 4 punct _ _")))
_left_headed("fixed", "the first word heads a fixed expression",
             Example(_s3("Dogs bark because of cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _",
                         "2 bark bark VERB _ _ 0 root _ _", "3 because because SCONJ _ _ 4 fixed _ _",
                         "4 of of ADP _ ExtPos=ADP 5 case _ _", "5 cats cat NOUN _ _ 2 obl _ SpaceAfter=No",
                         "6 . . PUNCT _ _ 2 punct _ _")))
_left_headed("flat", "the first word heads a name or other flat expression",
             Example(_s3("Dogs love John Smith.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 love love VERB _ _ 0 root _ _",
                         "3 John John PROPN _ _ 4 flat _ _", "4 Smith Smith PROPN _ _ 2 obj _ SpaceAfter=No",
                         "5 . . PUNCT _ _ 2 punct _ _")))
_left_headed("goeswith", "the first part heads a word split in the text",
             Example(_s3("Dogs bark every where.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                         "3 every _ X _ _ 4 goeswith _ _", "4 where everywhere ADV _ _ 2 advmod _ SpaceAfter=No",
                         "5 . . PUNCT _ _ 2 punct _ _"), also=("goeswith-gap",)))
_left_headed("appos", "the first nominal heads an apposition",
             Example(_s3("John, my friend, barks.", "1 John John PROPN _ _ 4 appos _ SpaceAfter=No",
                         "2 , , PUNCT _ _ 1 punct _ _", "3 my my PRON _ _ 4 nmod:poss _ _",
                         "4 friend friend NOUN _ _ 6 nsubj _ SpaceAfter=No", "5 , , PUNCT _ _ 4 punct _ _",
                         "6 barks bark VERB _ _ 0 root _ SpaceAfter=No", "7 . . PUNCT _ _ 6 punct _ _")))

_explain("too-many-subjects", "A predicate has one subject (an outer subject, `nsubj:outer`, apart): two mean "
         "that one of them is something else (a conjunct, an object, a dislocated or an outer subject).",
         "Find which word is the subject; attach the other with its own relation (`conj` to the first subject, "
         "`obj`, `dislocated`, or the `:outer` subtype where the language has double subjects).",
         Example(_s3("Dogs cats bark.", "1 Dogs dog NOUN _ _ 3 nsubj _ _", "2 cats cat NOUN _ _ 3 nsubj _ _",
                     "3 bark bark VERB _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")))
_explain("too-many-objects", "A predicate has one direct object (`obj`); the second object of a ditransitive verb "
         "is `iobj`, and others are conjuncts or obliques.",
         "Attach the other object with its own relation: `iobj` for the recipient, `conj` to the first object, "
         "`obl` with a preposition.",
         Example(_s3("Dogs chase cats mice.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 chase chase VERB _ _ 0 root _ _",
                     "3 cats cat NOUN _ _ 2 obj _ _", "4 mice mouse NOUN _ _ 2 obj _ SpaceAfter=No",
                     "5 . . PUNCT _ _ 2 punct _ _")))
_explain("obl-should-be-nmod", "`obl` is a nominal attached to a predicate; attached to a noun, it is a nominal "
         "modifier, `nmod`. The two are told apart by the head's part of speech, and the scores count them as "
         "different relations.",
         "Make the DEPREL `nmod` (column 8), or attach the word to the predicate it modifies (HEAD, column 7).",
         Example(_s3("The dog in the house barks.", "1 The the DET _ _ 2 det _ _", "2 dog dog NOUN _ _ 6 nsubj _ _",
                     "3 in in ADP _ _ 5 case _ _", "4 the the DET _ _ 5 det _ _", "5 house house NOUN _ _ 2 obl _ _",
                     "6 barks bark VERB _ _ 0 root _ SpaceAfter=No", "7 . . PUNCT _ _ 6 punct _ _")))
_explain("orphan-parent", "`orphan` attaches the remnant of an elided predicate (gapping: `Dogs bark, and cats "
         "Ø meow`) to the remnant promoted in its place, which is itself a conjunct or another clause: under "
         "anything else it is likely a mistake.",
         "Check the gapping: the promoted remnant should be `conj` (or `parataxis`, `advcl` …) of the full "
         "clause; otherwise use the relation the word would have without the ellipsis.",
         Example(_s3("Dogs bark loud.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                     "3 loud loud ADV _ _ 1 orphan _ SpaceAfter=No", "4 . . PUNCT _ _ 2 punct _ _")))


_LEAF = ("A word attached as {rels} goes with its head and is a leaf of the tree: it has no dependents of its own"
         "{allowed}. A dependent under it usually belongs to its head: the guidelines' analyses, and the tools "
         "and queries written for them, assume the leaf.")


def _leaf(test_id: str, rels: str, allowed: str, example: Example) -> None:
    allowed = "" if allowed == "none" else f" but those the guidelines allow ({allowed})"
    _explain(test_id, _LEAF.format(rels=rels, allowed=allowed),
             "Attach the dependent to the leaf's own head (HEAD, column 7), usually the content word; or, if the "
             "leaf is really the head, correct its DEPREL (column 8).", example)


_leaf("leaf-mark-case", "`case` or `mark`", "`advmod`, `obl`, `fixed`, `goeswith`, `conj`, `cc`, `punct`",
      Example(_s3("Dogs bark at the cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                  "3 at at ADP _ _ 5 case _ _", "4 the the DET _ _ 3 det _ _",
                  "5 cats cat NOUN _ _ 2 obl _ SpaceAfter=No",
                  "6 . . PUNCT _ _ 2 punct _ _")))
_leaf("leaf-aux-cop", "`aux` or `cop`", "`fixed`, `goeswith`, `conj`, `cc`, `punct`",
      Example(_s3("Dogs can bark.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 can can AUX _ _ 3 aux _ _",
                  "3 bark bark VERB _ _ 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _")))
_leaf("leaf-det", "`det`", "`det`, `case`, `advmod`, `obl`, `clf`, `fixed`, `flat`, `compound`, `conj`, `cc`, `punct` "
      "…", Example(_s3("The dog barks.", "1 The the DET _ _ 2 det _ _", "2 dog dog NOUN _ _ 0 root _ _",
                      "3 barks bark VERB _ _ 1 acl _ SpaceAfter=No", "4 . . PUNCT _ _ 2 punct _ _")))
_leaf("leaf-clf", "`clf`", "`advmod`, `obl`, `fixed`, `goeswith`, `conj`, `cc`, `punct`",
      Example(_s3("Three head cattle graze.", "1 Three three NUM _ _ 2 nummod _ _", "2 head head NOUN _ _ 3 clf _ _",
                  "3 cattle cattle NOUN _ _ 4 nsubj _ _", "4 graze graze VERB _ _ 0 root _ SpaceAfter=No",
                  "5 . . PUNCT _ _ 4 punct _ _")))
_leaf("leaf-cc", "`cc`", "`fixed`, `goeswith`, `conj`, `punct`",
      Example(_s3("Dogs and the cats bark.", "1 Dogs dog NOUN _ _ 5 nsubj _ _", "2 and and CCONJ _ _ 4 cc _ _",
                  "3 the the DET _ _ 2 det _ _", "4 cats cat NOUN _ _ 1 conj _ _",
                  "5 bark bark VERB _ _ 0 root _ SpaceAfter=No", "6 . . PUNCT _ _ 5 punct _ _")))
_leaf("leaf-fixed", "`fixed`", "`goeswith`, `conj`, `punct`",
      Example(_s3("Dogs bark because of the cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _",
                  "2 bark bark VERB _ _ 0 root _ _", "3 because because SCONJ _ ExtPos=ADP 6 case _ _",
                  "4 of of ADP _ _ 3 fixed _ _", "5 the the DET _ PronType=Art 4 det _ _",
                  "6 cats cat NOUN _ _ 2 obl _ SpaceAfter=No", "7 . . PUNCT _ _ 2 punct _ _")))
_leaf("leaf-goeswith", "`goeswith`", "none",
      Example(_s3("Dogs bark every where.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _",
                  "3 every everywhere ADV _ _ 2 advmod _ _", "4 where _ X _ _ 3 goeswith _ SpaceAfter=No",
                  "5 . . PUNCT _ _ 4 punct _ _")))
_leaf("leaf-punct", "`punct`", "another `punct`",
      Example(_s3("Dogs bark.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                  "3 . . PUNCT _ _ 2 punct _ _").replace("1\tDogs\tdog\tNOUN\t_\t_\t2", "1\tDogs\tdog\tNOUN\t_\t_\t3")))

_GOESWITH = ("`goeswith` joins the parts of one word the text splits by mistake (`every where` for "
             "`everywhere`): the first part carries the word's annotation (LEMMA, UPOS, FEATS, with Typo=Yes), "
             "the others are `goeswith` parts with nothing of their own.")
_GW = ("1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 bark bark VERB _ _ 0 root _ _")


def _goeswith(every: str, where: str, stop: str = "5 . . PUNCT _ _ 2 punct _ _") -> str:
    return _s3("Dogs bark every where.", *_GW, every, where, stop)


_EVERY = "3 every everywhere ADV _ _ 2 advmod _ _"
_WHERE = "4 where _ X _ _ 3 goeswith _ SpaceAfter=No"
_explain("goeswith-lemma", _GOESWITH, "Write `_` in the LEMMA (column 3) of the `goeswith` part; the first part "
         "has the whole word's lemma.",
         Example(_goeswith(_EVERY, _WHERE.replace("_ X", "where X"))))
_explain("goeswith-upos", _GOESWITH, "Write `X` in the UPOS (column 4) of the `goeswith` part; the first part has "
         "the whole word's UPOS.",
         Example(_goeswith(_EVERY, _WHERE.replace("_ X", "_ ADV"))))
_explain("goeswith-feats", _GOESWITH, "Write `_` in the FEATS (column 6) of the `goeswith` part; the first part "
         "has the whole word's features.",
         Example(_goeswith(_EVERY.replace("ADV _ _", "ADV _ Typo=Yes"), _WHERE.replace("X _ _", "X _ Typo=Yes"))))
_explain("goeswith-gap", _GOESWITH + " Its parts are adjacent: a word between them is no part of the word.",
         "Attach the parts of the split word, and only them, with `goeswith` (HEAD, column 7); the word between "
         "takes its own relation.",
         Example(_s3("Dogs bark every loud where.", *_GW, _EVERY, "4 loud loud ADV _ _ 2 advmod _ _",
                     "5 where _ X _ _ 3 goeswith _ SpaceAfter=No", "6 . . PUNCT _ _ 2 punct _ _")))
_explain("goeswith-nospace", _GOESWITH + " The parts are separate tokens because a space separates them in the "
         "text: without one (SpaceAfter=No), the text was tokenized wrongly, not written wrongly.",
         "Make the parts one token (one FORM), or, if the text has the space, delete SpaceAfter=No from the first "
         "part's MISC.",
         Example(_s3("Dogs bark everywhere.", *_GW, "3 every everywhere ADV _ _ 2 advmod _ SpaceAfter=No", _WHERE,
                     "5 . . PUNCT _ _ 2 punct _ _")))
_explain("goeswith-missing-typo", _GOESWITH + " A treebank with features marks the whole word `Typo=Yes`, so the "
         "misspelling can be found.",
         "Add `Typo=Yes` to the FEATS (column 6) of the first part (the head of the `goeswith` parts).",
         Example(_goeswith(_EVERY, _WHERE, "5 . . PUNCT _ _ 2 punct _ _").replace(
             "1\tDogs\tdog\tNOUN\t_\t_", "1\tDogs\tdog\tNOUN\t_\tNumber=Plur")))
_explain("fixed-gap", "A `fixed` expression is a run of words (`as well as`): a word between its parts (other than "
         "punctuation) makes it no fixed expression.",
         "Attach with `fixed` only the adjacent words of the expression; the word between takes its own "
         "relation, and the rest a relation of their own (HEAD and DEPREL, columns 7-8).",
         Example(_s3("Dogs bark because really of cats.", "1 Dogs dog NOUN _ _ 2 nsubj _ _",
                     "2 bark bark VERB _ _ 0 root _ _", "3 because because SCONJ _ ExtPos=ADP 6 case _ _",
                     "4 really really ADV _ _ 2 advmod _ _", "5 of of ADP _ _ 3 fixed _ _",
                     "6 cats cat NOUN _ _ 2 obl _ SpaceAfter=No", "7 . . PUNCT _ _ 2 punct _ _")))
_explain("flat-foreign-upos-feats", "`flat:foreign` joins the words of a foreign expression that is not analysed "
         "in the language's grammar: its words are UPOS X with the feature Foreign=Yes only.",
         "Write `X` in UPOS (column 4) and `Foreign=Yes` in FEATS (column 6) of both words of the relation; or, "
         "if the words are analysed, use the relations of their analysis.",
         Example(_s3("Dogs say hola amigos.", "1 Dogs dog NOUN _ _ 2 nsubj _ _", "2 say say VERB _ _ 0 root _ _",
                     "3 hola hola X _ Foreign=Yes 2 obj _ _", "4 amigos amigo NOUN _ _ 3 flat:foreign _ SpaceAfter=No",
                     "5 . . PUNCT _ _ 2 punct _ _")))
_explain("pron-det-without-prontype", "A pronoun or determiner says which kind it is (PronType: Prs, Dem, Int, "
         "Art …) in a treebank with features: without it, searches by kind miss it.",
         "Add `PronType=…` to the word's FEATS (column 6), sorted among the others (`Definite=Def|PronType=Art` "
         "for `the`).",
         Example(_s3("The dog barks.", "1 The the DET _ Definite=Def 2 det _ _",
                     "2 dog dog NOUN _ Number=Sing 3 nsubj _ _",
                     "3 barks bark VERB _ Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No",
                     "4 . . PUNCT _ _ 3 punct _ _")))
_explain("verbform-fin-without-mood", "A finite verb (VerbForm=Fin) has a mood (Mood=Ind, Imp, Sub …): without "
         "it the verb's features are incomplete, and searches and conversions that go by mood miss it.",
         "Add `Mood=…` to the verb's FEATS (column 6), sorted among the others; or correct VerbForm if the verb "
         "is not finite.",
         Example(_s3("The dog barks.", "1 The the DET _ Definite=Def|PronType=Art 2 det _ _",
                     "2 dog dog NOUN _ Number=Sing 3 nsubj _ _",
                     "3 barks bark VERB _ Number=Sing|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No",
                     "4 . . PUNCT _ _ 3 punct _ _")))
_explain("0-is-not-root", "The word attached to 0 is the sentence's root and has the relation `root`: another "
         "relation there contradicts the tree's shape, so one of its HEAD and DEPREL is wrong (and LAS counts the "
         "word wrong against a gold that has it right).",
         "Give the word with HEAD 0 the DEPREL `root` (column 8), or attach it to its real head.",
         Example(_the_dog(3, "3 barks bark VERB _ _ 0 dep _ SpaceAfter=No")))
_explain("root-is-not-0", "Only the word attached to 0 has the relation `root`: a `root` under another word is "
         "a wrong DEPREL, or a wrong HEAD.",
         "Give the word its real relation to its head (DEPREL, column 8), or HEAD 0 if it is the root (and then "
         "attach the old root to it).",
         Example(_the_dog(2, "2 dog dog NOUN _ _ 3 root _ _")))
_explain("punct-is-nonproj", "Punctuation attaches so that the tree stays projective: a `punct` arc that crosses "
         "over words its head does not dominate is almost always attached to the wrong word.",
         "Attach the punctuation to a word next to it in the tree: usually the head of the phrase or clause it "
         "closes or separates (HEAD, column 7).",
         Example(_s3("Dogs , bark loudly", "1 Dogs dog NOUN _ _ 3 nsubj _ _", "2 , , PUNCT _ _ 4 punct _ _",
                     "3 bark bark VERB _ _ 0 root _ _", "4 loudly loudly ADV _ _ 3 advmod _ _")))
_explain("punct-causes-nonproj", "An arc that crosses over punctuation whose head it does not also cross makes the "
         "tree non-projective because of the punctuation's place: usually the punctuation is attached to the "
         "wrong word.",
         "Reattach the punctuation (HEAD, column 7) to a word inside the arc that crosses it, usually the head of "
         "the phrase it belongs to, or correct the crossing arc.",
         Example(_s3("Bark dogs , loudly now", "1 Bark bark VERB _ _ 0 root _ _", "2 dogs dog NOUN _ _ 1 nsubj _ _",
                     "3 , , PUNCT _ _ 5 punct _ _", "4 loudly loudly ADV _ _ 2 advmod _ _",
                     "5 now now ADV _ _ 1 advmod _ _"), also=("punct-is-nonproj",)))

# The enhanced graph of "Dogs bark and howl.", which differs from the basic tree (the shared subject).
_HOWL = ("Dogs bark and howl.", "1 Dogs dog NOUN _ _ 2 nsubj 2:nsubj|4:nsubj _", "2 bark bark VERB _ _ 0 root 0:root _",
         "3 and and CCONJ _ _ 4 cc 4:cc _", "4 howl howl VERB _ _ 2 conj 2:conj:and SpaceAfter=No",
         "5 . . PUNCT _ _ 2 punct 2:punct _")


def _howl(k: int, line: str) -> str:
    tokens = list(_HOWL[1:])
    tokens[k - 1] = line
    return _s3(_HOWL[0], *tokens)


# Gapping ("cats [eat] fish"): with an empty node for the elided verb, or with orphan in the enhanced graph.
_GAPPING = "Dogs eat meat and cats fish."
_GAP_START = ("1 Dogs dog NOUN _ _ 2 nsubj 2:nsubj _", "2 eat eat VERB _ _ 0 root 0:root _",
              "3 meat meat NOUN _ _ 2 obj 2:obj _")
_WITH_EMPTY_NODE = sentence(_GAPPING, *_GAP_START, "4 and and CCONJ _ _ 5 cc 5.1:cc _",
                            "5 cats cat NOUN _ _ 2 conj 5.1:nsubj _", "5.1 eat eat VERB _ _ _ _ 2:conj:and _",
                            "6 fish fish NOUN _ _ 5 orphan 5.1:obj SpaceAfter=No", "7 . . PUNCT _ _ 2 punct 2:punct _")
_WITH_ORPHAN = sentence(_GAPPING, *_GAP_START, "4 and and CCONJ _ _ 5 cc 5:cc _",
                        "5 cats cat NOUN _ _ 2 conj 2:conj:and _",
                        "6 fish fish NOUN _ _ 5 orphan 5:orphan SpaceAfter=No",
                        "7 . . PUNCT _ _ 2 punct 2:punct _", sent_id="2")
_GAPPING_WHY = ("Gapping is annotated in the enhanced graph one way per treebank: an empty node for the elided "
                "predicate (the remnants attach to it), or `orphan` as in the basic tree. Both in one treebank "
                "means the two halves were annotated by different conventions.")

_explain("enhanced-0-is-not-root", "The node attached to 0 in the enhanced graph has the relation `root`, as in "
         "the basic tree: another relation there contradicts the graph's shape, so its head or its relation is "
         "wrong (ELAS counts it so).",
         "Write `0:root` in the DEPS (column 9) of the sentence's root.",
         Example(_howl(2, "2 bark bark VERB _ _ 0 root 0:dep _")))
_explain("enhanced-root-is-not-0", "Only an enhanced relation to 0 is `root`: `root` under another node is a wrong "
         "relation, or a wrong head.",
         "Give the DEPS item its real relation (`2:punct`), or make its head 0 if the node is the root.",
         Example(_howl(5, "5 . . PUNCT _ _ 2 punct 2:root _")))
_explain("goeswith-edeps", _GOESWITH + " In the enhanced graph too, a `goeswith` part has only its `goeswith` "
         "relation.",
         "Make the `goeswith` part's DEPS (column 9) its basic relation only (`3:goeswith`); the first part has the "
         "word's enhanced relations.",
         Example(_s3("Dogs bark every where.", "1 Dogs dog NOUN _ _ 2 nsubj 2:nsubj _",
                     "2 bark bark VERB _ _ 0 root 0:root _",
                     "3 every everywhere ADV _ _ 2 advmod 2:advmod _",
                     "4 where _ X _ _ 3 goeswith 2:advmod|3:goeswith SpaceAfter=No",
                     "5 . . PUNCT _ _ 2 punct 2:punct _")))
_explain("edeps-identical-to-basic-trees", "An enhanced graph that copies the basic tree in every sentence adds "
         "nothing: it doubles the file's relations and makes the treebank look enhanced when it is not.",
         "Write `_` in DEPS (column 9) everywhere, or add the enhancements (shared subjects and objects, "
         "propagated conjuncts, case-marked relations such as `obl:in`).",
         Example(_enhanced()))
_explain("eorphan-after-empty-node", _GAPPING_WHY + " Here an `orphan` in DEPS follows a sentence that uses an "
         "empty node.",
         "Annotate gapping as the treebank's first such sentence does: add an empty node for the elided predicate "
         "and attach the remnants to it in DEPS (or the other way round throughout).",
         Example(_WITH_EMPTY_NODE + _WITH_ORPHAN))
_explain("empty-node-after-eorphan", _GAPPING_WHY + " Here an empty node follows a sentence with an `orphan` in "
         "DEPS.",
         "Annotate gapping one way throughout: with empty nodes (then no `orphan` in DEPS) or with `orphan` (then "
         "no empty nodes).",
         Example(_WITH_ORPHAN.replace("# sent_id = 2", "# sent_id = 1") + _WITH_EMPTY_NODE.replace(
             "# sent_id = 1", "# sent_id = 2")))

# --------------------------------------------------------------------------
# Levels 4-5: the language's own lists (UD's documentation of each
# language: features, relations, words with spaces, auxiliaries).

_EN = ("--lang", "en")
_LANGUAGE = ("Level 4 holds a treebank to what UD documents for its language: a feature, relation or value that "
             "is not documented is a typo or an innovation, and a new one must be documented (on the UD "
             "website, through the validator's data) before a release accepts it.")


def _en(*tokens: str, text: str = _TEXT, level: int | None = None) -> Example:
    return Example(sentence(text, *tokens), args=_EN, level=level)


_explain("feature-unknown", _LANGUAGE + " This feature is not documented for the language at all.",
         "Use a feature the language documents (the UD page of its features), correct its spelling, or document "
         "it for the language.",
         _en(_cell(_DOGS, 6, "Animacy=Anim|Number=Plur").replace("\t", " "), _BARK, _STOP))
_explain("feature-not-permitted", _LANGUAGE + " This feature is documented but not permitted in the language (the "
         "language named by the word's `Lang=`, here).",
         "Remove the feature from FEATS (column 6), or have it permitted for the language in UD's documentation.",
         _en(_cell(_cell(_DOGS, 6, "Number=Plur|PossNumber=Sing"), 10, "Lang=fr").replace("\t", " "), _BARK, _STOP))
_explain("feature-value-unknown", _LANGUAGE + " The feature is documented, this value of it is not.",
         "Use one of the values the language documents for the feature (`Number=Sing` or `Plur` in English), or "
         "document the new value.",
         _en(_cell(_DOGS, 6, "Number=Dual").replace("\t", " "), _BARK, _STOP))
_explain("feature-upos-not-permitted", _LANGUAGE + " The feature is documented, but not for words of this UPOS.",
         "Remove the feature from this word's FEATS (column 6), or correct its UPOS (column 4) if the feature is "
         "right.",
         _en(_cell(_DOGS, 6, "Number=Plur|Tense=Pres").replace("\t", " "), _BARK, _STOP))
_explain("feature-value-upos-not-permitted", _LANGUAGE + " The feature and value are documented, but not this "
         "value with this UPOS.",
         "Correct the value, remove the feature, or correct the UPOS (column 4).",
         _en(_cell(_DOGS, 6, "Case=Nom|Number=Plur").replace("\t", " "), _BARK, _STOP))
_explain("mwt-typo-repeated-at-word", "Typo=Yes marks a misspelt token once: on a multiword token it covers its "
         "words, and repeating it on them counts the typo twice.",
         "Remove `Typo=Yes` from the words' FEATS, keeping it on the multiword token's line (or the other way "
         "round).",
         Example(sentence("Dogs dont bark.", "1 Dogs dog NOUN _ Number=Plur 4 nsubj _ _",
                          "2-3 dont _ _ _ Typo=Yes _ _ _ _",
                          "2 do do AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|Typo=Yes|VerbForm=Fin 4 aux _ _",
                          "3 nt not PART _ _ 4 advmod _ _", "4 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
                          "5 . . PUNCT _ _ 4 punct _ _"), args=_EN))
_explain("unknown-lang", "`Lang=` in MISC says a word is in another language, whose features and relations are "
         "then checked: a code UD does not know cannot be checked, and is likely a typo.",
         "Write the language's ISO code as UD knows it (`Lang=fr`), or remove `Lang=`.",
         _en(_cell(_DOGS, 10, "Lang=xx").replace("\t", " "), _BARK, _STOP))
_explain("invalid-word-with-space", "A word with a space in its FORM or LEMMA is allowed only where the language "
         "lists it (`tospace`, such as numbers in French): elsewhere a space means two tokens.",
         "Split the token into one token line per word (renumbering the sentence; the quick fix of "
         "`ids-out-of-sequence` helps), or have the word listed for the language.",
         _en("\t".join(("1", "New\u00a0York", "New\u00a0York", "PROPN", "_", "Number=Sing", "2", "nsubj", "_", "_")),
             "2 barks bark VERB _ Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin 0 root _ SpaceAfter=No",
             _STOP, text="New\u00a0York barks."))
_explain("unknown-deprel", _LANGUAGE + " This relation subtype is not documented for the language.",
         "Use the universal relation, or a subtype the language documents (column 8); or document the subtype.",
         _en(_cell(_DOGS, 8, "nsubj:foo").replace("\t", " "), _BARK, _STOP))
_explain("unknown-edeprel", _LANGUAGE + " This enhanced relation is not documented for the language (a case "
         "marker in an enhanced relation, `obl:in`, is always allowed).",
         "Use an enhanced relation the language documents (column 9), or document it.",
         Example(_enhanced(dogs="2:nsubj:foo").replace("1\tDogs\tdog\tNOUN\t_\t_", "1\tDogs\tdog\tNOUN\t_\tNumber=Plur")
                 .replace("2\tbark\tbark\tVERB\t_\t_", "2\tbark\tbark\tVERB\t_\t"
                          "Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin"), args=_EN, level=4))
_explain("aux-lemma", "Level 5 holds auxiliaries to the language's documented list: a word tagged AUX whose lemma "
         "is not an auxiliary of the language is a main verb mistagged, or an auxiliary not yet documented.",
         "Tag the word VERB (UPOS, column 4) if it is a main verb, correct its LEMMA (column 3), or document the "
         "auxiliary for the language.",
         _en("1 Dogs dog NOUN _ Number=Plur 3 nsubj _ _", "2 want want AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|"
             "VerbForm=Fin 3 aux _ _", "3 bark bark VERB _ VerbForm=Inf 0 root _ SpaceAfter=No",
             "4 . . PUNCT _ _ 3 punct _ _", text="Dogs want bark."))
_explain("cop-lemma", "Level 5 holds copulas to the language's documented list: `cop` is for the copula (`be` in "
         "English); another verb that links a subject and a predicate is the predicate itself.",
         "Make the verb the head (its own DEPREL, the predicate its `xcomp`), or correct its LEMMA (column 3) if "
         "it is a form of the copula.",
         Example(sentence("Dogs seem loud.", "1 Dogs dog NOUN _ Number=Plur 3 nsubj _ _",
                      "2 seem seem AUX _ Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin 3 cop _ _",
                      "3 loud loud ADJ _ Degree=Pos 0 root _ SpaceAfter=No", "4 . . PUNCT _ _ 3 punct _ _"),
             args=_EN, also=("aux-lemma",)))
