"""The cache of large documents' validation (`server.engine.conllu.validation_cache`).

Results with the cache equal results without it, diagnostic for
diagnostic, on several files (the validator's findings of every kind, a
prediction with refusals, an edited file); a warm run validates no block;
an entry that is corrupt, of another shape, or not the user's own is not
used; the folder and files are private; the size is bounded, the least
recently used going first; ``--no-cache`` and the setting turn it off.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from annoscore.server.cli import main
from annoscore.server.engine.conllu import validation, validation_cache, validation_parts
from tests.support.data import ROOT
from tests.support.pair_maker import make_pair


from tests.support.validation_inject import inject, repeat

BASE = (ROOT / "tests" / "scorer" / "data" / "validation_base.conllu").read_text(encoding="utf-8")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache on, in a folder of this test's; no helper processes (so
    that every block is validated here, where a test can see it)."""
    monkeypatch.delenv("ANNOSCORE_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(validation_cache, "_enabled", True)
    monkeypatch.setattr(validation_parts, "helpers", lambda: 1)
    monkeypatch.setattr(validation, "helpers", lambda: 1)
    validation_cache._memo.clear()
    yield Path(validation_cache.cache_folder())
    validation_cache._memo.clear()


class Counting:
    """validate_block, counted (``fail``: a call is an error)."""

    def __init__(self, monkeypatch, fail: bool = False) -> None:
        self.calls, self.fail, self.real = 0, fail, validation.validate_block
        monkeypatch.setattr(validation, "validate_block", self)

    def __call__(self, *args, **kwargs):
        self.calls += 1
        assert not self.fail, "a block was validated: the cache was not used"
        return self.real(*args, **kwargs)


def checked(capsys, path: Path, *options: str) -> list[dict]:
    main(["check", "--json", "--level", "3", str(path), *options])
    return json.loads(capsys.readouterr().out)["files"][0]["diagnostics"]


def files(folder: Path) -> list[Path]:
    injected = folder / "injected.conllu"
    injected.write_text(inject(repeat(BASE, 240), 3), encoding="utf-8")
    pred, _ = make_pair(folder, 7, n=700, name="pred")
    return [injected, pred]


def new_process() -> None:
    """What a new process would have: nothing loaded yet."""
    validation_cache._memo.clear()


def test_warm_results_equal_cold_and_uncached_and_validate_nothing(cache, tmp_path, capsys, monkeypatch):
    for path in files(tmp_path):
        uncached = checked(capsys, path, "--no-cache")
        assert not list(cache.glob("*"))  # --no-cache keeps nothing
        validation_cache.set_enabled(True)
        cold = checked(capsys, path)
        new_process()
        with monkeypatch.context() as patch:
            Counting(patch, fail=True)
            warm = checked(capsys, path)
        with monkeypatch.context() as patch:  # (and the count sees a validation when there is one)
            counting = Counting(patch)
            assert checked(capsys, path, "--no-cache") == uncached and counting.calls > 600
        assert uncached and any("test_id" in d for d in uncached)
        assert cold == uncached and warm == uncached
        for entry in cache.glob("*"):
            entry.unlink()  # (the next file starts cold)


def test_an_edited_file_is_validated_again_and_equals_an_uncached_check(cache, tmp_path, capsys, monkeypatch):
    path = files(tmp_path)[0]
    checked(capsys, path)  # kept
    lines = path.read_text(encoding="utf-8").split("\n")
    k = next(i for i, line in enumerate(lines) if line.count("\t") == 9 and line.split("\t")[3] == "NOUN")
    cells = lines[k].split("\t")
    cells[3] = "VERB"
    lines[k] = "\t".join(cells)
    path.write_text("\n".join(lines), encoding="utf-8")
    new_process()
    with monkeypatch.context() as patch:
        counting = Counting(patch)
        edited = checked(capsys, path)
    assert counting.calls > 600  # another document: every block validated
    assert edited == checked(capsys, path, "--no-cache")
    assert len(list(cache.glob("*.json"))) == 2


def test_other_settings_are_other_entries(cache, tmp_path, capsys, monkeypatch):
    path = files(tmp_path)[0]
    level3 = checked(capsys, path)
    new_process()
    with monkeypatch.context() as patch:
        counting = Counting(patch)
        level2 = checked(capsys, path, "--level", "2")
    assert counting.calls > 600 and level2 != level3
    assert level2 == checked(capsys, path, "--level", "2", "--no-cache")


@pytest.mark.parametrize("damage", ["garbage", "truncated", "shape", "test id", "other key", "lengths"])
def test_a_damaged_entry_is_ignored_and_removed(cache, tmp_path, capsys, monkeypatch, damage):
    path = files(tmp_path)[0]
    expected = checked(capsys, path)
    [entry] = cache.glob("*.json")
    header, body = entry.read_text(encoding="utf-8").split("\n")[:2]
    blocks = json.loads(body)
    if damage == "garbage":
        entry.write_bytes(b"\x00\xff not json")
    elif damage == "truncated":
        entry.write_text(header + "\n" + body[: len(body) // 2], encoding="utf-8")
    elif damage == "shape":
        blocks[5] = {"sent_ids": "not a list"}
        entry.write_text(header + "\n" + json.dumps(blocks), encoding="utf-8")
    elif damage == "test id":
        found = next(b for b in blocks if b and b.get("incidents"))
        found["incidents"][0][0] = "no-such-test"
        entry.write_text(header + "\n" + json.dumps(blocks), encoding="utf-8")
    elif damage == "other key":
        entry.write_text(header.replace('"key": "', '"key": "0') + "\n" + body, encoding="utf-8")
    else:  # a block's facts for a block of another length
        blocks[3]["n_lines"] += 1
        entry.write_text(header + "\n" + json.dumps(blocks), encoding="utf-8")
    os.chmod(entry, 0o600)
    new_process()
    with monkeypatch.context() as patch:
        counting = Counting(patch)
        again = checked(capsys, path)
    assert counting.calls > 600 and again == expected
    # Validated again, and kept again whole.
    new_process()
    assert validation_cache.load(entry.stem, _blocks(path)) is not None


def _blocks(path: Path):
    from annoscore.server.engine.conllu.validator_input import document_blocks
    from annoscore.server.textstore import TextStore

    return document_blocks(TextStore(path.read_text(encoding="utf-8"), lone_cr_ends_lines=True).segments)


def test_the_folder_and_entries_are_private(cache, tmp_path, capsys):
    checked(capsys, files(tmp_path)[0])
    for folder in (cache.parent, cache):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for entry in cache.iterdir():
        assert stat.S_IMODE(entry.stat().st_mode) == 0o600


@pytest.mark.parametrize("what", ["folder", "entry"])
def test_a_folder_or_entry_others_may_write_is_not_used(cache, tmp_path, capsys, monkeypatch, what):
    path = files(tmp_path)[0]
    checked(capsys, path)
    [entry] = cache.glob("*.json")
    os.chmod(cache if what == "folder" else entry, 0o777 if what == "folder" else 0o666)
    new_process()
    with monkeypatch.context() as patch:
        counting = Counting(patch)
        checked(capsys, path)
    assert counting.calls > 600
    if what == "folder":  # nothing written there either
        assert [p.name for p in cache.glob("*.json")] == [entry.name]


def test_the_least_recently_used_go_first(cache):
    cache.mkdir(parents=True, mode=0o700)
    for k in range(5):
        entry = cache / f"{k:064x}.json"
        entry.write_bytes(b"x" * 1000)
        os.utime(entry, ns=(k * 10**9, k * 10**9))
    os.utime(cache / f"{0:064x}.json")  # used just now
    validation_cache.evict(str(cache), 2500)
    assert sorted(p.name[:64] for p in cache.glob("*.json")) == [f"{0:064x}", f"{4:064x}"]


def test_the_setting_turns_it_off(cache, tmp_path, capsys, monkeypatch):
    from annoscore.server.config import Settings, apply_editor_settings

    settings, problems = apply_editor_settings(Settings(), {"cache": False})
    assert not problems and settings.cache is False
    validation_cache.set_enabled(settings.cache)
    checked(capsys, files(tmp_path)[0])
    assert not cache.exists() or not list(cache.glob("*.json"))
    validation_cache.set_enabled(True)
    assert validation_cache.enabled()
    monkeypatch.setenv("ANNOSCORE_NO_CACHE", "1")
    assert not validation_cache.enabled()


def test_the_language_servers_way_reopened_and_in_a_new_engine(cache, tmp_path, monkeypatch):
    """As the server does (its first validation may be left to the
    background): a document opened again in the same engine, and in a new
    one, shows what it showed, validating no block."""
    from annoscore.server.config import Settings, ValidationConfig
    from annoscore.server.engine.engine import Engine

    text = inject(repeat(BASE, 240), 5)
    path = str(tmp_path / "en_test-ud-dev.conllu")
    settings = Settings(validation=ValidationConfig(level=5))

    def shown(engine) -> list[tuple]:
        engine.open(path, path, text, 1)
        engine.rescore(path)
        pending = engine.validation_pending(path)
        if pending is not None:
            pending.result(timeout=120)
            engine.rescore(path)
        return [(p.code, p.message, p.line, p.start, p.end, p.datum("test_id")) for p in engine.diagnostics(path)]

    monkeypatch.setenv("ANNOSCORE_NO_CACHE", "1")
    expected = shown(Engine(str(tmp_path), settings))
    monkeypatch.delenv("ANNOSCORE_NO_CACHE")
    assert sum(1 for d in expected if d[-1]) > 100
    engine = Engine(str(tmp_path), settings)
    engine.background_validation = True
    assert shown(engine) == expected  # cold: kept
    with monkeypatch.context() as patch:
        Counting(patch, fail=True)
        engine.close(path)
        assert shown(engine) == expected
        new_process()
        later = Engine(str(tmp_path), settings)
        later.background_validation = True
        assert shown(later) == expected
