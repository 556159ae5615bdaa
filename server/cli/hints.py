"""Noticing a likely mistake on the command line, and saying what to try.

Some mistakes give numbers rather than errors: word/UPOS files scored
without ``--pos`` (every tag becomes part of the text, so lines whose tags
differ are left out as text mismatches), label files scored as segmentation
(``.tsv`` and ``.txt`` are guessed as segmentation), gold and prediction
given the other way round.  After scoring, each runner asks here whether the
files look like such a case; a hint is one line on stderr (stdout stays the
report, or the JSON) and never changes a number or the exit status.

Each check reads at most the first `SAMPLE_BYTES` of a file and looks at
its first `SAMPLE_LINES` lines with text, so it costs nothing on a large
file; it speaks only when nearly all those lines fit the pattern.
"""

from __future__ import annotations

import mmap
import sys

from annoscore.scorer.excerpt import quoted
from annoscore.scorer.reading import open_file

SAMPLE_BYTES = 1 << 16
SAMPLE_LINES = 200
MOST = 0.95  # the share of sampled lines (or tokens) that must fit a pattern


def _sample(path: str) -> list[str]:
    """The first lines with text of a file (decoding errors replaced)."""
    try:
        with open_file(path) as f:
            data = f.read(SAMPLE_BYTES)
    except OSError:
        return []
    lines = data.decode("utf-8", errors="replace").split("\n")
    if len(data) == SAMPLE_BYTES:
        lines.pop()  # cut by the sample
    return [line.rstrip("\r") for line in lines if line.strip()][:SAMPLE_LINES]


def _mostly(flags: list[bool]) -> bool:
    return bool(flags) and sum(flags) >= MOST * len(flags)


def _word_pos(lines: list[str], separator: str) -> bool:
    """Nearly every token is ``word/TAG`` with a UD UPOS tag."""
    tokens = [t for line in lines for t in line.split(separator) if t.strip()]
    from annoscore.scorer.segmentation.tokens import UPOS_TAGS  # (only for a file that may be tagged tokens)

    return _mostly([t.rpartition("/")[2] in UPOS_TAGS and t.rpartition("/")[0] != "" for t in tokens])


def _id_label(lines: list[str]) -> bool:
    """Nearly every line is ``ID<TAB>LABEL``: exactly two fields, neither empty."""
    return _mostly([line.count("\t") == 1 and all(f.strip() for f in line.split("\t")) for line in lines])


def _plain_labels(lines: list[str]) -> bool:
    """Every line is one word, and few words come back many times (labels)."""
    if len(lines) < 4 or not _mostly([len(line.split()) == 1 for line in lines]):
        return False
    return len(set(lines)) <= len(lines) / 2


def segmentation_hints(pred: str, gold: str, fmt: str, pos: bool, trouble: bool) -> list[str]:
    """Hints for files scored as segmentation (``--format space|tsv``);
    ``trouble``: some lines could not be paired or scored."""
    p, g = _sample(pred), _sample(gold)
    separator = "\t" if fmt == "tsv" else " "
    if not pos and _word_pos(p, separator) and _word_pos(g, separator):
        example = next(t for t in p[0].split(separator) if t.strip())
        return [f"the tokens look like word/UPOS (e.g. {quoted(example)}): did you mean --pos? Without "
                "it the tags are part of the text, and lines whose tags differ are left out"]
    if trouble and fmt == "tsv" and _id_label(p) and _id_label(g):
        return ["every line looks like ID<TAB>LABEL: for labels, add --format labels "
                "(.tsv files are read as segmentation unless told)"]
    if trouble and _plain_labels(p) and _plain_labels(g):
        return ["every line is one word, and few words come back again and again: if these are labels, "
                "add --format labels (.txt files are read as segmentation unless told)"]
    return []


def _has_conf(path: str) -> bool:
    """Whether the file has a ``Conf=`` anywhere (searched without reading it into Python)."""
    try:
        with open_file(path) as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return data.find(b"Conf=") >= 0
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return False


def conllu_swapped_hint(pred: str, gold: str, pred_unparsed: int, gold_unparsed: bool) -> list[str]:
    """A hint when GOLD looks like a parser's output (confidences, sentences
    not parsed yet) and PRED does not: the two were probably swapped."""
    signs = []
    if _has_conf(gold) and not _has_conf(pred):
        signs.append("confidences (Conf= in MISC)")
    if gold_unparsed and not pred_unparsed:
        signs.append("sentences not parsed yet (HEAD _)")
    if not signs:
        return []
    return [f"GOLD has {' and '.join(signs)} and PRED has not: are they swapped? annoscore takes the "
            "prediction first, then gold (conll18_ud_eval.py takes gold first)"]


def print_hints(command: str, hints: list[str]) -> None:
    for hint in hints:
        print(f"annoscore {command}: hint: {hint}", file=sys.stderr)
