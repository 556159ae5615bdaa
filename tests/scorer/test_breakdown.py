"""Where the errors are (scorer/conllu/breakdown.py, ``--breakdown``,
``--confusions``): categories add up to the totals, and equal counts made
here word by word."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from annoscore.scorer.conllu import counts as C
from annoscore.scorer.conllu.breakdown import BREAKDOWNS, BreakdownCollector, distance_bin, in_context, length_bin
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.server.cli import main
from tests.support.treebank_maker import make_gold, make_prediction, read_blocks


def _collect(pred, gold, confusions=0, **options):
    sink = BreakdownCollector(BREAKDOWNS, confusions)
    result = evaluate_files(pred, gold, ConlluOptions(**options), detail_sink=sink)
    return result, sink.as_json()


@pytest.mark.parametrize("kind", ["noisy", "merged-dropped-refused"])
def test_categories_add_up_to_the_totals(tmp_path, kind):
    gold = make_gold(tmp_path / "g.conllu", 3, 60)
    if kind == "noisy":
        pred = make_prediction(gold, tmp_path / "p.conllu", 4, noise=0.2)
    else:
        pred = make_prediction(gold, tmp_path / "p.conllu", 4, noise=0.2, merge=0.1, drop=0.05, cycle=True)
    result, data = _collect(pred, gold)
    assert result.counts == evaluate_files(pred, gold).counts  # the sink changes no count
    v = result.counts.values
    tables = data["breakdown"]
    assert set(tables) == {"upos", "deprel", "deprel_full", "feats", "length", "distance"}
    for name in ("upos", "deprel", "deprel_full", "length", "distance"):
        table = tables[name].values()
        assert sum(t["gold"] for t in table) == v[C.WORDS_GOLD], name
        assert sum(t["uas"] for t in table) == v[C.UAS], name
        assert sum(t["las"] for t in table) == v[C.LAS], name
    for name in ("upos", "deprel", "deprel_full"):
        assert sum(t["system"] for t in tables[name].values()) == v[C.WORDS_SYSTEM], name
    assert sum(t["right"] for t in tables["upos"].values()) == v[C.UPOS]
    assert sum(t["right"] for t in tables["deprel"].values()) == v[C.LAS]
    assert sum(t["right"] for t in tables["deprel_full"].values()) == v[C.LAS_FULL]
    assert sum(t["right"] for t in tables["distance"].values()) == v[C.UAS]
    assert sum(t["sentences"] for t in tables["length"].values()) == result.gold_sentences
    system_words = sum(len(rows) for _, rows in read_blocks(pred))
    assert system_words == v[C.WORDS_SYSTEM]


def test_categories_equal_counts_made_word_by_word(tmp_path):
    gold = make_gold(tmp_path / "g.conllu", 8, 50)
    pred = make_prediction(gold, tmp_path / "p.conllu", 9, noise=0.25)
    _, data = _collect(pred, gold, confusions=3)
    tables = data["breakdown"]
    upos, deprel, feats, distance, length = Counter(), Counter(), Counter(), Counter(), Counter()
    upos_system, deprel_system, feats_system, distance_system = Counter(), Counter(), Counter(), Counter()
    confused, examples = Counter(), {}
    for (sent_id, g_rows), (_, s_rows) in zip(read_blocks(gold), read_blocks(pred)):
        for g, s in zip(g_rows, s_rows):
            head_right = g[6] == s[6]
            base_g, base_s = g[7].split(":")[0], s[7].split(":")[0]
            upos[g[3], "gold"] += 1
            upos[g[3], "right"] += g[3] == s[3]
            upos_system[s[3]] += 1
            deprel[base_g, "gold"] += 1
            deprel[base_g, "las"] += head_right and base_g == base_s
            deprel_system[base_s] += 1
            gold_feats = set() if g[5] == "_" else set(g[5].split("|"))
            system_feats = set() if s[5] == "_" else set(s[5].split("|"))
            for f in gold_feats:
                feats[f, "gold"] += 1
                feats[f, "right"] += f in system_feats
            for f in system_feats:
                feats_system[f] += 1
            d = distance_bin(int(g[0]) - 1, int(g[6]))
            distance[d, "gold"] += 1
            distance[d, "uas"] += head_right
            distance_system[distance_bin(int(s[0]) - 1, int(s[6]))] += 1
            length[length_bin(len(g_rows)), "gold"] += 1
            if base_g != base_s:
                confused[base_g, base_s] += 1
                examples.setdefault((base_g, base_s), (sent_id, int(g[0])))
    for tag, t in tables["upos"].items():
        assert (t["gold"], t["right"], t["system"]) == (upos[tag, "gold"], upos[tag, "right"], upos_system[tag])
        assert t["precision"] == pytest.approx(t["right"] / t["system"] if t["system"] else 0.0, abs=1e-6)
    for rel, t in tables["deprel"].items():
        assert (t["gold"], t["right"], t["system"]) == (deprel[rel, "gold"], deprel[rel, "las"], deprel_system[rel])
        assert t["recall"] == pytest.approx(t["right"] / t["gold"] if t["gold"] else 0.0, abs=1e-6)
    for f, t in tables["feats"].items():
        assert (t["gold"], t["right"], t["system"]) == (feats[f, "gold"], feats[f, "right"], feats_system[f])
    for b, t in tables["distance"].items():
        assert (t["gold"], t["right"], t["system"]) == (distance[b, "gold"], distance[b, "uas"], distance_system[b])
    for b, t in tables["length"].items():
        assert t["gold"] == length[b, "gold"]
    top = data["confusions"]["deprel"]
    assert [(c["gold"], c["predicted"], c["count"]) for c in top] == [
        (g, p, n) for (g, p), n in sorted(confused.items(), key=lambda item: (-item[1], item[0]))[:3]]
    first = top[0]
    sent_id, word = examples[first["gold"], first["predicted"]]
    assert (first["examples"][0]["sent_id"], first["examples"][0]["word"]) == (sent_id, word)
    assert f"[{first['gold']}>{first['predicted']}]" in first["examples"][0]["context"]


def test_context_marks_the_word():
    forms = "He saw Joana yesterday at the market".split()
    assert in_context(forms, 2, "nsubj>obj") == "He saw Joana[nsubj>obj] yesterday at the …"
    assert in_context(forms, 6, "obl>nmod") == "… yesterday at the market[obl>nmod]"
    assert distance_bin(0, 0) == "root" and distance_bin(4, 1) == "4" and distance_bin(0, 12) == "7+"
    assert length_bin(10) == "1-10" and length_bin(11) == "11-20" and length_bin(80) == "51+"


def test_cli_breakdown_and_confusions(tmp_path, capsys):
    gold = make_gold(tmp_path / "g.conllu", 5, 30)
    pred = make_prediction(gold, tmp_path / "p.conllu", 6, noise=0.2)
    capsys.readouterr()
    assert main(["evaluate", str(pred), str(gold), "--breakdown", "upos,deprel", "--breakdown", "length",
                 "--confusions", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["breakdown"]) == {"upos", "deprel", "deprel_full", "length"}
    assert len(data["confusions"]["deprel"]) == 2 and len(data["confusions"]["upos"]) == 2
    assert data["metrics"]["LAS"]["correct"] == sum(t["right"] for t in data["breakdown"]["deprel"].values())
    assert main(["evaluate", str(pred), str(gold), "--breakdown", "distance", "--confusions", "1"]) == 0
    out = capsys.readouterr().out
    assert "By head distance |HEAD - ID|:" in out and "Most frequent confusions of UPOS" in out
    assert main(["evaluate", str(pred), str(gold), "--breakdown", "nonsense"]) == 2
    assert main(["evaluate", str(pred), str(gold), "--confusions", "0"]) == 2
    space = tmp_path / "a.txt"
    space.write_text("a b\n", encoding="utf-8")
    assert main(["evaluate", str(space), str(space), "--breakdown", "upos"]) == 2
    err = capsys.readouterr().err
    assert "--breakdown nonsense" in err and "--breakdown applies to CoNLL-U" in err


def test_many_pairs_pool_the_breakdowns(tmp_path, capsys):
    gold_dir, pred_dir = tmp_path / "gold", tmp_path / "pred"
    gold_dir.mkdir()
    pred_dir.mkdir()
    for k in range(2):
        g = make_gold(gold_dir / f"t{k}.conllu", 40 + k, 20)
        make_prediction(g, pred_dir / f"t{k}.conllu", 50 + k, noise=0.2)
    capsys.readouterr()
    assert main(["evaluate", str(pred_dir), str(gold_dir), "--breakdown", "upos", "--confusions", "3",
                 "--jobs", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    pooled = data["pooled"]["breakdown"]["upos"]
    for tag, t in pooled.items():
        assert t["gold"] == sum(p["result"]["breakdown"]["upos"].get(tag, {"gold": 0})["gold"] for p in data["pairs"])
    # Pooled confusions count over every pair, not only each pair's top few.
    counts: Counter = Counter()
    for k in range(2):
        sink = BreakdownCollector((), 1000)
        evaluate_files(pred_dir / f"t{k}.conllu", gold_dir / f"t{k}.conllu", detail_sink=sink)
        for item in sink.as_json()["confusions"]["upos"]:
            counts[item["gold"], item["predicted"]] += item["count"]
    expected = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:3]
    assert [((c["gold"], c["predicted"]), c["count"]) for c in data["pooled"]["confusions"]["upos"]] == expected
