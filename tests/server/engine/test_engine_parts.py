"""The engine's first pass in two processes gives exactly the one-process
result (or declines), and edits carry on from it as from a single pass."""

from __future__ import annotations

import os
import random

import pytest

import annoscore.server.engine.conllu.parts as parts
from tests.support.data import mkpred, shared_path
from annoscore.server.config import PairRule, Settings
from annoscore.server.engine import Engine
from annoscore.server.engine.conllu.handler import results_of
from annoscore.server.engine.conllu.parts import find_cut


def engine_for(tmp_path, split: bool, monkeypatch, logs: list[str]) -> Engine:
    monkeypatch.setattr(parts, "MIN_SENTENCES", 10 if split else 10**9)
    settings = Settings(pairs=(PairRule("pred.conllu", "gold.conllu"),))
    return Engine(str(tmp_path), settings, log=logs.append)


def open_pair(engine: Engine, tmp_path) -> str:
    path = str(tmp_path / "pred.conllu")
    engine.open(path, path, (tmp_path / "pred.conllu").read_text(encoding="utf-8"), 1)
    engine.rescore(path)
    return path


def split_and_single(folder, monkeypatch) -> tuple[Engine, Engine, str, list[str]]:
    """The pair in ``folder`` opened by an engine that splits its first
    pass, and by one that does not; the split engine's log."""
    logs: list[str] = []
    split = engine_for(folder, True, monkeypatch, logs)
    key = open_pair(split, folder)
    monkeypatch.setattr(parts, "MIN_SENTENCES", 10**9)
    single = Engine(str(folder), split.settings)
    open_pair(single, folder)
    return split, single, key, logs


def summary(engine: Engine, key: str) -> tuple:
    """Everything the engine shows and keeps for later edits."""
    pairing = results_of(engine.documents[key]).score
    assert pairing is not None
    units = [(u.kind, u.gold, u.system, u.counts.values if u.counts else None, u.clean,
              [[(p.code, p.line, p.start, p.message) for p in ps] for ps in u.problems])
             for u in pairing.units]
    infos = [(i.sent_id, i.chars, i.words, i.unparsed, i.refused, i.low, i.first_line, i.tokens,
              [(p.code, p.line, p.start) for p in i.problems]) for i in pairing.system]
    gold = [(i.sent_id, i.chars, i.first_line) for i in pairing.gold]
    diagnostics = [(p.code, p.line, p.start, p.end, p.message) for p in engine.diagnostics(key)]
    return (pairing.totals.values, pairing.bulk_totals.values, units, infos, gold, pairing.missing,
            pairing.unmatched, diagnostics, engine.score(key))


def edit_cells(engine: Engine, key: str, text: str, seed: int) -> None:
    """Change the UPOS and HEAD of a few random words, as an editor would."""
    lines = text.split("\n")
    words = [k for k, line in enumerate(lines) if line.split("\t", 1)[0].isdigit()]
    for n, k in enumerate(random.Random(seed).sample(words, 5)):
        cells = lines[k].split("\t")
        start = len("\t".join(cells[:3])) + 1
        engine.change(key, 2 + n, [((k, start), (k, start + len(cells[3])), "INTJ")])
        engine.rescore(key)


@pytest.fixture(scope="module")
def noisy_pair(tmp_path_factory):
    """A real treebank and a prediction with tokenization noise, Conf,
    refused and unparsed trees."""
    folder = tmp_path_factory.mktemp("parts")
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    (folder / "gold.conllu").write_text(gold.read_text(encoding="utf-8"), encoding="utf-8")
    mkpred(gold, folder / "pred.conllu", 4, "--tok-noise", "0.1", "--conf", "--refuse", "10",
           "--unparsed", "5")
    return folder


def test_two_halves_equal_one_pass(noisy_pair, monkeypatch):
    split, single, key, logs = split_and_single(noisy_pair, monkeypatch)
    assert any("two processes" in m for m in logs), logs
    assert summary(split, key) == summary(single, key)

    # Edits after a split first pass land where they would after a single one.
    text = (noisy_pair / "pred.conllu").read_text(encoding="utf-8")
    edit_cells(split, key, text, seed=3)
    edit_cells(single, key, text, seed=3)
    assert summary(split, key) == summary(single, key)


def test_declines_when_a_gold_sentence_is_missing(tmp_path, monkeypatch):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    (tmp_path / "gold.conllu").write_text(gold.read_text(encoding="utf-8"), encoding="utf-8")
    mkpred(gold, tmp_path / "pred.conllu", 5, "--drop", "0.05")
    split, single, key, logs = split_and_single(tmp_path, monkeypatch)
    assert any("cross the cut" in m for m in logs), logs
    assert results_of(split.documents[key]).score.missing
    assert summary(split, key) == summary(single, key)


def synthetic_pair(tmp_path, sentences: int, ids: bool = True) -> None:
    """Gold and prediction written here: label errors, a split token, a cycle,
    an unparsed sentence, Conf on every word."""
    rng = random.Random(sentences)
    gold, pred = [], []
    for s in range(sentences):
        n = rng.randint(3, 8)
        heads = [0] + [rng.randint(1, k) for k in range(1, n)]
        head_lines = [f"# sent_id = s{s}"] if ids else []
        gold_rows, pred_rows = [], []
        for w in range(n):
            form = f"w{s}x{w}"
            row = [str(w + 1), form, form, "NOUN", "NN", "_", str(heads[w]), "root" if heads[w] == 0 else "dep",
                   "_", "_"]
            gold_rows.append(row)
            guess = list(row)
            if rng.random() < 0.2:
                guess[3] = "VERB"
            guess[9] = f"Conf={rng.random():.2f}"
            pred_rows.append(guess)
        if s % 50 == 7:
            pred_rows = [["_" if c in (6, 7) else v for c, v in enumerate(r)] for r in pred_rows]
        if s % 50 == 13 and n > 2:
            pred_rows[1][6], pred_rows[2][6] = "3", "2"   # a cycle
        gold.append("\n".join(head_lines + ["\t".join(r) for r in gold_rows]))
        pred.append("\n".join(head_lines + ["\t".join(r) for r in pred_rows]))
    (tmp_path / "gold.conllu").write_text("\n\n".join(gold) + "\n\n", encoding="utf-8")
    (tmp_path / "pred.conllu").write_text("\n\n".join(pred) + "\n\n", encoding="utf-8")


def test_synthetic_pair_split_equals_single(tmp_path, monkeypatch):
    synthetic_pair(tmp_path, 400)
    made: list[str] = []
    mkstemp = parts.tempfile.mkstemp

    def recorded(*args, **kwargs):
        handle, path = mkstemp(*args, **kwargs)
        made.append(path)
        return handle, path

    monkeypatch.setattr(parts.tempfile, "mkstemp", recorded)
    split, single, key, logs = split_and_single(tmp_path, monkeypatch)
    assert any("two processes" in m for m in logs), logs
    # The second half's text went through a file, which is gone.
    assert len(made) == 1 and not os.path.exists(made[0])
    first = summary(split, key)
    assert first == summary(single, key)
    assert first[8]["counts"]["refused"] and first[8]["counts"]["unparsed"]


def test_no_cut_without_sent_ids(tmp_path, monkeypatch):
    synthetic_pair(tmp_path, 100, ids=False)
    logs: list[str] = []
    engine = engine_for(tmp_path, True, monkeypatch, logs)
    key = open_pair(engine, tmp_path)
    document = engine.documents[key]
    assert find_cut(document.store.segments, engine.gold_document(document).store.segments) is None
    assert not any("two processes" in m for m in logs)
    assert engine.score(key)["metrics"]["UPOS"]["f1"] > 0


def test_falls_back_when_the_second_process_cannot_start(tmp_path, monkeypatch):
    synthetic_pair(tmp_path, 200)

    def broken():
        raise OSError("no processes today")

    monkeypatch.setattr(parts, "forkserver_context", broken)
    split, single, key, logs = split_and_single(tmp_path, monkeypatch)
    assert any("no processes today" in m for m in logs), logs
    assert summary(split, key) == summary(single, key)


def test_falls_back_when_the_second_process_does_not_start(tmp_path, monkeypatch):
    """The forkserver is there but cannot start the process (fork fails, it
    died): the document is scored in one pass, not left as an internal error."""
    from annoscore.server.processes import forkserver_context

    synthetic_pair(tmp_path, 200)

    class NoStart:
        def __init__(self, context):
            self.context = context

        def Pipe(self):
            return self.context.Pipe()

        def Process(self, *args, **kwargs):
            process = self.context.Process(*args, **kwargs)

            def start():
                raise OSError("cannot fork now")

            process.start = start
            return process

    monkeypatch.setattr(parts, "forkserver_context", lambda: NoStart(forkserver_context()))
    split, single, key, logs = split_and_single(tmp_path, monkeypatch)
    assert any("cannot fork now" in m for m in logs), logs
    assert summary(split, key) == summary(single, key)


def test_falls_back_when_the_text_cannot_be_handed_over(tmp_path, monkeypatch):
    synthetic_pair(tmp_path, 200)
    monkeypatch.setattr(parts.tempfile, "tempdir", str(tmp_path / "no such folder"))
    split, single, key, logs = split_and_single(tmp_path, monkeypatch)
    assert any("could not hand the second half over" in m for m in logs), logs
    assert not any("two processes" in m for m in logs), logs
    assert summary(split, key) == summary(single, key)


def test_an_edit_that_moves_the_pairing_reads_only_what_it_changed(tmp_path, monkeypatch):
    """A token's text changed: the sentence no longer pairs with its gold, so
    the pairing is made again — but every other sentence keeps its analysis
    and its counts (bulk-counted ones too): only the edited sentence is read
    and counted.  The result is what a fresh engine makes of the new text."""
    import annoscore.server.engine.conllu.analysis as analysis
    import annoscore.server.engine.conllu.score as scoring
    synthetic_pair(tmp_path, 300)
    engine = engine_for(tmp_path, False, monkeypatch, [])
    key = open_pair(engine, tmp_path)
    engine.diagnostics(key)
    text = (tmp_path / "pred.conllu").read_text(encoding="utf-8")
    lines = text.split("\n")
    row = lines.index("# sent_id = s150") + 2  # the second word of s150
    form = lines[row].split("\t")[1]
    start = len(lines[row].split("\t")[0]) + 1

    from annoscore.scorer.conllu.pairing import SentencePairer
    fed = []
    real_feed = SentencePairer.feed
    monkeypatch.setattr(SentencePairer, "feed", lambda self, info: fed.append(info) or real_feed(self, info))
    read, counted, scored = [], [], []
    real_read_plain, real_bulk_counts, real_score_chunk = (analysis.read_plain, scoring.bulk_counts,
                                                           scoring.score_chunk)
    monkeypatch.setattr(analysis, "read_plain", lambda bodies: read.extend(bodies) or real_read_plain(bodies))
    monkeypatch.setattr(scoring, "bulk_counts", lambda pairs: counted.extend(
        s.segment.block for _, s in pairs) or real_bulk_counts(pairs))
    monkeypatch.setattr(scoring, "score_chunk",
                        lambda *args, **kwargs: scored.append(args) or real_score_chunk(*args, **kwargs))
    for step, new_form in enumerate([form + "z", form]):  # the typo, then its fix
        read.clear(), counted.clear(), scored.clear(), fed.clear()
        engine.change(key, step + 2, [((row, start), (row, start + len(form if step == 0 else form + "z")),
                                       new_form)])
        engine.rescore(key)
        assert read == []  # every other sentence keeps its analysis (the edited one is parsed alone)
        assert len(counted) <= 1 and all("s150" in body for body in counted)  # its old counts taken out
        assert len(scored) <= 1
        # Paired again only around it: from s150 until the pairing is back in step.
        assert 1 <= len(fed) <= 3 and fed[0].sent_id == "s150"
        lines[row] = "\t".join([lines[row].split("\t")[0], new_form] + lines[row].split("\t")[2:])
        fresh = Engine(str(tmp_path), engine.settings)
        fresh.open(key, key, "\n".join(lines), 1)
        fresh.rescore(key)
        ours, theirs = summary(engine, key), summary(fresh, key)
        # Totals, missing, unmatched, diagnostics, score (the edited sentence
        # was parsed alone, so its info and unit are kept in another form).
        assert [ours[k] for k in (0, 5, 6, 7, 8)] == [theirs[k] for k in (0, 5, 6, 7, 8)]
        # The typo unpairs the sentence from its gold; the fix pairs it again.
        assert ("text-mismatch" in {d[0] for d in ours[7]}) == (step == 0)


def test_splitting_a_sentence_pairs_again_in_one_process(tmp_path, monkeypatch):
    """An edit that splits a sentence in two changes the number of
    sentences: the pairing is made again, reusing every unchanged pair —
    not a new first pass in two processes — and equals a fresh engine."""
    synthetic_pair(tmp_path, 300)
    logs: list[str] = []
    engine = engine_for(tmp_path, True, monkeypatch, logs)
    key = open_pair(engine, tmp_path)
    engine.diagnostics(key)
    assert any("two processes" in line for line in logs)
    logs.clear()
    lines = (tmp_path / "pred.conllu").read_text(encoding="utf-8").split("\n")
    row = lines.index("# sent_id = s200") + 3  # the third line of s200: its second word
    engine.change(key, 2, [((row, 0), (row, 0), "\n")])  # a blank line before it
    engine.rescore(key)
    assert not any("two processes" in line for line in logs)
    lines.insert(row, "")
    monkeypatch.setattr(parts, "MIN_SENTENCES", 10**9)
    fresh = Engine(str(tmp_path), engine.settings)
    fresh.open(key, key, "\n".join(lines), 1)
    fresh.rescore(key)
    ours, theirs = summary(engine, key), summary(fresh, key)
    assert [ours[k] for k in (0, 5, 6, 7, 8)] == [theirs[k] for k in (0, 5, 6, 7, 8)]
