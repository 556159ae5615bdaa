"""What a cell holds (hover) and the quick fixes, in the engine."""

from __future__ import annotations

from tests.support.lsp import GOLD, PRED, line_of, tabs, workspace
from annoscore.scorer.conllu.reader import ConlluFileReader
from annoscore.server.config import Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.cells import Cell, SentenceSummary, describe
from annoscore.server.engine.fixes import fix_for


def opened(tmp_path, pred: str, gold: str | None = None, settings: Settings | None = None):
    if gold is not None:
        workspace(tmp_path, pred, gold)
    else:
        (tmp_path / "x.conllu").write_text(pred, encoding="utf-8")
    engine = Engine(str(tmp_path), settings or Settings())
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, pred, 1)
    engine.rescore(path)
    return engine, path


def at(text: str, line: int, column: int) -> int:
    """A position inside column ``column`` of a line."""
    row = text.split("\n")[line]
    start = 0
    for _ in range(column):
        start = row.index("\t", start) + 1
    return start


def apply(text: str, edits) -> str:
    """The text after a fix's edits (applied from the last, as an editor does)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for l1, c1, l2, c2, new in sorted(edits, reverse=True):
        text = text[:offsets[l1] + c1] + new + text[offsets[l2] + c2:]
    return text


def problems_of(tmp_path, text: str) -> list[str]:
    path = tmp_path / "check.conllu"
    path.write_text(text, encoding="utf-8")
    reader = ConlluFileReader(path)
    sentences = list(reader)
    return [p.code for p in reader.problems] + [p.code for s in sentences for p in s.problems]


def test_each_column_of_a_word_against_gold(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s1 = line_of(PRED, "# sent_id = s1")
    word = s1 + 2  # "2 cat cat VERB NN _ 3 nsubj _ Conf=UPOS:0.30"; gold has NOUN
    upos = describe(engine, path, word, at(PRED, word, 3) + 1)
    assert isinstance(upos, Cell)
    assert (upos.name, upos.value, upos.word, upos.confidence) == ("UPOS", "VERB", 1, 0.30)
    assert upos.gold is not None and upos.gold.value(3) == "NOUN"
    assert (upos.start, upos.end) == (at(PRED, word, 3), at(PRED, word, 4) - 1)
    head = describe(engine, path, word, at(PRED, word, 6))
    assert (head.name, head.value, head.gold.value(6), head.confidence) == ("HEAD", "3", "3", None)
    ident = describe(engine, path, word, 0)
    assert ident.name == "ID" and ident.gold.sentence.sent_id == "s1" and ident.gold.word == 1
    # A word with no gold word aligned (gold has "ab" where the prediction has "a" "b").
    s8 = line_of(PRED, "# sent_id = s8")
    unaligned = describe(engine, path, s8 + 1, at(PRED, s8 + 1, 3))
    assert unaligned.has_gold and unaligned.gold is None


def test_a_comment_line_describes_the_sentence(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s2 = line_of(PRED, "# sent_id = s2")  # b's head is 3 where gold has 1: a cycle
    summary = describe(engine, path, s2, 4)
    assert isinstance(summary, SentenceSummary)
    assert summary.gold_ids == ["s2"] and summary.together_with == 0
    assert summary.uas == (2, 3) and summary.las == (2, 3)
    assert summary.refused_because == ("cycle",) and not summary.unparsed
    s5 = line_of(PRED, "# sent_id = s5")
    assert describe(engine, path, s5, 0).unparsed


def test_without_gold_or_after_an_edit_not_rescored_there_is_no_gold(tmp_path):
    engine, path = opened(tmp_path, PRED)  # no gold file
    s1 = line_of(PRED, "# sent_id = s1")
    cell = describe(engine, path, s1 + 2, at(PRED, s1 + 2, 3))
    assert cell.value == "VERB" and not cell.has_gold and cell.gold is None
    engine, path = opened(tmp_path, PRED, GOLD)
    start = at(PRED, s1 + 2, 3)
    engine.change(path, 2, [((s1 + 2, start), (s1 + 2, start + 4), "NOUN")])
    cell = describe(engine, path, s1 + 2, start)
    assert cell.value == "NOUN" and not cell.has_gold  # the pairing is for the old text
    engine.rescore(path)
    cell = describe(engine, path, s1 + 2, start)
    assert cell.has_gold and cell.gold.value(3) == "NOUN"


GOLD_SPLIT = tabs("""
# sent_id = t1
1 ab ab X _ _ 0 root _ _
2 c c X _ _ 1 dep _ _
3 d d X _ _ 2 dep _ _
""")
PRED_SPLIT = tabs("""
# sent_id = t1
1 a a X _ _ 0 root _ _
2 b b X _ _ 1 dep _ _
3 c c X _ _ 1 dep _ _
4 d d X _ _ 1 dep _ _
""")


def test_gold_heads_are_renumbered_to_the_predicted_words(tmp_path):
    """Gold's d hangs on c, gold's word 2, which is the prediction's word 3:
    the fix writes 3.  Gold's c hangs on ab, aligned with no predicted word:
    no fix."""
    engine, path = opened(tmp_path, PRED_SPLIT, GOLD_SPLIT)
    d = describe(engine, path, 4, at(PRED_SPLIT, 4, 6))
    assert d.gold.head_here == "3" and d.gold.value(6) == "3"
    fix = fix_for(engine, path, "gold-diff", 4, at(PRED_SPLIT, 4, 6))
    assert fix.title == "Use gold's HEAD '3'"
    assert apply(PRED_SPLIT, fix.edits).split("\n")[4].split("\t")[6] == "3"
    c = describe(engine, path, 3, at(PRED_SPLIT, 3, 6))
    assert c.gold is not None and c.gold.head_here is None
    assert fix_for(engine, path, "gold-diff", 3, at(PRED_SPLIT, 3, 6)) is None
    # The gold-diff diagnostics number gold's heads the same way.
    engine, path = opened(tmp_path, PRED_SPLIT, GOLD_SPLIT, Settings(gold_diff=True))
    heads = {p.line: p.message for p in engine.diagnostics(path) if p.code == "gold-diff"}
    assert heads[4] == "HEAD: gold has '3 (c)'"
    assert heads[3] == "HEAD: gold's head is 'ab', which is aligned with no word here"


def test_gold_diff_fix_takes_golds_value(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD, Settings(gold_diff=True))
    s1 = line_of(PRED, "# sent_id = s1")
    diffs = [p for p in engine.diagnostics(path) if p.code == "gold-diff" and p.line == s1 + 2]
    assert len(diffs) == 1
    fix = fix_for(engine, path, "gold-diff", diffs[0].line, diffs[0].start)
    fixed = apply(PRED, fix.edits)
    before, after = PRED.split("\n"), fixed.split("\n")
    assert after[s1 + 2] == before[s1 + 2].replace("\tVERB\t", "\tNOUN\t")
    assert after[:s1 + 2] + after[s1 + 3:] == before[:s1 + 2] + before[s1 + 3:]  # nothing else changed
    # The same cell once it equals gold: nothing to fix.
    engine.change(path, 2, [((s1 + 2, diffs[0].start), (s1 + 2, diffs[0].end), "NOUN")])
    engine.rescore(path)
    assert fix_for(engine, path, "gold-diff", s1 + 2, diffs[0].start) is None


SPACED = tabs("""
# sent_id = u1
1 a a X _ _ 0 root _ _
""").replace("1\ta\ta\tX\t_\t_\t0\troot\t_\t_", "1 a a X  _ _\t0 root _ _")


def test_format_fixes_remove_their_problem(tmp_path):
    cases = [
        ("format-spaces", SPACED, 1),
        ("format-empty-sentence", PRED.replace("\n\n# sent_id = s2", "\n\n\n\n# sent_id = s2"), None),
        ("format-empty-sentence", "\n\n" + PRED, None),
        ("format-empty-sentence", PRED + "\n\n", None),
        ("format-final-blank-line", PRED.rstrip("\n"), None),
        ("format-final-blank-line", PRED.rstrip("\n") + "\n", None),
    ]
    for code, text, line in cases:
        engine, path = opened(tmp_path, text)
        found = [p for p in engine.diagnostics(path) if p.code == code]
        assert found, (code, text[:30])
        fix = fix_for(engine, path, code, found[0].line, found[0].start)
        assert fix is not None, code
        fixed = apply(text, fix.edits)
        assert code not in problems_of(tmp_path, fixed), (code, fix)
        if code == "format-spaces":
            assert fixed.split("\n")[line] == "1\ta\ta\tX\t_\t_\t0\troot\t_\t_"
        else:
            assert fixed == PRED, (code, fix)


def test_refused_trees_get_no_fix(tmp_path):
    engine, path = opened(tmp_path, PRED)
    for problem in engine.diagnostics(path):
        if problem.code in ("cycle", "multiple-roots", "missing-head", "unparsed", "low-confidence"):
            assert fix_for(engine, path, problem.code, problem.line, problem.start) is None


def test_every_position_of_odd_documents_is_described_without_error(tmp_path):
    """Hover and quick fixes run on whatever the editor holds: every
    (line, column), including past the ends, on broken and binary text."""
    texts = [PRED, SPACED, "", "\n\n\n", "# only a comment\n", "1\ta\n2\tb\n", "\x00\x01binary\n\n",
             PRED.replace("\t", "\t\t", 3), "x" * 5000 + "\n\n", GOLD_SPLIT + "1-2\tab\t_\n\n"]
    for text in texts:
        engine, path = opened(tmp_path, text, GOLD)
        lines = text.split("\n")
        for line in range(len(lines) + 2):
            length = len(lines[line]) if line < len(lines) else 0
            for column in sorted({0, 1, length // 2, length, length + 3}):
                found = describe(engine, path, line, column)
                assert found is None or isinstance(found, (Cell, SentenceSummary))
        for problem in engine.diagnostics(path):
            fix_for(engine, path, problem.code, problem.line, problem.start)
            fix_for(engine, path, "gold-diff", problem.line, problem.start)


def test_a_words_head_and_its_dependents(tmp_path):
    engine, path = opened(tmp_path, PRED)
    s1 = line_of(PRED, "# sent_id = s1")  # The <-det- cat <-nsubj- sat (root)
    cat = describe(engine, path, s1 + 2, at(PRED, s1 + 2, 6))
    assert cat.head_word() == (s1 + 3, at(PRED, s1 + 3, 1), at(PRED, s1 + 3, 2) - 1)  # "sat"
    assert cat.dependents() == [(s1 + 1, at(PRED, s1 + 1, 6), at(PRED, s1 + 1, 7) - 1)]  # The's HEAD
    sat = describe(engine, path, s1 + 3, 0)
    assert sat.head_word() is None  # the root
    assert sat.dependents() == [(s1 + 2, at(PRED, s1 + 2, 6), at(PRED, s1 + 2, 7) - 1)]
    s6 = line_of(PRED, "# sent_id = s6")  # k's HEAD 9 is past the sentence
    assert describe(engine, path, s6 + 2, at(PRED, s6 + 2, 6)).head_word() is None
    s4 = line_of(PRED, "# sent_id = s4")  # g's HEAD is _
    assert describe(engine, path, s4 + 2, at(PRED, s4 + 2, 6)).head_word() is None


def test_completion_offers_tags_relations_and_head_words(tmp_path):
    from annoscore.server.engine.completion import UNIVERSAL_RELATIONS, complete
    text = PRED.replace("3\tnsubj", "3\tnsubj:pass")
    engine, path = opened(tmp_path, text)
    s1 = line_of(text, "# sent_id = s1")
    upos = complete(engine, path, s1 + 2, at(text, s1 + 2, 3) + 2)
    assert [c.value for c in upos.candidates] == sorted(
        "ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split())
    assert (upos.line, upos.start, upos.end) == (s1 + 2, at(text, s1 + 2, 3), at(text, s1 + 2, 4) - 1)
    deprel = [c.value for c in complete(engine, path, s1 + 2, at(text, s1 + 2, 7)).candidates]
    assert len(UNIVERSAL_RELATIONS) == 37 and deprel[:37] == UNIVERSAL_RELATIONS
    assert "punct" in deprel and deprel[37:] == ["nsubj:pass"]  # the subtype this sentence uses
    head = complete(engine, path, s1 + 2, at(text, s1 + 2, 6)).candidates
    assert [(c.value, c.detail) for c in head] == [("0", "the root"), ("1", "word 1: The"), ("3", "word 3: sat")]
    # Subtypes used elsewhere in the file, gold's first (and not twice).
    text = text.replace("1\tdog\tdog\tNOUN\t_\t_\t0\troot", "1\tdog\tdog\tNOUN\t_\t_\t0\tobl:tmod")
    gold = GOLD.replace("2\tb\tb\tX\t_\t_\t1\tdep", "2\tb\tb\tX\t_\t_\t1\tdep:gold") \
        .replace("2\te\te\tX\t_\t_\t1\tdep", "2\te\te\tX\t_\t_\t1\tobl:tmod")
    engine, path = opened(tmp_path, text, gold)
    s2 = line_of(text, "# sent_id = s2")
    found = complete(engine, path, s2 + 1, at(text, s2 + 1, 7)).candidates[37:]
    assert [(c.value, c.detail) for c in found] == [
        ("dep:gold", "subtype used in gold"), ("obl:tmod", "subtype used in gold"),
        ("nsubj:pass", "subtype used in this file")]
    assert [c.sort for c in found] == sorted(c.sort for c in found)
    assert complete(engine, path, s1 + 2, at(text, s1 + 2, 2)) is None  # LEMMA: an open set
    assert complete(engine, path, s1, 3) is None  # a comment line


def test_sentences_found_by_sent_id_in_open_documents_only(tmp_path):
    from annoscore.server.engine.symbols import find_sentences
    engine, path = opened(tmp_path, PRED, GOLD)  # the gold file is loaded too, but not open
    found = find_sentences(engine, "S1")
    assert [(f.key, f.sent_id, f.line) for f in found] == [
        (path, "s1", line_of(PRED, "# sent_id = s1")), (path, "s10", line_of(PRED, "# sent_id = s10"))]
    assert found[0].end == len("# sent_id = s1")
    assert "s9" not in [f.sent_id for f in find_sentences(engine, "")]  # only gold has s9
    assert len(find_sentences(engine, "", limit=3)) == 3
    # A sentence edited and not rescored yet is found by its new sent_id.
    s2 = line_of(PRED, "# sent_id = s2")
    engine.change(path, 2, [((s2, 12), (s2, 14), "renamed")])
    assert [f.line for f in find_sentences(engine, "renamed")] == [s2]
