"""A content-addressed cache of a large document's UD validation, on disk.

Why: the validator's pass over every block is most of what a first look at
a large treebank costs (`check --level 5` of EWT train: about two thirds);
its result for a block depends on the block's text and the settings alone
(`scorer.validation.validate_block` is pure).  So a document read again
unchanged (reopened in the editor, checked again by a hook) takes its
blocks' validations from here rather than computing them.

What an entry is for.  Its key is the SHA-256 of: this format's number,
annoscore's version and a stamp of the validator's own source files (their
sizes and times: a checkout edited since gets new keys), the settings as
the checks use them (level, language, the test ids kept; for levels 4-5 the
UD data folder and the sizes and times of its files), and every block the
validator reads, in order, with the two flags it reads them with.  So an
entry is used only for exactly the input it was made from; the
document-wide checks run as always, over the cached blocks' facts.

Where, and whose.  ``$XDG_CACHE_HOME/annoscore/validation`` (else
``~/.cache/annoscore/validation``): folders 0700, files 0600, written to a
temporary name and renamed, so a reader sees a whole entry or none.  A
folder or file not owned by this user, or that others may write, is not
used (nothing is read from it, nothing written).  Entries are JSON, a header line and a line
with each block's values that are not a new block's (never pickle: nothing
in them can run); one that does not parse, does not have
the expected shape, holds another key or does not fit the document's
blocks (their line counts) is ignored and removed.  Deleting the folder at
any time is safe.  The total size is bounded (`MAX_BYTES`): the entries
used least recently (by their times, touched on each use) go first.
Beside the entries, a *hint* per file on disk (named by the file's real
path, size and time, holding an entry's key) lets `check` skip starting
helper processes for a file it will find here; a hint decides nothing else.

Off with ``--no-cache`` (`check`), the ``cache`` editor setting (the
language server), or ``ANNOSCORE_NO_CACHE=1`` (both).

The language server keeps what a large document showed in the same folder,
by the same rules (`read_entry`, `write_entry`, `drop_entry`; see
`server.lsp.shown_cache`): those entries count towards the same bound.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from typing import Sequence

from annoscore.scorer import __version__
from annoscore.scorer.problems import Related
from annoscore.scorer.validation import BlockValidation, Prepared
from annoscore.scorer.validation.incident import TESTS, Incident

FORMAT = 1
MAX_BYTES = 256 << 20  # all entries together
MIN_BLOCKS = 600       # smaller documents validate in less time than an entry takes to read

_enabled = True
# The last entry loaded or kept (key -> blocks): `check` looks a document up
# before the engine does, and reads it once.  One only, so that a long
# language-server session holds no documents closed long ago.
_memo: dict[str, list[BlockValidation | None]] = {}
_code_stamp: str | None = None

# BlockValidation's fields, with the value a new one has: an entry holds
# each block's other values only (most blocks differ in three or four).
_EMPTY = BlockValidation()
DEFAULTS = {name: getattr(_EMPTY, name) for name in BlockValidation.__slots__}
INCIDENT_FIELDS = frozenset({"incidents", "ref_candidates", "if_features"})


def set_enabled(enabled: bool) -> None:
    """Turn the cache on or off for this process (`--no-cache`, the ``cache`` setting)."""
    global _enabled
    _enabled = bool(enabled)
    if not _enabled:
        _memo.clear()


def enabled() -> bool:
    return _enabled and os.environ.get("ANNOSCORE_NO_CACHE", "") in ("", "0")


def cache_folder() -> str:
    """Where the entries are (not made here)."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # (the XDG rule: a relative value is ignored)
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "annoscore", "validation")


def _own_private_folder(path: str, make: bool) -> bool:
    """``path`` is a folder of this user's that no one else may write (made,
    0700, when ``make``); also its parent ``annoscore`` folder."""
    for folder in (os.path.dirname(path), path):
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            if not make:
                return False
            try:
                os.makedirs(folder, mode=0o700, exist_ok=True)
                info = os.lstat(folder)
            except OSError:
                return False
        except OSError:
            return False
        if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid()
                or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
            return False
    return True


def files_stamp(folder: str, suffix: str) -> list:
    """The names, sizes and times of a folder's files ending in ``suffix``."""
    try:
        names = sorted(n for n in os.listdir(folder) if n.endswith(suffix))
    except OSError:
        return []
    out = []
    for name in names:
        try:
            info = os.stat(os.path.join(folder, name))
        except OSError:
            continue
        out.append([name, info.st_size, info.st_mtime_ns])
    return out


def _validator_stamp() -> str:
    """annoscore's version and its validator's source files (sizes, times)."""
    global _code_stamp
    if _code_stamp is None:
        import annoscore.scorer.validation as package

        _code_stamp = json.dumps([__version__, files_stamp(os.path.dirname(package.__file__), ".py")])
    return _code_stamp


def settings_stamp(prepared: Prepared) -> str:
    """What of the settings the blocks' validations depend on."""
    data = None
    if prepared.data is not None:
        folder = str(prepared.data.folder)
        data = [os.path.abspath(folder), files_stamp(folder, ".json")]
    return json.dumps([prepared.level, prepared.lang, sorted(prepared.keep), data])


def document_key(blocks: Sequence[tuple[str, bool, bool]], prepared: Prepared) -> str:
    """The key of a document's blocks (text, terminated, bom) validated with ``prepared``."""
    digest = hashlib.sha256(f"annoscore validation cache {FORMAT}\n".encode())
    digest.update(_validator_stamp().encode())
    digest.update(b"\0")
    digest.update(settings_stamp(prepared).encode())
    for text, terminated, bom in blocks:
        digest.update(b"\0%d%d%d\0" % (terminated, bom, len(text)))
        digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# --- the entries' form -----------------------------------------------------------


def _encode_incident(incident: Incident) -> list:
    return [incident.test_id, incident.message, incident.line, incident.start, incident.end, incident.sent_id,
            [[r.line, r.start, r.end, r.message] for r in incident.related]]


def encode_block(result: BlockValidation | None) -> dict | None:
    if result is None:
        return None
    out = {}
    for name, default in DEFAULTS.items():
        value = getattr(result, name)
        if value != default or type(value) is not type(default):
            out[name] = [_encode_incident(i) for i in value] if name in INCIDENT_FIELDS else value
    return out


class BadEntry(ValueError):
    """An entry that is not what this module writes."""


def _int(value) -> int:
    if type(value) is not int:
        raise BadEntry("not an integer")
    return value


def _str(value) -> str:
    if type(value) is not str:
        raise BadEntry("not a string")
    return value


def _decode_incident(value) -> Incident:
    if type(value) is not list or len(value) != 7:
        raise BadEntry("not an incident")
    test_id, message, line, start, end, sent_id, related = value
    if _str(test_id) not in TESTS:
        raise BadEntry("an unknown test id")
    if sent_id is not None:
        _str(sent_id)
    if type(related) is not list:
        raise BadEntry("not a list of places")
    places = []
    for place in related:
        if type(place) is not list or len(place) != 4:
            raise BadEntry("not a place")
        places.append(Related(_int(place[0]), _int(place[1]), _int(place[2]), _str(place[3])))
    return Incident(test_id, _str(message), _int(line), _int(start), _int(end), sent_id, tuple(places))


def _facts(value):
    """A rare fact as the validator keeps it: nested tuples of ints, strings,
    booleans and None (JSON has lists)."""
    if type(value) is list:
        return tuple(_facts(v) for v in value)
    if value is None or type(value) in (int, str, bool):
        return value
    raise BadEntry("an unexpected value")


def _tuple_of_facts(value) -> tuple:
    value = _facts(value)
    if type(value) is not tuple:
        raise BadEntry("not a list")
    return value


def _optional(check):
    return lambda value: None if value is None else check(value)


def _bool(value) -> bool:
    if type(value) is not bool:
        raise BadEntry("not a boolean")
    return value


def _incidents(value) -> tuple[Incident, ...]:
    if type(value) is not list:
        raise BadEntry("not a list of incidents")
    return tuple(_decode_incident(i) for i in value)


def _sent_ids(value) -> tuple[tuple[int, str], ...]:
    if type(value) is not list:
        raise BadEntry("not a list of sent_ids")
    return tuple((_int(line), _str(sent_id)) for line, sent_id in value)


def _ids(value) -> tuple[str, ...]:
    if type(value) is not list:
        raise BadEntry("not a list of sent_ids")
    return tuple(_str(sent_id) for sent_id in value)


# How each field's value is checked and made what the validator keeps (the
# common ones quickly; the rare ones as nested tuples of plain values).
DECODERS = {name: _tuple_of_facts for name in DEFAULTS}
DECODERS.update({name: _incidents for name in INCIDENT_FIELDS})
DECODERS.update({"sent_ids": _sent_ids, "ids": _ids, "special": _bool, "has_features": _bool,
                 "has_enhancement": _bool, "deps_seen": _bool, "egraph_first_with": _optional(_tuple_of_facts),
                 "egraph_first_without": _optional(_tuple_of_facts), "spaceafter_exit": _optional(_bool),
                 "default_line": _optional(_int), "last_sentence_line": _int, "n_lines": _int})
assert set(DECODERS) == set(DEFAULTS)


def decode_block(value) -> BlockValidation | None:
    if value is None:
        return None
    if type(value) is not dict:
        raise BadEntry("not a block's validation")
    result = BlockValidation()
    for name, item in value.items():
        decoder = DECODERS.get(name)
        if decoder is None:
            raise BadEntry("an unknown field")
        setattr(result, name, decoder(item))
    return result


# --- reading and writing -----------------------------------------------------------


def _entry_path(key: str) -> str:
    return os.path.join(cache_folder(), key + ".json")


def read_entry(name: str, what: str = "a cache entry") -> bytes | None:
    """The bytes of the entry ``name`` in the cache folder, or None (the
    cache is off, there is none, or it is not this user's alone: then it is
    neither read nor removed).  Touched: used now, the last to be evicted."""
    if not enabled():
        return None
    folder = cache_folder()
    if not _own_private_folder(folder, make=False):
        return None
    path = os.path.join(folder, name)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as stream:
            info = os.fstat(stream.fileno())
            if (not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid()
                    or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or info.st_size > MAX_BYTES):
                return None  # not ours to trust, nor to remove
            data = stream.read()
    except OSError as error:
        _log(f"{what} could not be read ({error})")
        return None
    try:
        os.utime(path)
    except OSError:
        pass
    return data


def drop_entry(name: str, error: Exception, what: str = "a cache entry") -> None:
    """An entry that did not decode: said on stderr, and removed."""
    _log(f"{what} was not usable ({error}): made again")
    _remove(os.path.join(cache_folder(), name))


def write_entry(name: str, data: bytes) -> bool:
    """Keep ``data`` as the entry ``name`` (private, written whole or not at
    all), then evict beyond `MAX_BYTES`; False when it could not be written
    (logged: the cache is never needed)."""
    if not enabled():
        return False
    folder = cache_folder()
    if not _own_private_folder(folder, make=True):
        return False
    path = os.path.join(folder, name)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError as error:
        _log(f"an entry could not be kept: {error}")
        _remove(temporary)
        return False
    evict(folder, MAX_BYTES)
    return True


def load(key: str, blocks: Sequence[tuple[str, bool, bool]]) -> list[BlockValidation | None] | None:
    """The cached validations of ``blocks`` (in order), or None (none, the
    cache is off, or the entry was not usable: then it is removed)."""
    if not enabled():
        return None
    if key in _memo:
        return _memo[key]
    data = read_entry(key + ".json")
    if data is None:
        return None
    try:
        results = _parse(data, key, blocks)
    except (ValueError, UnicodeDecodeError, RecursionError, TypeError) as error:
        drop_entry(key + ".json", error, "a validation entry")
        return None
    _memo.clear()
    _memo[key] = results
    return results


def _parse(data: bytes, key: str, blocks: Sequence[tuple[str, bool, bool]]) -> list[BlockValidation | None]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    header = json.loads(lines[0]) if lines else None
    if header != {"format": FORMAT, "key": key, "blocks": len(blocks)} or len(lines) != 2:
        raise BadEntry("another key, or another number of blocks")
    values = json.loads(lines[1])
    if type(values) is not list or len(values) != len(blocks):
        raise BadEntry("another number of blocks")
    results = []
    for value, (text, _, bom) in zip(values, blocks):
        result = decode_block(value)
        # (the cheap check that it fits: the block's lines, as the validator counts them)
        if result is not None and result.n_lines != text.count("\n") + 1:
            raise BadEntry("a block of another length")
        results.append(result)
    return results


def _hint_path(path: str) -> str | None:
    """Where the hint for a file on disk is: by its real path, size and time."""
    try:
        real = os.path.realpath(path)
        info = os.stat(real)
    except (OSError, ValueError):
        return None
    name = hashlib.sha256(f"{real}\0{info.st_size}\0{info.st_mtime_ns}".encode("utf-8", "surrogatepass"))
    return os.path.join(cache_folder(), "hint-" + name.hexdigest())


def probably_cached(path: str) -> bool:
    """A file on disk, unchanged since its validation was kept, probably has
    an entry (for `check` to decide whether to start helper processes
    early: a hint only; what is used is always found by content)."""
    if not enabled():
        return False
    hint = _hint_path(path)
    if hint is None or not _own_private_folder(cache_folder(), make=False):
        return False
    try:
        with open(hint, "rb") as stream:
            key = stream.read(64).decode("ascii")
    except (OSError, UnicodeDecodeError):
        return False
    return _is_key(key) and os.path.isfile(_entry_path(key))


def _is_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def save(key: str, results: Sequence[BlockValidation | None], path: str | None = None) -> None:
    """Keep ``results`` (the validations of the blocks ``key`` is made of),
    with a hint for ``path`` (the file on disk the document was read from), then evict the least recently used entries beyond `MAX_BYTES`.  A
    failure to write is logged and otherwise ignored: the cache is never
    needed."""
    if not enabled():
        return
    folder = cache_folder()
    if not _own_private_folder(folder, make=True):
        return
    header = json.dumps({"format": FORMAT, "key": key, "blocks": len(results)})
    body = "\n".join([header, json.dumps([encode_block(r) for r in results], ensure_ascii=False,
                                        separators=(",", ":"))]) + "\n"
    path = _entry_path(key)
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(body.encode("utf-8", "surrogatepass"))
        os.replace(temporary, path)
    except OSError as error:
        _log(f"the validation could not be cached: {error}")
        _remove(temporary)
        return
    _memo.clear()
    _memo[key] = list(results)
    hint = None if path is None else _hint_path(path)
    if hint is not None:
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(key.encode("ascii"))
            os.replace(temporary, hint)
        except OSError:
            _remove(temporary)
    evict(folder, MAX_BYTES)


def evict(folder: str, limit: int) -> None:
    """Remove the least recently used entries until they take at most ``limit`` bytes."""
    entries, hints = [], []
    try:
        with os.scandir(folder) as listing:
            for item in listing:
                if item.name.startswith("hint-"):
                    hints.append(item.path)
                elif item.name.endswith(".json") and item.is_file(follow_symlinks=False):
                    info = item.stat(follow_symlinks=False)
                    entries.append((info.st_mtime_ns, info.st_size, item.path))
    except OSError:
        return
    total = sum(size for _, size, _ in entries)
    removed = False
    for _, size, path in sorted(entries):
        if total <= limit:
            break
        _remove(path)
        removed = True
        total -= size
    if removed or len(hints) > 4 * len(entries) + 64:  # (hints of entries gone, and of files changed since)
        for hint in hints:
            try:
                with open(hint, "rb") as stream:
                    key = stream.read(64).decode("ascii", "replace")
            except OSError:
                continue
            if not _is_key(key) or not os.path.isfile(_entry_path(key)):
                _remove(hint)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _log(message: str) -> None:
    print(f"annoscore: cache: {message}", file=sys.stderr)
