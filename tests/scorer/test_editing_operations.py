"""Each sentence operation on one small sentence, before and after, exactly."""

from __future__ import annotations

import pytest

from annoscore.scorer.conllu.editing import EditError, read_sentence
from annoscore.scorer.conllu.editing.operations import edit_block

SENTENCE = "\n".join(row if row.startswith("#") else "\t".join(row.split()) for row in """\
# sent_id = s1
# text = du chat noir.
1-2 du _ _ _ _ _ _ _ _
1 de de ADP _ _ 3 case 3:case _
2 le le DET _ Definite=Def 3 det 3:det _
3 chat chat NOUN _ Number=Sing 0 root 0:root _
4 noir noir ADJ _ _ 3 amod 3:amod SpaceAfter=No
5 . . PUNCT _ _ 3 punct 3:punct _""".split("\n"))


def rows(text: str) -> list[str]:
    return text.split("\n")


def after(operation: str, line: int, args: dict | None = None, sent_ids=("s1",)) -> tuple[str, list[str]]:
    outcome = edit_block(operation, SENTENCE, line, args or {}, set(sent_ids))
    old = rows(SENTENCE)
    return outcome.label, old[:outcome.start] + outcome.lines + old[outcome.end:]


def tsv(*lines: str) -> list[str]:
    return ["\t".join(line.split()) if not line.startswith("#") else line for line in lines]


def test_insert_after_renumbers_every_later_reference_and_rebuilds_the_text():
    label, lines = after("insertAfter", 5, {"form": "gros", "upos": "ADJ", "head": 3, "deprel": "amod"})
    assert label == "Insert 'gros' after 3 'chat'"
    assert lines[1] == "# text = du chat gros noir."
    assert lines[6:] == tsv("4 gros _ ADJ _ _ 3 amod 3:amod _",
                            "5 noir noir ADJ _ _ 3 amod 3:amod SpaceAfter=No",
                            "6 . . PUNCT _ _ 3 punct 3:punct _")


def test_insert_changes_only_the_lines_it_must():
    outcome = edit_block("insertAfter", SENTENCE, 6, {"form": "x", "head": 3})
    # '# text' and the lines after word 4; words 1-4 are unchanged.
    assert (outcome.start, outcome.end) == (1, 8) and outcome.lines[1:5] == rows(SENTENCE)[2:6]


def test_delete_attaches_dependents_to_the_head_and_says_so():
    label, lines = after("delete", 6)  # noir, no dependents
    assert label == "Delete 4 'noir'"
    assert lines[1] == "# text = du chat ."  # the space after chat stays, noir's SpaceAfter=No goes
    label, lines = after("delete", 5)  # chat, the root
    assert label == "Delete 3 'chat'; 4 'noir' becomes the root, 1 'de', 2 'le', 5 '.' attach to it"
    assert lines[2:] == tsv("1-2 du _ _ _ _ _ _ _ _", "1 de de ADP _ _ 3 case 3:case _",
                            "2 le le DET _ Definite=Def 3 det 3:det _",
                            "3 noir noir ADJ _ _ 0 root 0:root SpaceAfter=No", "4 . . PUNCT _ _ 3 punct 3:punct _")


def test_delete_inside_a_multiword_token_removes_the_range_when_one_word_is_left():
    label, lines = after("delete", 3)
    assert label == "Delete 1 'de'; the multiword token 'du' is undone"
    assert lines[1] == "# text = le chat noir." and lines[2] == "\t".join("1 le le DET _ Definite=Def 2 det 2:det _".split())


def test_split_word_makes_a_multiword_token_and_carries_the_features():
    label, lines = after("splitWord", 5, {"at": 2})
    assert label == "Split 3 'chat' into 'ch' + 'at' under the multiword token 'chat'; 'at' attached to 'ch' as dep"
    assert lines[1] == "# text = du chat noir."  # the surface is the same
    assert lines[5:8] == tsv("3-4 chat _ _ _ _ _ _ _ _", "3 ch chat NOUN _ Number=Sing 0 root 0:root _",
                             "4 at _ NOUN _ Number=Sing 3 dep 3:dep _")


def test_merge_the_words_of_a_multiword_token_takes_its_form():
    label, lines = after("mergeWithNext", 3)
    assert label == "Merge 1 'de' and 2 'le' into 'du'"
    assert lines[2] == "\t".join("1 du de ADP _ _ 2 case 2:case _".split())
    assert len(lines) == len(rows(SENTENCE)) - 2


def test_make_and_undo_a_multiword_token():
    label, lines = after("makeToken", 6)  # noir + . (no space between)
    assert label == "Make words 4-5 the multiword token 'noir.'"
    assert lines[1] == "# text = du chat noir."
    assert lines[6:] == tsv("4-5 noir. _ _ _ _ _ _ _ _", "4 noir noir ADJ _ _ 3 amod 3:amod _",
                            "5 . . PUNCT _ _ 3 punct 3:punct _")
    label, lines = after("undoToken", 3)
    assert label == "Undo the multiword token 1-2 'du'"
    assert lines[1] == "# text = dele chat noir." and lines[2].endswith("SpaceAfter=No")


def test_reattach_refuses_a_cycle_and_a_second_root():
    label, lines = after("attach", 6, {"head": 2, "deprel": "nmod"})
    assert label == "Attach 4 'noir' to 2 'le' as nmod"
    assert lines[6] == "\t".join("4 noir noir ADJ _ _ 2 nmod 2:nmod SpaceAfter=No".split())
    with pytest.raises(EditError, match=r"would make a cycle: 4 'noir' → 3 'chat'"):
        after("attach", 5, {"head": 4})
    with pytest.raises(EditError, match=r"has a root already \(3 'chat'\)"):
        after("attach", 6, {"head": 0})
    with pytest.raises(EditError, match="cannot be its own head"):
        after("attach", 6, {"head": 4})


def test_split_sentence_gives_a_new_unique_sent_id_and_a_new_root():
    label, lines = after("splitSentence", 6, sent_ids=("s1", "s1-2"))
    assert label == ("Split the sentence before 4 'noir' (new sent_id s1-3); "
                     "'noir' is the new root of the second part ('.' attached to it)")
    assert lines[1] == "# text = du chat"
    blank = lines.index("")
    assert lines[blank + 1:] == ["# sent_id = s1-3", "# text = noir."] + tsv(
        "1 noir noir ADJ _ _ 0 root 0:root SpaceAfter=No", "2 . . PUNCT _ _ 1 punct 1:punct _")


def test_join_with_the_next_sentence_attaches_its_root_by_parataxis():
    second = "\n".join(["# sent_id = s2", "# text = Il dort.", *tsv("1 Il il PRON _ _ 2 nsubj 2:nsubj _",
                                                                     "2 dort dormir VERB _ _ 0 root 0:root SpaceAfter=No",
                                                                     "3 . . PUNCT _ _ 2 punct 2:punct _")])
    outcome = edit_block("joinWithNext", SENTENCE, 0, {}, {"s1", "s2"}, second, 1)
    assert outcome.label == ("Join with the next sentence; its root 'dort' attached to 'chat' as parataxis; "
                             "its sent_id s2 goes")
    lines = rows(SENTENCE) + [""] + rows(second)
    new = lines[:outcome.start] + outcome.lines + lines[outcome.end:]
    assert new[1] == "# text = du chat noir. Il dort."
    assert new[8:] == tsv("6 Il il PRON _ _ 7 nsubj 7:nsubj _", "7 dort dormir VERB _ _ 3 parataxis 3:parataxis SpaceAfter=No",
                          "8 . . PUNCT _ _ 7 punct 7:punct _")


def test_a_sentence_that_cannot_be_edited_as_a_tree_is_refused_with_its_line():
    shuffled = rows(SENTENCE)
    shuffled[5], shuffled[6] = shuffled[6], shuffled[5]
    with pytest.raises(EditError, match=r"IDs are out of sequence at word 'noir' \(ID 4, expected 3\)"):
        read_sentence("\n".join(shuffled))
    with pytest.raises(EditError, match="line 4 of the sentence has 3 tab-separated columns"):
        read_sentence("\n".join(rows(SENTENCE)[:3] + ["1\tde\tde"]))
