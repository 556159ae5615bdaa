"""The text-mode tree (server/engine/treetext.py): golden outputs for small
sentences, drawn from the engine's payloads."""

from __future__ import annotations

from tests.support.data import conllu
from annoscore.server.engine.tree import sentence_tree
from annoscore.server.engine.treetext import render_tree
from tests.server.engine.test_tree import MWT_GOLD, MWT_PRED, TOKENS_GOLD, TOKENS_PRED, opened

PROJECTIVE = conllu("""
# sent_id = p1
# text = The cat sat on the mat.
1 The the DET _ _ 2 det _ _
2 cat cat NOUN _ _ 3 nsubj _ _
3 sat sit VERB _ _ 0 root _ _
4 on on ADP _ _ 6 case _ _
5 the the DET _ _ 6 det _ _
6 mat mat NOUN _ _ 3 obl _ SpaceAfter=No
7 . . PUNCT _ _ 3 punct _ _
""")
# Gold: cat is a PROPN, and the mat hangs on the cat.
PROJECTIVE_GOLD = PROJECTIVE.replace("2\tcat\tcat\tNOUN", "2\tcat\tcat\tPROPN").replace(
    "6\tmat\tmat\tNOUN\t_\t_\t3\tobl", "6\tmat\tmat\tNOUN\t_\t_\t2\tnmod")
# "on the issue" hangs on "hearing", across "is scheduled" and the root's arc.
NON_PROJECTIVE = conllu("""
# sent_id = np
# text = A hearing is scheduled on the issue today.
1 A a DET _ _ 2 det _ _
2 hearing hearing NOUN _ _ 4 nsubj _ _
3 is be AUX _ _ 4 aux _ _
4 scheduled schedule VERB _ _ 0 root _ _
5 on on ADP _ _ 7 case _ _
6 the the DET _ _ 7 det _ _
7 issue issue NOUN _ _ 2 nmod _ _
8 today today NOUN _ _ 4 obl _ SpaceAfter=No
9 . . PUNCT _ _ 4 punct _ _
""")
# b and c are each other's heads, d its own, e's head is past the sentence.
CYCLE = conllu("""
# sent_id = cy
1 a a X _ _ 0 root _ _
2 b b X _ _ 3 dep _ _
3 c c X _ _ 2 dep _ _
4 d d X _ _ 4 dep _ _
5 e e X _ _ 9 dep _ _
""")
UNPARSED = conllu("""
# sent_id = u1
1 Not not PART _ _ _ _ _ _
2 yet yet ADV _ _ _ _ _ _
""")


def drawn(tmp_path, pred: str, gold: str | None = None, line: int = 0) -> tuple[str, list]:
    engine, path = opened(tmp_path, pred, gold)
    lines, rows = render_tree(sentence_tree(engine, path, line))
    return "\n".join(lines), rows


def test_a_projective_tree(tmp_path):
    text, rows = drawn(tmp_path, PROJECTIVE)
    assert text == """\
p1 · The cat sat on the mat.
    ╭───── root
    │   ╭► 1 The DET   det
    │ ╭►┴─ 2 cat NOUN  nsubj
╭─┬─┴►┴─── 3 sat VERB  root
│ │   ╭►── 4 on  ADP   case
│ │   │ ╭► 5 the DET   det
│ ╰►──┴─┴─ 6 mat NOUN  obl
╰►──────── 7 .   PUNCT punct"""
    # Each line's document line: none for the header, the sentence's first for the root.
    assert rows == [None, 0, 2, 3, 4, 5, 6, 7, 8]


def test_gold_beside_the_words_it_differs_on(tmp_path):
    text, _ = drawn(tmp_path, PROJECTIVE, PROJECTIVE_GOLD)
    assert text == """\
p1 · The cat sat on the mat. · UAS 6/7 LAS 6/7
    ╭───── root
    │   ╭► 1 The DET   det
    │ ╭►┴─ 2 cat NOUN  nsubj ✗ gold: UPOS PROPN
╭─┬─┴►┴─── 3 sat VERB  root
│ │   ╭►── 4 on  ADP   case
│ │   │ ╭► 5 the DET   det
│ ╰►──┴─┴─ 6 mat NOUN  obl   ✗ gold: HEAD 2 cat, DEPREL nmod
╰►──────── 7 .   PUNCT punct"""


def test_a_non_projective_tree_shows_its_crossings(tmp_path):
    """issue → hearing crosses the root's arc (on hearing's line) and
    today → scheduled (on issue's line): the two ┼, and only those."""
    text, _ = drawn(tmp_path, NON_PROJECTIVE)
    assert text == """\
np · A hearing is scheduled on the issue today.
      ╭───── root
      │   ╭► 1 A         DET   det
  ╭───┼─┬►┴─ 2 hearing   NOUN  nsubj
  │   │ │ ╭► 3 is        AUX   aux
╭─┼─┬─┴►┴─┴─ 4 scheduled VERB  root
│ │ │   ╭►── 5 on        ADP   case
│ │ │   │ ╭► 6 the       DET   det
│ ╰►┼───┴─┴─ 7 issue     NOUN  nmod
│   ╰►────── 8 today     NOUN  obl
╰►────────── 9 .         PUNCT punct"""
    assert "┼" not in drawn(tmp_path, PROJECTIVE)[0]


def test_a_cycle_a_word_its_own_head_and_a_head_past_the_end(tmp_path):
    text, rows = drawn(tmp_path, CYCLE)
    assert text == """\
cy · a b c d e
  ╭─ root
  ╰► 1 a X root
╭─┬► 2 b X dep  cycle
╰►┴─ 3 c X dep  cycle
     4 d X dep  its own head
     5 e X dep  HEAD 9 is past the sentence
the official scorer refuses it: head-out-of-range, cycle"""
    assert rows[-1] is None


def test_an_unparsed_sentence_has_no_arcs(tmp_path):
    text, _ = drawn(tmp_path, UNPARSED)
    assert text == """\
u1 · Not yet
 root
 1 Not PART _
 2 yet ADV  _
not parsed yet: every HEAD is _"""


def test_multiword_tokens_and_empty_nodes_have_rows_of_their_own(tmp_path):
    text, rows = drawn(tmp_path, MWT_PRED, MWT_GOLD)
    assert text == """\
m1 · du vin bu · UAS 4/4 LAS 4/4
╭─────── root
│        1-2 du            (multiword token)
│   ╭►── 1   de  ADP  case
│   │ ╭► 2   le  DET  det
╰►┬─┴─┴─ 3   vin NOUN root
  │      3.1 bu  VERB      (empty node; DEPS 3:acl)
  ╰►──── 4   bu  VERB acl"""
    assert rows == [None, 0, 2, 3, 4, 5, 6, 7]


def test_a_word_gold_tokenizes_otherwise(tmp_path):
    text, _ = drawn(tmp_path, TOKENS_PRED, TOKENS_GOLD)
    assert text == """\
t1 · I don't know · UAS 2/4 LAS 2/4
╭───── root
│ ╭►── 1 I     PRON nsubj
│ │ ╭► 2 don't AUX  aux   ✗ gold has no word for this (gold: do n't)
╰►┴─┴─ 3 know  VERB root"""


def test_wide_and_control_characters(tmp_path):
    """Columns line up in terminal cells (a CJK character takes two), and a
    terminal escape in a FORM is shown escaped, never sent raw."""
    text = conllu("""
# sent_id = w
1 猫猫 猫 NOUN _ _ 2 nsubj _ _
2 x\x1b[31m x VERB _ _ 0 root _ _
""")
    drawing, _ = drawn(tmp_path, text)
    lines = drawing.split("\n")
    assert "\x1b" not in drawing and "x\\x1b[31m" in lines[3]
    from annoscore.server.engine.treetext import _cell_width
    assert _cell_width(lines[2].split(" NOUN")[0]) == _cell_width(lines[3].split(" VERB")[0])


def test_every_word_with_a_head_has_one_arrow_and_the_arcs_join_the_right_rows(tmp_path):
    """Read the drawing back: follow each track from the ► row to the row
    where it ends; that must be the word's head (or the root row)."""
    from tests.server.engine.test_tree import long_pair
    pred, _, _, _ = long_pair(60, seed=5)
    engine, path = opened(tmp_path, pred)
    payload = sentence_tree(engine, path, 1)
    lines, rows = render_tree(payload)
    width = len(lines[1]) - len(" root")  # (the root's line is its arcs, then " root")
    art = [line[:width] for line in lines[1:]]
    row_of_line = {line: r for r, line in enumerate(rows[1:])}
    for word in payload["words"]:
        r = row_of_line[word["line"]]
        assert art[r].count("►") == 1
        c = art[r].index("►") - 1  # the arc's track
        step = 1 if art[r][c] in "╭┬" else -1
        other = r + step
        while art[other][c] in "│┼":
            other += step
        assert art[other][c] in "╭╰├┬┴", (word, art[other])
        head_row = 0 if word["head"] == 0 else row_of_line[payload["words"][word["head"] - 1]["line"]]
        assert other == head_row, word


def test_a_tree_too_large_to_draw_shows_its_heads_as_numbers(tmp_path):
    """A random tree of 200 words needs more tracks than are drawn: the
    words are listed with their HEADs as numbers, quickly, in a bounded width."""
    import time
    from annoscore.server.engine.treetext import MAX_TRACKS
    from tests.server.engine.test_tree import long_pair
    pred, _, _, _ = long_pair(200, seed=3)
    engine, path = opened(tmp_path, pred)
    payload = sentence_tree(engine, path, 1)
    start = time.perf_counter()
    lines, rows = render_tree(payload)
    assert time.perf_counter() - start < 2  # (milliseconds; placing every arc would take far longer)
    assert f"or {MAX_TRACKS} arcs side by side" in lines[-1] and rows[-1] is None
    heads = [int(line.split("→ ")[1].split()[0]) for line in lines[2:-1]]
    assert heads == [w["head"] for w in payload["words"]]
    assert max(map(len, lines)) < 120
