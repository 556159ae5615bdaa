"""Conf= in MISC: the exact parser, and the fast scan for low cells that must agree with it."""

from __future__ import annotations

import random

import pytest

from tests.support.data import mkpred, shared_path
from annoscore.scorer.conllu.confidence import ConfError, count_low, count_low_fast, count_low_many, low_cells, parse_conf
from annoscore.scorer.conllu.reader import ConlluFileReader, read_text


def test_parse_conf_forms():
    assert parse_conf("0.5") == dict.fromkeys(["UPOS", "XPOS", "LEMMA", "FEATS", "HEAD", "DEPREL"], 0.5)
    assert parse_conf("upos:0.25,Head:1") == {"UPOS": 0.25, "HEAD": 1.0}
    for bad, message in [("UPOS:x", "not a number"), ("UPOS:1.5", "outside"), ("FOO:0.1", "unknown column"),
                         ("UPOS:0.1,XPOS", "NAME:VALUE"), ("UPOS:0.1,upos:0.2", "twice"), ("nan", "outside")]:
        with pytest.raises(ConfError, match=message):
            parse_conf(bad)


VALUES = ["0.1", "0.79", "0.8", "0.80", "0.8000001", "0.95", "1", "1.0", "0", ".5", "5e-1", "1e0", "0.", "x",
          "-0.1", "2"]
NAMES = ["UPOS", "xpos", "Lemma", "FEATS", "HEAD", "DEPREL", "FOO"]


def random_conf(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return rng.choice(VALUES)
    names = rng.sample(NAMES, rng.randrange(1, 4)) + ([rng.choice(NAMES)] if rng.random() < 0.1 else [])
    return ",".join(f"{n}:{rng.choice(VALUES)}" for n in names)


@pytest.mark.parametrize("threshold", [0.8, 0.5, 0.85, 1.0, 0.0, 0.123])
def test_fast_count_equals_the_exact_parser_on_odd_values(threshold):
    rng = random.Random(int(threshold * 1000))
    for _ in range(400):
        lines = []
        for i in range(1, rng.randrange(2, 6)):
            misc = "|".join(["SpaceAfter=No"] * rng.randrange(2) + [f"Conf={random_conf(rng)}"] * rng.randrange(2)
                            + ["Other=1"] * rng.randrange(2) + ["XConf=0.1"] * (rng.random() < 0.05)) or "_"
            lines.append(f"{i}\tw\tw\tX\t_\t_\t{0 if i == 1 else 1}\tdep\t_\t{misc}")
        sentence = read_text("\n".join(lines) + "\n\n").sentences[0]
        cells, problems = low_cells(sentence, threshold)
        count, count_problems = count_low(sentence, threshold)
        assert count == len(cells), sentence.misc
        assert [p.code for p in count_problems] == [p.code for p in problems]


def test_fast_scan_equals_the_exact_parser_on_a_parser_output(tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    pred = mkpred(gold, tmp_path / "pred.conllu", 5, "--conf", "--label-noise", "0.1")
    cells = 0
    for sentence in ConlluFileReader(pred):
        exact = low_cells(sentence, 0.8)
        assert count_low(sentence, 0.8) == (len(exact[0]), exact[1])
        cells += len(exact[0])
    assert cells > 1000


def conf_sentence(rng: random.Random, n_words: int, conf) -> str:
    lines = []
    for i in range(1, n_words + 1):
        value = conf(rng)
        # Other items before and after Conf (where one Conf value ends).
        misc = "|".join(["SpaceAfter=No"] * rng.randrange(2) + ([f"Conf={value}"] if value else [])
                        + ["Gloss=a"] * rng.randrange(2)) or "_"
        lines.append(f"{i}\tw\tw\tX\t_\t_\t{0 if i == 1 else 1}\tdep\t_\t{misc}")
    return "\n".join(lines)


def uniform_named(rng: random.Random) -> str | None:
    if rng.random() < 0.1:
        return None  # a word without Conf
    return ",".join(f"{n}:{rng.choice(['0.12', '0.80', '0.95', '1.00'])}" for n in ("UPOS", "HEAD", "DEPREL"))


def uniform_whole(rng: random.Random) -> str | None:
    return None if rng.random() < 0.1 else rng.choice(["0.3", "0.8", "0.9"])


@pytest.mark.parametrize("kind", ["named", "whole", "odd"])
@pytest.mark.parametrize("threshold", [0.8, 0.5, 0.95])
def test_counting_many_sentences_at_once_equals_counting_each(kind, threshold, monkeypatch):
    from annoscore.scorer.conllu import confidence
    one_by_one = []
    monkeypatch.setattr(confidence, "count_low_fast",
                        lambda *args: one_by_one.append(args) or count_low_fast(*args))
    rng = random.Random(f"{kind}{threshold}")
    conf = {"named": uniform_named, "whole": uniform_whole, "odd": random_conf}[kind]
    sentences = [read_text(conf_sentence(rng, rng.randrange(1, 8), conf) + "\n\n").sentences[0]
                 for _ in range(300)]
    many = count_low_many([m for s in sentences for m in s.misc], [len(s.form) for s in sentences], threshold)
    assert len(many) == len(sentences)
    for sentence, low in zip(sentences, many):
        exact, problems = low_cells(sentence, threshold)
        if low is not None:
            assert low == len(exact) and not problems, sentence.misc
    if kind != "odd":
        assert None not in many and one_by_one == []  # all at once, not sentence by sentence


def test_misplaced_colon_is_not_counted_as_two_cells():
    """'UPOS:0.9:XPOS,0.8' splits into the same pieces as 'UPOS:0.9,XPOS:0.8';
    the exact parser refuses it, so the fast count must not take it."""
    sentence = read_text("1\tw\tw\tX\t_\t_\t0\troot\t_\tConf=UPOS:0.5:XPOS,0.5\n\n").sentences[0]
    count, problems = count_low(sentence, 0.8)
    assert [p.code for p in problems] == [p.code for p in low_cells(sentence, 0.8)[1]] != []
    assert count_low_fast(sentence.misc, 0.8) is None


@pytest.mark.parametrize("threshold", [0.8, 0.123, 0.5, 1.0, 0.0])
def test_fixed_width_table_equals_the_exact_parser(threshold):
    """Values laid out alike are read as a table of bytes; each count must be
    the exact parser's, and anything the exact parser would report (a number
    above 1, names given twice, another layout) must leave the table path."""
    from annoscore.scorer.conllu.confidence import _fixed_width_low, parse_conf
    rng = random.Random(int(threshold * 1000) + 1)
    layouts = [("UPOS", "HEAD", "DEPREL"), ("upos", "xpos", "lemma", "feats", "head", "deprel"), (None,)]
    for _ in range(200):
        names = rng.choice(layouts)
        digits = rng.choice([1, 2, 3, 7])
        def number() -> str:
            return rng.choice(["0", "1"]) + "." + "".join(rng.choice("0123456789") for _ in range(digits))
        values = []
        for _ in range(rng.randrange(1, 30)):
            if names == (None,):
                values.append(number())
            else:
                values.append(",".join(f"{name}:{number()}" for name in names))
        counted = _fixed_width_low(values, threshold)
        try:
            exact = [sum(p < threshold for p in parse_conf(v).values()) for v in values]
        except ValueError:  # a number above 1: the exact parser reports it
            assert counted is None
            continue
        assert counted is not None and counted.tolist() == exact, values
    assert _fixed_width_low(["UPOS:0.5,UPOS:0.7"], 0.8) is None          # a name twice
    assert _fixed_width_low(["UPOS:0.5", "XPOS:0.7"], 0.8) is None        # other names
    assert _fixed_width_low(["UPOS:0.5:XPOS,0.5"], 0.8) is None           # a misplaced colon
    assert _fixed_width_low(["0.5e0"], 0.8) is None                       # not a plain number


@pytest.mark.parametrize("misc", ["Conf=0.1|Conf=0.2", "Conf=0.٥٠", "Conf=0.²", "Conf=UPOS:0.1|Conf=XPOS:0.1"])
def test_odd_values_count_as_the_exact_parser_says(misc):
    """Two Conf items on one word (the exact parser reads the first), digits
    that are not ASCII: the fast counts must give the exact parser's answer."""
    sentence = read_text(f"1\tw\tw\tX\t_\t_\t0\troot\t_\t{misc}\n\n").sentences[0]
    cells, problems = low_cells(sentence, 0.9)
    count, count_problems = count_low(sentence, 0.9)
    assert count == len(cells)
    assert [p.code for p in count_problems] == [p.code for p in problems]
    assert count_low_many(sentence.misc, [1], 0.9) in ([len(cells)], [None])
