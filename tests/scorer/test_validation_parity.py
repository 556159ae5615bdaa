"""Parity with the official UD validator (udtools 0.2.9): the same multiset
of (line, test id, error|warning), compared per test id, at levels 1-5.

The core guards need nothing but the repository: a small corpus written for
these tests, repeated, with errors injected by `validation_inject` (every
reachable test id, several cases each), and whole-file scenarios.  With
``../shared`` the real treebanks are compared too, as they are and with
injected errors.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annoscore.scorer.validation import TESTS, ValidationSettings, guess_language, validate_text
from annoscore.scorer.validation.incident import UNREACHABLE
from tests.support.validation_inject import MUTATORS, inject, random_damage, repeat, scenarios
from tests.support.validation_oracle import compare, official

BASE = Path(__file__).parent / "data" / "validation_base.conllu"
LEVELS = (1, 2, 3, 4, 5)


def _ours(text: str, level: int, lang: str | None) -> Counter:
    result = validate_text(text, ValidationSettings(level=level, lang=lang))
    return Counter(i.key() for i in result.incidents)


def _check(tmp_path: Path, name: str, text: str, level: int, lang: str | None) -> Counter:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    expected = official(path, level, lang)
    got = _ours(path.read_bytes().decode("utf-8"), level, lang)
    table = compare(expected, got)
    assert not table, f"{name} at level {level} ({lang}): differs from udvalidate\n{table}"
    return expected


def test_every_official_test_id_is_in_the_table():
    """Our table of ids is the official validator's: every id its level 1-5
    sources can report (read from the installed udtools sources)."""
    import re
    from tests.support.validation_oracle import udtools_folder

    ids = set()
    for name in ("level1.py", "level2.py", "level3.py", "level4.py", "level5.py", "validator.py"):
        source = (udtools_folder() / name).read_text(encoding="utf-8")
        source = "\n".join(line for line in source.split("\n") if not line.lstrip().startswith("#"))
        ids |= set(re.findall(r"testid='([^']+)'", source))
    ids |= {f"right-to-left-{r}" for r in ("conj", "fixed", "flat", "goeswith", "appos")}
    assert ids == set(TESTS)
    # Every reachable id has a mutator that aims at it.
    assert set(TESTS) - UNREACHABLE <= set(MUTATORS) | {
        "non-unix-newline", "missing-empty-line", "non-unique-parallel-id", "parallel-id-alt",
        "parallel-id-part", "spaceafter-newdocpar", "edeps-only-sometimes",
        "edeps-identical-to-basic-trees", "empty-node-after-eorphan", "eorphan-after-empty-node"}


@pytest.mark.parametrize("seed", [1, 2])
def test_injected_errors_match_the_official_validator(tmp_path, seed):
    text = inject(repeat(BASE.read_text(encoding="utf-8"), 40), seed)
    seen: Counter = Counter()
    for level in LEVELS:
        seen.update(k[1] for k in _check(tmp_path, f"en_inject{seed}-ud-test.conllu", text, level, "en"))
    # The injection really covers every reachable id but the whole-file ones.
    whole_file = {"non-unix-newline", "missing-empty-line", "edeps-only-sometimes",
                  "edeps-identical-to-basic-trees", "empty-node-after-eorphan", "eorphan-after-empty-node",
                  "non-unique-parallel-id", "parallel-id-alt", "parallel-id-part", "spaceafter-newdocpar"}
    missing = set(TESTS) - UNREACHABLE - whole_file - set(seen)
    assert not missing, f"the injection did not produce {sorted(missing)}"


def test_whole_file_scenarios_match_the_official_validator(tmp_path):
    seen: Counter = Counter()
    for name, text in scenarios(BASE.read_text(encoding="utf-8")).items():
        for level in (1, 2, 3, 5):
            seen.update(k[1] for k in _check(tmp_path, f"en_{name.replace('-', '')}-ud-test.conllu",
                                             text, level, "en"))
    for test_id in ("non-unix-newline", "missing-empty-line", "edeps-only-sometimes",
                    "edeps-identical-to-basic-trees", "empty-node-after-eorphan", "eorphan-after-empty-node",
                    "non-unique-parallel-id", "parallel-id-alt", "parallel-id-part", "spaceafter-newdocpar",
                    "non-unique-sent-id", "pron-det-without-prontype", "goeswith-missing-typo",
                    "unknown-udeprel", "empty-sentence", "invalid-line", "pseudo-empty-line"):
        assert seen[test_id], f"no scenario produced {test_id}"


def test_ud_language_at_level_4(tmp_path):
    """--lang ud at level 4: no language-specific feature is allowed, and
    'ref' (in the 'ref' scenarios) is unknown only before any DEPS."""
    texts = scenarios(BASE.read_text(encoding="utf-8"))
    for name in ("ref-no-deps", "ref-before-deps", "ref-after-deps"):
        _check(tmp_path, f"x_{name.replace('-', '')}.conllu", texts[name], 4, "ud")
    _check(tmp_path, "x_base.conllu", inject(repeat(BASE.read_text(encoding="utf-8"), 8), 3), 4, "ud")


# --- the shared treebanks ----------------------------------------------------------------------


def _treebanks():
    from tests.support.data import SHARED
    root = SHARED / "data" / "ud"
    return sorted(root.glob("*/*.conllu")) if root.is_dir() else []


@pytest.mark.parametrize("path", _treebanks() or [None], ids=lambda p: p.name if p else "none")
def test_treebank_matches_the_official_validator(shared, path):
    if path is None:
        shared("data", "ud")
    lang = guess_language(path)
    text = path.read_text(encoding="utf-8")
    expected = official(path, 5, lang)
    table = compare(expected, _ours(text, 5, lang))
    assert not table, f"{path.name} at level 5: differs from udvalidate\n{table}"


@pytest.mark.parametrize("path", [p for p in _treebanks() if "train" not in p.name] or [None],
                         ids=lambda p: p.name if p else "none")
def test_treebank_with_injected_errors_matches(shared, tmp_path, path):
    if path is None:
        shared("data", "ud")
    lang = guess_language(path)
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    text = "\n\n".join(blocks[:600]).strip("\n") + "\n\n"
    injected = inject(text, seed=len(path.name))
    for level in (2, 3, 5):
        _check(tmp_path, path.name, injected, level, lang)


def test_random_damage_matches_the_official_validator(tmp_path):
    """Characters inserted, deleted or replaced at random (tabs, newlines, CR,
    U+FFFD, a combining accent, a byte-order mark, ...): whatever the
    damage, the same incidents."""
    import random

    base = BASE.read_text(encoding="utf-8")
    rng = random.Random(9)
    path = tmp_path / "en_damaged-ud-test.conllu"
    for round_ in range(60):
        text = random_damage(base, rng, 6)
        path.write_bytes(text.encode("utf-8"))
        for level in (2, 5):
            expected = official(path, level, "en")
            got = _ours(path.read_bytes().decode("utf-8"), level, "en")
            table = compare(expected, got)
            assert not table, f"round {round_}, level {level}:\n{table}"
