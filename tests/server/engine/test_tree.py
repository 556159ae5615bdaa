"""The sentence at a position as a tree (``annoscore/tree``), in the engine."""

from __future__ import annotations

import random

from tests.support.lsp import GOLD, PRED, line_of, tabs, workspace
from annoscore.server.config import Settings, ValidationConfig
from annoscore.server.engine import Engine
from annoscore.server.engine.tree import sentence_tree


def opened(tmp_path, pred: str, gold: str | None = None, settings: Settings | None = None):
    if gold is not None:
        workspace(tmp_path, pred, gold)
    else:
        (tmp_path / "x.conllu").write_text(pred, encoding="utf-8")
    # (Without the UD validator: the samples are not valid UD, and the tree's
    # own problems are what these tests read; the validator's are tested apart.)
    engine = Engine(str(tmp_path), settings or Settings(validation=ValidationConfig(level=0)))
    path = str(tmp_path / "x.conllu")
    engine.open(path, path, pred, 1)
    engine.rescore(path)
    return engine, path


def columns(payload: dict, *names: str) -> list[tuple]:
    return [tuple(w[n] for n in names) for w in payload["words"]]


def test_every_line_of_a_sentence_gives_it_and_blank_lines_give_none(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s1 = line_of(PRED, "# sent_id = s1")
    for line in (s1, s1 + 1, s1 + 3):
        tree = sentence_tree(engine, path, line)
        assert tree["sentId"] == "s1" and tree["line"] == s1 and tree["endLine"] == s1 + 3
    assert sentence_tree(engine, path, s1 + 4) is None  # the blank line after it
    assert sentence_tree(engine, path, 10_000) is None
    assert sentence_tree(engine, "/no/such/file.conllu", 0) is None


def test_words_with_their_lines_heads_and_problems(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s1 = line_of(PRED, "# sent_id = s1")
    tree = sentence_tree(engine, path, s1)
    assert columns(tree, "id", "form", "lemma", "upos", "feats", "deprel", "head", "line") == [
        ("1", "The", "the", "DET", "_", "det", 2, s1 + 1),
        ("2", "cat", "cat", "VERB", "_", "nsubj", 3, s1 + 2),
        ("3", "sat", "sit", "VERB", "_", "root", 0, s1 + 3)]
    # cat's UPOS has Conf 0.30, below the threshold.
    assert columns(tree, "problems", "lowCells") == [([], []), (["low-confidence"], ["UPOS"]), ([], [])]
    assert not tree["unparsed"] and tree["refused"] == [] and tree["multiwords"] == [] \
        and tree["emptyNodes"] == []
    # Codes turned off in the settings are left out, as from the diagnostics.
    engine.settings = Settings(severities={"low-confidence": None})
    assert columns(sentence_tree(engine, path, s1), "problems", "lowCells")[1] == ([], [])


def test_the_validators_findings_are_the_words_problems(tmp_path):
    """With validation on, each word lists the UD validator's findings on
    its line by test id; one that annoscore reports too (a cycle is also the
    validator's non-tree) is listed once, under annoscore's code."""
    text = PRED.replace("2\tcat\tcat\tVERB", "2\tcat\tcat\tVERBX")
    engine, path = opened(tmp_path, text, settings=Settings())
    s1 = line_of(text, "# sent_id = s1")
    tree = sentence_tree(engine, path, s1)
    assert columns(tree, "problems")[1] == (["unknown-upos", "low-confidence"],)
    assert "missing-text" in columns(tree, "problems")[0][0]  # (no # text: on the first word's line)
    assert {"code": "unknown-upos", "line": s1 + 2, "message": "unknown UPOS tag 'VERBX'"} in tree["problems"]
    s2 = line_of(text, "# sent_id = s2")  # a cycle
    codes = [code for word in sentence_tree(engine, path, s2)["words"] for code in word["problems"]]
    assert "cycle" in codes and "non-tree" not in codes
    engine, path = opened(tmp_path, text)  # validation off
    assert columns(sentence_tree(engine, path, s1), "problems")[1] == (["low-confidence"],)


def test_gold_words_are_aligned_and_their_differences_marked(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s1 = line_of(PRED, "# sent_id = s1")
    gold = sentence_tree(engine, path, s1)["gold"]
    assert gold["path"] == str(tmp_path / "x.gold.conllu") and gold["sentIds"] == ["s1"]
    assert [(w["form"], w["upos"], w["head"], w["differs"]) for w in gold["words"]] == [
        ("The", "DET", 2, []), ("cat", "NOUN", 3, ["upos"]), ("sat", "VERB", 0, [])]
    assert [w["line"] for w in gold["words"]] == [s1 + 1, s1 + 2, s1 + 3]  # (gold's file has the same lines)
    assert gold["uas"] == [3, 3] and gold["las"] == [3, 3] and gold["unaligned"] == []
    # s3: e has HEAD 0 where gold has 1: the root gold disagrees with is marked.
    s3 = line_of(PRED, "# sent_id = s3")
    tree = sentence_tree(engine, path, s3)
    assert [w["differs"] for w in tree["gold"]["words"]] == [[], ["head", "deprel"]]
    assert tree["gold"]["words"][1]["head"] == 1
    assert columns(tree, "problems") == [([],), (["multiple-roots"],)]
    assert tree["refused"] == ["multiple-roots"]


def test_without_gold_after_an_edit_and_for_a_text_gold_lacks(tmp_path):
    engine, path = opened(tmp_path, PRED)
    s1 = line_of(PRED, "# sent_id = s1")
    tree = sentence_tree(engine, path, s1)
    assert tree["gold"] is None and tree["goldNote"] is None
    engine, path = opened(tmp_path, PRED, GOLD)
    line = s1 + 2
    row = PRED.split("\n")[line]
    start = row.index("VERB")
    engine.change(path, 2, [((line, start), (line, start + 4), "NOUN")])
    tree = sentence_tree(engine, path, s1)
    assert tree["words"][1]["upos"] == "NOUN"  # the text as it is now
    assert tree["gold"] is None and "not scored since the last edit" in tree["goldNote"]
    engine.rescore(path)
    assert sentence_tree(engine, path, s1)["gold"]["words"][1]["differs"] == []
    s7 = line_of(PRED, "# sent_id = s7")  # "dug" where gold has "dog"
    tree = sentence_tree(engine, path, s7)
    assert tree["gold"] is None and "text-mismatch" in tree["goldNote"]


MWT_PRED = tabs("""
# sent_id = m1
# text = du vin bu
1-2 du _ _ _ _ _ _ _ _
1 de de ADP _ _ 3 case 3:case _
2 le le DET _ _ 3 det 3:det _
3 vin vin NOUN _ _ 0 root 0:root _
3.1 bu boire VERB _ _ _ _ 3:acl _
4 bu boire VERB _ _ 3 acl 3:acl _
""")
MWT_GOLD = tabs("""
# sent_id = m1
# text = du vin bu
1-2 du _ _ _ _ _ _ _ _
1 de de ADP _ _ 3 case _ _
2 le le DET _ _ 3 det _ _
3 vin vin NOUN _ _ 0 root _ _
4 bu boire VERB _ _ 3 acl _ _
""")


def test_multiword_tokens_and_empty_nodes(tmp_path):
    engine, path = opened(tmp_path, MWT_PRED, MWT_GOLD)
    tree = sentence_tree(engine, path, 0)
    assert columns(tree, "id", "form", "head", "line") == [("1", "de", 3, 3), ("2", "le", 3, 4),
                                                           ("3", "vin", 0, 5), ("4", "bu", 3, 7)]
    assert tree["multiwords"] == [{"id": "1-2", "form": "du", "first": 0, "last": 1, "line": 2, "problems": []}]
    (node,) = tree["emptyNodes"]
    assert (node["id"], node["form"], node["deps"], node["line"], node["after"]) == ("3.1", "bu", "3:acl", 6, 2)
    assert [w["form"] for w in tree["gold"]["words"]] == ["de", "le", "vin", "bu"]
    assert all(w["differs"] == [] for w in tree["gold"]["words"])


TOKENS_GOLD = tabs("""
# sent_id = t1
# text = I don't know
1 I I PRON _ _ 4 nsubj _ _
2-3 don't _ _ _ _ _ _ _ _
2 do do AUX _ _ 4 aux _ _
3 n't not PART _ _ 4 advmod _ _
4 know know VERB _ _ 0 root _ _
""")
TOKENS_PRED = tabs("""
# sent_id = t1
# text = I don't know
1 I I PRON _ _ 3 nsubj _ _
2 don't do AUX _ _ 3 aux _ _
3 know know VERB _ _ 0 root _ _
""")


def test_tokenization_differing_from_gold(tmp_path):
    """Gold splits don't into do + n't: the prediction's don't has no gold
    word, gold's two are listed apart after I, and gold's HEAD 4 (know) is
    renumbered to the prediction's 3."""
    engine, path = opened(tmp_path, TOKENS_PRED, TOKENS_GOLD)
    tree = sentence_tree(engine, path, 3)
    gold = tree["gold"]
    assert gold["words"][1] is None
    assert [(w["form"], w["head"], w["goldHead"], w["headForm"]) for w in (gold["words"][0], gold["words"][2])] \
        == [("I", 3, 4, "know"), ("know", 0, 0, None)]
    assert [(w["id"], w["form"], w["after"], w["line"]) for w in gold["unaligned"]] == [
        ("2", "do", 0, 4), ("3", "n't", 0, 5)]
    assert tree["words"][1]["problems"] == ["segmentation-mismatch"]
    assert gold["uas"] == [2, 4]


def test_unparsed_and_cyclic_sentences(tmp_path):
    engine, path = opened(tmp_path, PRED, GOLD)
    s5 = line_of(PRED, "# sent_id = s5")
    tree = sentence_tree(engine, path, s5)
    assert tree["unparsed"] and tree["refused"] == ["unparsed"]
    assert columns(tree, "head", "deprel") == [(None, "_"), (None, "_")]
    assert tree["words"][0]["problems"] == ["unparsed"]
    assert [w["differs"] for w in tree["gold"]["words"]] == [["head", "deprel"], ["head", "deprel"]]
    s2 = line_of(PRED, "# sent_id = s2")  # b → 3, c → 2
    tree = sentence_tree(engine, path, s2)
    assert columns(tree, "head", "problems") == [(0, []), (3, ["cycle"]), (2, ["cycle"])]
    assert tree["refused"] == ["cycle"]
    assert [p["message"] for p in tree["problems"] if p["code"] == "cycle"] == [
        "word 2 is its own ancestor: 2 → 3 → 2 (the official scorer refuses this)",
        "word 3 is its own ancestor: 3 → 2 → 3 (the official scorer refuses this)"]
    s6 = line_of(PRED, "# sent_id = s6")  # k → 9, past the sentence
    assert sentence_tree(engine, path, s6)["words"][1]["problems"] == ["head-out-of-range"]


def long_pair(n: int, seed: int) -> tuple[str, str, set[int], set[int]]:
    """A gold tree of n words (each word attached to an earlier one) and a
    prediction with some HEADs and some relations changed: (pred, gold,
    words whose HEAD differs, words whose DEPREL differs), 0-based."""
    rng = random.Random(seed)
    heads = [0] + [rng.randrange(1, i + 1) for i in range(1, n)]
    relations = ["root"] + [rng.choice(["nmod", "obj", "amod", "det"]) for _ in range(1, n)]
    moved = set(rng.sample(range(2, n), n // 10))
    renamed = set(rng.sample(range(1, n), n // 8))

    def text(heads: list[int], relations: list[str]) -> str:
        rows = [f"{i + 1}\tw{i}\tw{i}\tX\t_\t_\t{heads[i]}\t{relations[i]}\t_\t_" for i in range(n)]
        return "# sent_id = long\n" + "\n".join(rows) + "\n\n"

    pred_heads = [h if i not in moved else (1 if h != 1 else 2) for i, h in enumerate(heads)]
    moved = {i for i in moved if pred_heads[i] != heads[i] and pred_heads[i] != i + 1}
    pred_heads = [pred_heads[i] if i in moved else heads[i] for i in range(n)]
    pred_relations = [("dep" if i in renamed else r) for i, r in enumerate(relations)]
    return text(pred_heads, pred_relations), text(heads, relations), moved, renamed


def test_a_200_word_sentence(tmp_path):
    pred, gold, moved, renamed = long_pair(200, seed=17)
    engine, path = opened(tmp_path, pred, gold)
    tree = sentence_tree(engine, path, 150)
    assert len(tree["words"]) == 200 and tree["sentId"] == "long"
    assert [w["line"] for w in tree["words"]] == list(range(1, 201))
    assert [w["head"] for w in tree["words"]] == [int(row.split("\t")[6]) for row in pred.split("\n")[1:201]]
    differs = [set(w["differs"]) for w in tree["gold"]["words"]]
    assert {i for i, d in enumerate(differs) if "head" in d} == moved
    assert {i for i, d in enumerate(differs) if "deprel" in d} == renamed
    assert tree["gold"]["uas"] == [200 - len(moved), 200]


def test_odd_documents_never_fail_the_annotator_s_requests(tmp_path):
    """The tree (and its drawing), the outline and every kind of next, at
    every line of broken, empty and binary texts."""
    from tests.support.lsp import sentence_outline
    from annoscore.server.engine.seek import DIRECTIONS, KINDS, find
    from annoscore.server.engine.treetext import render_tree
    texts = [PRED, "", "\n\n\n", "# only a comment\n", "1\ta\n2\tb\n", "\x00\x01binary\n\n",
             PRED.replace("\t", "\t\t", 3), "x" * 5000 + "\n\n", MWT_PRED + "1-2\tab\t_\n\n",
             "1\ta\ta\tX\t_\t_\t-1\troot\t_\t_\n2\tb\tb\tX\t_\t_\t99999999999999999999\tx\t_\t_\n\n",
             "1.1\te\te\tX\t_\t_\t_\t_\t0:root\t_\n\n", "# sent_id = \x1b[2J\n1\t\x1b[31m\tx\tX\t_\t_\t0\troot\t_\t_\n\n"]
    for text in texts:
        engine, path = opened(tmp_path, text, GOLD)
        lines = text.split("\n")
        assert isinstance(sentence_outline(engine, path), list)
        for line in range(len(lines) + 2):
            tree = sentence_tree(engine, path, line)
            if tree is not None:
                drawn, rows = render_tree(tree)
                assert len(drawn) == len(rows) and "\x1b" not in "\n".join(drawn)
            for kind in KINDS:
                for direction in DIRECTIONS:
                    found = find(engine, path, line, 0, kind, direction)
                    assert found is not None and found.message
                    if found.line is None:
                        assert found.message.startswith("no "), found.message
