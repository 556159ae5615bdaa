"""Texts whose word sets are similar (Jaccard ≥ T), found without comparing all pairs.

Comparing every dev sentence with every train sentence is 25 million pairs
for UD English-EWT; this finds the same pairs by *prefix filtering*
(Chaudhuri et al. 2006; Bayardo et al. 2007), exactly:

1. Order all words by how rare they are in the indexed sets (fewest sets
   first; ties by the word itself), and write each set in that order.
2. If two sets X, Y have |X ∩ Y| / |X ∪ Y| ≥ T, they share at least
   ⌈T·|X|⌉ words.  Let w be the rarest word they share: all shared words
   come at or after w in X's order, so w is among X's first
   |X| − ⌈T·|X|⌉ + 1 words (its *prefix*), and likewise in Y's prefix.
   So only sets whose prefixes share a word are candidates.  Prefixes
   hold the rarest words, whose lists are short.
3. A candidate Y must also have T·|X| ≤ |Y| ≤ |X| / T (the length filter).
4. Each candidate is checked exactly, in integers: with T = a/b,
   |X ∩ Y|·b ≥ a·|X ∪ Y|.

No pair is missed and none is wrong: the tests hold it to the all-pairs
loop on random sets.  Equal sets are indexed once, so a text repeated a
thousand times costs one entry.  The order is a fixed function of a word
(a word the index never saw is rarest of all), so sets added to a query
side need no re-indexing.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import ceil
from typing import Hashable, Iterable, Sequence


def prefix_length(size: int, threshold: Fraction) -> int:
    return size - ceil(threshold * size) + 1


def jaccard(a: frozenset, b: frozenset) -> Fraction:
    union = len(a | b)
    return Fraction(len(a & b), union) if union else Fraction(1)


class SimilarityIndex:
    """Word sets indexed for "which of them are similar to this one?"."""

    def __init__(self, sets: Iterable[tuple[frozenset[str], Hashable]], threshold: Fraction) -> None:
        """``sets``: (word set, what it stands for) pairs; equal sets share an entry."""
        self.threshold = threshold
        self.owners: dict[frozenset[str], list[Hashable]] = defaultdict(list)
        for words, owner in sets:
            if words:
                self.owners[words].append(owner)
        frequency: dict[str, int] = defaultdict(int)
        for words in self.owners:
            for word in words:
                frequency[word] += 1
        self.frequency = dict(frequency)
        self.postings: dict[str, list[frozenset[str]]] = defaultdict(list)
        for words in self.owners:
            for word in self.prefix(words):
                self.postings[word].append(words)

    def ordered(self, words: Iterable[str]) -> list[str]:
        frequency = self.frequency
        return sorted(words, key=lambda w: (frequency.get(w, 0), w))

    def prefix(self, words: frozenset[str]) -> list[str]:
        return self.ordered(words)[:prefix_length(len(words), self.threshold)]

    def similar(self, words: frozenset[str]) -> list[tuple[frozenset[str], Fraction]]:
        """The indexed sets with Jaccard ≥ the threshold (``words`` itself
        too, when it is indexed), most similar first (ties in the index's order)."""
        if not words:
            return []
        t = self.threshold
        a, b = t.numerator, t.denominator
        size = len(words)
        low, high = t * size, size / t
        seen: set[frozenset[str]] = set()
        found = []
        for word in self.prefix(words):
            for candidate in self.postings.get(word, ()):
                if candidate in seen:
                    continue
                seen.add(candidate)
                n = len(candidate)
                if not low <= n <= high:
                    continue
                shared = len(words & candidate)
                union = size + n - shared
                if shared * b >= a * union:
                    found.append((candidate, Fraction(shared, union)))
        found.sort(key=lambda pair: -pair[1])
        return found


def all_pairs(sets: Sequence[frozenset[str]], threshold: Fraction) -> list[tuple[int, int]]:
    """Every (i, j), i < j, of non-empty sets with Jaccard ≥ the threshold,
    by comparing all pairs: the slow reference the tests hold the index to."""
    out = []
    for i in range(len(sets)):
        for j in range(i + 1, len(sets)):
            if sets[i] and sets[j] and jaccard(sets[i], sets[j]) >= threshold:
                out.append((i, j))
    return out
