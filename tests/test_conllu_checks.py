"""Tree checks: every condition under which the official scorer refuses a sentence."""

from __future__ import annotations

from conftest import conllu
from scorer.conllu.checks import find_cycles, tree_problems
from scorer.conllu.reader import read_text


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


def test_cycle_on_each_head_with_related_information():
    sentence, found = problems("1 a a X _ _ 2 dep _ _", "2 b b X _ _ 3 dep _ _", "3 c c X _ _ 1 dep _ _",
                               "4 d d X _ _ 0 root _ _")
    cycle = [p for p in found if p.code == "cycle"]
    assert sorted(p.line for p in cycle) == [0, 1, 2]
    for p in cycle:
        assert sentence.lines[p.line][p.start:p.end] in ("1", "2", "3")
        assert len(p.related) == 2
        assert {r.line for r in p.related} == {0, 1, 2} - {p.line}


def test_self_loop_is_a_cycle():
    _, found = problems("1 a a X _ _ 1 dep _ _", "2 b b X _ _ 0 root _ _")
    assert [p.code for p in found] == ["cycle"]
    assert "its own head" in found[0].message


def test_multiple_roots_flag_each_extra_root():
    _, found = problems("1 a a X _ _ 0 root _ _", "2 b b X _ _ 0 root _ _", "3 c c X _ _ 0 root _ _")
    assert [(p.code, p.line) for p in found] == [("multiple-roots", 1), ("multiple-roots", 2)]
    assert found[0].related[0].line == 0


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
