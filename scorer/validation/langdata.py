"""The UD language data (levels 4-5), read at run time from the user's copy.

Levels 4 and 5 check a treebank against lists kept by the UD project: the
features, relation subtypes, enhanced case markers, auxiliaries and copulas
and words-with-spaces each language has documented.  They live as JSON files
in the ``data/`` folder of the UD tools (``feats.json``, ``deprels.json``,
``edeprels.json``, ``data.json``, ``tospace.json``).  We never copy them:
they are read from a folder the user names, or else from the ``data`` folder
of an installed ``udtools`` package, found without importing it.

The files are several MB and a run needs one language (plus the few that
``Lang=`` in MISC switches to), so a language's part is decoded on its own:
the files put each language's object on its own line (``"en": {`` and a
line break), which a plain string search finds; that object alone is then
decoded.  Anything unexpected (another layout, a decoding error) falls back
to decoding the whole file, and a file that cannot be decoded at all raises
`DataError` with one clear message.  Each folder is read once per process.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
from functools import lru_cache
from pathlib import Path

import regex

from ..excerpt import excerpt
from ..reading import DATA_LIMIT, read_file

# The universal sets are part of the UD standard (the data folder has them
# too, as upos.json and udeprels.json; a test checks they are the same).
UPOS = frozenset("ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X".split())
UDEPRELS = frozenset("""acl advcl advmod amod appos aux case cc ccomp clf compound conj cop csubj
    dep det discourse dislocated expl fixed flat goeswith iobj list mark nmod nsubj nummod obj obl
    orphan parataxis punct reparandum root vocative xcomp""".split())

FILES = {"feats": ("feats.json", "features"), "deprels": ("deprels.json", "deprels"),
         "edeprels": ("edeprels.json", "edeprels"), "auxiliaries": ("data.json", "auxiliaries"),
         "tospace": ("tospace.json", "expressions")}

# A language's object: a line holding only its quoted code and an opening brace.
_LANGUAGE_LINE = re.compile(r'^"((?:[^"\\\n]|\\.)*)": \{$', re.MULTILINE)
_DECODER = json.JSONDecoder()


class DataError(Exception):
    """The data folder or one of its files cannot be used (the message says why)."""


def installed_data_dir() -> Path | None:
    """The ``data`` folder of an installed udtools package, or None.

    ``find_spec`` of a top-level name locates the package without running
    its ``__init__`` (udtools is GPL: we read its data files, never its code).
    """
    try:
        spec = importlib.util.find_spec("udtools")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "data"
        if (folder / "feats.json").is_file():
            return folder
    return None


class LanguageData:
    """One data folder's lists, decoded a language at a time on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._texts: dict[str, str] = {}
        self._offsets: dict[str, dict[str, int]] = {}
        self._whole: dict[str, dict] = {}
        self._sections: dict[tuple[str, str], dict | None] = {}
        self._derived: dict[tuple[str, object], object] = {}
        self._checking = False  # in `check_language`: a malformed entry is an error
        self.unusable: dict[tuple[str, str], str] = {}  # (kind, language) -> what is wrong with its entry
        missing = [name for name, _ in FILES.values() if not (folder / name).is_file()]
        if missing:
            raise DataError(f"the UD data folder {folder} has no {', '.join(missing)}")

    # --- reading -------------------------------------------------------------

    def _text(self, kind: str) -> str:
        text = self._texts.get(kind)
        if text is None:
            path = self.folder / FILES[kind][0]
            try:
                text = read_file(path, DATA_LIMIT).decode("utf-8")
            except OSError as error:
                raise DataError(f"cannot read {path}: {error.strerror or error}") from None
            except UnicodeDecodeError as error:
                raise DataError(f"cannot read {path}: {error}") from None
            self._texts[kind] = text
        return text

    def _layout(self, kind: str) -> int | None:
        """Where the languages start when the file has the generated layout
        (each language's object opening on a line of its own), else None."""
        if kind not in self._offsets:
            text = self._text(kind)
            header = f'"{FILES[kind][1]}": {{\n'
            start = text.find(header)
            start = start + len(header) if start >= 0 else -1
            ok = start >= 0 and _LANGUAGE_LINE.match(text, start) is not None
            self._offsets[kind] = {"": start} if ok else {}
        offsets = self._offsets[kind]
        return offsets[""] if offsets else None

    def _offset(self, kind: str, lang: str) -> int | None:
        """Offset of the opening brace of ``lang``'s object (-1: not in the
        file), or None when the layout is not the generated one."""
        start = self._layout(kind)
        if start is None:
            return None
        needle = "\n" + json.dumps(lang) + ": {\n"
        text = self._text(kind)
        at = text.find(needle[1:], start, start + len(needle)) if text.startswith(needle[1:], start) else -1
        if at < 0:
            at = text.find(needle, start)
            return -1 if at < 0 else at + len(needle) - 2
        return at + len(needle) - 3

    def _whole_section(self, kind: str) -> dict:
        whole = self._whole.get(kind)
        if whole is None:
            path = self.folder / FILES[kind][0]
            try:
                whole = json.loads(self._text(kind))[FILES[kind][1]]
            except (ValueError, KeyError, TypeError) as error:
                raise DataError(f"{path} is not UD language data: {excerpt(str(error), 80)}") from None
            except RecursionError:
                raise DataError(f"{path} is not UD language data: it is nested too deeply") from None
            if not isinstance(whole, dict):
                raise DataError(f"{path} is not UD language data: no {FILES[kind][1]} object")
            self._whole[kind] = whole
        return whole

    def section(self, kind: str, lang: str) -> dict | None:
        """One language's object from one file (None: the language is not there)."""
        key = (kind, lang)
        if key in self._sections:
            return self._sections[key]
        value: dict | None = None
        if kind not in self._whole:
            offset = self._offset(kind, lang) if isinstance(lang, str) else -1
            if offset is None:
                value = self._whole_section(kind).get(lang)
            elif offset >= 0:
                try:
                    value, _ = _DECODER.raw_decode(self._text(kind), offset)
                except (ValueError, RecursionError):
                    value = None
                if not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
                    value = self._whole_section(kind).get(lang)
        else:
            value = self._whole[kind].get(lang)
        if value is not None:
            wrong = _shape_problem(kind, value)
            if wrong is not None:
                problem = (f"{self.folder / FILES[kind][0]}: the entry of [{excerpt(str(lang))}] is not UD "
                           f"language data ({wrong})")
                if self._checking:
                    raise DataError(problem)
                # A language only a sentence's Lang= switches to, met in the
                # middle of validation: read as not documented, not a fault.
                self.unusable[key] = problem
                value = None
        self._sections[key] = value
        return value

    # --- what the checks ask ------------------------------------------------------

    def is_known_language(self, lang: object) -> bool:
        if lang == "ud":
            return True
        if not isinstance(lang, str):
            return False
        key = ("known", lang)
        known = self._derived.get(key)
        if known is None:
            known = self._derived[key] = any(self.section(kind, lang) is not None for kind in FILES)
        return known  # type: ignore[return-value]

    def feats(self, lang: object) -> dict:
        """Feature -> record (permitted, values, by UPOS); {} when the language has none."""
        if not isinstance(lang, str):
            return {}
        return self.section("feats", lang) or {}

    def deprels(self, lang: object) -> frozenset[str]:
        """The relations (with subtypes) permitted in the language; 'ud': the universal ones."""
        key = ("deprels", lang)
        cached = self._derived.get(key)
        if cached is None:
            if lang == "ud":
                cached = UDEPRELS
            elif isinstance(lang, str):
                section = self.section("deprels", lang) or {}
                cached = frozenset(r for r, record in section.items()
                                   if _number(record.get("permitted")) > 0)
            else:
                cached = frozenset()
            self._derived[key] = cached
        return cached  # type: ignore[return-value]

    def edeprels(self, lang: object) -> frozenset[str]:
        """Enhanced relations: the basic ones, ref, [nc]subj:xsubj and the case markers."""
        key = ("edeprels", lang)
        cached = self._derived.get(key)
        if cached is None:
            basic = self.deprels(lang)
            result = set(basic) | {"ref"}
            result.update(b + ":xsubj" for b in basic if regex.match(r"^[nc]subj(:|$)", b))
            section = self.section("edeprels", lang) if isinstance(lang, str) else None
            extended: dict[str, list[str]] = {}  # an 'extends' value -> the relations it stands for
            for marker, record in (section or {}).items():
                for deprel in record.get("extends", ()):
                    if deprel not in extended:
                        # (The data's value is a regular expression prefix, as the validator reads it.)
                        try:
                            pattern = regex.compile("^" + deprel + ":")
                        except regex.error as error:
                            raise DataError(f"{self.folder / 'edeprels.json'}: a bad expression for "
                                            f"[{lang}]: {error}") from None
                        extended[deprel] = [b for b in basic if b == deprel or pattern.match(b)]
                    result.update(b + ":" + marker for b in extended[deprel])
            cached = self._derived[key] = frozenset(result)
        return cached  # type: ignore[return-value]

    def _auxcop(self, lang: object) -> tuple[frozenset[str], frozenset[str]]:
        key = ("auxcop", lang)
        cached = self._derived.get(key)
        if cached is None:
            section = self.section("auxiliaries", lang) if isinstance(lang, str) else None
            aux, cop = set(), set()
            for lemma, record in (section or {}).items():
                functions = [f.get("function", "") for f in record.get("functions", ())]
                if any(f != "cop.PRON" for f in functions):
                    aux.add(lemma)
                if any(regex.match(r"^cop\.", f) for f in functions):
                    cop.add(lemma)
            cached = self._derived[key] = (frozenset(aux), frozenset(cop))
        return cached  # type: ignore[return-value]

    def auxiliaries(self, lang: object) -> frozenset[str]:
        return self._auxcop(lang)[0]

    def copulas(self, lang: object) -> frozenset[str]:
        return self._auxcop(lang)[1]

    def tospace(self, lang: object):
        """The compiled expression of words allowed to hold a space, or None."""
        key = ("tospace", lang)
        if key not in self._derived:
            section = self.section("tospace", lang) if isinstance(lang, str) else None
            compiled = None
            if section is not None:
                combination = "(" + "|".join(sorted(section)) + ")"
                try:
                    compiled = regex.compile(combination)
                except regex.error as error:
                    raise DataError(f"{self.folder / 'tospace.json'}: a bad expression for "
                                    f"[{lang}]: {error}") from None
            self._derived[key] = compiled
        return self._derived[key]

    def check_language(self, lang: str) -> None:
        """Decode what the checks of ``lang`` need now, so that a malformed
        file is reported before validation starts (not in the middle)."""
        self._checking = True
        try:
            for kind in FILES:
                self._sections.pop((kind, lang), None)
                self.section(kind, lang)
            self.deprels(lang)
            self.edeprels(lang)
            self.auxiliaries(lang)
            self.tospace(lang)
        finally:
            self._checking = False


def _number(value: object) -> float:
    return value if isinstance(value, (int, float)) else 0


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _shape_problem(kind: str, section: object) -> str | None:
    """What is wrong with one language's object of a data file for the
    checks that read it (each record an object, its lists lists of strings,
    ``byupos`` objects of objects), or None.  The data is the user's copy,
    or a workspace's: a wrong shape must be one clear message and level 3,
    not a fault in the middle of validation."""
    if not isinstance(section, dict):
        return "not an object"
    for name, record in section.items():
        if not isinstance(record, dict):
            return f"{excerpt(str(name))}: not an object but {_kind(record)}"
        if kind == "feats":
            for field in ("uvalues", "lvalues", "unused_uvalues", "unused_lvalues"):
                if field in record and not _strings(record[field]):
                    return f"{excerpt(str(name))}.{field}: not a list of strings"
            byupos = record.get("byupos", {})
            if not isinstance(byupos, dict) or not all(isinstance(v, dict) for v in byupos.values()):
                return f"{excerpt(str(name))}.byupos: not an object of objects"
        elif kind == "edeprels" and "extends" in record and not _strings(record["extends"]):
            return f"{excerpt(str(name))}.extends: not a list of strings"
        elif kind == "auxiliaries":
            functions = record.get("functions", [])
            if not isinstance(functions, list) or not all(
                    isinstance(f, dict) and isinstance(f.get("function", ""), str) for f in functions):
                return f"{excerpt(str(name))}.functions: not a list of objects with a function"
    return None


def _kind(value: object) -> str:
    return {list: "a list", str: "a string", int: "a number", float: "a number", bool: "a boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


@lru_cache(maxsize=8)
def _load(folder: str, stamp: tuple) -> LanguageData:
    return LanguageData(Path(folder))


def language_data(folder: str | os.PathLike) -> LanguageData:
    """The (cached) data of a folder; raises `DataError` when it is unusable."""
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise DataError(f"the UD data folder {path} does not exist" if not path.exists()
                        else f"{path} is not a folder")
    try:
        stamp = tuple((name, (path / name).stat().st_mtime_ns) for name, _ in FILES.values()
                      if (path / name).exists())
    except OSError as error:
        raise DataError(f"cannot read the UD data folder {path}: {error}") from None
    return _load(str(path.resolve()), stamp)


_UD_FILE = re.compile(r"^([a-z]{2,3})_[A-Za-z0-9]+-ud-[A-Za-z0-9]+")


def guess_language(path: str | os.PathLike) -> str | None:
    """The language code of a UD file name (``cop_scriptorium-ud-test.conllu`` -> ``cop``)."""
    match = _UD_FILE.match(Path(path).name)
    return match.group(1) if match else None
