"""Counting: the fast path equals the word-by-word path, and corner cases equal the official scorer."""

from __future__ import annotations

import pytest

from tests.support.data import conllu, mkpred, official_counts, shared_path, write
from annoscore.scorer.conllu.counts import METRICS, Counts
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.scorer.conllu.reader import ConlluFileReader
from annoscore.scorer.conllu.chunks import IdenticalBatch
from annoscore.scorer.conllu.score import score_chunk
from annoscore.scorer.conllu.identical import count_identical, count_identical_many, identity_ready, same_tokens


def ours(system, gold, **options):
    result = evaluate_files(system, gold, ConlluOptions(**options))
    return {m: (lambda s: (s.correct, s.gold_total, s.system_total, s.aligned_total))(result.counts.score(m))
            for m in METRICS}, result


def assert_official(tmp_path, gold_text, system_text):
    gold = write(tmp_path, "gold.conllu", gold_text)
    system = write(tmp_path, "system.conllu", system_text)
    counts, _ = ours(system, gold)
    official = official_counts(gold, system)
    assert {m: counts[m] for m in METRICS} == {m: official[m] for m in METRICS}
    return counts


@pytest.mark.parametrize("name", ["UD_English-EWT/en_ewt-ud-test.conllu", "UD_French-GSD/fr_gsd-ud-test.conllu",
                                  "UD_Czech-FicTree/cs_fictree-ud-test.conllu"])
def test_fast_path_equals_word_by_word_path(name, tmp_path):
    gold_path = shared_path("data", "ud", *name.split("/"))
    system_path = mkpred(gold_path, tmp_path / "pred.conllu", 11, "--label-noise", "0.15", "--keep-empty")
    fast_total, slow_total = Counts(), Counts()
    compared = []
    for gold, system in zip(ConlluFileReader(gold_path), ConlluFileReader(system_path)):
        if not same_tokens(gold, system):
            continue
        fast = count_identical(gold, system)
        slow = score_chunk([gold], [system]).counts
        assert fast == slow, gold.sent_id
        fast_total += fast
        slow_total += slow
        if identity_ready(gold, system):
            compared.append((gold, system, fast))
    assert len(compared) > 300 and fast_total == slow_total
    pairs = [(g, s) for g, s, _ in compared]
    each: dict[int, Counts] = {}
    batch = IdenticalBatch(each=lambda k, counts: each.__setitem__(k, counts))  # as the engine counts them
    for k, (g, s) in enumerate(pairs):
        batch.add(g, s, k)
    batch.flush()
    assert [each[k] for k in range(len(pairs))] == [c for _, _, c in compared]
    total = Counts()
    for _, _, c in compared:
        total += c
    assert count_identical_many(pairs) == total


def test_gold_lemma_underscore_always_matches(tmp_path):
    gold = conllu("1 a _ X _ _ 0 root _ _", "1 b b X _ _ 0 root _ _")
    system = conllu("1 a zzz X _ _ 0 root _ _", "1 b zzz X _ _ 0 root _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["Lemmas"][0] == 1


def test_features_and_subtypes(tmp_path):
    gold = conllu("1 a a X _ Number=Sing|Clitic=Yes|Case=Nom 0 root _ _\n"
                  "2 b b X _ Number=Plur 1 obl:arg _ _")
    system = conllu("1 a a X _ Case=Nom|Number=Sing 0 root _ _\n"
                    "2 b b X _ Number=Plur|Typo=Yes 1 obl:tmod _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["UFeats"][0] == 2 and counts["LAS"][0] == 2
    write(tmp_path, "s.conllu", system)
    write(tmp_path, "g.conllu", gold)
    result = evaluate_files(tmp_path / "s.conllu", tmp_path / "g.conllu", ConlluOptions(strict=True))
    assert result.counts.score("UFeatsAll").correct == 0
    assert result.counts.score("LASFull").correct == 1
    assert result.counts.score("AllTagsAll").correct == 0


def test_functional_children_in_mlas(tmp_path):
    gold = conllu("1 the the DET _ _ 2 det _ _\n2 cat cat NOUN _ _ 3 nsubj _ _\n"
                  "3 sleeps sleep VERB _ _ 0 root _ _")
    system = conllu("1 the the PRON _ _ 2 det _ _\n2 cat cat NOUN _ _ 3 nsubj _ _\n"
                    "3 sleeps sleep VERB _ _ 0 root _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["CLAS"][0] == 2 and counts["MLAS"][0] == 1


def test_enhanced_edges_count_every_matching_pair(tmp_path):
    # Two system edges match one gold edge under EULAS: the official loop counts both.
    gold = conllu("1 a a X _ _ 0 root 0:root _\n2 b b X _ _ 1 nsubj 1:nsubj:pass _")
    system = conllu("1 a a X _ _ 0 root 0:root _\n2 b b X _ _ 1 nsubj 1:nsubj|1:nsubj:xsubj _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["EULAS"][0] == 3 and counts["ELAS"][0] == 1


def test_enhanced_edges_partly_equal(tmp_path):
    """DEPS that differ as text but share edges: the shared ones count
    (the same tokens on both sides, so the pair goes the fast way)."""
    gold = conllu("1 a a X _ _ 0 root 0:root _\n2 b b X _ _ 1 nsubj 1:nsubj|3:nsubj:xsubj _\n"
                  "3 c c X _ _ 1 xcomp 1:xcomp _")
    system = conllu("1 a a X _ _ 0 root 0:root _\n2 b b X _ _ 1 nsubj 1:nsubj|3:obj _\n"
                    "3 c c X _ _ 1 xcomp 1:xcomp:sub _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["ELAS"][0] == 2 and counts["EULAS"][0] == 3  # 0:root, 1:nsubj; and 1:xcomp


def test_alignment_leftover_carried_into_next_sentence(tmp_path):
    """A word left over at the end of one sentence can be aligned, by the
    official LCS, with a multiword word of the next sentence: the two
    sentences must be counted together to get the official counts."""
    gold = conllu("# sent_id = 1\n1 x x X _ _ 0 root _ _\n2 ab ab X _ _ 1 dep _ _",
                  "# sent_id = 2\n1-2 cd _ _ _ _ _ _ _ _\n1 b b NOUN _ _ 0 root _ _\n2 d d X _ _ 1 dep _ _")
    system = conllu("# sent_id = 1\n1 x x X _ _ 0 root _ _\n2 a a X _ _ 1 dep _ _\n3 b b NOUN _ _ 1 dep _ _",
                    "# sent_id = 2\n1-2 cd _ _ _ _ _ _ _ _\n1 c c X _ _ 0 root _ _\n2 d d X _ _ 1 dep _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["UPOS"][0] == 3  # x, d, and gold "b" with the system "b" of the first sentence


def test_multiword_token_left_unsplit(tmp_path):
    gold = conllu("1-2 du _ _ _ _ _ _ _ _\n1 de de ADP _ _ 3 case _ _\n2 le le DET _ _ 3 det _ _\n"
                  "3 chat chat NOUN _ _ 0 root _ _")
    system = conllu("1 du du ADP _ _ 2 case _ _\n2 chat chat NOUN _ _ 0 root _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["Words"][0] == 1 and counts["Tokens"][0] == 2


def test_different_sentence_splits_align_as_one_stream(tmp_path):
    gold = conllu("1 a a X _ _ 0 root _ _\n2 b b X _ _ 1 dep _ _", "1 c c X _ _ 0 root _ _")
    system = conllu("1 a a X _ _ 0 root _ _", "1 b b X _ _ 0 root _ _\n2 c c X _ _ 1 dep _ _")
    counts = assert_official(tmp_path, gold, system)
    assert counts["Sentences"] == (0, 2, 2, None)


def test_text_mismatch_is_listed_and_scored_as_unaligned(tmp_path):
    gold = write(tmp_path, "gold.conllu", conllu("# sent_id = 1\n1 a a X _ _ 0 root _ _",
                                                  "# sent_id = 2\n1 b b X _ _ 0 root _ _"))
    system = write(tmp_path, "system.conllu", conllu("# sent_id = 1\n1 a a X _ _ 0 root _ _",
                                                      "# sent_id = 2\n1 q q X _ _ 0 root _ _"))
    counts, result = ours(system, gold)
    assert result.unmatched.count == 1
    assert result.unmatched.items[0].mismatch.system_text == "q"
    assert result.missing.count == 1  # gold sentence 2 got no partner
    assert counts["Words"] == (1, 2, 2, None)
    assert result.official_would_refuse


def test_reordered_sentences_pair_by_id(tmp_path):
    s1, s2 = "# sent_id = 1\n1 a a X _ _ 0 root _ _", "# sent_id = 2\n1 b b X _ _ 0 root _ _"
    gold = write(tmp_path, "gold.conllu", conllu(s1, s2))
    system = write(tmp_path, "system.conllu", conllu(s2.replace("X", "Y"), s1))
    counts, result = ours(system, gold)
    assert counts["UPOS"] == (1, 2, 2, 2)
    assert result.missing.count == 0 and result.unmatched.count == 0


def test_one_side_counts_equal_scoring_against_nothing():
    from annoscore.scorer.conllu.score import one_side_counts
    path = shared_path("data", "ud", "UD_Czech-FicTree", "cs_fictree-ud-test.conllu")
    for sentence in list(ConlluFileReader(path))[:300]:
        assert one_side_counts(sentence, gold=True) == score_chunk([sentence], []).counts
        assert one_side_counts(sentence, gold=False) == score_chunk([], [sentence]).counts
