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

from .code_example import Example, sentence
from .problems import Severity
from .validation.incident import TESTS

E, W, I, H = Severity.ERROR, Severity.WARNING, Severity.INFORMATION, Severity.HINT


@dataclass(frozen=True)
class Code:
    """A code and its reference entry's texts (docs/reference/codes.md,
    ``annoscore explain``): what it means, why it matters, how to fix it,
    and an example that produces it (tests/project/test_code_examples.py
    runs each)."""

    name: str
    severity: Severity
    formats: tuple[str, ...]   # conllu, segmentation, labels; project for the project file
    meaning: str
    why: str = ""              # what goes wrong if it is left (Markdown, a few sentences)
    fix: str = ""              # how to fix it: which column, what value, which quick fix
    example: Example | None = None


_CONLLU, _SEG, _LAB = ("conllu",), ("segmentation",), ("labels",)

# The sentence most examples start from, and its tokens.
_TEXT = "Dogs bark."
_DOGS = "1 Dogs dog NOUN _ _ 2 nsubj _ _"
_BARK = "2 bark bark VERB _ _ 0 root _ SpaceAfter=No"
_STOP = "3 . . PUNCT _ _ 2 punct _ _"
_GOOD = sentence(_TEXT, _DOGS, _BARK, _STOP)
_CATS = sentence("Cats purr.", "1 Cats cat NOUN _ _ 2 nsubj _ _", "2 purr purr VERB _ _ 0 root _ SpaceAfter=No",
                 _STOP, sent_id="2")
# A labels file paired with its gold in the project file (labels are never guessed from a name).
_LABELS = (("annoscore.toml", '[[pair]]\nfiles = "example.tsv"\ngold = "gold.tsv"\nformat = "labels"\n'),)
_TAGGED = (("annoscore.toml", '[[pair]]\nfiles = "example.txt"\ngold = "gold.txt"\npos = true\n'),)
_REFUSED = ("The official scorer (`conll18_ud_eval.py`) refuses a file with such a sentence, so the file has "
            "no official score until it is mended; a parser's output that does this is not a tree.")

CODES: dict[str, Code] = {code.name: code for code in (
    # CoNLL-U without gold: trees the official scorer refuses, and what a parser left undone.
    Code("unparsed", I, _CONLLU, "every HEAD of the sentence is _: not parsed yet",
         why="Nothing is wrong: the sentence is only tokenized (tagged, perhaps). It tells an annotator what is "
             "left to do; scored against gold, its words count with no attachment.",
         fix="Annotate the tree: give every word a HEAD (a word's ID, or 0 for the one root) and a DEPREL. "
             "`annoscore/next` in the editor jumps to the next such sentence.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ _ _ _ _", "2 bark bark VERB _ _ _ _ _ SpaceAfter=No",
                                  "3 . . PUNCT _ _ _ _ _ _"))),
    Code("missing-head", E, _CONLLU, "HEAD is _ while other words of the sentence have one",
         why="A tree half annotated. " + _REFUSED,
         fix="Fill in HEAD (column 7) with the ID of the word's head, or 0 for the root, and DEPREL (column 8).",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ _ _ _ _", _BARK, _STOP))),
    Code("head-out-of-range", E, _CONLLU, "HEAD points past the last word of the sentence",
         why="The head named does not exist in the sentence (a word deleted, or sentences split by hand). "
             + _REFUSED,
         fix="Set HEAD (column 7) to the ID of a word of this sentence, or 0 for the root; when words were "
             "deleted, renumbering in the editor (the quick fix of `ids-out-of-sequence`) keeps HEADs right.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 4 nsubj _ _", _BARK, _STOP))),
    Code("cycle", E, _CONLLU, "following HEADs from the word comes back to it",
         why="A word that is its own ancestor is not in a tree. " + _REFUSED + " Each word of the cycle is "
             "marked.",
         fix="Change the HEAD (column 7) of one word of the cycle so that it leads to the root: usually the "
             "word that should attach higher up.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 3 nsubj _ _", _BARK, "3 . . PUNCT _ _ 1 punct _ _"))),
    Code("multiple-roots", E, _CONLLU, "more than one word has HEAD 0",
         why="A UD tree has exactly one root. " + _REFUSED,
         fix="Keep HEAD 0 (and DEPREL `root`) on the sentence's main predicate only; attach the other words "
             "marked to a word of the sentence (HEAD, column 7) with their relation (DEPREL, column 8).",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 0 root _ _", _BARK, _STOP))),
    Code("no-root", E, _CONLLU, "no word has HEAD 0",
         why="Without a root every word's chain of heads ends in a cycle. " + _REFUSED,
         fix="Give the sentence's main predicate HEAD 0 and DEPREL `root`; the cycle it was in then ends.",
         example=Example(sentence(_TEXT, _DOGS, "2 bark bark VERB _ _ 1 root _ SpaceAfter=No", _STOP),
                         also=("cycle",))),
    Code("low-confidence", H, _CONLLU, "cells whose Conf= is below the threshold",
         why="The parser was unsure of these cells (its `Conf=` in MISC): they are the likeliest to be wrong, "
             "and the first to look at when correcting its output.",
         fix="Check the cells named and correct them; the threshold is `--threshold` (check) or "
             "`annoscore.threshold` (default 0.8). Deleting `Conf=` from MISC once a word is checked removes "
             "the hint.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 2 nsubj _ Conf=0.42", _BARK, _STOP))),
    Code("internal-error", E, ("conllu", "segmentation", "labels"), "annoscore itself failed on the document",
         why="A fault in annoscore, not in the file: what it reports on this document may be incomplete.",
         fix="Nothing to change in the file. Report it with the message (and the file, if you can share it); "
             "`annoscore check` on the file shows whether the command line meets it too."),
    # CoNLL-U against gold.
    Code("text-mismatch", E, ("conllu", "segmentation"), "the text differs from gold's: the pair is not scored",
         why="Predicted and gold words are aligned by their characters; where the texts (the FORMs joined) "
             "differ, the official scorer stops and nothing can be compared. It usually means the wrong gold "
             "file, or a sentence edited or dropped.",
         fix="Make sure the file is paired with its own gold (`--gold`, `[[pair]]` in annoscore.toml); then make "
             "the FORMs (column 2) spell gold's text, character for character.",
         example=Example(_GOOD, gold=sentence("Cats purr.", "1 Cats cat NOUN _ _ 2 nsubj _ _",
                                               "2 purr purr VERB _ _ 0 root _ SpaceAfter=No", _STOP),
                         also=("missing-sentence",))),
    Code("segmentation-mismatch", W, ("conllu", "segmentation"), "a word not aligned with a gold word",
         why="Words are scored only where their span of text equals a gold word's: a word split or merged "
             "otherwise than gold counts against precision, and gold's words there against recall.",
         fix="If gold is right, split or merge the token as gold does (FORM, column 2, and the IDs after it; "
             "renumbering in the editor keeps HEADs right); it is a tokenizer's error, not a tagger's.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 0 root _ _", "2 bark. bark. VERB _ _ 1 dep _ _"),
                         gold=_GOOD)),
    Code("sentence-boundary", W, _CONLLU, "the prediction's sentences end elsewhere than gold's",
         why="Sentence boundaries are scored (the Sentences metric): a sentence that runs past gold's end, "
             "or ends early, is wrong, though its words still align.",
         fix="Split (or join) the sentence where gold does: a blank line and new `# sent_id` and `# text` lines, "
             "the words renumbered from 1 and one root per sentence.",
         example=Example(sentence("Dogs bark. Cats purr.", _DOGS, "2 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                                  _STOP, "4 Cats cat NOUN _ _ 5 nsubj _ _",
                                  "5 purr purr VERB _ _ 2 parataxis _ SpaceAfter=No", "6 . . PUNCT _ _ 5 punct _ _"),
                         gold=_GOOD + _CATS)),
    Code("missing-sentence", I, ("conllu", "segmentation"), "gold sentences (lines) the prediction lacks",
         why="Gold's words the prediction lacks count against recall (with the default `sentences = \"all\"`): "
             "a parser run cut short, or a file truncated, scores low for that alone.",
         fix="Parse the whole of gold's text; to score only what was predicted, set `sentences = \"predicted\"` "
             "in annoscore.toml (or the editor's `annoscore.sentences`).",
         example=Example(_GOOD, gold=_GOOD + _CATS)),
    Code("gold-diff", H, _CONLLU, "a cell differs from gold (only with goldDiff)",
         why="With `annoscore.goldDiff` on, every predicted cell that differs from gold is marked, to read a "
             "system's errors in place.",
         fix="The quick fix takes gold's value for the cell; or leave it: the hint is only shown while "
             "`annoscore.goldDiff` is on.",
         example=Example(sentence(_TEXT, "1 Dogs dog VERB _ _ 2 nsubj _ _", _BARK, _STOP), gold=_GOOD,
                         files=(("annoscore.toml", '[[pair]]\nfiles = "example.conllu"\ngold = "gold.conllu"\n'),),
                         editor=(("gold_diff", True),))),
    Code("disagreement", I, _CONLLU, "another annotation of the same text fills a cell otherwise ([agreement])",
         why="Two annotators disagree on this cell: one of them is wrong, or the guidelines leave it open. "
             "These are the places to adjudicate.",
         fix="Decide which value is right; the quick fix takes the other annotation's. `annoscore agree A B "
             "--places` lists every such cell.",
         example=Example(_GOOD, files=(("annoscore.toml", '[agreement]\nothers = ["bob/{name}"]\n'),
                                       ("bob/example.conllu",
                                        sentence(_TEXT, "1 Dogs dog PROPN _ _ 2 nsubj _ _", _BARK, _STOP))))),
    # Reading CoNLL-U.
    Code("format-columns", E, ("conllu", "labels"), "a line without the expected columns",
         why="A CoNLL-U token line has exactly 10 TAB-separated columns (a labels line, its ID and label); with "
             "fewer or more every column after the fault is read as the wrong one, and the official scorer "
             "refuses the line.",
         fix="Add the missing columns (`_` for an empty one) or remove the extra TABs, so that the line has "
             "ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS and MISC.",
         example=Example(sentence(_TEXT, "1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_", _BARK, _STOP))),
    Code("format-spaces", E, _CONLLU, "spaces instead of a TAB between columns",
         why="Columns are separated by TABs only (a FORM may hold a space): a line separated by spaces is one "
             "column to the official tools, typically after copying from a web page or an editor that "
             "expands TABs.",
         fix="Replace the spaces between columns by one TAB each: the quick fix, or `annoscore fix --select "
             "format-spaces`.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 2 nsubj _ _", _BARK, _STOP).replace(
             "\t".join(_DOGS.split()), _DOGS))),
    Code("format-id", E, ("conllu", "labels"), "an ID that cannot be read",
         why="A word's ID is a number (`1`), a multiword range (`1-2`) or an empty node (`1.1`); anything else "
             "cannot be placed in the sentence, and HEADs pointing at it mean nothing.",
         fix="Write the ID (column 1) as the word's position in the sentence, counting from 1.",
         example=Example(sentence(_TEXT, "1a Dogs dog NOUN _ _ 2 nsubj _ _", _BARK, _STOP))),
    Code("format-id-order", E, _CONLLU, "a word ID out of order",
         why="Words are numbered 1, 2, 3 … in order: HEAD refers to those numbers, so a line moved or a "
             "number skipped changes what every HEAD means. The official scorer refuses it.",
         fix="Renumber the words in order and their HEADs with them: in the editor the quick fix of "
             "`ids-out-of-sequence` does both, as does `annoscore fix --select ids-out-of-sequence`.",
         example=Example(sentence(_TEXT, _DOGS, "3 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                                  "4 . . PUNCT _ _ 3 punct _ _"), also=("cycle",))),
    Code("ids-out-of-sequence", E, _CONLLU, "IDs out of sequence (a line inserted, deleted or moved by hand): "
         "in the editor, one error for the cause, its consequences related, with the fix that renumbers",
         why="Hand edits (a token split, merged or moved) leave the IDs out of order and the HEADs pointing at "
             "the old numbers: the tree silently changes. The editor reports the cause once instead of one "
             "`format-id-order` per line after it.",
         fix="Apply the quick fix: it renumbers the sentence's IDs and every HEAD and DEPS that points at them "
             "(`annoscore fix --select ids-out-of-sequence` in files). Check the word you inserted: its own "
             "HEAD is yours to set.",
         example=Example(sentence(_TEXT, _DOGS, "3 bark bark VERB _ _ 0 root _ SpaceAfter=No",
                                  "4 . . PUNCT _ _ 3 punct _ _"), editor=())),
    Code("format-mwt", E, _CONLLU, "a broken multiword range",
         why="A multiword token's range (`1-2`) names the words it is split into; one that is empty, reversed, "
             "overlaps another or runs past the sentence's words breaks the token/word alignment the scorer "
             "relies on.",
         fix="Make the range (column 1) `N-M` with N < M covering the words that follow it, or delete the "
             "range line if the token is a single word.",
         example=Example(sentence(_TEXT, "1-4 Dogs _ _ _ _ _ _ _ _", _DOGS, _BARK, _STOP))),
    Code("format-empty-form", E, _CONLLU, "an empty FORM",
         why="Every word has a FORM (the text of the word); an empty one leaves a cell blank, which CoNLL-U "
             "does not allow (`_` stands for none), and the word has no text to align with gold.",
         fix="Write the word's text in FORM (column 2), as `# text` spells it.",
         example=Example(sentence(_TEXT, "1\t\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_", _BARK, _STOP))),
    Code("format-head", E, _CONLLU, "HEAD not a number, or negative",
         why="HEAD is the ID of the word's head (0 for the root) or `_`: anything else leaves the word "
             "unattached, and the official scorer refuses it.",
         fix="Write the head word's ID in HEAD (column 7), or 0 for the root.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ two nsubj _ _", _BARK, _STOP))),
    Code("format-deps", E, _CONLLU, "DEPS not HEAD:DEPREL pairs, or outside the sentence",
         why="The enhanced graph (DEPS, column 9) is `_` or `head:relation` pairs separated by `|`; the official "
             "scorer stops on one it cannot read, and the ELAS/EULAS scores need it.",
         fix="Write DEPS as `2:nsubj` (a head ID of this sentence, a colon, the relation), several sorted by "
             "head and joined by `|`; or `_` when the treebank has no enhanced graph.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 2 nsubj 2nsubj _", _BARK, _STOP))),
    Code("format-conf", W, _CONLLU, "a Conf= value that cannot be read",
         why="`Conf=` in MISC gives the parser's confidence, a number from 0 to 1 (or `COLUMN:number` pairs); "
             "one that cannot be read is ignored, so the cell is never flagged as low-confidence.",
         fix="Write `Conf=0.93`, or `Conf=UPOS:0.98,HEAD:0.72`, in MISC (column 10); or remove it.",
         example=Example(sentence(_TEXT, "1 Dogs dog NOUN _ _ 2 nsubj _ Conf=high", _BARK, _STOP))),
    Code("format-comment-position", E, _CONLLU, "a comment among the token lines",
         why="Comments come before a sentence's first token line; the official scorer refuses one among them.",
         fix="Move the comment line above the sentence's first token line (or delete it).",
         example=Example(sentence(_TEXT, _DOGS, "# a note", _BARK, _STOP))),
    Code("format-empty-sentence", E, _CONLLU, "two blank lines in a row (an empty sentence)",
         why="One blank line ends a sentence; a second one is an empty sentence to the official scorer, which "
             "refuses it.",
         fix="Delete the extra blank line: the quick fix, or `annoscore fix --select format-empty-sentence`.",
         example=Example(_GOOD + "\n" + _CATS)),
    Code("format-blank-line", E, _CONLLU, "a line of only whitespace",
         why="A line that looks blank but holds spaces or TABs is not the empty line that ends a sentence: the "
             "official scorer reads it as a broken token line.",
         fix="Make the line empty (delete its spaces and TABs).",
         example=Example(_GOOD + "  \n" + _CATS)),
    Code("format-final-blank-line", E, _CONLLU, "no blank line at the end of the file",
         why="Every sentence, the last one too, ends with an empty line; without it the official scorer refuses "
             "the file and concatenating files merges two sentences.",
         fix="Add an empty line at the end: the quick fix, or `annoscore fix --select format-final-blank-line`.",
         example=Example(_GOOD[:-1])),
    Code("format-newline", W, _CONLLU, "a lone CR kept inside a line by the editor",
         why="A carriage return (CR) alone ends a line for the official tools but not for an editor that "
             "keeps it inside the line: what you see is not what is validated.",
         fix="Remove the CR (or make it a line end): the quick fix; `annoscore fix --select non-unix-newline` "
             "makes every line end LF.",
         example=Example("# a note\rmore of it\n" + _GOOD, editor=(("keeps_lone_cr", True),))),
    Code("format-bom", W, ("conllu", "segmentation", "labels"), "a byte-order mark at the start of the file",
         why="A byte-order mark (U+FEFF, which some editors on Windows write) is not part of UTF-8 CoNLL-U: "
             "the official scorer reads it as part of the first line and refuses the file.",
         fix="Save the file as UTF-8 without BOM (in VS Code: the encoding in the status bar, Save with "
             "Encoding, UTF-8).",
         example=Example("\ufeff" + _GOOD)),
    Code("format-encoding", E, ("conllu", "segmentation", "labels"), "bytes that are not UTF-8",
         why="CoNLL-U is UTF-8; other bytes (Latin-1, Windows-1252 …) are read as U+FFFD, so FORMs and LEMMAs "
             "are wrong and the official tools stop.",
         fix="Convert the file to UTF-8 (`iconv -f latin1 -t utf-8`), or correct the characters marked.",
         example=Example(_GOOD.replace("bark\tbark", "bark\tb\udce4rk"))),
    Code("format-binary", E, ("conllu", "segmentation", "labels"), "not a text file (NUL bytes, compressed, UTF-16)",
         why="The file is not plain UTF-8 text: a NUL byte marks a damaged file (annoscore reads on around "
             "it, the official tools may not), and a compressed or UTF-16 file cannot be read as CoNLL-U at all.",
         fix="Decompress it (`gunzip`), convert UTF-16 to UTF-8 (`iconv -f utf-16 -t utf-8`), or remove the "
             "NUL bytes from a damaged file.",
         example=Example(_GOOD.replace("Dogs\tdog", "Dogs\x00\tdog"))),
    # Segmentation.
    Code("tag-mismatch", W, _SEG, "the word is right, its tag differs from gold's",
         why="With `pos = true` the TaggedWord metric counts a word right only with gold's tag: the span is "
             "right, the tag is not.",
         fix="Correct the tag after the word's last `/` (one of the 17 UPOS tags), if gold is right.",
         example=Example("Dogs/NOUN bark/NOUN ./PUNCT\n", name="example.txt",
                         gold="Dogs/NOUN bark/VERB ./PUNCT\n", files=_TAGGED)),
    Code("format-unknown-tag", W, _SEG, "not one of the 17 UD UPOS tags: read as X",
         why="A tag that is not a UPOS tag (case matters) is read as X, which is wrong unless gold has X: a "
             "typo costs TaggedWord.",
         fix="Write one of ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X after "
             "the word's last `/`.",
         example=Example("Dogs/NOUN bark/VRB ./PUNCT\n", name="example.txt",
                         gold="Dogs/NOUN bark/X ./PUNCT\n", files=_TAGGED)),
    Code("line-count", E, _SEG, "the files' lines cannot be paired by their text",
         why="Segmentation files pair line n with gold line n; when the numbers of lines differ they are "
             "re-paired by their text, and when that fails too nothing can be scored reliably.",
         fix="Make the prediction one line per gold line, in gold's order, each line the same text as "
             "gold's (only the spaces between words may differ).",
         example=Example("Dogs bark .\nCats purr .\n", name="example.txt", gold="Birds sing .\n",
                         found_by="evaluate")),
    # Labels.
    Code("label-mismatch", W, _LAB, "the label differs from gold's",
         why="The item counts as wrong in Accuracy and in its class's recall.",
         fix="Correct the label (the column after the ID), if gold is right.",
         example=Example("1\til\n2\tce\n", name="example.tsv", gold="1\til\n2\til\n3\tce\n", files=_LABELS,
                         also=("missing-item",))),
    Code("unknown-label", W, _LAB, "gold never uses this label",
         why="A label outside gold's classes is always wrong, and often a typo or another tag set "
             "(`Elle` for `elle`).",
         fix="Use one of gold's labels (`annoscore evaluate … --format labels` lists them in its confusion "
             "matrix).",
         example=Example("1\til\n2\tcela\n", name="example.tsv", gold="1\til\n2\telle\n", files=_LABELS,
                         also=("label-mismatch",))),
    Code("extra-item", W, _LAB, "no gold item has this ID (not scored)",
         why="Items pair by ID: an item gold lacks is left out of the scores, which is seldom what was meant "
             "(an ID mistyped, or the wrong gold).",
         fix="Correct the ID (first column) to gold's, or remove the item.",
         example=Example("1\til\n2\til\n3\til\n", name="example.tsv", gold="1\til\n2\til\n", files=_LABELS)),
    Code("missing-item", I, _LAB, "gold items without a prediction",
         why="A gold item without a prediction counts as wrong: Accuracy and the macro scores fall.",
         fix="Predict a label for each gold ID listed.",
         example=Example("1\til\n", name="example.tsv", gold="1\til\n2\til\n", files=_LABELS)),
    Code("format-empty-id", E, _LAB, "an empty ID",
         why="An item without an ID cannot be paired with gold's: it is not scored.",
         fix="Write the item's ID before the TAB.",
         example=Example("1\til\n\telle\n", name="example.tsv", gold="1\til\n", files=_LABELS)),
    Code("format-empty-label", E, _LAB, "an empty label",
         why="An item without a label cannot be right: it is not scored as a prediction.",
         fix="Write the label after the TAB.",
         example=Example("1\til\n2\t\n", name="example.tsv", gold="1\til\n", files=_LABELS)),
    Code("format-duplicate-id", E, _LAB, "an ID used twice",
         why="Two items with one ID: only the first is paired with gold (as `evaluate` does), the second is "
             "left out.",
         fix="Give each item its own ID (first column), or delete the duplicate.",
         example=Example("1\til\n1\telle\n", name="example.tsv", gold="1\til\n", files=_LABELS,
                         also=("extra-item",))),
    Code("format-header", E, _LAB, "a table header that cannot be used",
         why="A labelled text table (for `leaks` and `split`) is read by its header's column names: a header "
             "without the columns named, or with a name twice, leaves the texts or labels unknown.",
         fix="Name the columns in the header row (`text`, `label`, `id` by default), or give `--text-column` / "
             "`--label-column` the names or 1-based numbers the file has.",
         example=Example("sentence,label\nDogs bark.,animal\n", name="example.csv", found_by="leaks")),
    Code("format-empty-text", W, _LAB, "an empty text in a labelled text file",
         why="An item without text cannot be compared with the other splits: the leak check and the split maker "
             "skip it.",
         fix="Write the item's text in its text column, or remove the row.",
         example=Example("text,label\nDogs bark.,animal\n,animal\n", name="example.csv", found_by="leaks")),
    Code("format-csv", E, _LAB, "a CSV row that cannot be read",
         why="A row the CSV reader cannot split (an unclosed quote, most often) takes the rows after it with "
             "it.",
         fix="Close the quote: a field with a comma, quote or line break is written in double quotes, with a "
             "quote inside doubled (`\"say \"\"hi\"\"\"`).",
         example=Example('text,label\nDogs bark.,animal\n"Cats, purr.,animal\n', name="example.csv", found_by="leaks")),
    Code("no-text", W, ("conllu",), "a sentence without # text or token lines (the leak check skips it)",
         why="The leak check and the split maker compare sentences by their text: a sentence with neither "
             "`# text` nor words cannot be compared, so a leak through it would go unseen.",
         fix="The block has no words: add its token lines (and `# text = …`, which the editor's quick fix of "
             "`missing-text` writes from the FORMs), or delete its comment lines and the empty line after them.",
         example=Example(_GOOD + "# sent_id = 2\n\n", found_by="leaks")),
    # Clean evaluation ([splits]).
    Code("leak", I, _CONLLU, "the sentence also occurs in an earlier split (train, or dev for test)",
         why="A dev or test sentence that is also in train (or a test sentence in dev) is one the system may "
             "have learnt by heart: its score on that split overstates what it does on unseen text.",
         fix="Remove the sentence from one of the splits (usually the later one), or keep it and report the "
             "score without it; `annoscore leaks` lists every one, and `annoscore split` makes splits without "
             "them.",
         example=Example(_GOOD, name="dev.conllu",
                         files=(("annoscore.toml", '[splits]\ntrain = "train.conllu"\ndev = "dev.conllu"\n'),
                                ("train.conllu", _GOOD)))),
    # The project file.
    Code("config", W, ("project",), "an invalid setting in annoscore.toml or pyproject.toml",
         why="A setting that cannot be used is replaced by its default: the project then runs otherwise than "
             "its file says (another threshold, another gold).",
         fix="Correct the value the message names, on the line it gives (the settings and their values are on "
             "the [settings](settings.md) page).",
         example=Example(_GOOD, files=(("annoscore.toml", "threshold = 2\n"),), editor=())),
    # Untrusted workspaces (server/workspace.py).
    Code("gold-refused", W, ("conllu", "segmentation", "labels"),
         "the gold the workspace names is not read: outside the project folder, or not a regular file",
         why="A project file could otherwise make the editor read any file on the machine and show it as gold: "
             "paths it names must stay inside the project folder, and a gold is read only if it is a regular "
             "file (not a folder, a device or a pipe).",
         fix="Move the gold into the project folder, or make it the regular file it should be (here a folder "
             "has the name `NAME.gold.EXT` that names a file's gold); if you trust the project, allow a gold "
             "outside it with `annoscore.allowOutsideProject` (editor) or `--allow-outside-project` (command "
             "line).",
         example=Example(_GOOD, files=(("example.gold.conllu/README", ""),))),
)}


VALIDATION: dict[str, Code] = {
    test_id: Code(test_id, severity, _CONLLU, f"UD validation, level {level}, {test_class}")
    for test_id, (level, test_class, severity) in sorted(TESTS.items())}

ALL: dict[str, Code] = {**VALIDATION, **CODES}

