"""The leak check: planted leaks are found, in the right places, and nothing else is.

Synthetic files (made from a seed, every text different) hold one plant of
each kind; the shared UD treebanks' real splits are held to a plain
reference written here (a set of normalized texts, no index), and then
planted leaks must add exactly themselves to what the real splits hold.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from annoscore.scorer.hygiene import find_leaks, read_items, rules_from, split_from_name
from annoscore.scorer.hygiene.items import ReadOptions, conllu_text

from tests.support.hygiene import conllu_block, conllu_file, distinct_texts, first_lines

RULES = "digits,weekdays,months,city=paris|london|new york,jaccard=0.8"


def _findings(files, near=RULES, normalize="nfc,casefold,space", min_words=0):
    normalization, rules = rules_from(normalize, near)
    report = find_leaks(files, normalization, rules, min_words)
    return report, {(f.kind, f.later.file, f.later.line + 1, f.earlier.file, f.earlier.line + 1, f.rules)
                    for f in report.findings}


def test_planted_conllu_leaks_of_every_kind_are_found_and_nothing_else(tmp_path):
    texts = distinct_texts(7, 130)
    train = [conllu_block(f"tr-{k}", t) for k, t in enumerate(texts[:60])]
    dev = [conllu_block(f"dv-{k}", t) for k, t in enumerate(texts[60:90])]
    test = [conllu_block(f"te-{k}", t) for k, t in enumerate(texts[90:120])]
    base = [t.rstrip(".") for t in texts[120:]]  # one text of its own for each near plant
    # exact: dev 3 is train 5, in other case and spacing
    dev[3] = conllu_block("dv-3", texts[5].upper()).replace(
        f"# text = {texts[5].upper()}", "# text =  " + texts[5].upper().replace(" ", "  "))
    # near by each keyed rule, each against one earlier sentence
    train[10] = conllu_block("tr-10", f"{base[0]} at 10 sharp.")
    dev[7] = conllu_block("dv-7", f"{base[0]} at 47 sharp.")
    dev[12] = conllu_block("dv-12", f"{base[1]} on Monday.")
    test[2] = conllu_block("te-2", f"{base[1]} on Friday.")
    train[20] = conllu_block("tr-20", f"{base[2]} in March.")
    test[5] = conllu_block("te-5", f"{base[2]} in October.")
    train[25] = conllu_block("tr-25", f"{base[3]} from Paris.")
    test[8] = conllu_block("te-8", f"{base[3]} from New York.")
    # near by jaccard: nine words and the period shared, one word changed (10 of 12: 0.83)
    nine = "alfa bravo charlie delta echo foxtrot golf hotel india".split()
    train[30] = conllu_block("tr-30", " ".join(nine + ["zulu"]) + ".")
    test[10] = conllu_block("te-10", " ".join(nine + ["yankee"]) + ".")
    # conflict across splits: test 12 is train 40 with other UPOS
    test[12] = conllu_block("te-12", texts[40], upos="NOUN")
    # conflict within train, and a copy within dev that agrees (no finding)
    train.append(conllu_block("tr-60", texts[50], upos="VERB"))
    dev.append(conllu_block("dv-30", texts[80]))
    paths = {}
    for name, blocks in (("x-train.conllu", train), ("x-dev.conllu", dev), ("x-test.conllu", test)):
        (tmp_path / name).write_text(conllu_file(blocks), encoding="utf-8")
        paths[name] = str(tmp_path / name)
    line = {name: first_lines((tmp_path / name).read_text()) for name in paths}
    files = [(read_items(p), split_from_name(p)) for p in paths.values()]
    report, found = _findings(files)
    tr, dv, te = paths["x-train.conllu"], paths["x-dev.conllu"], paths["x-test.conllu"]
    L = lambda name, k: line[name][k]  # noqa: E731
    expected = {
        ("exact", dv, L("x-dev.conllu", 3), tr, L("x-train.conllu", 5), ()),
        ("near", dv, L("x-dev.conllu", 7), tr, L("x-train.conllu", 10), ("digits",)),
        ("near", te, L("x-test.conllu", 2), dv, L("x-dev.conllu", 12), ("weekdays",)),
        ("near", te, L("x-test.conllu", 5), tr, L("x-train.conllu", 20), ("months",)),
        ("near", te, L("x-test.conllu", 8), tr, L("x-train.conllu", 25), ("city",)),
        ("near", te, L("x-test.conllu", 10), tr, L("x-train.conllu", 30), ("jaccard=0.83",)),
        ("conflict", te, L("x-test.conllu", 12), tr, L("x-train.conllu", 40), ()),
        ("conflict", tr, L("x-train.conllu", 60), tr, L("x-train.conllu", 50), ()),
    }
    assert found == expected
    assert report.duplicates == {"train": 0, "dev": 1, "test": 0}
    conflict = next(f for f in report.findings if f.kind == "conflict" and not f.within)
    assert conflict.detail == "UPOS of token line 1 " + repr(texts[40].split(" ")[0]) + ": 'NOUN' vs 'X'"
    assert conflict.later.id == "te-12" and conflict.earlier.id == "tr-40"
    # Without the rules, only exact copies and conflicts remain.
    _, plain = _findings(files, near="none")
    assert plain == {f for f in expected if f[0] != "near"}


def test_each_near_rule_finds_only_its_own_plants(tmp_path):
    texts = distinct_texts(3, 40)
    base = texts[0].rstrip(".")
    train = [f"{base} at 10.\tA", f"{base} on Monday.\tA", f"{base} in May.\tA", f"{base} to Rome.\tA"]
    test = [f"{base} at 11.\tA", f"{base} on Sunday.\tA", f"{base} in June.\tA", f"{base} to Oslo.\tA"]
    (tmp_path / "train.tsv").write_text("\n".join(train) + "\n")
    (tmp_path / "test.tsv").write_text("\n".join(test) + "\n")
    files = [(read_items(str(tmp_path / n), ReadOptions("labels")), s) for n, s in (("train.tsv", "train"),
                                                                                      ("test.tsv", "test"))]
    for rule, line in (("digits", 1), ("weekdays", 2), ("months", 3), ("place=rome|oslo", 4)):
        _, found = _findings(files, near=rule)
        assert {(f[0], f[2], f[4], f[5]) for f in found} == {("near", line, line, (rule.split("=")[0],))}


def test_labelled_text_conflicts_within_and_across_files(tmp_path):
    (tmp_path / "a-train.csv").write_text('id,text,label\n1,"Good, very good.",pos\n2,Awful.,neg\n'
                                          '3,"good,  VERY good.",neg\n4,"Fine, ""really"".",pos\n')
    (tmp_path / "b-train.tsv").write_text("Awful.\tpos\nNothing here.\tneg\n")
    (tmp_path / "c-test.tsv").write_text('Fine, "really".\tpos\nSomething new.\tneg\nnothing HERE.\tpos\n')
    files = [(read_items(str(tmp_path / n), ReadOptions("labels")), split_from_name(n))
             for n in ("a-train.csv", "b-train.tsv", "c-test.tsv")]
    report, found = _findings(files, near="none")
    a, b, c = (str(tmp_path / n) for n in ("a-train.csv", "b-train.tsv", "c-test.tsv"))
    assert found == {
        ("conflict", a, 4, a, 2, ()),      # within a file
        ("conflict", b, 1, a, 3, ()),      # across the files of one split
        ("exact", c, 1, a, 5, ()),         # a quoted CSV text equals a TSV one
        ("conflict", c, 3, b, 2, ()),      # across splits
    }
    details = {f.later.line + 1: f.detail for f in report.findings if f.later.file == a}
    assert details == {4: "label 'neg' vs 'pos'"}
    assert [f.earlier.id for f in report.findings if f.later.file == a] == ["1"]


def test_segmentation_items_are_texts_and_their_segmentation_is_the_annotation(tmp_path):
    (tmp_path / "ja-train.txt").write_text("今日 は 晴れ\n東京 に 行く\n")
    (tmp_path / "ja-test.txt").write_text("今日は 晴れ\n東京 に 行く\n")
    files = [(read_items(str(tmp_path / n)), split_from_name(n)) for n in ("ja-train.txt", "ja-test.txt")]
    report, found = _findings(files, near="none")
    assert {(f[0], f[2], f[4]) for f in found} == {("conflict", 1, 1), ("exact", 2, 2)}
    conflict = next(f for f in report.findings if f.kind == "conflict")
    assert conflict.detail == "words '今日は 晴れ' vs '今日 は 晴れ'" and conflict.later.text == "今日は 晴れ"


def test_min_words_leaves_short_items_out(tmp_path):
    (tmp_path / "train.tsv").write_text("Thanks!\tA\nSee you on the other side.\tA\n")
    (tmp_path / "test.tsv").write_text("Thanks!\tA\nsee you on the other side.\tA\n")
    files = [(read_items(str(tmp_path / n), ReadOptions("labels")), s) for n, s in (("train.tsv", "train"),
                                                                                      ("test.tsv", "test"))]
    report, found = _findings(files, near="none", min_words=3)
    assert {(f[0], f[2]) for f in found} == {("exact", 2)} and report.short == 2


def test_conllu_text_is_rebuilt_from_forms_without_a_text_comment():
    body = ("# sent_id = 1\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n1\tde\tde\tADP\t_\t_\t3\tcase\t_\t_\n"
            "2\tle\tle\tDET\t_\t_\t3\tdet\t_\t_\n3\tchat\tchat\tNOUN\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
            "3.1\tx\tx\tX\t_\t_\t_\t_\t3:dep\t_\n4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_")
    assert conllu_text(body) == "du chat."
    assert conllu_text("# text = Le chat.\n" + body) == "Le chat."


# --------------------------------------------------------------------------
# The shared treebanks' real splits
# --------------------------------------------------------------------------


def _reference_blocks(path):
    """(first line, sent_id, text) of each sentence: a plain reading of the
    file, independent of scorer.hygiene (every shared file has # text)."""
    out, line = [], 1
    for block in open(path, encoding="utf-8").read().split("\n\n"):
        stripped = block.lstrip("\n")
        line += len(block) - len(stripped)
        if stripped.strip():
            sent_id = re.search(r"^# sent_id = (.*)$", stripped, re.M).group(1)
            text = re.search(r"^# text = (.*)$", stripped, re.M).group(1)
            out.append((line, sent_id, text))
        line += stripped.count("\n") + 2
    return out


def _normal(text):
    return " ".join(unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold()).split())


def _reference(later, earlier):
    """The (line, sent_id) of later sentences whose text is in earlier (exact),
    and of those whose digit-masked text is but whose text is not (near)."""
    texts = {_normal(t) for _, _, t in earlier}
    masked = {re.sub(r"\d+", "0", t) for t in texts}
    exact = {(line, sid) for line, sid, t in later if _normal(t) in texts}
    near = {(line, sid) for line, sid, t in later
            if _normal(t) not in texts and re.sub(r"\d+", "0", _normal(t)) in masked}
    return exact, near


@pytest.mark.parametrize("treebank, names", [
    ("UD_English-EWT", ["en_ewt-ud-train.conllu", "en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu"]),
    ("UD_French-GSD", ["fr_gsd-ud-dev.conllu", "fr_gsd-ud-test.conllu"]),
])
def test_the_real_splits_hold_what_a_plain_reference_finds(shared, treebank, names):
    paths = [str(shared("data", "ud", treebank, name)) for name in names]
    files = [(read_items(p), split_from_name(p)) for p in paths]
    report, _ = _findings(files, near="digits")
    blocks = {split_from_name(p): _reference_blocks(p) for p in paths}
    for later, earlier in (("dev", "train"), ("test", "train"), ("test", "dev")):
        if later not in blocks or earlier not in blocks:
            continue
        exact, near = _reference(blocks[later], blocks[earlier])
        ours = [f for f in report.findings if f.later.split == later and f.earlier.split == earlier]
        assert {(f.later.line + 1, f.later.id) for f in ours if f.kind in ("exact", "conflict")} == exact
        assert {(f.later.line + 1, f.later.id) for f in ours if f.kind == "near"} == near
        # Each finding names the earlier place right: that sentence has the same (masked) text.
        earlier_text = {line: t for line, _, t in blocks[earlier]}
        for f in ours:
            mask = (lambda t: re.sub(r"\d+", "0", _normal(t))) if f.kind == "near" else _normal
            assert mask(earlier_text[f.earlier.line + 1]) == mask(f.later.text)


def test_planted_leaks_add_exactly_themselves_to_ewt(shared, tmp_path):
    directory = shared("data", "ud", "UD_English-EWT")
    train = str(directory / "en_ewt-ud-train.conllu")
    dev_text = (directory / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8")
    blocks = {sid: (line, text) for line, sid, text in _reference_blocks(train)}
    train_body = open(train, encoding="utf-8").read().split("\n\n")
    by_id = {re.search(r"^# sent_id = (.*)$", b, re.M).group(1): b.strip("\n") for b in train_body if b.strip()}
    # Three long train sentences: one copied, one with its digits changed, one re-annotated.
    with_digits = next(s for s, (_, t) in blocks.items() if len(t) > 80 and re.search(r"\d", t))
    plain = [s for s, (_, t) in blocks.items() if len(t) > 80 and not re.search(r"\d", t)]
    copied, reannotated = plain[0], plain[1]
    changed_digits = re.sub(r"\d", lambda m: str((int(m.group()) + 1) % 10), by_id[with_digits])
    lines = by_id[reannotated].split("\n")
    row = next(k for k, l in enumerate(lines) if l.split("\t")[0] == "1")
    cells = lines[row].split("\t")
    cells[3] = "X" if cells[3] != "X" else "SYM"
    lines[row] = "\t".join(cells)
    planted = [by_id[copied], changed_digits, "\n".join(lines)]
    dev = tmp_path / "en_ewt-ud-dev.conllu"
    dev.write_text(dev_text + "\n\n".join(planted) + "\n\n", encoding="utf-8")
    start = dev_text.count("\n") + 1
    planted_lines = [start, start + planted[0].count("\n") + 2,
                     start + planted[0].count("\n") + planted[1].count("\n") + 4]

    before = [(read_items(train), "train"), (read_items(str(directory / "en_ewt-ud-dev.conllu")), "dev")]
    after = [(read_items(train), "train"), (read_items(str(dev)), "dev")]
    _, old = _findings(before, near="digits")
    report, new = _findings(after, near="digits")
    moved = {before[1][0].path: str(dev)}
    old = {(k, moved.get(f, f), l, moved.get(ef, ef), el, r) for k, f, l, ef, el, r in old}
    added = new - old
    assert old <= new
    assert {(k, l, el) for k, _, l, _, el, _ in added} == {
        ("exact", planted_lines[0], blocks[copied][0]),
        ("near", planted_lines[1], blocks[with_digits][0]),
        ("conflict", planted_lines[2], blocks[reannotated][0]),
    }
