"""The bulk lane (scorer.conllu.bulk) turns down every pair the ordinary path
would find a problem in, and counts the pairs it takes exactly as the
ordinary path does; evaluate_files gives the same result with it and without.
"""


from __future__ import annotations

import sys
from itertools import accumulate
from pathlib import Path

import pytest

from tests.support.data import mkpred, shared_path
from annoscore.scorer.conllu.bulk import PlainPairs, count_plain_pairs, plain_pair, read_plain, token_text
from annoscore.scorer.conllu.checks import tree_problems
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.scorer.conllu.parse import parse_block, parse_blocks
from annoscore.scorer.conllu.reader import ConlluFileReader
from annoscore.scorer.conllu.identical import count_identical_many, identity_ready


class Lane:
    """What the bulk lane decides and counts for (system, gold) blocks, both
    ways it is done: each side read with `read_plain` and the pair taken when
    `plain_pair` (the engine), and both read together by `PlainPairs`
    (evaluate).  The two must agree on every pair and every count."""

    def __init__(self, systems: list[str], golds: list[str]) -> None:
        self.systems, self.golds = read_plain(systems), read_plain(golds)
        self.passed = [plain_pair(g, s) for s, g in zip(self.systems, self.golds)]
        self.together = PlainPairs(list(map(token_text, systems)), list(map(token_text, golds)))
        assert self.together.passed == self.passed

    def counts(self, chosen: list[bool] | None = None):
        counts = count_plain_pairs([(g, s) for k, (s, g) in enumerate(zip(self.systems, self.golds))
                                    if self.passed[k] and (chosen is None or chosen[k])])
        assert self.together.counts(chosen) == counts
        return counts


GOLD = """# sent_id = s
# text = The cat sat.
1\tThe\tthe\tDET\tDT\tDefinite=Def\t2\tdet\t2:det\t_
2\tcat\tcat\tNOUN\tNN\tNumber=Sing\t3\tnsubj\t3:nsubj\t_
3\tsat\tsit\tVERB\tVBD\tTense=Past\t0\troot\t0:root\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t3:punct\t_"""


def variant(text: str, row: int, column: int, value: str) -> str:
    """GOLD with one cell changed (row counts token lines from 0)."""
    lines = text.split("\n")
    cells = lines[2 + row].split("\t")
    cells[column] = value
    lines[2 + row] = "\t".join(cells)
    return "\n".join(lines)


MWT_GOLD = """# sent_id = m
1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_
1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_
2\tle\tle\tDET\t_\t_\t3\tdet\t_\t_
3\tchat\tchat\tNOUN\t_\t_\t0\troot\t_\t_"""

# (name, system block, gold block, should the bulk lane take the pair?)
CASES = [
    ("identical", GOLD, GOLD, True),
    ("other tags", variant(variant(GOLD, 1, 3, "PROPN"), 0, 7, "nmod:poss"), GOLD, True),
    ("other head, still a tree", variant(GOLD, 3, 6, "2"), GOLD, True),
    ("other MISC", variant(GOLD, 0, 9, "Conf=0.5"), GOLD, True),
    ("multiword token", variant(MWT_GOLD, 1, 3, "PRON"), MWT_GOLD, True),
    ("other form", variant(GOLD, 1, 1, "dog"), GOLD, False),
    ("one line fewer", GOLD.rsplit("\n", 1)[0], GOLD, False),
    ("head _", variant(GOLD, 1, 6, "_"), GOLD, False),
    ("all heads _", "\n".join(GOLD.split("\n")[:2] + [
        "\t".join(c if k != 6 else "_" for k, c in enumerate(line.split("\t")))
        for line in GOLD.split("\n")[2:]]), GOLD, False),
    ("negative head", variant(GOLD, 1, 6, "-1"), GOLD, False),
    ("head past the end", variant(GOLD, 1, 6, "9"), GOLD, False),
    ("two roots", variant(GOLD, 1, 6, "0"), GOLD, False),
    ("no root", variant(GOLD, 2, 6, "2"), GOLD, False),
    ("cycle", variant(variant(GOLD, 0, 6, "2"), 1, 6, "1"), GOLD, False),
    ("self loop", variant(GOLD, 3, 6, "4"), GOLD, False),
    ("bad deps", variant(GOLD, 1, 8, "nsubj"), GOLD, False),
    ("deps past the end", variant(GOLD, 1, 8, "7:nsubj"), GOLD, False),
    ("nine columns", GOLD.replace("\tSpaceAfter=No", ""), GOLD, False),
    ("spaces for tabs", GOLD.replace("4\t.\t.\tPUNCT", "4 .\t.\tPUNCT"), GOLD, False),
    ("comment among tokens", GOLD.replace("\n4\t", "\n# note\n4\t"), GOLD.replace("\n4\t", "\n# note\n4\t"), False),
    ("empty form", variant(GOLD, 3, 1, ""), variant(GOLD, 3, 1, ""), False),
    ("space in form", variant(GOLD, 1, 1, "c at"), variant(GOLD, 1, 1, "c at"), False),
    ("empty node", GOLD + "\n4.1\tx\tx\tX\t_\t_\t_\t_\t3:dep\t_", GOLD + "\n4.1\tx\tx\tX\t_\t_\t_\t_\t3:dep\t_", False),
    ("IDs out of order", variant(GOLD, 1, 0, "3"), variant(GOLD, 1, 0, "3"), False),
    ("gold with a cycle", GOLD, variant(variant(GOLD, 0, 6, "2"), 1, 6, "1"), False),
    ("gold head _", GOLD, variant(GOLD, 1, 6, "_"), False),
    ("no token lines", "# sent_id = s", GOLD, False),
    # A range from 0 right before the last word: the official scorer reads
    # words 0..4 after it and runs out of lines.  (The old check took it,
    # comparing the rows after it with _id_strings(4)[-1:4].)
    ("range from 0", GOLD.replace("\n4\t", "\n0-4\t.\t_\t_\t_\t_\t_\t_\t_\t_\n4\t"),
     GOLD.replace("\n4\t", "\n0-4\t.\t_\t_\t_\t_\t_\t_\t_\t_\n4\t"), False),
    ("range past the words", MWT_GOLD.replace("1-2\tdu", "3-4\tdu"), MWT_GOLD.replace("1-2\tdu", "3-4\tdu"), False),
]


def ordinary_verdict(system_body: str, gold_body: str) -> bool:
    """Whether the ordinary path finds nothing wrong and counts the pair by identity."""
    system, gold = parse_block(system_body), parse_block(gold_body)
    clean = not system.problems and not gold.problems and system.form
    clean = clean and not any(p.refuses for p in tree_problems(system) + tree_problems(gold))
    return bool(clean and identity_ready(gold, system) and not system.empty_lines and not gold.empty_lines)


@pytest.mark.parametrize("name,system,gold,taken", CASES, ids=[c[0] for c in CASES])
def test_each_case_alone(name, system, gold, taken):
    batch = Lane([system], [gold])
    assert batch.passed == [taken]
    if taken:
        assert ordinary_verdict(system, gold)
        expected = count_identical_many([(parse_block(gold), parse_block(system))])
        assert batch.counts() == expected


def test_all_cases_in_one_batch():
    """Pairs turned down do not disturb the columns of the others."""
    batch = Lane([c[1] for c in CASES], [c[2] for c in CASES])
    assert batch.passed == [c[3] for c in CASES]
    taken = [(parse_block(c[2]), parse_block(c[1])) for c in CASES if c[3]]
    assert batch.counts() == count_identical_many(taken)


def test_counts_of_a_chosen_subset():
    batch = Lane([c[1] for c in CASES], [c[2] for c in CASES])
    chosen = [c[3] and k % 2 == 0 for k, c in enumerate(CASES)]
    taken = [(parse_block(c[2]), parse_block(c[1])) for k, c in enumerate(CASES) if chosen[k]]
    assert batch.counts(chosen) == count_identical_many(taken)


def result_summary(result) -> dict:
    lists = {name: (getattr(result, name).count, sorted((r.line, [p.code for p in r.reasons]) for r in getattr(result, name).items))
             for name in ("missing", "unparsed", "refused", "gold_refused", "unmatched", "excluded")}
    return {"counts": result.counts.values, "lists": lists,
            "sentences": (result.gold_sentences, result.system_sentences,
                          result.scored_gold_sentences, result.scored_system_sentences),
            "problems": [(p.code, p.line) for p in result.system_file_problems + result.gold_file_problems]}


def write(path: Path, blocks: list[str]) -> Path:
    path.write_text("".join(b + "\n\n" for b in blocks), encoding="utf-8")
    return path


def test_evaluate_with_and_without_bulk_on_small_files(tmp_path):
    """Every case in one file (each with its own sent_id), plus a missing
    gold sentence, a sentence out of order and a duplicate sent_id."""
    gold_blocks, system_blocks = [], []
    for k, (name, system, gold, _) in enumerate(CASES):
        gold_blocks.append(gold.replace("sent_id = s", f"sent_id = s{k}").replace("sent_id = m", f"sent_id = m{k}"))
        system_blocks.append(system.replace("sent_id = s", f"sent_id = s{k}").replace("sent_id = m", f"sent_id = m{k}"))
    gold_blocks.append(GOLD.replace("sent_id = s", "sent_id = only-gold"))
    system_blocks.insert(0, system_blocks.pop(3))
    system_blocks.append(system_blocks[1])
    gold_path = write(tmp_path / "gold.conllu", gold_blocks)
    system_path = write(tmp_path / "system.conllu", system_blocks)
    for options in (ConlluOptions(), ConlluOptions(predicted_only=True), ConlluOptions(annotated_only=True)):
        bulk = evaluate_files(system_path, gold_path, options)
        ordinary = evaluate_files(system_path, gold_path, options, bulk=False)
        assert result_summary(bulk) == result_summary(ordinary)


def blocks_of(path: Path) -> list[str]:
    return [body for _, body in ConlluFileReader(path).blocks()]


GENERATED = [
    ("UD_French-GSD/fr_gsd-ud-test.conllu", ["--label-noise", "0.1", "--tok-noise", "0.1"]),
    ("UD_Czech-FicTree/cs_fictree-ud-test.conllu", ["--label-noise", "0.05", "--conf", "--keep-empty"]),
    ("UD_English-EWT/en_ewt-ud-test.conllu", ["--merge-sents", "0.1", "--drop", "0.1", "--unparsed", "50"]),
]


@pytest.mark.parametrize("name,options", GENERATED, ids=[g[0].split("/")[0] for g in GENERATED])
def test_generated_pairs_with_and_without_bulk(name, options, tmp_path):
    gold = shared_path("data", "ud", *name.split("/"))
    system = mkpred(gold, tmp_path / "pred.conllu", 11, *options)
    assert result_summary(evaluate_files(system, gold)) == result_summary(
        evaluate_files(system, gold, bulk=False))
    # Pair by pair, in batches: taken means clean, and counts are equal.
    gold_by_id = {parse_block(b).sent_id: b for b in blocks_of(gold)}
    pairs = [(b, gold_by_id[parse_block(b).sent_id]) for b in blocks_of(system)
             if parse_block(b).sent_id in gold_by_id]
    taken = 0
    for start in range(0, len(pairs), 200):
        part = pairs[start:start + 200]
        batch = Lane([s for s, _ in part], [g for _, g in part])
        for k, (s, g) in enumerate(part):
            if batch.passed[k]:
                assert ordinary_verdict(s, g), s.split("\n", 1)[0]
        expected = count_identical_many([(parse_block(g), parse_block(s))
                                         for k, (s, g) in enumerate(part) if batch.passed[k]])
        assert batch.counts() == expected
        taken += sum(batch.passed)
    assert taken > len(pairs) // 2  # the lane is used at all


def plain_verdict(body: str) -> bool:
    """Whether the ordinary path finds nothing wrong with the sentence on its own."""
    sentences = parse_blocks(body, 0)
    if len(sentences) != 1:
        return False
    s = sentences[0]
    return bool(s.form) and not s.problems and not s.empty_lines and not any(
        p.refuses for p in tree_problems(s))


def assert_plain_matches(body: str, plain) -> None:
    s = parse_blocks(body, 0)[0]
    assert (plain.sent_id, plain.chars, plain.words, plain.misc) == (s.sent_id, s.chars, len(s.form), s.misc)


def test_read_plain_on_each_case():
    bodies = [c[1] for c in CASES] + [c[2] for c in CASES] + [GOLD + "\n \n" + GOLD]
    found = read_plain(bodies)
    # Taken means clean (turning down a clean one is allowed: it is parsed).
    for body, plain in zip(bodies, found):
        if plain is not None:
            assert plain_verdict(body), body
            assert_plain_matches(body, plain)
    assert all(found[k] is not None for k, case in enumerate(CASES) if case[3])
    assert found[0] is not None and found[4] is not None  # plain, and with a multiword token
    assert found[0].tokens != found[4].tokens


@pytest.mark.parametrize("name,options", GENERATED, ids=[g[0].split("/")[0] for g in GENERATED])
def test_read_plain_on_generated_files(name, options, tmp_path):
    gold = shared_path("data", "ud", *name.split("/"))
    system = mkpred(gold, tmp_path / "pred.conllu", 11, *options)
    for path in (gold, system):
        bodies = blocks_of(path)
        plain_count = 0
        for start in range(0, len(bodies), 200):
            part = bodies[start:start + 200]
            for body, plain in zip(part, read_plain(part)):
                if plain is not None:
                    assert plain_verdict(body), body.split("\n", 1)[0]
                    assert_plain_matches(body, plain)
                    plain_count += 1
        assert plain_count > len(bodies) // 2


def test_counting_plain_pairs_from_kept_columns():
    """Pairs read with `read_plain` (each side in its own batch, in any
    order) and counted from the columns it kept give the ordinary counts,
    multiword tokens included."""
    cases = [c for c in CASES if c[3]]
    systems = read_plain([c[1] for c in cases])
    golds = read_plain([c[2] for c in reversed(cases)])[::-1]
    pairs = [(g, s) for g, s in zip(golds, systems)]
    assert all(g is not None and s is not None and g.tokens == s.tokens for g, s in pairs)
    expected = count_identical_many([(parse_block(c[2]), parse_block(c[1])) for c in cases])
    assert count_plain_pairs(pairs) == expected
    assert count_plain_pairs(pairs[1:]) == count_identical_many(
        [(parse_block(c[2]), parse_block(c[1])) for c in cases[1:]])


def test_gold_token_lines_are_the_token_text_of_each_sentence(tmp_path):
    """GoldFile keeps where each block's token lines start (read with its
    sent_id); what it hands the bulk lane must be exactly `token_text`."""
    from annoscore.scorer.conllu.bulk import token_text
    from annoscore.scorer.conllu.gold import GoldFile
    blocks = [GOLD, GOLD.split("\n", 1)[1], "# sent_id = only-comments\n# text = x",
              GOLD.replace("sent_id = s", "sent_id = a") + "\n  \n" + GOLD.replace("sent_id = s", "sent_id = b")]
    gold = GoldFile(write(tmp_path / "gold.conllu", blocks))
    gold.read_all()
    sentences = [s for b in blocks for s in parse_blocks(b)]
    assert gold.count() == len(sentences) == 5
    for index, sentence in enumerate(sentences):
        assert gold.token_lines(index) == token_text(gold.body(index))
        assert gold.body(index).strip("\n") == sentence.body.strip("\n")
    assert gold.token_lines(0) is not None and gold.token_lines(2) is None
    gold.release(0)
    assert gold.token_lines(0) is None


def _random_heads(rng, n: int) -> list[str]:
    """A sentence's HEAD cells: mostly a tree, else one of the ways a HEAD
    column goes wrong (a cycle, no or two roots, out of range, negative,
    past int64, not a number, int()'s odd spellings)."""
    # Each word heads to an earlier one or to 0: no cycle, one root or several.
    heads = [str(rng.randrange(0, w)) if w > 1 else "0" for w in range(1, n + 1)]
    kind = rng.randrange(10)
    k = rng.randrange(n)
    if kind == 1:
        heads[k] = str(rng.randrange(1, n + 1))            # perhaps a cycle, perhaps itself
    elif kind == 2:
        heads[k] = rng.choice(["0", str(n + 1), "-1", str(1 << 63), str(1 << 41), "x", "", "+1", " 1", "1_0", "٣"])
    elif kind == 3:
        heads = [str(rng.randrange(0, n + 2)) for _ in range(n)]  # anything
    return heads


@pytest.mark.parametrize("seed", range(20))
def test_the_word_by_word_tree_check_gives_the_numpy_verdicts(seed):
    """Small inputs are checked without numpy (`_values_ok_python`: its
    import costs more than a 10-sentence evaluate); both checks give the
    same verdicts and HEAD numbers for every batch."""
    import random

    from annoscore.scorer.conllu import bulk

    rng = random.Random(seed)
    seen = set()
    for _ in range(50):
        words = [rng.randrange(1, 12) for _ in range(rng.randrange(1, 10))]
        word_starts = list(accumulate(words, initial=0))
        head_column = [h for n in words for h in _random_heads(rng, n)]
        extents = None if rng.random() < 0.5 else \
            [rng.choice([0, 1, 2, n, n + 1, -1]) for n in words for _ in range(n)]
        verdicts = []
        for check in (bulk._values_ok_python, bulk._values_ok_numpy):
            columns = [[] for _ in range(10)]
            columns[6] = list(head_column)
            verdicts.append((check(columns, words, word_starts, extents), columns[6]))
        assert verdicts[0] == verdicts[1], (words, head_column, extents)
        seen.update(verdicts[0][0])
    assert seen == {True, False}  # both verdicts were given


def test_small_inputs_are_checked_without_numpy_and_large_ones_with_it(monkeypatch):
    from annoscore.scorer.conllu import bulk

    used = []
    monkeypatch.setattr(bulk, "_values_ok_python", lambda *a: used.append("python") or [True])
    monkeypatch.setattr(bulk, "_values_ok_numpy", lambda *a: used.append("numpy") or [True])
    monkeypatch.setattr(bulk.lane, "_plain", None)
    monkeypatch.delitem(sys.modules, "numpy", raising=False)
    monkeypatch.setattr(bulk, "_python_words", 0)
    columns = [[] for _ in range(10)]
    columns[6], columns[8] = ["0"] * 15_000, ["_"] * 15_000
    bulk._values_ok(columns, [15_000], [0, 15_000])
    columns[6] = ["0"] * 15_000
    bulk._values_ok(columns, [15_000], [0, 15_000])  # 15,000 words seen: still under 20,000
    columns[6] = ["0"] * 15_000
    bulk._values_ok(columns, [15_000], [0, 15_000])  # 30,000: numpy from now on
    assert used == ["python", "python", "numpy"]
