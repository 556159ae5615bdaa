"""Level 2: UD format of one sentence (HEAD/DEPS references, the tree, cells).

After level 1 every token line has ten cells and well-formed IDs.  Here, in
the official validator's order:

1. HEAD and DEPS point to IDs that exist (``check_id_references``);
2. the basic tree has one root, no cycle, no self-loop (``check_tree``);
3. each line's cells: MWT and empty-node placeholders, UPOS, XPOS, FEATS
   syntax and order, DEPREL and DEPS syntax and universal relations, MISC
   hygiene (``check_upos`` ... ``check_misc``).

Cells repeat across a treebank (a few thousand distinct FEATS or MISC
values in a 200k-word corpus), so what a value alone decides is computed
once per distinct value and remembered in a dictionary (`scorer.validation.memo.Memo`).

Most sentences are clean, and `quick_level2` says so for all three steps
at once from whole columns (heads as numbers, the tree's reachability by
doubling the head steps, the sets of cell values against the values known
good); when it cannot, the exact per-line checks above run and report.
The `WordColumns` it returns (columns, heads, children) are what the level 3-5
checks build on.
"""

from __future__ import annotations

import re

import regex

from annoscore.scorer.excerpt import excerpt, quoted
from annoscore.scorer.columns import COLUMN_NAMES, DEPREL, DEPS, FEATS, HEAD, ID, LEMMA, MISC, UPOS, XPOS
from annoscore.scorer.validation.chars import EHEAD_RE, HEAD_RE, WS_CLASS, cell_span, item_span
from annoscore.scorer.validation.langdata import UDEPRELS, UPOS as UPOS_TAGS
from annoscore.scorer.validation.level1 import ValidatedSentence
from annoscore.scorer.validation.memo import Memo
from annoscore.scorer.validation.registry import checks

FEATVAL = re.compile(r"([A-Z][A-Za-z0-9]*(?:\[[a-z0-9]+\])?)=(([A-Z0-9][A-Z0-9a-z]*)(,([A-Z0-9][A-Z0-9a-z]*))*)")
FEATURE_VALUE = re.compile(r"[A-Z0-9][A-Za-z0-9]*")
DEPREL_RE = re.compile(r"[a-z]+(:[a-z]+)?")
# Enhanced relation: universal part in ASCII, then up to three subtypes, one
# of which (the preposition) may use any lowercase/modifier/other letters
# and marks: Unicode properties, hence the regex module.
_EDEPREL_PART = r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(_[\p{Ll}\p{Lm}\p{Lo}\p{M}]+)*"
EDEPREL_RE = regex.compile(r"^[a-z]+(:[a-z]+)?(:" + _EDEPREL_PART + r")?(:[a-z]+)?$")
# The MISC attributes the validator knows (one of each per word; another
# case or spaces around the name is taken for a typo of one of them).
MISC_ATTRIBUTES = ("SpaceAfter", "Lang", "Translit", "LTranslit", "Gloss", "LId", "LDeriv", "Ref")
_MISC_KNOWN = re.compile(r"^(" + "|".join(MISC_ATTRIBUTES) + r")$")
_MISC_TYPO = re.compile(r"^" + WS_CLASS + r"*(" + "|".join(MISC_ATTRIBUTES) + r")" + WS_CLASS + r"*$",
                        re.IGNORECASE)
_LEADING_WS = re.compile(r"^" + WS_CLASS)
_TRAILING_WS = re.compile(WS_CLASS + r"$")


# --- HEAD and DEPS references ------------------------------------------------------


def parse_deps(deps: str) -> list[list[str]] | None:
    """The (head, relation) pairs of a DEPS cell; None when one has no colon."""
    if deps == "_":
        return []
    pairs = [hd.split(":", 1) for hd in deps.split("|")]
    if any(len(hd) != 2 for hd in pairs):
        return None
    return pairs


DEPS_PAIRS = Memo(parse_deps)


@checks("invalid-head invalid-deps invalid-ehead unknown-head unknown-ehead")
def check_references(s: ValidatedSentence, kinds: str) -> bool:
    """HEAD is a number (0 or a word's ID), DEPS a ``_`` or ``head:relation``
    items whose heads are IDs (of words or empty nodes, or 0), and every
    head named exists in the sentence (``check_id_references``)."""
    rows = s.rows
    ids = {cols[ID] for cols, kind in zip(rows, kinds) if kind != "m"}
    word_heads = {cols[HEAD] for cols, kind in zip(rows, kinds) if kind == "w"}
    all_deps = {cols[DEPS] for cols, kind in zip(rows, kinds) if kind != "m"}
    quick = all_deps == {"_"} and all(h == "0" or (h in ids and "." not in h) for h in word_heads)
    if quick:
        return True
    ok = True
    for i, (cols, kind) in enumerate(zip(rows, kinds)):
        if kind == "m":
            continue
        lineno = s.sentence_line + i
        if kind == "w":
            head = cols[HEAD]
            if HEAD_RE.fullmatch(head) is None:
                s.add_cell("invalid-head", lineno, HEAD, f"invalid HEAD {quoted(head)}")
                ok = False
            if not (head in ids or head == "0"):
                s.add_cell("unknown-head", lineno, HEAD, f"HEAD {quoted(head)} is no ID of the sentence")
                ok = False
        pairs = DEPS_PAIRS[cols[DEPS]]
        if pairs is None:
            s.add_cell("invalid-deps", lineno, DEPS, f"cannot read DEPS {quoted(cols[DEPS])} "
                       "(each item must be head:relation)")
            ok = False
            continue
        for k, (head, _) in enumerate(pairs):
            if EHEAD_RE.fullmatch(head) is None:
                s.add("invalid-ehead", lineno, f"invalid enhanced head {quoted(head)}",
                      item_span(s.text_of(lineno), DEPS, k))
                ok = False
            if not (head in ids or head == "0"):
                s.add("unknown-ehead", lineno, f"enhanced head {quoted(head)} is no ID of the sentence",
                      item_span(s.text_of(lineno), DEPS, k))
                ok = False
    return ok


# --- the basic tree --------------------------------------------------------------


@checks("head-self-loop multiple-roots non-tree")
def check_tree(s: ValidatedSentence, kinds: str) -> bool:
    """The basic tree is a tree: no word is its own head, exactly one word
    has HEAD 0, and every word is reached from the root (no cycle)
    (``check_tree``)."""
    word_rows = [(i, cols) for i, (cols, kind) in enumerate(zip(s.rows, kinds)) if kind == "w"]
    children: dict[int, list[int]] = {}
    for i, cols in word_rows:
        word, head = int(cols[ID]), int(cols[HEAD])
        if head == word:
            s.add_cell("head-self-loop", s.sentence_line + i, HEAD, f"HEAD == ID for word {word}")
            return False
        children.setdefault(head, []).append(word)
    roots = sorted(children.get(0, ()))
    if len(roots) > 1:
        s.add("multiple-roots", s.sentence_line, f"several root words: {roots[:10]}")
        return False
    reached = set()
    stack = [0]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in reached:
                reached.add(child)
                stack.append(child)
    if len(reached) != len(word_rows):
        unreachable = sorted(set(range(1, len(word_rows) + 1)) - reached)
        listed = ",".join(str(w) for w in unreachable[:10]) + ("..." if len(unreachable) > 10 else "")
        s.add("non-tree", s.sentence_line,
              f"not a tree: words {listed} cannot be reached from the root 0 (a cycle)")
        return False
    return True


# --- per-line cells ------------------------------------------------------------------


@checks("unsorted-features invalid-feature repeated-feature-value unsorted-feature-values invalid-feature-value "
        "repeated-feature")
def feats_issues(feats: str) -> tuple[tuple, bool]:
    """FEATS is ``_`` or ``Feature=Value`` items separated by ``|``, sorted by
    feature (case-insensitively), each feature once, its values separated
    by commas, sorted and not repeated; names and values in the UD spelling
    (``invalid-feature-value`` is unreachable: the feature's test already
    requires the value's characters).  Returns (issues, safe), an issue
    being (test id, item index, message); remembered per value."""
    items = feats.split("|")
    issues = []
    if [f.lower() for f in items] != sorted(f.lower() for f in items):
        issues.append(("unsorted-features", None, f"features must be sorted: {quoted(feats)}"))
    names = set()
    safe = True
    for k, item in enumerate(items):
        match = FEATVAL.fullmatch(item)
        if match is None:
            issues.append(("invalid-feature", k, f"{quoted(item)} is not Feature=Value "
                           "(Feature starts with [A-Z] and has only [A-Za-z0-9])"))
            names.add(item)
            safe = False
            continue
        names.add(match.group(1))
        values = match.group(2).split(",")
        if len(values) != len(set(values)):
            issues.append(("repeated-feature-value", k, f"a value repeated in {quoted(item)}"))
        if [v.lower() for v in values] != sorted(v.lower() for v in values):
            issues.append(("unsorted-feature-values", k, f"the values of {quoted(item)} must be sorted"))
        for v in values:
            if not FEATURE_VALUE.fullmatch(v):
                issues.append(("invalid-feature-value", k, f"bad value {quoted(v)} in {quoted(item)}"))
    if len(names) != len(items):
        issues.append(("repeated-feature", None, f"a feature repeated in {quoted(feats)}"))
    return tuple(issues), safe


FEATS_ISSUES = Memo(feats_issues)


@checks("invalid-deprel unknown-udeprel")
def deprel_issue(deprel: str) -> tuple[str, str] | None:
    """DEPREL is lowercase letters with at most one ``:subtype``, and its
    universal part one of the 37 universal relations.  (test id, message)
    or None; remembered per value."""
    if not DEPREL_RE.fullmatch(deprel):
        return ("invalid-deprel", f"invalid DEPREL {quoted(deprel)}: lowercase letters and "
                "one colon expected")
    udeprel = deprel.split(":", 1)[0]
    if udeprel not in UDEPRELS:
        return ("unknown-udeprel", f"unknown universal relation {quoted(udeprel)}")
    return None


DEPREL_ISSUE = Memo(deprel_issue)


@checks("unsorted-deps unsorted-deps-2 repeated-deps invalid-edeprel unknown-eudeprel")
def deps_issues(deps: str) -> tuple:
    """DEPS items are sorted by head (then relation) and not repeated; each
    enhanced relation is well formed (up to three subtypes, one may be a
    lowercase word in any script) with a universal relation (or ``ref``)
    as its first part.  (test id, item, message) each; remembered per value."""
    pairs = DEPS_PAIRS[deps]
    issues = []
    heads = [_node_key(h) for h, _ in pairs]
    if heads != sorted(heads):
        issues.append(("unsorted-deps", None, f"DEPS not sorted by head: {quoted(deps)}"))
    else:
        last_head = last_rel = None
        for k, (h, d) in enumerate(pairs):
            if h == last_head:
                if d < last_rel:  # type: ignore[operator]
                    issues.append(("unsorted-deps-2", k, f"the relations to head {h} are not sorted"))
                elif d == last_rel:
                    issues.append(("repeated-deps", k, f"{quoted(h + ':' + d)} twice in DEPS"))
            last_head, last_rel = h, d
    for k, (h, d) in enumerate(pairs):
        if not EDEPREL_RE.fullmatch(d):
            issues.append(("invalid-edeprel", k, f"invalid enhanced relation {quoted(d)}"))
        else:
            universal = d.split(":", 1)[0]
            if universal not in UDEPRELS and universal != "ref":
                issues.append(("unknown-eudeprel", k, f"unknown universal relation {quoted(universal)} "
                               f"in {quoted(h + ':' + d)}"))
    return tuple(issues)


DEPS_ISSUES = Memo(deps_issues)


def _node_key(node_id: str) -> tuple[int, int]:
    """'3' -> (3, 0), '3.1' -> (3, 1): the order of node IDs."""
    major, _, minor = node_id.partition(".")
    return int(major), int(minor) if minor else 0


@checks("empty-misc empty-misc-key misc-extra-space misc-attr-typo")
def attribute_issues(attribute: str) -> tuple:
    """A MISC attribute is not empty, has a name before its ``=``, no
    whitespace around it, and is not a misspelling (other case, spaces) of
    one the validator knows (SpaceAfter, Lang, Translit, ...).  Returns (the
    name if it must not repeat, else None; the (test id, message) issues)."""
    pair = attribute.split("=", 1)
    name = pair[0]
    value = pair[1] if len(pair) == 2 else ""
    shown = excerpt(attribute)
    issues = []
    if name == "":
        if len(pair) == 1:
            issues.append(("empty-misc", "empty attribute in MISC (a stray vertical bar?)"))
        else:
            issues.append(("empty-misc-key", f"empty attribute name in '{shown}'"))
    if _LEADING_WS.match(name):
        issues.append(("misc-extra-space", f"the attribute name starts with a space in '{shown}'"))
    elif _TRAILING_WS.search(name):
        issues.append(("misc-extra-space", f"the attribute name ends with a space in '{shown}'"))
    elif _LEADING_WS.match(value):
        issues.append(("misc-extra-space", f"the value starts with a space in '{shown}'"))
    elif _TRAILING_WS.search(value):
        issues.append(("misc-extra-space", f"the value ends with a space in '{shown}'"))
    known = None
    if _MISC_KNOWN.match(name):
        known = name
    elif _MISC_TYPO.match(name):
        issues.append(("misc-attr-typo", f"possible typo (case or spaces) in the MISC attribute '{shown}'"))
    return known, tuple(issues)


ATTRIBUTE_ISSUES = Memo(attribute_issues)


@checks("repeated-misc")
def misc_issues(misc: str) -> tuple:
    """The attributes the validator knows appear at most once in a MISC cell
    (with each attribute's own issues, `attribute_issues`).  (test id,
    item index or None, message) each; remembered per value."""
    issues = []
    counts: dict[str, int] = {}
    for k, attribute in enumerate(misc.split("|")):
        known, own = ATTRIBUTE_ISSUES[attribute]
        for test_id, message in own:
            issues.append((test_id, k, message))
        if known is not None:
            counts[known] = counts.get(known, 0) + 1
    for name, count in counts.items():
        if count > 1:
            issues.append(("repeated-misc", None, f"the MISC attribute '{name}' occurs {count} times"))
    return tuple(issues)


MISC_ISSUES = Memo(misc_issues)


def _report(s: ValidatedSentence, lineno: int, column: int, issues: tuple) -> None:
    text = s.text_of(lineno)
    for test_id, item, message in issues:
        if item is None:
            s.add_cell(test_id, lineno, column, message)
        else:
            s.add(test_id, lineno, message, item_span(text, column, item))


class CellFacts:
    """What the per-line checks learn for the later, document-wide ones."""

    __slots__ = ("has_features", "has_enhancement", "ref_candidates", "deps_seen")

    def __init__(self) -> None:
        self.has_features = False      # a FEATS other than _ (on a word or empty node)
        self.has_enhancement = False   # a DEPS that is not just HEAD:DEPREL
        # Lines whose DEPREL is 'ref' before any DEPS was read: the official
        # validator adds 'ref' to its universal relations the first time it
        # reads a DEPS, so these are unknown only if no sentence before had one.
        # (test id, line, start, end); level 4 adds its 'unknown-deprel' ones with 'ud'.
        self.ref_candidates: list[tuple[str, int, int, int]] = []
        self.deps_seen = False


@checks("mwt-nonempty-field empty-node-nonempty-field unknown-upos empty-string-in-xpos deps-self-loop")
def check_cells(s: ValidatedSentence, kinds: str, facts: CellFacts) -> bool:
    """Each line's cells: a multiword token has ``_`` in every column but ID,
    FORM and MISC, an empty node ``_`` in HEAD and DEPREL; UPOS is one of
    the 17 universal tags; XPOS is not the empty string; no enhanced
    relation loops back to its own node; then FEATS, DEPREL, DEPS and MISC
    by value (`feats_issues`, `deprel_issue`, `deps_issues`,
    `misc_issues`).  Returns False when a FEATS cell is unreadable (the
    validator then stops before the tree-based checks)."""
    safe = True
    keep = s.keep
    for i, (cols, kind) in enumerate(zip(s.rows, kinds)):
        lineno = s.sentence_line + i
        if kind == "m":
            for k in range(LEMMA, MISC):
                if cols[k] != "_" and not (k == FEATS and cols[k] == "Typo=Yes"):
                    s.add_cell("mwt-nonempty-field", lineno, k,
                               f"a multiword token must have _ in {COLUMN_NAMES[k]}, not {quoted(cols[k])}")
        else:
            if kind == "e":
                for k in (HEAD, DEPREL):
                    if cols[k] != "_":
                        s.add_cell("empty-node-nonempty-field", lineno, k,
                                   f"an empty node must have _ in {COLUMN_NAMES[k]}, not {quoted(cols[k])}")
            upos = cols[UPOS]
            if upos not in UPOS_TAGS and not (kind == "e" and upos == "_"):
                s.add_cell("unknown-upos", lineno, UPOS, f"unknown UPOS tag {quoted(upos)}")
            if cols[XPOS] == "":
                s.add_cell("empty-string-in-xpos", lineno, XPOS, "an unspecified XPOS must be _, not empty")
            feats = cols[FEATS]
            if feats != "_":
                facts.has_features = True
                issues, feats_safe = FEATS_ISSUES[feats]
                if issues:
                    _report(s, lineno, FEATS, issues)
                safe = safe and feats_safe
            if kind == "w":
                deprel = cols[DEPREL]
                issue = DEPREL_ISSUE[deprel]
                if issue is not None:
                    if deprel.split(":", 1)[0] == "ref" and issue[0] == "unknown-udeprel":
                        if not facts.deps_seen and "unknown-udeprel" in keep:
                            facts.ref_candidates.append(
                                ("unknown-udeprel", lineno, *cell_span(s.text_of(lineno), DEPREL)))
                    else:
                        s.add_cell(issue[0], lineno, DEPREL, issue[1])
            deps = cols[DEPS]
            if deps != "_":
                if deps != cols[HEAD] + ":" + cols[DEPREL]:
                    facts.has_enhancement = True
                issues = DEPS_ISSUES[deps]
                if issues:
                    _report(s, lineno, DEPS, issues)
                key = _node_key(cols[ID])
                if any(_node_key(h) == key for h, _ in DEPS_PAIRS[deps]):
                    s.add_cell("deps-self-loop", lineno, DEPS, f"a self-loop in the DEPS of {cols[ID]}")
                facts.deps_seen = True
        misc = cols[MISC]
        if misc != "_":
            issues = MISC_ISSUES[misc]
            if issues:
                _report(s, lineno, MISC, issues)
    return safe


def row_kinds(rows: list[list[str]]) -> str:
    """One letter per token line: w(ord), m(ultiword token), e(mpty node)."""
    kinds = []
    for cols in rows:
        value = cols[ID]
        if "-" in value:
            kinds.append("m")
        elif "." in value:
            kinds.append("e")
        else:
            kinds.append("w")
    return "".join(kinds)


# --- the quick way for sentences without empty nodes -----------------------------------------

# Cell values known to pass their checks (learnt as they are met; bounded).
_GOOD_FEATS: set[str] = {"_"}
_GOOD_DEPRELS: set[str] = set()
_GOOD_MISC: set[str] = {"_"}
_ONLY_BLANK = frozenset(("_",))


def _learn(feats, deprels, miscs) -> bool:
    """Check the values not met before; remember the good ones.  False when
    one of them has an issue."""
    ok = True
    for good, values, bad in ((_GOOD_FEATS, feats, lambda v: any(FEATS_ISSUES[v][0]) or not FEATS_ISSUES[v][1]),
                              (_GOOD_DEPRELS, deprels, lambda v: DEPREL_ISSUE[v] is not None),
                              (_GOOD_MISC, miscs, lambda v: bool(MISC_ISSUES[v]))):
        if len(good) > 200_000:
            good.clear()
            good.add("_") if good is not _GOOD_DEPRELS else None
        for value in set(values).difference(good):
            if bad(value):
                ok = False
            else:
                good.add(value)
    return ok


# "0" -> 0, "1" -> 1, ...: exactly the strings a word's HEAD may be.
_INDEX = {str(i): i for i in range(4096)}


def _deps_head_numbers(deps: str) -> tuple | None:
    """Head numbers of a DEPS value (None for a head that is no plain
    number); None when the value cannot be read."""
    pairs = DEPS_PAIRS[deps]
    if pairs is None:
        return None
    return tuple(_INDEX.get(h) for h, _ in pairs)


DEPS_HEAD_NUMBERS = Memo(_deps_head_numbers)
_NEVER = 1 << 30


def _relation_ok(relation: str) -> bool:
    """An enhanced relation that passes the level-2 checks alone."""
    return bool(EDEPREL_RE.fullmatch(relation)) and relation.split(":", 1)[0] in UDEPRELS | {"ref"}


RELATION_OK = Memo(_relation_ok)


def _deps_limit(deps: str) -> int:
    """The highest head of a DEPS value that passes every format check on its
    own (plain-number heads, sorted, known relations); a huge number if not."""
    if "|" not in deps:  # one relation (most words): no order to check
        head, colon, relation = deps.partition(":")
        number = _INDEX.get(head)
        return number if colon and number is not None and RELATION_OK[relation] else _NEVER
    numbers = DEPS_HEAD_NUMBERS[deps]
    if numbers is None or None in numbers or DEPS_ISSUES[deps]:
        return _NEVER
    return max(numbers)


DEPS_LIMIT = Memo(_deps_limit)
DEPS_HEAD_SET = Memo(lambda deps: frozenset(h for h, _ in DEPS_PAIRS[deps] or ()))
DEPS_HEAD_SET["_"] = frozenset()


class WordColumns:
    """The word lines of a sentence without empty nodes, by column, with
    the basic tree: what the quick checks and `tree.Tree` share."""

    __slots__ = ("rows", "cols", "heads", "children", "lines")

    def __init__(self, rows, cols, heads, children, lines) -> None:
        self.rows = rows          # the word lines' cells, word k at index k-1
        self.cols = cols          # the same by column (10 tuples)
        self.heads = heads        # [None, head of 1, ...]
        self.children = children  # children[k]: the words under k, in order
        self.lines = lines        # block-relative line of word k at index k (0: before the first)


def quick_level2(s: ValidatedSentence, kinds: str, facts: CellFacts) -> WordColumns | None:
    """`check_references`, `check_tree` and `check_cells` at once for a
    sentence without empty nodes, by whole columns: the words, when none of
    them would report anything; None (nothing changed) otherwise."""
    rows = s.rows
    if "m" in kinds:
        words = [cols for cols, kind in zip(rows, kinds) if kind == "w"]
        for cols, kind in zip(rows, kinds):
            if kind == "m" and (any(cols[k] != "_" for k in (LEMMA, UPOS, XPOS, HEAD, DEPREL, DEPS))
                                or cols[FEATS] not in ("_", "Typo=Yes")
                                or (cols[MISC] != "_" and MISC_ISSUES[cols[MISC]])):
                return None
    else:
        words = rows
    n = len(words)
    if not n:
        return None
    cols = s.cols if words is rows and s.cols is not None else tuple(zip(*words))
    ids, _, _, upos, xpos, feats, head_cells, deprels, deps, miscs = cols
    heads = s.heads if words is rows and s.heads is not None else _tree_heads(head_cells, n)
    if not heads:
        return None  # a HEAD that is no number within the words, no root or two, a cycle
    deps_values = set(deps)
    deps_values.discard("_")
    if deps_values and max(map(DEPS_LIMIT.__getitem__, deps_values)) > n:
        return None  # a head beyond the words, an unreadable or unsorted DEPS, a bad relation
    if not UPOS_TAGS.issuperset(upos) or "" in xpos:
        return None
    if not (_GOOD_FEATS.issuperset(feats) and _GOOD_DEPRELS.issuperset(deprels)
            and _GOOD_MISC.issuperset(miscs)):
        if not _learn(feats, deprels, miscs):
            return None
    feats_values = not _ONLY_BLANK.issuperset(feats)
    if deps_values:
        # A DEPS that is just HEAD:DEPREL is no enhancement and holds no
        # self-loop (HEAD is none); look closer only at the others.
        basic = list(map(":".join, zip(head_cells, deprels)))
        if basic != list(deps):
            for k in positions(list(map(str.__eq__, deps, basic)), False):
                if deps[k] != "_":
                    if ids[k] in DEPS_HEAD_SET[deps[k]]:
                        return None  # a self-loop in DEPS
                    facts.has_enhancement = True
        facts.deps_seen = True
    if feats_values:
        facts.has_features = True
    children: list[list[int]] = [[] for _ in range(n + 1)]
    for k in range(1, n + 1):
        children[heads[k]].append(k)
    first = s.sentence_line
    if "m" in kinds:
        lines = [first - 1] + [first + i for i, kind in enumerate(kinds) if kind == "w"]
    else:
        lines = range(first - 1, first + n)
    return WordColumns(words, cols, heads, children, lines)


def _tree_heads(head_cells: tuple[str, ...], n: int) -> list | None:
    """[None, HEAD of word 1, ...] when the HEADs are numbers within the
    ``n`` words forming a tree (one root, every word reaching it); None if not."""
    heads = list(map(_INDEX.get, head_cells))
    if None in heads or max(heads) > n or heads.count(0) != 1:
        return None
    # Every word reachable from the root (a cycle or a self-loop is not):
    # follow the heads, doubling the steps, until every word is at 0.
    ancestors = [0] + heads
    steps = 1
    while steps < n and any(ancestors):
        ancestors = [ancestors[a] for a in ancestors]
        steps += steps
    if any(ancestors):
        return None
    return [None] + heads


def positions(values, value) -> list[int]:
    """The indices of ``value`` in ``values`` (each found by a C-level search)."""
    found = []
    index = values.index
    k = -1
    try:
        while True:
            k = index(value, k + 1)
            found.append(k)
    except ValueError:
        return found
