"""Configuration: pairing rules, defaults, and invalid values reported (never raised)."""

from __future__ import annotations

from dataclasses import replace

from annoscore.server.config import Settings, apply_editor_settings, load_project, setup_for, severity_for
from annoscore.scorer.problems import Severity


def test_gold_beside_the_file(tmp_path):
    pred, gold = tmp_path / "a.conllu", tmp_path / "a.gold.conllu"
    pred.write_text("")
    assert setup_for(str(pred), Settings(), str(tmp_path)).gold is None
    gold.write_text("")
    pairing = setup_for(str(pred), Settings(), str(tmp_path))
    assert pairing.format == "conllu" and pairing.gold == str(gold)
    assert setup_for(str(gold), Settings(), str(tmp_path)).gold is None  # gold has no gold
    assert setup_for(str(tmp_path / "notes.md"), Settings(), str(tmp_path)) is None


def test_pair_rules_from_annoscore_toml(tmp_path):
    (tmp_path / "annoscore.toml").write_text(
        'threshold = 0.6\n[[pair]]\nfiles = "pred/*.txt"\ngold = "gold/{stem}.gold.txt"\npos = true\n'
        '[[pair]]\nfiles = "out/*.tsv"\ngold = "ref/{name}"\nformat = "labels"\n')
    settings, problems = load_project(tmp_path)
    assert problems == [] and settings.threshold == 0.6
    pairing = setup_for(str(tmp_path / "pred" / "ja.txt"), settings, str(tmp_path))
    assert pairing.format == "space" and pairing.pos and pairing.gold == str(tmp_path / "gold" / "ja.gold.txt")
    pairing = setup_for(str(tmp_path / "out" / "items.tsv"), settings, str(tmp_path))
    assert pairing.format == "labels" and pairing.gold == str(tmp_path / "ref" / "items.tsv")


def test_pyproject_section(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.annoscore]\nthreshold = 0.5\n')
    settings, problems = load_project(tmp_path)
    assert settings.threshold == 0.5 and problems == []


def test_which_project_file_is_read(tmp_path):
    # A pyproject.toml without [tool.annoscore] is not ours, readable or not.
    (tmp_path / "pyproject.toml").write_bytes(b'[project]\nname = "\xff"\n')
    assert load_project(tmp_path) == (Settings(), [])
    # With it, bytes that are not UTF-8 are reported, not a crash.
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.annoscore]\nthreshold = 0.5 # \xff\n')
    settings, problems = load_project(tmp_path)
    assert settings == Settings() and "cannot be read" in problems[0].message
    # annoscore.toml wins over pyproject.toml (whose table is then said not to be read).
    (tmp_path / "annoscore.toml").write_text("threshold = 0.25\n")
    settings, problems = load_project(tmp_path)
    assert settings == replace(Settings(), threshold=0.25)
    assert [p.message for p in problems] == ["pyproject.toml: [tool.annoscore] is not read: annoscore.toml beside "
                                             "it is the project file (move the settings into one of them)"]


def test_invalid_project_values_are_reported_with_their_line(tmp_path):
    (tmp_path / "annoscore.toml").write_text(
        'threshold = 3\nsurprise = 1\n[[pair]]\nfiles = "*.conllu"\n[[pair]]\nfiles = "*.txt"\ngold = "g"\n'
        'format = "xml"\n')
    settings, problems = load_project(tmp_path)
    assert settings.threshold == Settings().threshold  # replaced by the default
    by_line = {p.line: p.message for p in problems}
    assert "threshold" in by_line[0] and "surprise" in by_line[1]
    assert "needs files" in by_line[2]       # the first [[pair]] has no gold
    assert "xml" in by_line[7]               # format of the second pair
    assert len(settings.pairs) == 1 and settings.pairs[0].format is None


def test_unusable_pair_templates_are_reported_not_raised(tmp_path):
    (tmp_path / "annoscore.toml").write_text(
        '[[pair]]\nfiles = "*.conllu"\ngold = "gold/{nme}"\n'
        '[[pair]]\nfiles = "*.conllu"\ngold = "{"\n'
        '[[pair]]\nfiles = ""\ngold = "g.conllu"\n'
        '[[pair]]\nfiles = "*.conllu"\ngold = "gold/{stem}.conllu"\n')
    settings, problems = load_project(tmp_path)
    assert [rule.gold for rule in settings.pairs] == ["gold/{stem}.conllu"]
    messages = " ".join(p.message for p in problems)
    assert "nme" in messages and "template" in messages and "empty" in messages
    pairing = setup_for(str(tmp_path / "a.conllu"), settings, str(tmp_path))
    assert pairing is not None and pairing.gold == str(tmp_path / "gold" / "a.conllu")
    _, problems = apply_editor_settings(Settings(), {"files": {"segmentation": [""]}})
    assert problems


def test_broken_toml_is_a_problem_not_a_crash(tmp_path):
    (tmp_path / "annoscore.toml").write_text("threshold = = 1\n")
    settings, problems = load_project(tmp_path)
    assert settings == Settings() and problems and problems[0].line == 0


def test_editor_settings_override_and_validate():
    settings, problems = apply_editor_settings(Settings(threshold=0.6), {
        "threshold": 0.9, "run": "onType", "goldDiff": True, "severities": {"low-confidence": "hint",
                                                                           "format-": "warning", "cycle": "loud"},
        "files": {"segmentation": ["*.seg"]}, "maxDiagnostics": 0})
    assert settings.threshold == 0.9 and settings.run == "onType" and settings.gold_diff
    assert settings.segmentation_files == ("*.seg",)
    assert settings.max_diagnostics == Settings().max_diagnostics
    assert {p.message.split(":")[1].strip() for p in problems} == {"severities.cycle", "maxDiagnostics"}
    assert severity_for(settings, "low-confidence", Severity.INFORMATION) == Severity.HINT
    assert severity_for(settings, "format-columns", Severity.ERROR) == Severity.WARNING
    assert severity_for(settings, "cycle", Severity.ERROR) == Severity.ERROR
    off, _ = apply_editor_settings(Settings(), {"severities": {"unparsed": "off"}})
    assert severity_for(off, "unparsed", Severity.INFORMATION) is None
    _, problems = apply_editor_settings(Settings(), "not an object")
    assert problems


def test_splits_declare_files_by_path_or_glob(tmp_path):
    from annoscore.server.config import declared_files, declared_split
    from annoscore.server.project import project_root

    (tmp_path / "gold").mkdir()
    for name in ("en-train.conllu", "en-dev.conllu", "en-test.conllu", "notes.txt"):
        (tmp_path / "gold" / name).write_text("")
    (tmp_path / "annoscore.toml").write_text(
        '[splits]\ntrain = "gold/*-train.*"\ndev = ["gold/en-dev.conllu"]\ntest = "gold/*-test.*"\n'
        'normalize = ["nfc", "casefold"]\nnear = "digits,weekdays"\nmin_words = 3\n')
    settings, problems = load_project(tmp_path)
    assert problems == []
    splits = settings.splits
    assert (splits.train, splits.dev, splits.test) == (("gold/*-train.*",), ("gold/en-dev.conllu",),
                                                       ("gold/*-test.*",))
    assert (splits.normalize, splits.near, splits.min_words) == ("nfc,casefold", "digits,weekdays", 3)
    root = str(tmp_path)
    assert declared_split(str(tmp_path / "gold" / "en-test.conllu"), settings, root) == "test"
    assert declared_split(str(tmp_path / "gold" / "en-dev.conllu"), settings, root) == "dev"
    assert declared_split(str(tmp_path / "gold" / "notes.txt"), settings, root) is None
    assert declared_split("/elsewhere/en-test.conllu", settings, root) is None  # outside the project
    assert declared_files(settings, root) == {
        split: [str(tmp_path / "gold" / f"en-{split}.conllu")] for split in ("train", "dev", "test")}
    assert project_root(tmp_path / "gold" / "en-test.conllu") == root
    assert project_root(tmp_path / "gold") == root


def test_invalid_splits_are_reported_on_their_line_in_the_table(tmp_path):
    (tmp_path / "annoscore.toml").write_text(
        'test = 1\n[splits]\ntrain = ["a.conllu", 3]\ntest = "a.conllu"\nnear = "digits,colour"\n'
        'normalize = "nfd"\nmin_words = -2\nsurprise = true\n')
    settings, problems = load_project(tmp_path)
    by_line = {p.line: p.message for p in problems}
    assert "unknown key" in by_line[0]  # the top-level "test", not [splits]' one
    assert "splits.train: must be a path or glob" in by_line[2]
    assert "splits.near: unknown rule 'colour'" in by_line[4]
    assert "splits.normalize: unknown normalization step 'nfd'" in by_line[5]
    assert "splits.min_words: must be a whole number of at least 0" in by_line[6]
    assert "splits.surprise: unknown key" in by_line[7]
    assert settings.splits.train == () and settings.splits.test == ("a.conllu",)
    assert (settings.splits.near, settings.splits.normalize, settings.splits.min_words) == \
        ("digits", "nfc,casefold,space", 0)
    (tmp_path / "annoscore.toml").write_text('[splits]\ndev = "x.conllu"\ntest = ["x.conllu"]\n')
    settings, problems = load_project(tmp_path)
    assert settings.splits.test == () and "'x.conllu' is also declared as dev" in problems[0].message
    (tmp_path / "annoscore.toml").write_text('splits = "gold"\n')
    settings, problems = load_project(tmp_path)
    assert settings.splits.test == () and "must be a table" in problems[0].message


def test_a_severity_for_a_code_annoscore_does_not_have_is_reported():
    settings, problems = apply_editor_settings(Settings(), {"severities": {
        "cyclee": "off", "format-": "warning", "unknown-upos": "hint", "low-confidence": "off"}})
    assert set(settings.severities) == {"format-", "unknown-upos", "low-confidence"}
    assert len(problems) == 1 and "cyclee" in problems[0].message and "not a diagnostic code" in problems[0].message


def test_the_limits_on_diagnostics_come_from_the_project_and_the_editor(tmp_path):
    (tmp_path / "annoscore.toml").write_text("max_diagnostics = 50\nmax_diagnostics_per_document = 300\n")
    settings, problems = load_project(tmp_path)
    assert (settings.max_diagnostics, settings.max_diagnostics_per_document, problems) == (50, 300, [])
    edited, problems = apply_editor_settings(settings, {"maxDiagnosticsPerDocument": 2000})
    assert (edited.max_diagnostics, edited.max_diagnostics_per_document, problems) == (50, 2000, [])
    for bad in (0, -1, 2.5, "100", True, None):
        edited, problems = apply_editor_settings(settings, {"maxDiagnosticsPerDocument": bad})
        assert edited.max_diagnostics_per_document == 300, bad
        assert [p.message.split(":")[1].strip() for p in problems] == ["maxDiagnosticsPerDocument"], bad
    _, problems = apply_editor_settings(settings, {"maxDiagnosticsPerDocument": True})
    assert problems[0].message == ("editor settings: maxDiagnosticsPerDocument: must be a whole number of at "
                                   "least 1, not true; using the default")  # (true as the editor's JSON wrote it)
    (tmp_path / "annoscore.toml").write_text("max_diagnostics_per_document = 0\n")
    settings, problems = load_project(tmp_path)
    assert settings.max_diagnostics_per_document == Settings().max_diagnostics_per_document == 1000
    assert len(problems) == 1 and "max_diagnostics_per_document" in problems[0].message


# One schema, two places: annoscore.toml, or [tool.annoscore] in pyproject.toml.
PROJECT = '''threshold = 3
lang = "en"
progress_marker = "done"
surprise = 1
[validation]
level = 9
exclude = ["unknown-upos", "NOPE"]
[[pair]]
files = "pred/*.conllu"
gold = "gold/{name}"
format = "xml"
[[pair]]
files = "*.txt"
gold = "{nope}"
[splits]
train = "train/*.conllu"
min_words = -1
'''
# Keys of the same names in other tables come first: a problem must be found in annoscore's table.
DECOYS = '[project]\nname = "x"\nthreshold = 1\n[tool.other]\nlevel = 2\nexclude = 1\nmin_words = 1\nformat = 1\n'


def as_pyproject(text: str) -> str:
    import re
    text = re.sub(r"(?m)^\[\[(\w+)\]\]", r"[[tool.annoscore.\1]]", text)
    text = re.sub(r"(?m)^\[(\w+)\]", r"[tool.annoscore.\1]", text)
    return DECOYS + "[tool.annoscore]\n" + text


def test_the_project_file_has_one_schema_in_both_places(tmp_path):
    own, py = tmp_path / "own", tmp_path / "py"
    own.mkdir(), py.mkdir()
    (own / "annoscore.toml").write_text(PROJECT)
    (py / "pyproject.toml").write_text(as_pyproject(PROJECT))
    settings, problems = load_project(own)
    py_settings, py_problems = load_project(py)
    assert len(problems) == 7  # every invalid value above (the unknown NOPE is left out, not replaced)
    offset = DECOYS.count("\n") + 1
    as_read = [(p.message.replace("annoscore.toml", "F"), p.line + offset) for p in problems]
    assert as_read == [(p.message.replace("pyproject.toml", "F"), p.line) for p in py_problems]
    # The same settings, once the paths relative to each folder are set aside.
    assert replace(settings, validation=replace(settings.validation, data_dir=None)) == \
        replace(py_settings, validation=replace(py_settings.validation, data_dir=None))
    # And each problem's line is the line of its key in annoscore's table.
    lines = as_pyproject(PROJECT).split("\n")
    for p in py_problems:
        key = p.message.split(": ")[1].split(".")[-1].split(" #")[0]
        assert lines[p.line].startswith((key, "[[tool.annoscore.pair]]")), (p.message, lines[p.line])


def test_check_reads_the_project_file_of_a_folder_above(tmp_path, monkeypatch, capsys):
    from annoscore.server.cli import main
    from tests.support.data import conllu

    pred, gold = tmp_path / "pred", tmp_path / "gold"
    pred.mkdir(), gold.mkdir()
    sentence = conllu("# sent_id = a\n# text = It sat\n1 It it PRON PRP _ 2 nsubj _ _\n2 sat sit VERB VBD _ 0 root _ _")
    (pred / "a.conllu").write_text(sentence)
    (gold / "a.conllu").write_text(sentence)
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "t"\n[[tool.annoscore.pair]]\nfiles = "pred/*.conllu"\ngold = "gold/{name}"\n')
    monkeypatch.chdir(pred)
    assert main(["check", "a.conllu"]) == 0
    assert "a.conllu: LAS 100.00" in capsys.readouterr().err
