"""Scoring in several processes gives exactly the one-process result, or declines."""

from __future__ import annotations

import json

import pytest

from tests.support.data import mkpred, shared_path
from annoscore.scorer.conllu.evaluate import ConlluOptions, evaluate_files
from annoscore.server.cli import main
from annoscore.server.parallel import evaluate_in_parallel, part_shares, plan_parts


def summary(result):
    return (result.counts.values, result.gold_sentences, result.system_sentences,
            result.scored_gold_sentences, result.unparsed.count, result.refused.count,
            [(r.sent_id, r.line) for r in result.refused.items],
            [(p.code, p.line) for r in result.refused.items for p in r.reasons],
            result.outcomes, result.system_sha256, result.gold_sha256,
            [(p.code, p.line, p.start) for p in result.system_file_problems + result.gold_file_problems])


def in_parts(system, gold, options=None, jobs=2, **kwargs):
    """Scored in parts as small as the test files allow (many parts)."""
    return evaluate_in_parallel(str(system), str(gold), options or ConlluOptions(), jobs,
                                min_bytes=0, min_part_bytes=0, **kwargs)


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    pred = mkpred(gold, tmp_path_factory.mktemp("par") / "pred.conllu", 9,
                  "--tok-noise", "0.3", "--conf", "--refuse", "20", "--unparsed", "5")
    return str(pred), str(gold)


@pytest.mark.parametrize("jobs", [2, 3])
def test_parts_add_up_to_the_whole(pair, jobs):
    options = ConlluOptions(strict=True, outcome_metric="MLAS", calibration=True)
    parallel = in_parts(*pair, options, jobs)
    single = evaluate_files(*pair, options)
    assert parallel is not None
    assert summary(parallel) == summary(single)
    for a, b in zip(parallel.calibration.pooled(), single.calibration.pooled()):
        assert (a.cells, a.correct) == (b.cells, b.correct)
        assert a.confidence_sum == pytest.approx(b.confidence_sum)


def test_shares_shrink_towards_the_end():
    shares = part_shares(2, 68 << 20)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[:4] == pytest.approx([0.3, 0.3, 0.12, 0.12])
    assert all(a >= b for a, b in zip(shares[:-2], shares[1:-2]))
    assert shares[-1] < 0.03 and len(shares) > 2 * 3
    # No part smaller than asked for, however small the file.
    small = part_shares(2, 3 << 20, min_part_bytes=1 << 20)
    assert sum(small) == pytest.approx(1.0) and min(small) * (3 << 20) >= 1 << 20
    assert part_shares(2, 1 << 20, min_part_bytes=1 << 20) == [1.0]


def check_parts(system_path, gold_path, parts):
    """Parts cover both files end to end, each starting at a sentence."""
    texts = [open(system_path, "rb").read(), open(gold_path, "rb").read()]
    for side, text in enumerate(texts):
        starts = [p[side][0] for p in parts]
        ends = [p[side][1] for p in parts]
        assert starts[0] == 0 and ends[-1] is None and ends[:-1] == starts[1:]
        for start, _ in (p[side] for p in parts[1:]):
            assert text[start - 1:start] == b"\n" and text[start - 2:start] in (b"\n\n", b"\r\n")
            assert text[start:start + 1] not in (b"\n", b"\r")
    return texts


def test_parts_are_at_sentences_of_both_files(pair):
    parts = list(plan_parts(*pair, part_shares(3, 1 << 30)))
    assert len(parts) == len(part_shares(3, 1 << 30))
    system_text, gold_text = check_parts(*pair, parts)
    for system, gold in parts[1:]:
        # The same sentence starts both parts, and the one before has the same tokens.
        system_id = system_text[system[0]:].split(b"# sent_id = ")[1].split(b"\n")[0]
        gold_id = gold_text[gold[0]:].split(b"# sent_id = ")[1].split(b"\n")[0]
        assert system_id == gold_id
        before = [text[:at].rstrip(b"\n").rsplit(b"\n\n", 1)[-1] for text, at in
                  ((system_text, system[0]), (gold_text, gold[0]))]
        tokens = [[line.split(b"\t")[:2] for line in block.split(b"\n") if not line.startswith(b"#")]
                  for block in before]
        assert tokens[0] == tokens[1]


def test_cuts_avoid_sentences_tokenized_differently(pair):
    """In this pair about a third of the sentences are tokenized differently;
    a part ending with one of them might end with words left over."""
    from annoscore.scorer.conllu.evaluate import evaluate_files
    for system, gold in plan_parts(*pair, part_shares(2, 1 << 30)):
        result = evaluate_files(*pair, system_part=(*system, 0), gold_part=(*gold, 0))
        assert not result.ended_unclean or system[1] is None


def test_parts_report_the_lines_they_read(tmp_path):
    """A part numbers its lines from 0; it reports how many line ends it read,
    counted as the reader counts them, whatever the file's ending."""
    from annoscore.scorer.conllu.reader import ConlluFileReader
    sentence = "# sent_id = a\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_\n"
    for text in (sentence + "\n", sentence, sentence + "\n\n\n", sentence.rstrip("\n"),
                 (sentence + "\n") * 3, sentence.replace("\n", "\r\n") + "\r\n",
                 sentence.replace("\n", "\r") + "\r", "\n\n" + sentence + "\n", ""):
        path = tmp_path / "t.conllu"
        path.write_bytes(text.encode())
        reader = ConlluFileReader(path)
        list(reader.blocks())
        normalized = text.replace("\r\n", "\n").replace("\r", "\n")
        assert reader.lines == normalized.count("\n"), repr(text)


def test_crlf_and_lone_carriage_returns(pair, tmp_path):
    """Line ends of every kind, before and after cuts: the parts find their
    cuts and their lines, and the result equals one process's."""
    system_text = open(pair[0], "rb").read()
    middle = system_text.index(b"\n\n", len(system_text) // 2) + 2
    head, tail = system_text[:middle].replace(b"\n", b"\r\n"), system_text[middle:]
    # A lone CR ends a line too (in a comment, where it changes nothing else).
    tail = tail.replace(b"\n# text = ", b"\n# note\r# text = ", 3)
    tail = tail.replace(b"\t0\troot\t", b"\t-3\troot\t", 1)  # a refused tree after them
    tail = tail.replace(b"\n# text = ", b"\n# text = \xff", 1)  # and a byte that is not UTF-8
    system = tmp_path / "mixed.conllu"
    system.write_bytes(head + tail)
    gold = tmp_path / "gold.conllu"
    gold.write_bytes(open(pair[1], "rb").read().replace(b"\n", b"\r\n"))
    parts = list(plan_parts(str(system), str(gold), part_shares(2, 1 << 30)))
    assert len(parts) > 4
    check_parts(str(system), str(gold), parts)
    parallel = in_parts(system, gold)
    single = evaluate_files(str(system), str(gold))
    assert parallel is not None
    assert summary(parallel) == summary(single)
    assert single.refused.count > 0
    assert any(p.code == "format-encoding" and p.line > len(parts) for p in single.system_file_problems)


def test_declines_when_sentences_are_missing(tmp_path):
    gold = shared_path("data", "ud", "UD_English-EWT", "en_ewt-ud-test.conllu")
    pred = mkpred(gold, tmp_path / "pred.conllu", 2, "--drop", "0.2")
    assert in_parts(pred, gold) is None


def test_declines_without_common_sent_ids(tmp_path):
    folder = shared_path("data", "predicted", "conll2018")
    system, gold = folder / "pred" / "en_ewt.UDPipe-Future.conllu", folder / "gold" / "en_ewt.conllu"
    parts = list(plan_parts(str(system), str(gold), part_shares(2, 1 << 30)))
    assert parts == [((0, None), (0, None))]
    assert in_parts(system, gold) is None


def test_declines_when_a_system_sent_id_is_used_twice(pair, tmp_path):
    """A cut is found by its sent_id: one used twice might cut the system
    file at the wrong copy, so such files are scored in one process."""
    text = open(pair[0], "rb").read()
    ids = [line for line in text.split(b"\n") if line.startswith(b"# sent_id = ")]
    first, late = ids[1], ids[len(ids) * 9 // 10]
    system = tmp_path / "twice.conllu"
    system.write_bytes(text.replace(late + b"\n", first + b"\n", 1))
    logged = []
    assert in_parts(system, pair[1], log=logged.append) is None
    assert "a sent_id is used twice" in logged[0]


def test_a_failing_part_makes_it_decline(pair, monkeypatch):
    from annoscore.server import parallel
    real = parallel.evaluate_files

    def failing(system_path, gold_path, options, system_part, gold_part, **kwargs):
        if system_part[0] > 0 and system_part[1] is None:
            raise RuntimeError("the last part breaks")
        return real(system_path, gold_path, options, system_part=system_part, gold_part=gold_part, **kwargs)

    monkeypatch.setattr(parallel, "evaluate_files", failing)
    logged = []
    assert in_parts(*pair, log=logged.append) is None
    assert "the last part breaks" in logged[0]


def test_progress_reaches_the_whole_system_file(pair):
    seen = []
    assert in_parts(*pair, progress=lambda done, total: seen.append((done, total))) is not None
    size = len(open(pair[0], "rb").read())
    assert seen and all(total == size for _, total in seen)
    assert seen[-1][0] == size
    assert max(done for done, _ in seen) == size


def test_cli_jobs_gives_the_same_json(pair, capsys, monkeypatch):
    from annoscore.server import parallel
    calls = []
    real = parallel.evaluate_in_parallel
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    from annoscore.server.cli import evaluate_conllu
    monkeypatch.setattr(evaluate_conllu, "PARALLEL_MIN_BYTES", 0)  # (below it, parallel is not imported)

    def recording(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr(parallel, "evaluate_in_parallel", recording)  # (imported by evaluate when it runs)
    assert main(["evaluate", *pair, "--json", "--jobs", "1"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["evaluate", *pair, "--json", "--jobs", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert len(calls) == 1 and calls[0] is not None  # only --jobs 2 went to the parallel path
    assert one == two


@pytest.mark.parametrize("crlf", [False, True])
def test_finding_a_sent_id_line_across_read_boundaries(tmp_path, monkeypatch, crlf):
    """The line is found wherever the reads cut it, and a longer sent_id
    that starts the same (s12 for s1) is not taken for it."""
    import annoscore.server.parallel as parallel
    from annoscore.server.parallel import _find_line
    monkeypatch.setattr(parallel, "SCAN", 7)
    end = b"\r\n" if crlf else b"\n"
    for lead in range(12):
        text = b"x" * lead + end + b"# sent_id = s12" + end + b"1\tx" + end + b"# sent_id = s1" + end + b"2"
        path = tmp_path / "f.conllu"
        path.write_bytes(text)
        with open(path, "rb") as f:
            assert _find_line(f, b"# sent_id = s1", 0) == text.index(b"# sent_id = s1" + end), lead
            assert _find_line(f, b"# sent_id = s9", 0) is None
