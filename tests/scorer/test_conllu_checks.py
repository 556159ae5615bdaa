"""Tree checks: every condition under which the official scorer refuses a sentence."""

from __future__ import annotations

from tests.support.data import conllu
from annoscore.scorer.conllu.checks import RELATED_LISTED, cycle_marks, find_cycles, tree_problems
from annoscore.scorer.conllu.reader import read_text


def problems(*lines: str):
    sentence = read_text(conllu("\n".join(lines))).sentences[0]
    return sentence, tree_problems(sentence)


def test_valid_tree_has_no_problems():
    _, found = problems("1 a a X _ _ 2 dep _ _", "2 b b X _ _ 0 root _ _", "3 c c X _ _ 2 dep _ _")
    assert found == []


def test_unparsed_sentence_is_one_problem_on_its_first_line():
    sentence, found = problems("1 a a X _ _ _ _ _ _", "2 b b X _ _ _ _ _ _")
    assert [p.code for p in found] == ["unparsed"]
    assert found[0].line == 0 and found[0].refuses
    assert sentence.is_unparsed


def test_missing_head_on_each_cell():
    sentence, found = problems("1 a a X _ _ 2 dep _ _", "2 b b X _ _ 0 root _ _", "3 c c X _ _ _ _ _ _")
    assert [(p.code, p.line) for p in found] == [("missing-head", 2)]
    line = sentence.lines[2]
    assert line[found[0].start:found[0].end] == "_"


def test_a_cycle_is_one_problem_with_every_member_related():
    sentence, found = problems("1 a a X _ _ 2 dep _ _", "2 b b X _ _ 3 dep _ _", "3 c c X _ _ 1 dep _ _",
                               "4 d d X _ _ 0 root _ _")
    cycle = [p for p in found if p.code == "cycle"]
    assert len(cycle) == 1
    assert cycle[0].line == 0 and sentence.lines[0][cycle[0].start:cycle[0].end] == "2"
    assert [r.line for r in cycle[0].related] == [1, 2]
    assert "1 → 2 → 3 → 1" in cycle[0].message


def test_cycle_marks_put_one_problem_on_each_head_starting_from_its_word():
    sentence, found = problems("1 a a X _ _ 0 root _ _", "2 b b X _ _ 3 dep _ _", "3 c c X _ _ 2 dep _ _")
    marks = cycle_marks(next(p for p in found if p.code == "cycle"))
    assert [(p.line, sentence.lines[p.line][p.start:p.end]) for p in marks] == [(1, "3"), (2, "2")]
    assert marks[0].message.startswith("word 2 is its own ancestor: 2 → 3 → 2")
    assert marks[1].message.startswith("word 3 is its own ancestor: 3 → 2 → 3")
    assert [r.line for r in marks[1].related] == [1]


def test_a_long_cycle_stays_linear():
    n = 5000
    lines = [f"{i} w w X _ _ {i % n + 1} dep _ _" for i in range(1, n + 1)]
    _, found = problems(*lines)
    cycle = [p for p in found if p.code == "cycle"]
    assert len(cycle) == 1 and len(cycle[0].related) == n - 1
    assert len(cycle[0].message) < 200
    marks = cycle_marks(cycle[0])
    assert len(marks) == n
    assert max(len(m.related) for m in marks) <= RELATED_LISTED
    assert max(len(m.message) for m in marks) < 200
    assert marks[41].message.startswith("word 42 is its own ancestor: 42 → 43 → ")
    assert {m.line for m in marks} == set(range(n))


def test_self_loop_is_a_cycle():
    _, found = problems("1 a a X _ _ 1 dep _ _", "2 b b X _ _ 0 root _ _")
    assert [p.code for p in found] == ["cycle"]
    assert "its own head" in found[0].message
    assert [m.message for m in cycle_marks(found[0])] == [found[0].message]


def test_multiple_roots_mark_every_root_and_name_them():
    sentence, found = problems("1 a a X _ _ 0 root _ _", "2 b b X _ _ 0 root _ _", "3 c c X _ _ 0 root _ _")
    assert [(p.code, p.line) for p in found] == [("multiple-roots", 0), ("multiple-roots", 1), ("multiple-roots", 2)]
    assert "3 words have HEAD 0: 1 (a), 2 (b), 3 (c)" in found[0].message
    assert [r.line for r in found[1].related] == [0, 2]


def test_no_root():
    _, found = problems("1 a a X _ _ 2 dep _ _", "2 b b X _ _ 1 dep _ _")
    assert "no-root" in [p.code for p in found]
    assert "cycle" in [p.code for p in found]


def test_head_out_of_range():
    sentence, found = problems("1 a a X _ _ 0 root _ _", "2 b b X _ _ 7 dep _ _")
    assert [p.code for p in found] == ["head-out-of-range"]
    assert sentence.lines[1][found[0].start:found[0].end] == "7"


def test_find_cycles():
    assert find_cycles([2, 1, 0]) == [[0, 1]]
    assert find_cycles([1]) == [[0]]
    assert find_cycles([0, 1, 2]) == []
    assert sorted(map(sorted, find_cycles([2, 1, 4, 3, 0]))) == [[0, 1], [2, 3]]


def test_long_chain_is_acyclic():
    n = 3000
    lines = [f"{i} w w X _ _ {i + 1 if i < n else 0} dep _ _" for i in range(1, n + 1)]
    _, found = problems(*lines)
    assert found == []
