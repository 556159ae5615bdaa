"""Clean evaluation in the engine: a test split gives no live score, and
sentences of dev and test files that occur in train are shown as leaks."""

from __future__ import annotations

from tests.support.data import conllu, write
from annoscore.server.config import load_project
from annoscore.server.engine import Engine

TRAIN = conllu("# sent_id = t1\n# text = The cat sat\n1 The the DET _ _ 2 det _ _\n2 cat cat NOUN _ _ 3 nsubj _ _\n"
               "3 sat sit VERB _ _ 0 root _ _",
               "# sent_id = t2\n# text = Meet me on Monday at 5\n1 Meet meet VERB _ _ 0 root _ _\n"
               "2 me me PRON _ _ 1 obj _ _\n3 on on ADP _ _ 4 case _ _\n4 Monday Monday PROPN _ _ 1 obl _ _\n"
               "5 at at ADP _ _ 6 case _ _\n6 5 5 NUM _ _ 1 obl _ _")
DEV = conllu("# sent_id = d1\n# text = the  cat SAT\n1 the the DET _ _ 2 det _ _\n2 cat cat NOUN _ _ 3 nsubj _ _\n"
             "3 SAT sit VERB _ _ 0 root _ _",
             "# sent_id = d2\n# text = Meet me on Friday at 7\n1 Meet meet VERB _ _ 0 root _ _\n"
             "2 me me PRON _ _ 1 obj _ _\n3 on on ADP _ _ 4 case _ _\n4 Friday Friday PROPN _ _ 1 obl _ _\n"
             "5 at at ADP _ _ 6 case _ _\n6 7 7 NUM _ _ 1 obl _ _",
             "# sent_id = d3\n# text = Something new\n1 Something something PRON _ _ 0 root _ _\n"
             "2 new new ADJ _ _ 1 amod _ _")


def workspace(tmp_path):
    write(tmp_path, "train.conllu", TRAIN)
    write(tmp_path, "dev.conllu", DEV)
    write(tmp_path, "test.conllu", DEV)
    write(tmp_path, "test.gold.conllu", DEV)
    write(tmp_path, "other.conllu", DEV)
    (tmp_path / "annoscore.toml").write_text(
        '[splits]\ntrain = ["train.conllu"]\ndev = ["dev.conllu"]\ntest = ["test.gold.conllu", "test.conllu"]\n'
        'near = ["digits", "weekdays"]\n', encoding="utf-8")
    settings, problems = load_project(tmp_path)
    assert not problems
    return Engine(str(tmp_path), settings)


def opened(engine, tmp_path, name):
    path = str(tmp_path / name)
    engine.open(path, path, (tmp_path / name).read_text(encoding="utf-8"), 1)
    engine.rescore(path)
    return path


def test_sentences_that_occur_in_train_are_leaks_in_dev_files(tmp_path):
    engine = workspace(tmp_path)
    path = opened(engine, tmp_path, "dev.conllu")
    leaks = [p for p in engine.diagnostics(path) if p.code == "leak"]
    assert [p.line for p in leaks] == [0, 6]  # d1 (exact, after normalization) and d2 (near: weekday, digits)
    assert "exactly" in leaks[0].message and "train.conllu:1 (t1)" in leaks[0].message
    assert "nearly" in leaks[1].message and "train.conllu:7 (t2)" in leaks[1].message
    # A file outside the declared splits gets none; an edit that removes the leak removes it.
    assert not [p for p in engine.diagnostics(opened(engine, tmp_path, "other.conllu")) if p.code == "leak"]
    engine.change(path, 2, [((1, 9), (1, 12), "dog")])
    engine.rescore(path)
    assert [p.line for p in engine.diagnostics(path) if p.code == "leak"] == [6]


def test_a_prediction_against_a_test_split_gets_no_live_score(tmp_path):
    engine = workspace(tmp_path)
    path = opened(engine, tmp_path, "test.conllu")  # its gold, test.gold.conllu, is a declared test split
    payload = engine.score(path)
    assert payload["testSplit"] is True and payload["metrics"] == {} and payload["gold"] is None
    assert payload["message"] == "test split: run annoscore evaluate --final"
    codes = {p.code for p in engine.diagnostics(path)}
    assert not codes & {"gold-diff", "segmentation-mismatch", "text-mismatch", "missing-sentence"}
    assert "leak" in codes  # its sentences also occur in train
    assert "--final" in engine.report(path)
