"""The on-disk cache of the official tools' results (tests/support/oracle_cache.py):
a cold cache runs the oracle, a warm one does not, any changed input byte or
argument runs it again, and workers writing the same entry at once leave one
whole entry, computed once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import oracle_cache
from tests.support import validation_oracle
from tests.support.data import conllu, official_counts, write

ROOT = Path(__file__).resolve().parents[2]  # the workers import the tests package from here

GOLD = conllu("""
# sent_id = 1
# text = The dog barks.
1 The the DET DT _ 2 det _ _
2 dog dog NOUN NN _ 3 nsubj _ _
3 barks bark VERB VBZ _ 0 root _ SpaceAfter=No
4 . . PUNCT . _ 3 punct _ _
""")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of this test's own (the suite's is put back after)."""
    saved = oracle_cache.folder()
    monkeypatch.delenv("ANNOSCORE_ORACLE_CACHE", raising=False)
    oracle_cache.configure(tmp_path / "cache")
    yield tmp_path / "cache"
    monkeypatch.delenv("ANNOSCORE_ORACLE_CACHE", raising=False)  # (a test may set it)
    oracle_cache.configure(saved)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def counting(monkeypatch, module, name: str) -> list[int]:
    """Count the calls of module.name (the real function still runs)."""
    calls: list[int] = []
    real = getattr(module, name)

    def wrapper(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def test_validator_runs_cold_not_warm_and_again_on_a_changed_byte(cache, tmp_path, monkeypatch):
    real = validation_oracle._official
    calls = counting(monkeypatch, validation_oracle, "_official")
    path = write(tmp_path, "en_x-ud-test.conllu", GOLD.replace("\tdet\t", "\tpunct\t"))
    first = validation_oracle.official(path, 3, "en")
    assert calls == [1] and len(entries(cache)) == 1
    assert first == real(path, 3, "en")  # stored as the oracle said it
    assert sum(first.values()) > 0  # the oracle really found something to store
    # Same bytes: from memory, then (a new process) from disk, never recomputed.
    assert validation_oracle.official(path, 3, "en") == first
    oracle_cache.configure(cache)
    assert validation_oracle.official(path, 3, "en") == first
    assert calls == [1]
    assert isinstance(validation_oracle.official(path, 3, "en"), type(first))
    # Another level is another question.
    validation_oracle.official(path, 2, "en")
    assert calls == [1, 1] and len(entries(cache)) == 2
    # One byte changed (the deprel fixed): computed again, and the answer differs.
    path.write_text(GOLD, encoding="utf-8")
    second = validation_oracle.official(path, 3, "en")
    assert calls == [1, 1, 1] and len(entries(cache)) == 3
    assert sum(first.values()) and not second  # rel-upos-punct, then nothing


def test_scorer_results_come_back_the_same_from_disk(cache, tmp_path, monkeypatch):
    from udtools import udeval

    calls = counting(monkeypatch, udeval, "evaluate")
    gold = write(tmp_path, "gold.conllu", GOLD)
    system = write(tmp_path, "sys.conllu", GOLD.replace("\tdet\t", "\tamod\t"))
    first = official_counts(gold, system)
    assert calls == [1] and first["LAS"] == (3, 4, 4, 4)
    oracle_cache.configure(cache)  # as a new process: memory empty
    assert official_counts(gold, system) == first and calls == [1]
    # The same files swapped are another question (gold comes first).
    official_counts(system, gold)
    assert calls == [1, 1]
    system.write_text(GOLD, encoding="utf-8")
    assert official_counts(gold, system)["LAS"] == (4, 4, 4, 4) and calls == [1, 1, 1]


def test_the_oracles_code_is_part_of_the_key(cache, tmp_path, monkeypatch):
    path = write(tmp_path, "gold.conllu", GOLD)
    before = oracle_cache.key("udvalidate", [path], [3, "en"])
    monkeypatch.setattr(oracle_cache, "oracle_digest", lambda: "another udtools")
    assert oracle_cache.key("udvalidate", [path], [3, "en"]) != before


def test_a_failing_oracle_stores_nothing(cache, tmp_path):
    path = write(tmp_path, "gold.conllu", GOLD)

    def fail():
        raise ValueError("the oracle failed")

    with pytest.raises(ValueError):
        oracle_cache.remembered("t", [path], [], fail)
    assert entries(cache) == []
    assert oracle_cache.remembered("t", [path], [], lambda: [1]) == [1]


def test_an_unreadable_entry_is_computed_again(cache, tmp_path):
    path = write(tmp_path, "gold.conllu", GOLD)
    oracle_cache.remembered("t", [path], [], lambda: [1])
    (entry,) = entries(cache)
    entry.write_text('{"val', encoding="utf-8")
    oracle_cache.configure(cache)
    assert oracle_cache.remembered("t", [path], [], lambda: [2]) == [2]
    assert json.loads(entry.read_text(encoding="utf-8")) == {"value": [2]}


WORKER = """
import sys, time
from pathlib import Path
from tests.support import oracle_cache
oracle_cache.configure(Path(sys.argv[1]))

def compute():
    with open(sys.argv[3], "a") as log:
        log.write("computed\\n")
    time.sleep(0.5)  # long enough for the other workers to ask meanwhile
    return {"answer": list(range(1000))}

print(oracle_cache.remembered("t", [sys.argv[2]], ["x"], compute)["answer"][-1])
"""


def test_concurrent_workers_compute_once_and_leave_one_whole_entry(cache, tmp_path):
    path = write(tmp_path, "gold.conllu", GOLD)
    log = tmp_path / "log"
    workers = [subprocess.Popen([sys.executable, "-c", WORKER, str(cache), str(path), str(log)],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT) for _ in range(4)]
    outputs = [w.communicate(timeout=60)[0].strip() for w in workers]
    assert [w.returncode for w in workers] == [0] * 4
    assert outputs == ["999"] * 4
    assert log.read_text().splitlines() == ["computed"]
    (entry,) = entries(cache)
    assert json.loads(entry.read_text(encoding="utf-8")) == {"value": {"answer": list(range(1000))}}
    assert not list(cache.glob("*.tmp"))


def test_the_disk_can_be_turned_off(cache, tmp_path, monkeypatch):
    """ANNOSCORE_ORACLE_CACHE=0: every process runs the oracles itself."""
    path = write(tmp_path, "gold.conllu", GOLD)
    monkeypatch.setenv("ANNOSCORE_ORACLE_CACHE", "0")
    oracle_cache.configure(cache)
    assert oracle_cache.folder() is None
    assert oracle_cache.remembered("t", [path], [], lambda: [1]) == [1]
    assert not cache.exists() or entries(cache) == []


def test_the_folder_is_the_users_and_private_and_can_be_moved_or_turned_off(tmp_path, monkeypatch):
    monkeypatch.delenv("ANNOSCORE_ORACLE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert oracle_cache.default_folder() == tmp_path / "xdg" / "annoscore-tests" / "oracle"
    monkeypatch.setenv("ANNOSCORE_ORACLE_CACHE", str(tmp_path / "ci"))
    assert oracle_cache.default_folder() == tmp_path / "ci"
    for off in ("off", "0", "no", "OFF"):
        monkeypatch.setenv("ANNOSCORE_ORACLE_CACHE", off)
        assert oracle_cache.default_folder() is None


def test_entries_and_locks_are_private_and_an_open_folder_is_closed(cache, tmp_path):
    import stat

    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    path = write(tmp_path, "gold.conllu", GOLD)
    oracle_cache.remembered("t", [path], [], lambda: [1])
    files = list(cache.iterdir())
    assert {f.suffix for f in files} == {".json", ".lock"}
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    cache.chmod(0o777)  # opened to others by someone: closed again before use
    oracle_cache.configure(cache)
    assert oracle_cache.folder() == cache and stat.S_IMODE(cache.stat().st_mode) == 0o700


def test_the_key_holds_python_and_udtools_dependencies(monkeypatch):
    """An entry computed under another Python (unicodedata's tables) or
    another version of a library udtools uses is not this one's."""
    import importlib.metadata

    oracle_cache.oracle_digest.cache_clear()
    before = oracle_cache.oracle_digest()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    oracle_cache.oracle_digest.cache_clear()
    assert oracle_cache.oracle_digest() != before
    monkeypatch.undo()
    requirements = importlib.metadata.requires("udtools") or []
    if requirements:
        real = importlib.metadata.version
        dependency = oracle_cache._requirement_name(requirements[0])
        monkeypatch.setattr(importlib.metadata, "version",
                            lambda name: "9.9.9" if name == dependency else real(name))
        oracle_cache.oracle_digest.cache_clear()
        assert oracle_cache.oracle_digest() != before
        monkeypatch.undo()
    oracle_cache.oracle_digest.cache_clear()
    assert oracle_cache.oracle_digest() == before


def test_the_suite_keeps_its_cache_after_these_tests():
    """(Runs after the others in this file: the cache fixture put the suite's folder back.)"""
    assert oracle_cache.folder() == oracle_cache.default_folder()
