"""The compiled plain lane (scorer/conllu/_plain.c) and the Python one
(scorer.conllu.bulk.PlainPairs) take the same pairs and give the same
counts: pair by pair on cases made to break one check each and on random
mutations of them, and evaluate_files' whole results on generated pairs
(every clone) and on every pair of ../shared (skipped without it).
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.data import mkpred, shared_path
from tests.support.pair_maker import make_pair
from annoscore.scorer.conllu import lane, plain_pairs
from annoscore.scorer.conllu.bulk import PlainPairs, PlainSentence, read_plain, token_text
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.scorer.conllu.reader import ConlluFileReader
from tests.scorer.test_conllu_bulk import CASES, GOLD, MWT_GOLD, result_summary

compiled_only = pytest.mark.skipif(lane._plain is None, reason=f"the plain lane is {lane.active_lane()}")


@contextmanager
def python_lane():
    """The pure-Python lane, as without the extension."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lane, "_plain", None)
        yield


def plain_fields(sentence: PlainSentence | None) -> tuple | None:
    """What a `PlainSentence` says, its word columns included."""
    if sentence is None:
        return None
    columns, a, b = sentence.columns
    cut = tuple(getattr(columns, name)[a:b] for name in ("upos", "xpos", "lemma", "feats", "deprel", "heads", "deps"))
    return (sentence.sent_id, sentence.chars, sentence.tokens, sentence.words, sentence.misc, sentence.n_tokens, cut)


def assert_lanes_agree(systems: list[str], golds: list[str]) -> plain_pairs.CompiledPlainPairs:
    """Both lanes on one batch of blocks: the same pairs taken, the same
    counts pair by pair, in all and for a chosen subset."""
    system_texts, gold_texts = list(map(token_text, systems)), list(map(token_text, golds))
    with python_lane():
        python = PlainPairs(system_texts, gold_texts)
        read_python = list(map(plain_fields, read_plain(systems)))
    compiled = plain_pairs.CompiledPlainPairs(system_texts, gold_texts)
    assert list(map(plain_fields, read_plain(systems))) == read_python  # (its tree checks in C)
    assert compiled.passed == python.passed
    assert compiled.counts_each() == python.counts_each()
    assert compiled.counts() == python.counts()
    chosen = [k % 3 != 1 for k in range(len(systems))]
    assert compiled.counts(chosen) == python.counts(chosen)
    return compiled


@compiled_only
@pytest.mark.parametrize("name,system,gold,taken", CASES, ids=[c[0] for c in CASES])
def test_each_case(name, system, gold, taken):
    compiled = assert_lanes_agree([system], [gold])
    assert compiled.passed == [taken]


@compiled_only
def test_the_compiled_lane_counts_the_plain_cases_itself():
    """The cases the Python lane takes are counted in C, not handed back
    (else the equality above would hold with the C lane doing nothing)."""
    compiled = assert_lanes_agree([c[1] for c in CASES], [c[2] for c in CASES])
    assert compiled._compiled == [c[3] for c in CASES]


# Cell values that break, or nearly break, a check of one lane or the other.
ODD = {
    0: ["1", "2", "3", "4", "5", "0", "01", "1.1", "2-1", "1-2", "1-1", "-1", ""],
    1: ["cat", "", "c at", "c\u00a0at", "c\u3000at", "c\u2009t", "c\u200bt", "ĉat", "\u202f"],
    2: ["_", "cat", "Cat", "", "ĉat"],
    3: ["NOUN", "VERB", "_", ""],
    5: ["_", "", "Number=Sing", "Number=Sing|Case=Nom", "Case=Nom|Number=Sing", "Clitic=Yes|Number=Sing",
        "Number=Sing|Clitic=Yes", "|", "Number=Sing|", "Typo=Yes", "A=1|" * 70 + "B=2", "Ĉ=1|Number=Sing"],
    6: ["0", "1", "2", "3", "4", "5", "9", "-1", "+1", " 2", "2 ", "02", "\u0661", "", "_", "99999999999"],
    7: ["root", "nsubj", "nsubj:pass", "det", "case", "aux:pass", "obl:tmod", "punct", "", ":"],
    8: ["_", "", "2:det", "3:nsubj|3:nsubj:pass", "0:root", "2:det|2:det", "1.1:x", "1.1:x|2:y", "x.y:z",
        "2:det|", "nsubj", "7:x", "-1:x", "+2:x", "2:a>b", "2:a:x>b", "2:a>b:y|2:a>b", "3:conj>obj"],
}


def set_cell(block: str, row: int, column: int, value: str) -> str:
    """The block with one cell of a token line (counted from 0) changed."""
    lines = block.split("\n")
    first = sum(line.startswith("#") for line in lines)
    cells = lines[first + row].split("\t")
    cells[column] = value
    lines[first + row] = "\t".join(cells)
    return "\n".join(lines)


def mutate(rng: random.Random, block: str, changes: int) -> str:
    for _ in range(changes):
        rows = sum(not line.startswith("#") for line in block.split("\n"))
        column = rng.choice(sorted(ODD))
        block = set_cell(block, rng.randrange(rows), column, rng.choice(ODD[column]))
    return block


@compiled_only
def test_random_mutations():
    """Thousands of pairs, each side a base case with random odd cells: the
    lanes agree on every one (and the C lane takes a good share itself)."""
    rng = random.Random(31)
    bases = [GOLD, MWT_GOLD, set_cell(GOLD, 1, 8, "3:nsubj|3:obj"), set_cell(MWT_GOLD, 3, 5, "Number=Sing|Gender=Masc")]
    taken = 0
    for _ in range(40):
        systems, golds = [], []
        for _ in range(100):
            base = rng.choice(bases)
            gold = mutate(rng, base, rng.choice([0, 0, 1, 2]))
            system = mutate(rng, gold if rng.random() < 0.8 else base, rng.choice([0, 1, 1, 2, 3]))
            systems.append(system)
            golds.append(gold)
        compiled = assert_lanes_agree(systems, golds)
        taken += sum(compiled._compiled)
    assert taken > 1000


def evaluate_both(system: Path, gold: Path, monkeypatch, options: ConlluOptions | None = None) -> dict:
    options = options or ConlluOptions()
    fast = result_summary(evaluate_files(system, gold, options))
    with python_lane():
        slow = result_summary(evaluate_files(system, gold, options))
    assert fast == slow
    return fast


@compiled_only
@pytest.mark.parametrize("seed", range(5))
def test_generated_pairs(seed, tmp_path, monkeypatch):
    system, gold = make_pair(tmp_path, seed, n=300)
    for options in (ConlluOptions(), ConlluOptions(annotated_only=True), ConlluOptions(units=True)):
        evaluate_both(system, gold, monkeypatch, options)


def _shared_pairs() -> list[tuple[str, str]]:
    predicted = "data/predicted"
    tests = f"{predicted}/conll18-eval-tests"
    pairs = [(f"{predicted}/conll2018/pred/en_ewt.UDPipe-Future.conllu", f"{predicted}/conll2018/gold/en_ewt.conllu"),
             (f"{predicted}/conll2018/pred/fr_gsd.conll18-baseline.conllu", f"{predicted}/conll2018/gold/fr_gsd.conllu")]
    pairs += [(f"{tests}/{s}.conllu", f"{tests}/{g}.conllu")
              for s, g in (("case-sys", "case-gold"), ("func-sys", "func-gold"), ("sys1", "gold"),
                           ("sys2", "gold"), ("sys-space", "gold"))]
    return pairs


@compiled_only
@pytest.mark.parametrize("system,gold", _shared_pairs(), ids=[Path(s).name for s, _ in _shared_pairs()])
def test_shared_pairs(system, gold, monkeypatch):
    evaluate_both(shared_path(*system.split("/")), shared_path(*gold.split("/")), monkeypatch)


TREEBANKS = ["UD_Chinese-GSD/zh_gsd-ud-test.conllu", "UD_Czech-FicTree/cs_fictree-ud-test.conllu",
             "UD_English-EWT/en_ewt-ud-test.conllu", "UD_French-GSD/fr_gsd-ud-test.conllu",
             "UD_German-GSD/de_gsd-ud-test.conllu", "UD_Japanese-GSD/ja_gsd-ud-test.conllu",
             "UD_Korean-GSD/ko_gsd-ud-test.conllu", "UD_Spanish-AnCora/es_ancora-ud-test.conllu",
             "UD_Spanish-GSD/es_gsd-ud-test.conllu"]


@compiled_only
@pytest.mark.parametrize("name", TREEBANKS, ids=[t.split("/")[0] for t in TREEBANKS])
def test_shared_treebanks_against_mkpred(name, tmp_path, monkeypatch):
    gold = shared_path("data", "ud", *name.split("/"))
    system = mkpred(gold, tmp_path / "pred.conllu", 3, "--label-noise", "0.1", "--tok-noise", "0.05", "--conf")
    evaluate_both(system, gold, monkeypatch)
    # The treebank against itself: every sentence plain, all counted in C.
    blocks = [body for _, body in ConlluFileReader(gold).blocks()]
    for start in range(0, len(blocks), 500):
        part = blocks[start:start + 500]
        assert_lanes_agree(part, part)
