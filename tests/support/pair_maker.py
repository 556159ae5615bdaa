"""Gold and predicted CoNLL-U files made from a seed: the pairs the core
guards run on in every clone (no ../shared needed).

`make_gold` writes random sentences with what the metrics look at:
multiword tokens (``du`` = ``de`` + ``le``), empty nodes (``3.1``) in the
enhanced graph, DEPS that copy the basic tree and add edges (with ``>``
paths and subtypes), universal and language-specific features, subtyped
relations, and function words (``case``, ``det``, ``aux``, ``cop``,
``mark``, ``cc``) with features of their own, so MLAS has functional
children to compare.  `make_prediction` copies it with the errors parsers
make: label noise in every column (some DEPREL changes only the subtype,
some FEATS changes only a language-specific feature or the order), FEATS
changed on function words, HEADs moved (trees kept), DEPS edges changed,
tokenization changes (two tokens merged, one split, a multiword token left
unsplit: characters kept), sentences merged or left out, and ``Conf=``
values.  Every file is one the official scorer accepts (the prediction's
trees are kept whole), so it is the oracle for all of them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

CONTENT = ("nsubj", "obj", "iobj", "obl", "obl:arg", "obl:tmod", "advmod", "amod", "nmod", "nmod:poss",
           "conj", "acl", "acl:relcl", "advcl", "xcomp", "ccomp", "compound", "flat", "appos", "nummod",
           "nsubj:pass", "dep", "parataxis")
FUNCTIONAL = ("case", "det", "aux", "aux:pass", "cop", "mark", "cc", "clf")
UPOS = ("NOUN", "VERB", "ADJ", "ADV", "PROPN", "PRON", "NUM", "X", "INTJ", "SYM")
FUNCTION_UPOS = {"case": "ADP", "det": "DET", "aux": "AUX", "aux:pass": "AUX", "cop": "AUX",
                 "mark": "SCONJ", "cc": "CCONJ", "clf": "NOUN"}
FEATURES = ("Number=Sing", "Number=Plur", "Gender=Fem", "Gender=Masc", "Person=3", "Tense=Past",
            "Tense=Pres", "VerbForm=Fin", "Definite=Def", "PronType=Art", "Case=Nom", "Mood=Ind")
LANGUAGE_FEATURES = ("Clitic=Yes", "Typo=Yes", "Polite=Form", "Evident=Nfh")
WORDS = ("joana", "saw", "cat", "mat", "yesterday", "ran", "home", "big", "dog", "river", "stone",
         "light", "old", "sea", "garden", "wrote", "book", "green", "city", "slowly")
MULTIWORD = (("du", ("de", "le")), ("au", ("à", "le")), ("dámelo", ("da", "me", "lo")), ("don't", ("do", "n't")))


@dataclass
class Word:
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int
    deprel: str
    deps: str = "_"
    misc: str = "_"


@dataclass
class Sentence:
    sent_id: str
    words: list[Word]
    multiwords: dict[int, str] = field(default_factory=dict)   # first word (1-based) -> form; covers the next
    spans: dict[int, int] = field(default_factory=dict)        # first word -> number of words
    empty: list[tuple[int, Word]] = field(default_factory=list)  # (after word, node)


def _feats(rng: random.Random, language_specific: bool = True) -> str:
    if rng.random() < 0.25:
        return "_"
    chosen = {f.split("=")[0]: f for f in rng.sample(FEATURES, rng.randint(1, 3))}
    items = list(chosen.values())
    if language_specific and rng.random() < 0.2:
        items.append(rng.choice(LANGUAGE_FEATURES))
    return "|".join(sorted(items, key=str.lower))


def _sentence(rng: random.Random, sent_id: str, enhanced: bool) -> Sentence:
    n = rng.randint(1, 16)
    root = rng.randint(1, n)
    order = [i for i in range(1, n + 1) if i != root]
    rng.shuffle(order)
    heads = {root: 0}
    attached = [root]
    for i in order:
        heads[i] = rng.choice(attached)
        attached.append(i)
    words = []
    for i in range(1, n + 1):
        if heads[i] == 0:
            deprel = "root"
        elif rng.random() < 0.35:
            deprel = rng.choice(FUNCTIONAL)
        else:
            deprel = rng.choice(CONTENT)
        upos = FUNCTION_UPOS.get(deprel, rng.choice(UPOS))
        form = rng.choice(WORDS)
        words.append(Word(form, form if rng.random() < 0.9 else "_", upos, upos.lower()[:2], _feats(rng),
                          heads[i], deprel))
    sentence = Sentence(sent_id, words)
    # Multiword tokens over runs of words that are not already in one.
    i = 1
    while i <= n:
        if rng.random() < 0.12:
            form, parts = rng.choice(MULTIWORD)
            if i + len(parts) - 1 <= n:
                sentence.multiwords[i] = form
                sentence.spans[i] = len(parts)
                for k, part in enumerate(parts):
                    words[i - 1 + k].form = part
                i += len(parts)
                continue
        i += 1
    if enhanced:
        for i, word in enumerate(words, 1):
            edges = [f"{word.head}:{word.deprel}"]
            if rng.random() < 0.2 and n > 1:
                other = rng.choice([h for h in range(1, n + 1) if h != i])
                edges.append(f"{other}:{rng.choice(('nsubj:xsubj', 'conj>obj', 'obl:on', 'ref'))}")
            word.deps = "|".join(sorted(set(edges), key=lambda e: (float(e.split(":")[0]), e)))
        if rng.random() < 0.2 and n > 1:
            after = rng.randint(1, n - 1)
            node = Word("_", "_", "VERB", "_", "_", -1, "_", f"{root}:orphan", "_")
            sentence.empty.append((after, node))
            target = words[after]  # word after+1 depends on the empty node too
            target.deps = "|".join(sorted(set(target.deps.split("|") + [f"{after}.1:obj"]),
                                          key=lambda e: (float(e.split(":")[0]), e)))
    return sentence


def _lines(sentence: Sentence, text: bool = True) -> list[str]:
    out = [f"# sent_id = {sentence.sent_id}"] if sentence.sent_id else []
    if text:
        out.append("# text = " + " ".join(_tokens(sentence)))
    empty = dict(sentence.empty)
    for i, word in enumerate(sentence.words, 1):
        if i in sentence.multiwords:
            out.append(f"{i}-{i + sentence.spans[i] - 1}\t{sentence.multiwords[i]}\t_\t_\t_\t_\t_\t_\t_\t_")
        out.append("\t".join([str(i), word.form, word.lemma, word.upos, word.xpos, word.feats, str(word.head),
                              word.deprel, word.deps, word.misc]))
        if i in empty:
            node = empty[i]
            out.append("\t".join([f"{i}.1", node.form, node.lemma, node.upos, node.xpos, node.feats, "_", "_",
                                  node.deps, "_"]))
    return out


def _tokens(sentence: Sentence) -> list[str]:
    out, i = [], 1
    while i <= len(sentence.words):
        if i in sentence.multiwords:
            out.append(sentence.multiwords[i])
            i += sentence.spans[i]
        else:
            out.append(sentence.words[i - 1].form)
            i += 1
    return out


def write(path: Path, sentences: list[Sentence]) -> Path:
    path.write_text("".join("\n".join(_lines(s)) + "\n\n" for s in sentences), encoding="utf-8")
    return path


def make_gold_sentences(seed: int, n: int = 300, enhanced: bool = True) -> list[Sentence]:
    rng = random.Random(seed)
    return [_sentence(rng, f"g{seed}-{k + 1}", enhanced) for k in range(n)]


# --------------------------------------------------------------------------
# Predictions
# --------------------------------------------------------------------------


def _copy(sentence: Sentence) -> Sentence:
    return Sentence(sentence.sent_id, [Word(**vars(w)) for w in sentence.words], dict(sentence.multiwords),
                    dict(sentence.spans), [(a, Word(**vars(w))) for a, w in sentence.empty])


def _noise(rng: random.Random, sentence: Sentence, rate: float) -> None:
    n = len(sentence.words)
    for i, word in enumerate(sentence.words, 1):
        if rng.random() < rate:
            word.upos = rng.choice(UPOS + tuple(FUNCTION_UPOS.values()))
        if rng.random() < rate:
            word.xpos = rng.choice(("nn", "vb", "jj", "_"))
        if rng.random() < rate:
            word.lemma = rng.choice(WORDS)
        if rng.random() < rate:
            kind = rng.random()
            if kind < 0.3 and word.feats != "_" and "|" in word.feats:
                word.feats = "|".join(reversed(word.feats.split("|")))  # the order only
            elif kind < 0.5:
                extra = rng.choice(LANGUAGE_FEATURES)  # a language-specific feature only
                items = [f for f in word.feats.split("|") if f != "_" and f.split("=")[0] != extra.split("=")[0]]
                word.feats = "|".join(sorted(items + [extra], key=str.lower))
            else:
                word.feats = _feats(rng)
        if word.deprel in FUNCTIONAL and rng.random() < 2 * rate:
            word.feats = _feats(rng, language_specific=False)  # a functional child's features (MLAS)
        if rng.random() < rate and word.deprel != "root":
            if ":" in word.deprel and rng.random() < 0.5:
                word.deprel = word.deprel.split(":")[0]  # the subtype only (LAS keeps it right)
            else:
                word.deprel = rng.choice(CONTENT + FUNCTIONAL)
        if rng.random() < rate and n > 2 and word.head != 0:
            # Another head that keeps a tree: a word that does not depend on this one.
            below = _descendants(sentence, i)
            choices = [h for h in range(1, n + 1) if h != i and h not in below]
            if choices:
                word.head = rng.choice(choices)
        if rng.random() < rate and word.deps != "_":
            edges = word.deps.split("|")
            head, _, path = edges[0].partition(":")
            edges[0] = f"{head}:{rng.choice(('nsubj', 'obj', 'conj>obj', 'obl:arg'))}"
            word.deps = "|".join(sorted(set(edges), key=lambda e: (float(e.split(":")[0]), e)))


def _descendants(sentence: Sentence, i: int) -> set[int]:
    out, frontier = set(), {i}
    while frontier:
        children = {k for k, w in enumerate(sentence.words, 1) if w.head in frontier} - out
        out |= children
        frontier = children
    return out


def _retokenize(rng: random.Random, sentence: Sentence) -> Sentence:
    """One tokenization change, characters kept: a multiword token left
    unsplit, a token split in two, or two tokens merged.  The new sentence is
    a tree again (attached to the root), so the official scorer takes it."""
    tokens, kind = [], rng.random()
    i = 1
    words = sentence.words
    while i <= len(words):
        if i in sentence.multiwords:
            tokens.append(("mwt", sentence.multiwords[i], words[i - 1:i - 1 + sentence.spans[i]]))
            i += sentence.spans[i]
        else:
            tokens.append(("word", words[i - 1].form, [words[i - 1]]))
            i += 1
    if kind < 0.34 and any(t[0] == "mwt" for t in tokens):
        k = next(k for k, t in enumerate(tokens) if t[0] == "mwt")
        tokens[k] = ("word", tokens[k][1], [tokens[k][2][0]])  # unsplit: one word, the token's form
    elif kind < 0.67 and any(t[0] == "word" and len(t[1]) > 2 for t in tokens):
        k = next(k for k, t in enumerate(tokens) if t[0] == "word" and len(t[1]) > 2)
        form = tokens[k][1]
        tokens[k:k + 1] = [("word", form[:1], [tokens[k][2][0]]), ("word", form[1:], [tokens[k][2][0]])]
    elif len(tokens) > 1 and tokens[0][0] == tokens[1][0] == "word":
        tokens[0:2] = [("word", tokens[0][1] + tokens[1][1], [tokens[0][2][0]])]
    new = Sentence(sentence.sent_id, [])
    for kind_, form, source in tokens:
        if kind_ == "mwt":
            new.multiwords[len(new.words) + 1] = form
            new.spans[len(new.words) + 1] = len(source)
            new.words += [Word(**vars(w)) for w in source]
        else:
            w = Word(**vars(source[0]))
            w.form = form
            new.words.append(w)
    root = next((k for k, w in enumerate(new.words, 1) if w.deprel == "root"), 1)
    for k, w in enumerate(new.words, 1):
        w.head = 0 if k == root else root
        if k == root:
            w.deprel = "root"
        elif w.deprel == "root":
            w.deprel = "dep"
        w.deps = f"{w.head}:{w.deprel}"
    return new


def _merge(a: Sentence, b: Sentence) -> Sentence:
    """Two sentences as one (the parser missed a boundary): b's words after
    a's, b's root attached to a's."""
    offset = len(a.words)
    merged = Sentence(a.sent_id, [Word(**vars(w)) for w in a.words], dict(a.multiwords), dict(a.spans))
    a_root = next(k for k, w in enumerate(a.words, 1) if w.head == 0)
    for w in b.words:
        w = Word(**vars(w))
        if w.head == 0:
            w.head, w.deprel = a_root, "parataxis"
        else:
            w.head += offset
        w.deps = f"{w.head}:{w.deprel}"
        merged.words.append(w)
    for first, form in b.multiwords.items():
        merged.multiwords[first + offset] = form
        merged.spans[first + offset] = b.spans[first]
    for w in merged.words[:offset]:
        w.deps = f"{w.head}:{w.deprel}"
    return merged


def make_prediction(gold: list[Sentence], seed: int, noise: float = 0.1, tokenization: float = 0.1,
                    merge: float = 0.05, drop: float = 0.03, conf: bool = True) -> list[Sentence]:
    rng = random.Random(seed)
    out: list[Sentence] = []
    k = 0
    while k < len(gold):
        if rng.random() < drop:
            k += 1
            continue
        sentence = _copy(gold[k])
        sentence.empty = [] if rng.random() < 0.5 else sentence.empty  # most parsers drop empty nodes
        if k + 1 < len(gold) and rng.random() < merge:
            sentence = _merge(sentence, _copy(gold[k + 1]))
            k += 1
        elif rng.random() < tokenization:
            sentence = _retokenize(rng, sentence)
            _noise(rng, sentence, noise)  # (these are counted word by word: errors there too)
        else:
            _noise(rng, sentence, noise)
        if conf:
            for w in sentence.words:
                w.misc = f"Conf=UPOS:{rng.random():.2f},HEAD:{rng.random():.2f}" if rng.random() < 0.8 else "_"
        out.append(sentence)
        k += 1
    return out


def make_pair(folder: Path, seed: int, n: int = 300, name: str = "x", **options) -> tuple[Path, Path]:
    """``name.conllu`` (the prediction) and ``name.gold.conllu`` in ``folder``."""
    gold = make_gold_sentences(seed, n)
    pred = make_prediction(gold, seed + 1000, **options)
    return write(folder / f"{name}.conllu", pred), write(folder / f"{name}.gold.conllu", gold)
