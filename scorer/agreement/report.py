"""An agreement as tables for people and as JSON for programs, with its signature.

The JSON (``annoscore agree --json``) is meant to drive a tool::

    {"annotations": [{"name": "A", "path", "sha256", "sentences", "words"}, …],
     "unit": "cell", "bootstrap": {"samples", "seed", "resampled": "sentences", "interval": …},
     "sentences": {"matched", "units", "in_all", "only_in": {…}, "text_differs": {…}},
     "tokenization": {"sentences", "words_not_aligned": {NAME: n}},
     "variables": {NAME: {"items", "pairable", "complete", "categories",
                          "observed", "cohen_kappa", "fleiss_kappa", "krippendorff_alpha",
                          "observed_ci95": [low, high] | null, …, "undefined_resamples": {…}}},
     "attachment": [{"annotations": [A, B], "Words" | "UAS" | "LAS" | "CLAS": {"f1", "agree", "words"}}],
     "by": {KIND: {CATEGORY: {…}}}, "confusions": {"UPOS" | "DEPREL": [...]},
     "differences": {COLUMN: n}, "places": [PLACE, …] (with --places),
     "signature": {…}}

A place: ``{"sent_id", "column", "values": [v | null per annotation],
"words": [{"file", "line", "id", "form"} | null per annotation]}`` (lines 1-based).
Proportions are in [0, 1]; coefficients are null where undefined (see
`coefficients`).
"""

from __future__ import annotations

from typing import Any

from ..excerpt import excerpt
from ..report import Signature, percent, proportion, render_table
from .coefficients import COEFFICIENTS
from .compare import Agreement, Place, places, tokenization, unit_name

TITLES = {"observed": "Observed", "cohen_kappa": "Cohen's kappa", "fleiss_kappa": "Fleiss' kappa",
          "krippendorff_alpha": "Krippendorff's alpha"}
LISTED = 10  # sentences listed per list in the text report


def signature(agreement: Agreement) -> Signature:
    s = Signature("conllu", {"agree": True, "unit": agreement.unit, "samples": agreement.samples,
                             "seed": agreement.seed})
    for annotation in agreement.annotations:
        s.add_file(annotation.name.lower(), annotation.path, annotation.sha256)
    return s


def _number(value: float | None, digits: int = 6) -> float | None:
    return proportion(value, digits)


def sentences_json(agreement: Agreement) -> dict[str, Any]:
    names = [a.name for a in agreement.annotations]
    units = agreement.matching.units
    only: dict[str, dict] = {}
    differs: dict[str, dict] = {}
    in_all = 0
    for unit in units:
        present = [k for k, r in enumerate(unit.records) if r is not None]
        if len(present) == len(names):
            in_all += 1
        elif not unit.text_differs:
            key = "+".join(names[k] for k in present) or "none"
            entry = only.setdefault(key, {"count": 0, "first": []})
            entry["count"] += 1
            if len(entry["first"]) < LISTED:
                record = unit.records[present[0]]
                entry["first"].append({"sent_id": record.sent_id, "line": record.first_line + 1})  # type: ignore
        for k, record in unit.text_differs.items():
            entry = differs.setdefault(names[k], {"count": 0, "first": []})
            entry["count"] += 1
            if len(entry["first"]) < LISTED:
                entry["first"].append({"sent_id": record.sent_id, "line": record.first_line + 1})
    return {"units": len(units), "in_all": in_all, "only_in": only, "text_differs": differs}


def place_json(agreement: Agreement, place: Place) -> dict[str, Any]:
    unit = agreement.matching.units[place.unit]
    words = []
    for k, w in enumerate(place.words):
        record = unit.records[k]
        if w < 0 or record is None:
            words.append(None)
            continue
        annotation = agreement.annotations[k]
        words.append({"file": annotation.path, "line": record.line_of(w - record.start) + 1,
                      "id": annotation.word_id(w, record), "form": annotation.form[w]})
    return {"sent_id": unit_name(unit), "column": place.column, "values": place.values, "words": words}


def agreement_json(agreement: Agreement, with_places: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "annotations": [{"name": a.name, "path": a.path, "sha256": a.sha256, "sentences": len(a.sentences),
                         "words": a.words} for a in agreement.annotations],
        "unit": agreement.unit,
        "bootstrap": {"samples": agreement.samples, "seed": agreement.seed, "resampled": "sentences",
                      "interval": "2.5th and 97.5th percentiles of the resampled coefficients"},
        "sentences": sentences_json(agreement),
        "tokenization": tokenization(agreement.matching),
        "variables": {},
    }
    for row in agreement.rows:
        entry: dict[str, Any] = {"items": row.items, "pairable": row.pairable, "complete": row.complete,
                                 "categories": row.categories}
        undefined = {}
        for name in COEFFICIENTS:
            entry[name] = _number(row.coefficients[name])
            interval = row.intervals.get(name)
            entry[f"{name}_ci95"] = None if interval is None or interval.low is None else \
                [_number(interval.low), _number(interval.high)]
            if interval is not None and interval.undefined:
                undefined[name] = interval.undefined
        if undefined:
            entry["undefined_resamples"] = undefined
        out["variables"][row.name] = entry
    out["attachment"] = [{key: ({"f1": _number(value["f1"]), "agree": value["agree"], "words": value["words"]}
                                if isinstance(value, dict) else value) for key, value in pair.items()}
                         for pair in agreement.attachment]
    out["by"] = _rounded(agreement.by)
    out["confusions"] = agreement.confusions
    out["differences"] = {column: int(len(items)) for column, items in agreement.differing.items()}
    if with_places:
        out["places"] = [place_json(agreement, p) for p in places(agreement)]
    out["signature"] = signature(agreement).as_dict()
    return out


def _rounded(value):
    if isinstance(value, float):
        return proportion(value)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


# --------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------


def _coefficient(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _interval(row, name: str) -> str:
    interval = row.intervals.get(name)
    if interval is None or interval.low is None:
        return ""
    return f"{interval.low:.4f} .. {interval.high:.4f}"


def agreement_text(agreement: Agreement, rows: int = 20) -> str:
    annotations = agreement.annotations
    two = len(annotations) == 2
    lines = []
    for a in annotations:
        lines.append(f"{a.name}: {a.path} ({len(a.sentences):,} sentences, {a.words:,} words)")
    s = sentences_json(agreement)
    lines.append(f"Sentences matched by sent_id (or by text without one): {s['in_all']:,} in every annotation"
                 + (f", {s['units'] - s['in_all']:,} not" if s["units"] != s["in_all"] else ""))
    for key, entry in s["only_in"].items():
        lines.append(f"  only in {key}: {entry['count']:,} (first: " + ", ".join(
            excerpt(e["sent_id"] or f"line {e['line']}", 60) for e in entry["first"][:3]) + ")")
    for name, entry in s["text_differs"].items():
        lines.append(f"  text differs in {name} (left out): {entry['count']:,} (first: " + ", ".join(
            excerpt(e["sent_id"] or f"line {e['line']}", 60) for e in entry["first"][:3]) + ")")
    t = tokenization(agreement.matching)
    if t["sentences"]:
        lines.append(f"Tokenized otherwise: {t['sentences']:,} sentences; words not aligned: " + ", ".join(
            f"{n:,} of {name}" for name, n in t["words_not_aligned"].items()))
    lines.append("")
    headers = ["Variable", "Items", "Observed", "95% CI"]
    coefficients = ["cohen_kappa", "fleiss_kappa", "krippendorff_alpha"] if two else \
        ["fleiss_kappa", "krippendorff_alpha"]
    for name in coefficients:
        headers += [TITLES[name], "95% CI"]
    body = []
    for row in agreement.rows:
        line = [excerpt(row.name, 30), f"{row.pairable:,}", percent(row.coefficients["observed"]) or "n/a",
                _percent_interval(row)]
        for name in coefficients:
            line += [_coefficient(row.coefficients[name]), _interval(row, name)]
        body.append(line)
    what = {"cell": "a word's cell", "word": "a word, every cell at once", "sentence": "a sentence"}[agreement.unit]
    lines.append(f"Agreement per variable (an item is {what}; Items: those with two values or more):")
    lines.append(render_table(headers, body))
    undefined = [row.name for row in agreement.rows if row.coefficients["krippendorff_alpha"] is None]
    if undefined:
        lines.append(f"n/a: undefined, every value given is one category (or none is given): "
                     f"{', '.join(map(excerpt, undefined[:8]))}" + (" …" if len(undefined) > 8 else ""))
    if agreement.samples:
        lines.append(f"95% CI: bootstrap over sentences, {agreement.samples:,} resamples, seed {agreement.seed}.")
    lines.append("")
    for pair in agreement.attachment:
        a, b = pair["annotations"]
        lines.append(f"Attachment agreement of {a} and {b}: the F1 of the CoNLL 2018 metrics, one scored against "
                     f"the other (symmetric: precision and recall swap):")
        lines.append("  " + "  ".join(f"{name} {percent(pair[name]['f1'])}" for name in ("Words", "UAS", "LAS", "CLAS")))
    lines.append("")
    for kind, table in agreement.by.items():
        lines += _by_text(kind, table, annotations, rows)
    for name, items in agreement.confusions.items():
        lines.append(f"Most frequent confusions of {name}:")
        if not items:
            lines.append("  none")
        for item in items:
            ways = ", ".join(f"{w['annotations'][0]} {excerpt(w['values'][0], 20)} / {w['annotations'][1]} "
                             f"{excerpt(w['values'][1], 20)}: {w['count']:,}" for w in item["ways"])
            lines.append(f"  {item['count']:>5}  {excerpt(item['values'][0], 20)} ~ {excerpt(item['values'][1], 20)}"
                         f"  ({ways})")
            for e in item["examples"]:
                where = excerpt(e["sent_id"], 80) if e.get("sent_id") is not None else f"line {e.get('line')}"
                lines.append(f"         {where}: {e.get('context', '')}")
        lines.append("")
    differences = {column: len(items) for column, items in agreement.differing.items()}
    lines.append("Cells that differ (to adjudicate; --places lists them): " +
                 ", ".join(f"{column} {n:,}" for column, n in differences.items()))
    lines.append("")
    lines.append(f"Signature: {signature(agreement)}")
    return "\n".join(lines)


def _percent_interval(row) -> str:
    interval = row.intervals.get("observed")
    if interval is None or interval.low is None:
        return ""
    return f"{percent(interval.low)} .. {percent(interval.high)}"


BY_TITLES = {"upos": "By UPOS", "deprel": "By relation (DEPREL)", "feats": "By feature (Feature=Value)",
             "length": "By sentence length (items)"}


def _by_text(kind: str, table: dict, annotations, rows: int) -> list[str]:
    names = [a.name for a in annotations]
    lines = []
    if kind == "length":
        key = "kappa" if len(annotations) == 2 else "alpha"
        headers = ["Length", "Sentences", "Items"] + [f"{c} {k}" for c in ("UPOS", "HEAD", "DEPREL", "HEAD+DEPREL")
                                                    for k in ("obs", key)]
        body = [[label, e["sentences"], e["items"]] + [v for c in ("UPOS", "HEAD", "DEPREL", "HEAD+DEPREL")
                                                       for v in (percent(e[c]["observed"]), _coefficient(e[c][key]))]
                for label, e in table.items()]
        lines += [f"{BY_TITLES[kind]}:", render_table(headers, body), ""]
        return lines
    items = list(table.items())
    left = max(0, len(items) - rows)
    headers = ["Category"] + names + ["Specific agreement", "In all", "HEAD", "DEPREL", "HEAD+DEPREL"]
    body = [[excerpt(k, 30)] + [f"{e['words'][n]:,}" for n in names] +
            [percent(e["specific_agreement"]), f"{e['in_all']:,}", percent(e["HEAD"]), percent(e["DEPREL"]),
             percent(e["HEAD+DEPREL"])] for k, e in items[:rows]]
    lines += [f"{BY_TITLES[kind]} (specific agreement: 2 x both / (one + other); HEAD, DEPREL, HEAD+DEPREL: "
              f"observed agreement on the words all give it):", render_table(headers, body)]
    if left:
        lines.append(f"  ... and {left} more (all in --json)")
    lines.append("")
    return lines


def places_text(agreement: Agreement) -> str:
    """One line per differing cell: where it is in each file, and each annotation's value."""
    out = []
    for place in places(agreement):
        entry = place_json(agreement, place)
        parts = []
        for annotation, word, value in zip(agreement.annotations, entry["words"], entry["values"]):
            if word is None:
                parts.append(f"{annotation.name} (no such word)")
            else:
                parts.append(f"{annotation.name} {word['file']}:{word['line']} {excerpt(str(value), 40)}")
        first = next((w for w in entry["words"] if w is not None), None)
        what = f"{excerpt(entry['sent_id'], 80) if entry['sent_id'] else ''} word {first['id']} " \
               f"{excerpt(first['form'], 30)}" if first else ""
        out.append(f"{what.strip()}: {place.column}: " + " | ".join(parts))
    return "\n".join(out)
