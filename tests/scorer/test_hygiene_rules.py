"""When two texts are the same: normalization, near rules, Jaccard by prefix filtering, split names."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from annoscore.scorer.hygiene import LeakIndex, parse_near, parse_normalization, rules_from, split_from_name
from annoscore.scorer.hygiene.items import Item
from annoscore.scorer.hygiene.similar import SimilarityIndex, all_pairs, jaccard


def test_the_default_normalization_folds_form_case_and_spaces():
    n = parse_normalization("nfc,casefold,space")
    assert n.name == "nfc,casefold,space"
    assert n("Cafe\u0301  au\tLAIT ") == n("café au lait") == "café au lait"
    assert n("STRASSE") == n("Straße")
    # Steps apply in their fixed order, whatever order they are named in.
    assert parse_normalization("space,casefold,nfc") == n
    assert parse_normalization("nospace")("a b\u00a0c") == "abc"
    assert parse_normalization("punct,space")("Hello, world !") == "Hello world"
    assert parse_normalization("nfkc")("ﬁ２") == "fi2"
    assert parse_normalization("none")("A  b") == "A  b"


@pytest.mark.parametrize("spec, message", [
    ("nfc,bogus", "unknown normalization step 'bogus'"),
    ("nfc,nfkc", "nfc and nfkc cannot both be used"),
    ("space,nospace", "space and nospace"),
])
def test_bad_normalizations_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_normalization(spec)


def test_near_keys_mask_digits_and_word_classes():
    normalization, near = rules_from("nfc,casefold,space", "digits,weekdays,months,city=paris|new york")
    key = lambda text: near.key(normalization(text))  # noqa: E731
    assert key("Meet me on Monday at 10:30 in Paris.")[0] == key("Meet me on friday at 4:05 in New York.")[0]
    assert key("Meet me on Monday at 10:30 in Paris.")[1] == ("weekdays", "city", "digits")
    assert key("Born in March 1999")[0] == key("born in july 2001")[0]
    # Whole words only: "Parisian" is not "Paris", "Mondays" not "Monday".
    assert key("Parisian Mondays")[0] == "parisian mondays"
    assert key("nothing to mask") == ("nothing to mask", ())


@pytest.mark.parametrize("spec, message", [
    ("digits,colour", "unknown rule 'colour'"),
    ("jaccard=1.5", "above 0 and at most 1"),
    ("jaccard=x", "must be a number"),
    ("1x=a|b", "a class name is letters"),
    ("weekdays=a|b", "built-in rule"),
    ("digits,digits", "given twice"),
    ("empty=|", "has no words"),
])
def test_bad_near_rules_say_what_is_wrong(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_near(spec, parse_normalization("nfc"))


def test_the_jaccard_threshold_is_exact():
    near = parse_near("jaccard=0.7", parse_normalization("nfc"))
    assert near.jaccard == Fraction(7, 10) and not near.keyed
    assert parse_near("none", parse_normalization("nfc")).name == "none"


def _random_sets(seed: int, n: int) -> list[frozenset[str]]:
    rng = random.Random(seed)
    vocabulary = [f"w{k}" for k in range(60)]
    base = [frozenset(rng.sample(vocabulary, rng.randint(1, 24))) for _ in range(n // 2)]
    out = list(base)
    for _ in range(n - len(base)):  # near copies: a word or two changed
        words = set(rng.choice(base))
        for _ in range(rng.randint(0, 2)):
            if words and rng.random() < 0.5:
                words.discard(rng.choice(sorted(words)))
            else:
                words.add(rng.choice(vocabulary))
        out.append(frozenset(words))
    rng.shuffle(out)
    return out


@pytest.mark.parametrize("threshold", [Fraction(1, 2), Fraction(2, 3), Fraction(7, 10), Fraction(4, 5), Fraction(9, 10)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_prefix_filtering_finds_exactly_the_pairs_all_pairs_finds(threshold, seed):
    sets = _random_sets(seed, 300)
    # Pairs of different sets (equal sets share one entry in the index).
    expected = {frozenset((sets[i], sets[j])) for i, j in all_pairs(sets, threshold) if sets[i] != sets[j]}
    index = SimilarityIndex(((s, k) for k, s in enumerate(sets)), threshold)
    found = set()
    for s in set(sets) - {frozenset()}:
        similar = index.similar(s)
        assert (s, 1) in similar  # itself
        for other, value in similar:
            assert value == jaccard(s, other) >= threshold
            if other != s:
                found.add(frozenset((s, other)))
    assert found == expected
    assert len(expected) > 20  # the data has pairs to find


def test_the_index_answers_exact_then_near_with_the_rule():
    normalization, near = rules_from("nfc,casefold,space", "digits,jaccard=0.75")
    index = LeakIndex(normalization, near)
    number = index.new_file("train.txt", "train")
    texts = ["The meeting is at 10 am.", "the  MEETING is at 10 am.", "Call me at 555 1234 today",
             "one two three four five six seven"]
    index.add_items(number, [Item(t, None, k) for k, t in enumerate(texts)])
    found = index.occurrences("The meeting is at 10 AM.")
    assert [(o.line, o.kind) for o in found] == [(0, "exact"), (1, "exact")]
    assert [(o.line, o.kind, o.rules) for o in index.occurrences("Call me at 999 0000 today")] == \
        [(2, "near", ("digits",))]
    # 6 of 7 words shared, 8 in all: 0.75.
    assert [(o.line, o.kind, o.rules) for o in index.occurrences("one two three four five six eight")] == \
        [(3, "near", ("jaccard=0.75",))]
    assert index.occurrences("one two three eight nine ten eleven") == []
    # Too short to count with min_words: neither indexed nor looked up.
    short = LeakIndex(normalization, near, min_words=3)
    short.add_items(short.new_file("t", "train"), [Item("Thanks!", None, 0)])
    assert short.items == 0 and short.occurrences("Thanks!") == []


@pytest.mark.parametrize("name, split", [
    ("en_ewt-ud-train.conllu", "train"), ("fr_gsd-ud-dev.conllu", "dev"), ("data_valid.tsv", "dev"),
    ("x.validation.csv", "dev"), ("train.csv", "train"), ("gold/de_gsd-ud-test.conllu", "test"),
    ("contest.txt", None), ("trainer-test.txt", "test"), ("train-test.csv", None), ("notes.md", None),
])
def test_split_names(name, split):
    assert split_from_name(name) == split
