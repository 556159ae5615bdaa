"""The official UD validator (udtools 0.2.9, GPL) as a test oracle.

Only tests import this: it runs udtools' own `Validator` on a file and
returns its incidents as (0-based line, test id, "error"|"warning") keys,
the form our incidents give with `Incident.key()`; `compare` makes the
per-test-id table printed when the two differ.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def official(path: str | Path, level: int = 3, lang: str | None = None) -> Counter:
    """The official validator's incidents on one file, as a multiset of keys
    (remembered on disk by the file's bytes, udtools' code, level and
    language: see tests/support/oracle_cache.py)."""
    from tests.support.oracle_cache import remembered

    def run() -> list:
        return [[*k, n] for k, n in sorted(_official(path, level, lang).items())]

    stored = remembered("udvalidate", [path], [level, lang], run)
    return Counter({(line, test_id, severity): n for line, test_id, severity, n in stored})


def _official(path: str | Path, level: int, lang: str | None) -> Counter:
    from udtools import Validator
    from udtools.incident import Incident, TestClass

    # The validator keeps a few defaults on the Incident class (the line an
    # incident without one gets); start each run as a fresh process would.
    Incident.default_level = 1
    Incident.default_testclass = TestClass.FORMAT
    Incident.default_lineno = None
    if level < 4 or not lang:
        lang = "ud"  # as its command line does
    args = argparse.Namespace(quiet=True, max_err=0, input=[str(path)], level=level, lang=lang)
    validator = Validator(lang=lang, level=level, args=args, output=None, max_store=0)
    state = validator.validate_files([str(path)])
    return Counter((i.lineno - 1, i.testid, "error" if i.is_error() else "warning")
                   for i in state.error_tracker)


def ours(path: str | Path, level: int = 3, lang: str | None = None) -> Counter:
    from annoscore.scorer.validation import ValidationSettings, validate_file

    result = validate_file(path, ValidationSettings(level=level, lang=lang))
    return Counter(i.key() for i in result.incidents)


def compare(expected: Counter, got: Counter) -> str:
    """'' when equal; else a table per test id of what differs."""
    if expected == got:
        return ""
    ids = sorted({k[1] for k in expected} | {k[1] for k in got})
    rows = [f"{'test id':32} {'official':>8} {'ours':>8}  first differences (0-based line)"]
    for test_id in ids:
        e = Counter({k: v for k, v in expected.items() if k[1] == test_id})
        g = Counter({k: v for k, v in got.items() if k[1] == test_id})
        if e == g:
            continue
        missing = sorted((e - g).elements())[:3]
        extra = sorted((g - e).elements())[:3]
        rows.append(f"{test_id:32} {sum(e.values()):8} {sum(g.values()):8}  "
                    f"missing {[m[0] for m in missing]} extra {[x[0] for x in extra]}")
    return "\n".join(rows)


def udtools_folder() -> Path:
    """The installed udtools package folder (to read its sources as text)."""
    import importlib.util

    spec = importlib.util.find_spec("udtools")
    return Path(list(spec.submodule_search_locations)[0])
