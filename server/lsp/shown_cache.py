"""What a large document showed, kept on disk: its first diagnostics at once when it is opened again.

Why: building a large treebank's live model (annoscore's own pass over
every sentence, the validator's results made into problems, the
document-wide checks) takes about a second for 200,000 words even when its
UD validation comes from `validation_cache`; an editor reopening the file
would wait that long for what it showed the last time.  So the language
server keeps, for a document that showed everything (no validation left to
the helpers) on the text it was opened with, the diagnostics it published
and its score payload, and publishes them from here the next time the same
text is opened with the same settings, before it builds the model.  That
model is then built as always, right after, and what it shows is published
only if it differs (so an editor sees no second publication of the same
diagnostics, and a difference, which would be a fault of this cache's, is
corrected at once).  Edits wait for the model, as at any first scoring.

What an entry is for.  Its key is the SHA-256 of this format's number,
annoscore's version and a stamp of all its source files (their sizes and
times: any code edited since gets new keys), the engine's settings, the
document's setup and the server's ways of showing (position encoding,
folding, how lone CRs end lines; the documentation URL is a setting), the
document's URI, the UD validation's settings and the sizes and times of the
UD data files, and the text.  Only what depends on that alone is kept: a document scored against gold, one that is
another's gold, compared with other annotations or checked for leaks into
a training split (all of which read other files) is not.

Where, and whose: the validation cache's folder and its rules
(`validation_cache.read_entry` / `write_entry`: private folder and files,
written whole or not at all, bounded with the validation entries, the
least recently used going first, off with ``ANNOSCORE_NO_CACHE=1`` or the
``annoscore.cache`` setting).  An entry is JSON (a header line, then the
diagnostics and the payload); each diagnostic is checked to be the LSP's
shape, field by field, before it is sent; one that is not is ignored and
removed.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from annoscore.scorer import __version__
from annoscore.scorer.validation import ValidationSettings
from annoscore.scorer.validation.langdata import installed_data_dir

from ..engine.conllu import validation_cache
from ..engine.conllu.validator_input import settings_for

FORMAT = 1
# Smaller documents are scored in less time than an entry takes to read.
MIN_CHARS = 1 << 20
_SEVERITIES = (1, 2, 3, 4)
_code_stamp: str | None = None


def _source_stamp() -> str:
    """annoscore's version and the sizes and times of its source files."""
    global _code_stamp
    if _code_stamp is None:
        import annoscore.scorer as scorer

        root = os.path.dirname(os.path.dirname(os.path.abspath(scorer.__file__)))
        files = []
        for part in ("scorer", "server", "annoscore"):
            for folder, folders, names in os.walk(os.path.join(root, part)):
                folders[:] = sorted(f for f in folders if f != "__pycache__")
                for name in sorted(names):
                    if name.endswith((".py", ".json", ".toml")):
                        try:
                            info = os.stat(os.path.join(folder, name))
                        except OSError:
                            continue
                        files.append([os.path.relpath(os.path.join(folder, name), root), info.st_size,
                                      info.st_mtime_ns])
        _code_stamp = json.dumps([__version__, files])
    return _code_stamp


def kept_for(engine: Any, key: str, path: str | None) -> bool:
    """Whether what the document shows depends on its text and the settings
    alone (then it may be kept and taken from here)."""
    if path is None:  # (an unsaved buffer: its URI names nothing that lasts)
        return False
    setup = engine.setup_of(path)
    return setup is not None and setup.format == "conllu" and setup.gold is None and setup.refused is None \
        and _free_of_others(engine, key, path)


def _free_of_others(engine: Any, key: str, path: str | None) -> bool:
    settings = engine.settings
    if settings.splits.train or settings.agreement.others or engine.compared.get(key):
        return False
    return not (path is not None and engine.dependents(path))


def entry_key(engine: Any, key: str, path: str | None, text: str, uri: str, encoding: str) -> str | None:
    """The key of what the document shows (None: not kept, see `kept_for`;
    too small; or the cache is off).  On the engine thread."""
    if len(text) < MIN_CHARS or not validation_cache.enabled() or not kept_for(engine, key, path):
        return None
    setup = engine.setup_of(path)
    vsettings = settings_for(engine.settings.validation, path)
    validation = None if vsettings is None else _validation_inputs(vsettings)
    shows = engine.presentation
    ways = [shows.explains_id_sequence, shows.folds_unparsed, engine.lone_cr_ends_lines, encoding]
    digest = hashlib.sha256(f"annoscore shown cache {FORMAT}\n".encode())
    for part in (_source_stamp(), repr(engine.settings), repr(setup), json.dumps(ways), uri, repr(validation)):
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _validation_inputs(vsettings: ValidationSettings) -> list:
    """What the validation's outcome follows from: its settings, and the
    files of the UD data it would read (`scorer.validation.prepare` is a
    function of these; calling it here would load the data before the first
    publication)."""
    folder = vsettings.data_dir or installed_data_dir()
    folder = None if folder is None else os.path.abspath(str(folder))
    return [repr(vsettings), folder, [] if folder is None else validation_cache.files_stamp(folder, ".json")]


def _name(key: str) -> str:
    return f"shown-{key}.json"


# --- the entries' form -----------------------------------------------------------


class BadEntry(ValueError):
    """An entry that is not what this module writes."""


def _int(value: Any) -> int:
    if type(value) is not int or value < 0:
        raise BadEntry("not a count")
    return value


def _str(value: Any) -> str:
    if type(value) is not str:
        raise BadEntry("not a string")
    return value


def _range(value: Any) -> None:
    if type(value) is not dict or set(value) != {"start", "end"}:
        raise BadEntry("not a range")
    for end in value.values():
        if type(end) is not dict or set(end) != {"line", "character"}:
            raise BadEntry("not a position")
        _int(end["line"]), _int(end["character"])


_KEYS = {"range", "severity", "code", "source", "message", "codeDescription", "data", "relatedInformation"}


def check_diagnostic(value: Any) -> None:
    """A diagnostic as `server.lsp.diagnostics` writes it, or BadEntry."""
    if type(value) is not dict or not {"range", "severity", "code", "source", "message"} <= set(value) \
            or not set(value) <= _KEYS:
        raise BadEntry("not a diagnostic")
    _range(value["range"])
    if value["severity"] not in _SEVERITIES or type(value["severity"]) is not int:
        raise BadEntry("not a severity")
    _str(value["code"]), _str(value["message"])
    if value["source"] != "annoscore":
        raise BadEntry("not annoscore's")
    if "codeDescription" in value:
        description = value["codeDescription"]
        if type(description) is not dict or set(description) != {"href"}:
            raise BadEntry("not a code description")
        _str(description["href"])
    if "data" in value:
        data = value["data"]
        if type(data) is not dict or not all(type(v) in (str, int) for v in data.values()):
            raise BadEntry("not a diagnostic's data")
    if "relatedInformation" in value:
        related = value["relatedInformation"]
        if type(related) is not list:
            raise BadEntry("not related information")
        for item in related:
            if type(item) is not dict or set(item) != {"location", "message"} or type(item["location"]) is not dict \
                    or set(item["location"]) != {"uri", "range"}:
                raise BadEntry("not a related place")
            _str(item["message"]), _str(item["location"]["uri"])
            _range(item["location"]["range"])


def _plain(value: Any, depth: int = 0) -> None:
    """JSON of plain values only (the score payload), not deeply nested."""
    if depth > 6:
        raise BadEntry("nested too deeply")
    if type(value) is dict:
        for k, v in value.items():
            _str(k)
            _plain(v, depth + 1)
    elif type(value) is list:
        for v in value:
            _plain(v, depth + 1)
    elif value is not None and type(value) not in (str, int, float, bool):
        raise BadEntry("an unexpected value")


def check_payload(value: Any) -> None:
    if value is None:
        return
    if type(value) is not dict or value.get("format") != "conllu" or type(value.get("counts")) is not dict:
        raise BadEntry("not a score payload")
    _plain(value)


def encode(diagnostics: list[str], payload: dict | None, key: str) -> bytes:
    """An entry: the diagnostics (their JSON texts, as published) and the
    score payload without its URI and version (given when it is sent)."""
    if payload is not None:
        payload = {k: v for k, v in payload.items() if k not in ("uri", "version")}
    header = json.dumps({"format": FORMAT, "key": key, "diagnostics": len(diagnostics)})
    body = '{"payload": ' + json.dumps(payload) + ', "diagnostics": [' + ", ".join(diagnostics) + "]}"
    return (header + "\n" + body + "\n").encode("utf-8", "surrogatepass")


def decode(data: bytes, key: str) -> tuple[list[str], dict | None]:
    """The diagnostics' JSON texts and the payload of an entry (BadEntry,
    ValueError: not one of this module's for ``key``)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if len(lines) != 2:
        raise BadEntry("not two lines")
    header = json.loads(lines[0])
    body = json.loads(lines[1])
    if type(header) is not dict or header.get("format") != FORMAT or header.get("key") != key \
            or type(body) is not dict or set(body) != {"payload", "diagnostics"} \
            or type(body["diagnostics"]) is not list or header.get("diagnostics") != len(body["diagnostics"]):
        raise BadEntry("another key, or not an entry")
    for diagnostic in body["diagnostics"]:
        check_diagnostic(diagnostic)
    check_payload(body["payload"])
    # (written again as `server.lsp.diagnostics` writes them: the same texts)
    return [json.dumps(d) for d in body["diagnostics"]], body["payload"]


# --- reading and writing -----------------------------------------------------------


def load(key: str) -> tuple[list[str], dict | None] | None:
    """What the document showed, or None (none kept, not usable: then removed)."""
    data = validation_cache.read_entry(_name(key), "a kept publication")
    if data is None:
        return None
    try:
        return decode(data, key)
    except (ValueError, UnicodeDecodeError, RecursionError, TypeError, KeyError) as error:
        validation_cache.drop_entry(_name(key), error, "a kept publication")
        return None


def save(key: str, diagnostics: list[str], payload: dict | None) -> None:
    validation_cache.write_entry(_name(key), encode(diagnostics, payload, key))
