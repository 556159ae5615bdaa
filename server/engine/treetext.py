"""The text-mode tree: a sentence's payload (`server.engine.tree`) drawn
with box-drawing characters, one line per word, for terminals and editors
that show text (the CLI, Neovim, Emacs).  Pure: a payload in, lines out.

    s1 · The cat sat .
    ╭───── root
    │   ╭► 1 The DET   det
    │ ╭►┴─ 2 cat NOUN  nsubj
    ╰►┴─┬─ 3 sat VERB  root
        ╰► 4 .   PUNCT punct

How it is drawn:

- Rows are the sentence's lines in the file's order — multiword tokens and
  empty nodes get a row of their own, with no arcs — under a first row that
  stands for the root (HEAD 0), so that every attachment is an arc between
  two rows.
- Each arc gets a *track*, a column left of the words.  Arcs are placed from
  the shortest to the longest, each on the track nearest the words where no
  arc already placed shares a row with it (its ends included), so nested
  arcs sit inside the ones around them and no two arcs of a track touch.
- An arc is a vertical line on its track between its two rows, and at each
  end a horizontal line to the words; ``►`` right after the track marks the
  end at the dependent.  Where lines meet the glyph shows which ways they
  go, so a tee (``├ ┬ ┴``) or corner is where an arc ends, and ``┼`` is
  only ever an arc crossing another's horizontal: a non-projective arc.
- A word without an arc says why beside it: no HEAD (``_``), a HEAD past the
  sentence, its own head.  The words of a cycle are marked ``cycle``, and
  other refusing problems by their codes; low-confidence cells are named.
- With gold, a word whose HEAD, DEPREL or UPOS differs shows gold's beside
  it (``✗ gold: HEAD 3 sat, DEPREL obj``; gold's HEAD as this sentence
  numbers its words); a word gold has no word for says so, with gold's
  words there.

Values from the file are shown with control characters escaped and cut to
`WIDTH` characters, so a broken file cannot garble a terminal; widths are
counted in terminal cells (East Asian wide characters take two).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Sequence

from annoscore.scorer.excerpt import printable

WIDTH = 24  # characters of a value shown in a column
# Past these the arcs are not drawn (the heads are shown as numbers instead):
# a drawing hundreds of columns wide helps nobody, and placing the arcs of a
# sentence of thousands of words would take seconds.
MAX_TRACKS = 48
MAX_WORDS = 500
UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
GLYPHS = {
    0: " ", UP | DOWN: "│", LEFT | RIGHT: "─", LEFT: "─", RIGHT: "─",
    DOWN | RIGHT: "╭", UP | RIGHT: "╰", DOWN | LEFT: "╮", UP | LEFT: "╯",
    UP | DOWN | RIGHT: "├", UP | DOWN | LEFT: "┤", DOWN | LEFT | RIGHT: "┬", UP | LEFT | RIGHT: "┴",
    UP | DOWN | LEFT | RIGHT: "┼", UP: "╵", DOWN: "╷",
}
ARROW = "►"
# Problems shown by their code beside a word (the others have their own notes).
NAMED_PROBLEMS = ("cycle", "multiple-roots", "no-root", "missing-head", "head-out-of-range", "format-head")


def render_tree(payload: dict[str, Any]) -> tuple[list[str], list[int | None]]:
    """The lines of the text tree, and for each the document line it shows
    (None for lines that show no line of the document)."""
    rows = _rows(payload)
    arcs = _arcs(payload, rows)
    tracks = _place(arcs, len(rows)) if len(payload["words"]) <= MAX_WORDS else None
    numbers = tracks is None  # too large to draw: each word says its head
    drawing = [""] * len(rows) if numbers else _draw(arcs, tracks, len(rows))
    labels = _labels(payload, rows, numbers)
    lines = [_header(payload)]
    where: list[int | None] = [None]
    for row, (art, label) in enumerate(zip(drawing, labels)):
        lines.append((art + " " + label).rstrip())
        where.append(rows[row][1])
    if numbers:
        lines.append(f"(too large to draw: more than {MAX_WORDS} words or {MAX_TRACKS} arcs side by side; "
                     "each word's HEAD is shown as → N)")
        where.append(None)
    for note in _notes(payload):
        lines.append(note)
        where.append(None)
    return lines, where


# --- rows and arcs ------------------------------------------------------------------


Row = tuple[str, int | None, int]  # (kind: root | word | multiword | empty, document line, index in its list)


def _rows(payload: dict[str, Any]) -> list[Row]:
    """The root, then the sentence's token lines in the file's order."""
    lines: list[Row] = [("word", w["line"], i) for i, w in enumerate(payload["words"])]
    lines += [("multiword", m["line"], i) for i, m in enumerate(payload["multiwords"])]
    lines += [("empty", e["line"], i) for i, e in enumerate(payload["emptyNodes"])]
    lines.sort(key=lambda row: row[1])
    return [("root", payload["line"], -1)] + lines


def _arcs(payload: dict[str, Any], rows: list[Row]) -> list[tuple[int, int]]:
    """(dependent's row, head's row) of each word that has a drawable head."""
    word_row = {index: r for r, (kind, _, index) in enumerate(rows) if kind == "word"}
    n = len(payload["words"])
    arcs = []
    for i, word in enumerate(payload["words"]):
        head = word["head"]
        if head is None or head > n or head == i + 1 or head < 0:
            continue
        arcs.append((word_row[i], 0 if head == 0 else word_row[head - 1]))
    return arcs


def _place(arcs: list[tuple[int, int]], n_rows: int) -> list[int] | None:
    """The track of each arc: shortest arcs first, each on the lowest track
    (nearest the words) where no placed arc shares a row with it; None when
    that takes more than `MAX_TRACKS` tracks."""
    tracks = [0] * len(arcs)
    taken: list[bytearray] = []
    for k in sorted(range(len(arcs)), key=lambda k: (abs(arcs[k][0] - arcs[k][1]), min(arcs[k]))):
        top, bottom = sorted(arcs[k])
        for level, rows in enumerate(taken):
            if 1 not in rows[top:bottom + 1]:
                break
        else:
            level = len(taken)
            if level == MAX_TRACKS:
                return None
            taken.append(bytearray(n_rows))
        taken[level][top:bottom + 1] = b"\x01" * (bottom - top + 1)
        tracks[k] = level
    return tracks


def _draw(arcs: list[tuple[int, int]], tracks: list[int], n_rows: int) -> list[str]:
    """The arcs, one string per row: two cells per track (the track, then
    the line towards the words), the innermost track last."""
    levels = max(tracks, default=-1) + 1
    width = 2 * levels
    cells = [[0] * width for _ in range(n_rows)]
    arrows: set[tuple[int, int]] = set()

    def column(level: int) -> int:
        return 2 * (levels - 1 - level)

    for (dependent, head), level in zip(arcs, tracks):
        c = column(level)
        top, bottom = sorted((dependent, head))
        for row in range(top + 1, bottom):
            cells[row][c] |= UP | DOWN
        cells[top][c] |= DOWN
        cells[bottom][c] |= UP
        for row in (dependent, head):
            cells[row][c] |= RIGHT
            for x in range(c + 1, width):
                cells[row][x] |= LEFT | RIGHT
        arrows.add((dependent, c + 1))
    out = []
    for row in range(n_rows):
        line = []
        for x in range(width):
            flags = cells[row][x]
            if x % 2:  # between tracks: only horizontal lines (or the arrow)
                line.append(ARROW if (row, x) in arrows else ("─" if flags else " "))
            else:
                line.append(GLYPHS[flags])
        out.append("".join(line))
    return out


# --- text beside the arcs --------------------------------------------------------------


def _cell_width(text: str) -> int:
    """Terminal cells the text takes (wide characters two, combining marks none)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def _shown(value: str | None, limit: int = WIDTH) -> str:
    text = printable(value or "")
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _cell_width(text))


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of values as aligned text (each column as wide as its widest value)."""
    widths = [max((_cell_width(row[k]) for row in rows if k < len(row)), default=0)
              for k in range(max(map(len, rows), default=0))]
    return [" ".join(_pad(value, widths[k]) if k < len(row) - 1 else value
                     for k, value in enumerate(row)) for row in rows]


def _labels(payload: dict[str, Any], rows: list[Row], numbers: bool = False) -> list[str]:
    words, gold = payload["words"], payload["gold"]
    table: list[list[str]] = []
    for kind, _, index in rows[1:]:  # (the root's row says only "root")
        if kind == "word":
            word = words[index]
            head = [f"→ {word['head'] if word['head'] is not None else '_'}"] if numbers else []
            table.append([_shown(word["id"]), _shown(word["form"]), _shown(word["upos"]), _shown(word["deprel"]), *head,
                          _word_notes(payload, index, gold)])
        elif kind == "multiword":
            token = payload["multiwords"][index]
            table.append([_shown(token["id"]), _shown(token["form"]), "", "", "(multiword token)"])
        else:
            node = payload["emptyNodes"][index]
            table.append([_shown(node["id"]), _shown(node["form"]), _shown(node["upos"]), "",
                          f"(empty node; DEPS {_shown(node['deps'])})"])
    return ["root"] + _columns(table)


def _word_notes(payload: dict[str, Any], i: int, gold: dict[str, Any] | None) -> str:
    word = payload["words"][i]
    n = len(payload["words"])
    notes = []
    head = word["head"]
    if head is None and not payload["unparsed"]:
        notes.append("no HEAD")
    elif head is not None and head > n:
        notes.append(f"HEAD {head} is past the sentence")
    elif head == i + 1:
        notes.append("its own head")
    said = {"head-out-of-range"} if head is not None and head > n else {"cycle"} if head == i + 1 else set()
    notes += [code for code in word["problems"] if code in NAMED_PROBLEMS and code not in said]
    if word["lowCells"]:
        notes.append("low-conf " + ",".join(word["lowCells"]))
    if gold is not None:
        notes.append(_gold_note(payload, i, gold))
    return "  ".join(note for note in notes if note)


def _gold_note(payload: dict[str, Any], i: int, gold: dict[str, Any]) -> str:
    theirs = gold["words"][i]
    if theirs is None:
        # Gold's words that fall here follow the last predicted word before this one that gold has.
        before = next((j for j in range(i - 1, -1, -1) if gold["words"][j] is not None), -1)
        here = [_shown(w["form"]) for w in gold["unaligned"] if w["after"] == before]
        return "✗ gold has no word for this" + (f" (gold: {' '.join(here)})" if here else "")
    differs = theirs["differs"]
    parts = []
    if "head" in differs:
        if theirs["head"] == 0:
            parts.append("HEAD 0 root")
        elif theirs["head"] is not None:
            form = payload["words"][theirs["head"] - 1]["form"] if theirs["head"] <= len(payload["words"]) else ""
            parts.append(f"HEAD {theirs['head']} {_shown(form)}")
        else:
            parts.append(f"HEAD {_shown(theirs['headForm'])}, which is no word here")
    if "deprel" in differs:
        parts.append(f"DEPREL {_shown(theirs['deprel'])}")
    if "upos" in differs:
        parts.append(f"UPOS {_shown(theirs['upos'])}")
    return "✗ gold: " + ", ".join(parts) if parts else ""


def _header(payload: dict[str, Any]) -> str:
    name = _shown(payload["sentId"], 80) if payload["sentId"] else f"line {payload['line'] + 1}"
    text = payload["text"]
    if text is None:
        text = " ".join(w["form"] for w in payload["words"])
    header = f"{name} · {_shown(text, 60)}"
    gold = payload["gold"]
    if gold is not None and gold["uas"][1]:
        (uas, total), (las, _) = gold["uas"], gold["las"]
        header += f" · UAS {uas}/{total} LAS {las}/{total}"
    return header


def _notes(payload: dict[str, Any]) -> list[str]:
    notes = []
    if payload["unparsed"]:
        notes.append("not parsed yet: every HEAD is _")
    elif payload["refused"]:
        notes.append("the official scorer refuses it: " + ", ".join(payload["refused"]))
    gold = payload["gold"]
    if gold is not None:
        before = [_shown(w["form"]) for w in gold["unaligned"] if w["after"] < 0]
        if before and payload["words"] and gold["words"][0] is not None:
            notes.append("gold has words before the first one here: " + " ".join(before))
    elif payload.get("goldNote"):
        notes.append("gold: " + payload["goldNote"])
    return notes
