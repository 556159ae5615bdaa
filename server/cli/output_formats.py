"""``annoscore check --output-format FORMAT``: the report in the formats CI reads.

The formats are ruff's (``ruff check --output-format``), for the same
consumers:

- ``text`` (the default; written by `server.cli.check`): one line per
  diagnostic, ``PATH:LINE:COLUMN: SEVERITY CODE MESSAGE [TEST-ID]``, and
  each file's score line on stderr;
- ``concise``: ``PATH:LINE:COLUMN: CODE MESSAGE``, nothing else;
- ``json`` (``--json``): one object, ``{"files": [{"path", "diagnostics",
  "score"}], "failing": N}``, one diagnostic per line;
- ``json-lines``: one diagnostic object per line (each has its ``path``);
- ``github``: GitHub Actions workflow commands, ``::error file=…,line=…,
  col=…,endLine=…,endColumn=…,title=…::MESSAGE``, which GitHub shows as
  annotations on the pull request's lines;
- ``gitlab``: a GitLab Code Quality report (a JSON array of issues with a
  fingerprint each), for ``artifacts: reports: codequality``;
- ``sarif``: one SARIF 2.1.0 log (OASIS), for GitHub code scanning
  (``github/codeql-action/upload-sarif``) and other SARIF viewers; the rules
  are the registry's codes (`scorer.codes`) with their meaning;
- ``junit``: JUnit XML, a test suite per file and a test case per
  diagnostic, failed when the diagnostic fails the check.

Severities map onto each format's levels: error → error; warning →
warning; information and hint → GitHub's notice, SARIF's note, GitLab's
info.  Lines and columns are 1-based, columns in characters (code points),
and a range ends after its last character.

File names and file text reach a terminal or a CI log through one
function, `shown_text` (control characters and undecodable bytes escaped);
the JSON and XML encoders escape the rest themselves, and each line-based
format escapes what its own syntax needs (GitHub's ``%``, CR, LF, ``:``
and ``,``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TextIO
from urllib.parse import quote_from_bytes
from xml.etree import ElementTree

from annoscore.scorer import __version__
from annoscore.scorer.codes import ALL as ALL_CODES
from annoscore.scorer.excerpt import printable, printable_name

FORMATS = ("text", "concise", "json", "json-lines", "github", "gitlab", "sarif", "junit")
STATISTICS_FORMATS = ("text", "concise", "json")  # as ruff's --statistics: a table, or JSON

INFORMATION_URI = "https://github.com/annoscore/annoscore"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


@dataclass(frozen=True)
class CheckedFile:
    """One file's part of the report."""

    path: str                    # as shown: relative to the current folder when inside it
    diagnostics: list            # `server.daemon.Shown`, in the order listed
    fails: list[bool]            # per diagnostic: whether it fails the check (--fail-on)
    score: dict[str, Any] | None  # the `annoscore/score` payload, with paths
    status: str                  # the score line's text ("LAS 75.32 … | 1 unparsed")


def shown_text(text: str) -> str:
    """File names and file text as a terminal or a CI log may show them:
    control characters (newlines, terminal escapes) and bytes that were not
    UTF-8 written as escapes.  The one place every line-based format goes
    through."""
    return printable(text)


# --------------------------------------------------------------------------
# Line formats
# --------------------------------------------------------------------------


def _concise(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    for f in files:
        for d in f.diagnostics:
            out.write(shown_text(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}") + "\n")


def _json_lines(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    for f in files:
        for d in f.diagnostics:
            out.write(json.dumps(d.as_json()) + "\n")


def _json(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    """The report as one JSON object, one diagnostic per line: readable and
    diffable, and written by the C encoder (``json.dump`` with an indent
    encodes in Python, a fifth of a second for a treebank's findings)."""
    out.write('{"files": [')
    for i, f in enumerate(files):
        out.write(f'{"," if i else ""}\n {{"path": {json.dumps(f.path)}, "diagnostics": [')
        out.write(",".join("\n  " + json.dumps(d.as_json()) for d in f.diagnostics))
        out.write(f'],\n  "score": {json.dumps(f.score)}}}')
    out.write(f'],\n "failing": {failing}}}\n')


# GitHub's workflow commands (the runner's ActionCommand): the message ends
# at the end of the line, so %, CR and LF are escaped in it; a property ends
# at a comma and the properties at "::", so those are escaped in values too.
_GITHUB_DATA = {"%": "%25", "\r": "%0D", "\n": "%0A"}
_GITHUB_PROPERTY = {**_GITHUB_DATA, ":": "%3A", ",": "%2C"}
GITHUB_COMMANDS = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}


def github_data(text: str) -> str:
    return "".join(_GITHUB_DATA.get(c, c) for c in text)


def github_property(text: str) -> str:
    return "".join(_GITHUB_PROPERTY.get(c, c) for c in text)


def _github(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    """One ``::error`` / ``::warning`` / ``::notice`` command per diagnostic.
    ``file`` is the absolute path: the runner makes it relative to the
    repository, whatever folder check ran in (as ruff does); control
    characters in it are shown escaped, as in every format (a name cannot
    move the log's terminal)."""
    for f in files:
        absolute = os.path.abspath(f.path)
        for d in f.diagnostics:
            also = f" [{d.test_id}]" if d.test_id is not None and d.test_id != d.code else ""
            properties = {"title": f"annoscore ({d.code})", "file": printable_name(absolute), "line": d.line, "col": d.column,
                          "endLine": d.line, "endColumn": max(d.end_column, d.column)}
            head = ",".join(f"{key}={github_property(str(value))}" for key, value in properties.items())
            text = shown_text(f"{d.path}:{d.line}:{d.column}: {d.code} {d.message}{also}")
            out.write(f"::{GITHUB_COMMANDS[d.severity]} {head}::{github_data(text)}\n")


# --------------------------------------------------------------------------
# GitLab Code Quality
# --------------------------------------------------------------------------

GITLAB_SEVERITIES = {"error": "major", "warning": "minor", "information": "info", "hint": "info"}


def _gitlab_path(path: str) -> str:
    """Relative to the project (GitLab links ``location.path`` to the
    repository's file): to $CI_PROJECT_DIR in a GitLab job, else as shown."""
    project = os.environ.get("CI_PROJECT_DIR")
    if project:
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(project)).as_posix()
        except ValueError:
            pass
    return Path(path).as_posix()


def _gitlab(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    """A Code Quality report.  GitLab keeps one issue per fingerprint and
    compares fingerprints between the merge request and its target, so a
    fingerprint is made of what the issue is (file, code, message), not of
    its line (which moves when lines are added above it), and the n-th
    issue alike in a file gets n in it, so that none is dropped."""
    issues = []
    for f in files:
        path = _gitlab_path(f.path)
        seen: Counter = Counter()
        for d in f.diagnostics:
            key = (d.code, d.message)
            seen[key] += 1
            fingerprint = hashlib.sha256("\0".join((path, d.code, d.message, str(seen[key]))).encode(
                "utf-8", "surrogateescape")).hexdigest()
            issues.append({
                "description": f"{d.code}: {d.message}",
                "check_name": d.code,
                "fingerprint": fingerprint,
                "severity": GITLAB_SEVERITIES[d.severity],
                "location": {"path": path, "positions": {
                    "begin": {"line": d.line, "column": d.column},
                    "end": {"line": d.line, "column": max(d.end_column, d.column)}}},
            })
    out.write("[" + ",".join("\n " + json.dumps(issue) for issue in issues) + ("\n]\n" if issues else "]\n"))


# --------------------------------------------------------------------------
# SARIF 2.1.0
# --------------------------------------------------------------------------

SARIF_LEVELS = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}
SRCROOT = "%SRCROOT%"


def _artifact(path: str) -> dict[str, str]:
    """A file as a SARIF artifact location: a relative path is a relative
    URI against %SRCROOT% (the current folder, given in the run's
    ``originalUriBaseIds``), which GitHub code scanning resolves against the
    repository; any other is a file: URI.  Paths are percent-encoded from
    their bytes (a name that is not UTF-8 included)."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote_from_bytes(os.fsencode(Path(path).as_posix()), safe="/"), "uriBaseId": SRCROOT}


def _sarif_rule(code: str) -> dict[str, Any]:
    known = ALL_CODES.get(code)
    rule: dict[str, Any] = {"id": code, "name": code}
    if known is not None:
        rule["shortDescription"] = {"text": known.meaning}
        rule["defaultConfiguration"] = {"level": SARIF_LEVELS[known.severity.label]}
    return rule


def _sarif(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    rules: dict[str, int] = {}
    results = []
    for f in files:
        artifact = _artifact(f.path)
        for d in f.diagnostics:
            index = rules.setdefault(d.code, len(rules))
            result: dict[str, Any] = {
                "ruleId": d.code, "ruleIndex": index, "level": SARIF_LEVELS[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {"artifactLocation": artifact, "region": {
                    "startLine": d.line, "startColumn": d.column,
                    "endLine": d.line, "endColumn": max(d.end_column, d.column)}}}],
            }
            if d.test_id is not None:
                result["properties"] = {"test_id": d.test_id, "level": d.level, "class": d.test_class}
                if d.ud_line is not None:
                    result["properties"]["ud_line"] = d.ud_line
            results.append(result)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "annoscore", "version": __version__, "semanticVersion": __version__,
                                "informationUri": INFORMATION_URI, "rules": [_sarif_rule(c) for c in rules]}},
            "originalUriBaseIds": {SRCROOT: {"uri": Path(os.getcwd()).as_uri() + "/"}},
            "columnKind": "unicodeCodePoints",
            "invocations": [{"executionSuccessful": True, "exitCode": 1 if failing else 0}],
            "results": results,
        }],
    }
    json.dump(log, out, indent=1)
    out.write("\n")


# --------------------------------------------------------------------------
# JUnit XML
# --------------------------------------------------------------------------

# What XML 1.0 cannot hold at all, even as a character reference.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    text = shown_text(text)
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _junit(files: list[CheckedFile], failing: int, out: TextIO) -> None:
    """A test suite per file; a test case per diagnostic, with a
    ``<failure>`` when it fails the check (``--fail-on``) and its text in
    ``<system-out>`` when it does not; a file without diagnostics is one
    passing case, so that every checked file shows as tested."""
    root = ElementTree.Element("testsuites", name="annoscore")
    total = 0
    for f in files:
        path = xml_text(f.path)
        suite = ElementTree.SubElement(root, "testsuite", name=path)
        cases = 0
        for d, fails in zip(f.diagnostics, f.fails):
            case = ElementTree.SubElement(suite, "testcase", name=xml_text(f"annoscore.{d.code}"), classname=path,
                                          file=path, line=str(d.line))
            line = xml_text(d.text())  # the text format's line
            if fails:
                failure = ElementTree.SubElement(case, "failure", message=xml_text(d.message), type=d.severity)
                failure.text = line
            else:
                ElementTree.SubElement(case, "system-out").text = line
            cases += 1
        if not f.diagnostics:
            ElementTree.SubElement(suite, "testcase", name="annoscore.check", classname=path, file=path)
            cases = 1
        suite_failures = sum(f.fails)
        suite.attrib.update(tests=str(cases), failures=str(suite_failures), errors="0", skipped="0")
        total += cases
    root.attrib.update(tests=str(total), failures=str(failing), errors="0")
    ElementTree.indent(root)
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(ElementTree.tostring(root, encoding="unicode"))
    out.write("\n")


WRITERS: dict[str, Callable[[list[CheckedFile], int, TextIO], None]] = {
    "concise": _concise, "json": _json, "json-lines": _json_lines, "github": _github, "gitlab": _gitlab,
    "sarif": _sarif, "junit": _junit,
}


def write(output_format: str, files: list[CheckedFile], failing: int, out: TextIO) -> None:
    """The report in ``output_format`` (any of `FORMATS` but text) on ``out``."""
    WRITERS[output_format](files, failing, out)


# --------------------------------------------------------------------------
# --statistics
# --------------------------------------------------------------------------


def statistics(files: list[CheckedFile]) -> list[tuple[str, int]]:
    """(code, count) of every code reported, the most frequent first (then by code)."""
    counts = Counter(d.code for f in files for d in f.diagnostics)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def write_statistics(output_format: str, files: list[CheckedFile], out: TextIO) -> None:
    """``--statistics``: instead of the diagnostics, how many there are of
    each code, as ruff's (``COUNT<TAB>CODE<TAB>MEANING``, the columns padded),
    or as JSON ``[{"code", "count", "meaning"}]``."""
    rows = [(code, count, ALL_CODES[code].meaning if code in ALL_CODES else "") for code, count in statistics(files)]
    if output_format == "json":
        out.write(json.dumps([{"code": c, "count": n, "meaning": m} for c, n, m in rows], indent=2) + "\n")
        return
    if not rows:
        return
    count_width = max(len(str(n)) for _, n, _ in rows)
    code_width = max(len(c) for c, _, _ in rows)
    for code, count, meaning in rows:
        out.write(f"{count:>{count_width}}\t{code:<{code_width}}\t{meaning}\n")
