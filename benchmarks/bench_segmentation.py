"""Segmentation scoring speed: annoscore beside a plain reference implementation.

Generates about one million gold words (seeded, in a temporary folder):
lines of 5 to 45 words of 1 to 4 characters, and a prediction of the same
text in which about 3% of the word boundaries are dropped and 3% added, and,
with --pos, 8% of the tags changed.  Three set-ups are timed: ``space``,
``tsv`` (a space token between words, as in the Korean and English files)
and ``tsv --pos``.

For each, in one run: annoscore's library (`evaluate_files`), the same
through the command line (``annoscore evaluate --json``, a separate process:
start-up, SHA-256 of both files, JSON), and the reference below, which
follows the litsea notes (EVALUATION-NOTES.md, sections 1-7) word by word
with loops and sets, as one would write it first.  The counts of all three
must agree; the script prints the times and the ratio.

    python benchmarks/bench_segmentation.py [--words 1000000] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

import results  # benchmarks/results.py: the dated results file

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from measure import best_of, run_measured  # noqa: E402

from annoscore.scorer.segmentation.evaluate import evaluate_files  # noqa: E402
from annoscore.scorer.segmentation.tokens import SegmentationOptions  # noqa: E402

UPOS = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN",
        "PUNCT", "SCONJ", "SYM", "VERB", "X"]
CHARACTERS = "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴"


def make_lines(n_words: int, spaced: bool, seed: int = 1) -> tuple[list[list[str]], list[list[str]]]:
    """Gold sentences and a predicted segmentation of the same text.  With
    ``spaced``, a space token follows every fourth word or so (running text
    in the space-preserving protocol); the prediction keeps spaces apart."""
    rng = random.Random(seed)
    gold, pred = [], []
    total = 0
    while total < n_words:
        words = ["".join(rng.choices(CHARACTERS, k=rng.choice((1, 1, 2, 2, 2, 3, 4))))
                 for _ in range(rng.randint(5, 45))]
        total += len(words)
        if spaced:
            words = [w for i, word in enumerate(words)
                     for w in ((" ", word) if i and rng.random() < 0.25 else (word,))]
        text = "".join(words)
        cuts = set()
        kept = set()  # boundaries next to a space stay
        offset = 0
        for w in words[:-1]:
            if w == " ":
                kept.update((offset, offset + 1))
            offset += len(w)
            cuts.add(offset)
        for cut in list(cuts - kept):
            if rng.random() < 0.03:
                cuts.discard(cut)
        for _ in range(len(words)):
            if rng.random() < 0.03 and len(text) > 1:
                cut = rng.randint(1, len(text) - 1)
                if text[cut] != " " and text[cut - 1] != " ":
                    cuts.add(cut)
        edges = [0] + sorted(cuts) + [len(text)]
        gold.append(words)
        pred.append([text[a:b] for a, b in zip(edges, edges[1:])])
    return gold, pred


def write_files(folder: Path, gold, pred, fmt: str, pos: bool, seed: int = 2) -> tuple[Path, Path]:
    rng = random.Random(seed)
    suffix = ".txt" if fmt == "space" else ".tsv"
    separator = " " if fmt == "space" else "\t"
    paths = []
    for name, sentences in (("gold", gold), ("pred", pred)):
        path = folder / f"{name}.{fmt}{'.pos' if pos else ''}{suffix}"
        with open(path, "w", encoding="utf-8") as out:
            for words in sentences:
                if pos:
                    tags = [UPOS[(len(w) * 7 + ord(w[0])) % len(UPOS)] for w in words]
                    if name == "pred":
                        tags = [rng.choice(UPOS) if rng.random() < 0.08 else t for t in tags]
                    # space tokens carry no tag, as in litsea's spaced TSV files
                    tokens = [w if w == " " else f"{w}/{t}" for w, t in zip(words, tags)]
                else:
                    tokens = words
                out.write(separator.join(tokens) + "\n")
        paths.append(path)
    return paths[0], paths[1]


# --------------------------------------------------------------------------
# The reference: litsea's definitions, word by word
# --------------------------------------------------------------------------

WHITE_SPACE = {*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
               0x2028, 0x2029, 0x202F, 0x205F, 0x3000}


def reference_tokens(line: str, fmt: str, pos: bool) -> list[tuple[str, str]]:
    separator = " " if fmt == "space" else "\t"
    out = []
    for token in line.split(separator):
        if token == "":
            continue
        word, tag = token, "X"
        if pos and "/" in token:
            i = token.rindex("/")
            word, tag = token[:i], token[i + 1:]
            if tag not in UPOS:
                tag = "X"
        out.append((word, tag))
    return out


def reference_scores(gold_path: Path, pred_path: Path, fmt: str, pos: bool) -> dict[str, int]:
    c = dict.fromkeys(("sentences", "wc", "wg", "wp", "bc", "bg", "bp", "tc", "tg", "tp"), 0)
    with open(gold_path, encoding="utf-8") as g, open(pred_path, encoding="utf-8") as p:
        for gold_line, pred_line in zip(g, p):
            gold = reference_tokens(gold_line.rstrip("\n"), fmt, pos)
            pred = reference_tokens(pred_line.rstrip("\n"), fmt, pos)
            if not gold:
                continue
            assert "".join(w for w, _ in gold) == "".join(w for w, _ in pred), "texts differ"
            c["sentences"] += 1
            spans = []
            for tokens in (gold, pred):
                found, offset = [], 0
                for word, tag in tokens:
                    white = word != "" and all(ord(ch) in WHITE_SPACE for ch in word)
                    if not white:
                        found.append((offset, offset + len(word), tag))
                    offset += len(word)
                spans.append(found)
            g_spans, p_spans = spans
            G = {(s, e) for s, e, _ in g_spans}
            P = {(s, e) for s, e, _ in p_spans}
            both = G & P
            GB = {s for s, _, _ in g_spans if s > 0}
            PB = {s for s, _, _ in p_spans if s > 0}
            c["wc"] += len(both); c["wg"] += len(G); c["wp"] += len(P)
            c["bc"] += len(GB & PB); c["bg"] += len(GB); c["bp"] += len(PB)
            if pos:
                first_tag = {}
                for s, e, tag in g_spans:
                    first_tag.setdefault((s, e), tag)
                c["tg"] += len(g_spans); c["tp"] += len(p_spans)
                for s, e, tag in p_spans:
                    if (s, e) in both and first_tag[(s, e)] == tag:
                        c["tc"] += 1
    return c


def ours_as_dict(counts) -> dict[str, int]:
    return {"sentences": counts.sentences, "wc": counts.word_correct, "wg": counts.word_gold,
            "wp": counts.word_system, "bc": counts.boundary_correct, "bg": counts.boundary_gold,
            "bp": counts.boundary_system, "tc": counts.tagged_correct, "tg": counts.tagged_gold,
            "tp": counts.tagged_system}


def cli_as_dict(data: dict) -> dict[str, int]:
    m = data["metrics"]
    tagged = m.get("TaggedWord", {"correct": 0, "gold_total": 0, "system_total": 0})
    return {"sentences": data["sentences"],
            "wc": m["Word"]["correct"], "wg": m["Word"]["gold_total"], "wp": m["Word"]["system_total"],
            "bc": m["Boundary"]["correct"], "bg": m["Boundary"]["gold_total"],
            "bp": m["Boundary"]["system_total"],
            "tc": tagged["correct"], "tg": tagged["gold_total"], "tp": tagged["system_total"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs (default 3)")
    parser.add_argument("--workdir", help="write the generated files here instead of a temporary folder")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.workdir or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        data = {spaced: make_lines(args.words, spaced) for spaced in (False, True)}
        n_words = sum(map(len, data[False][0]))
        print(f"{n_words:,} gold words in {len(data[False][0]):,} lines; best of {args.repeat} runs")
        print()
        print(f"{'set-up':<10} {'annoscore':>10} {'reference':>10} {'ratio':>7} {'CLI (process)':>14} "
              f"{'peak RSS':>9}  Word P/R/F1")
        failures = 0
        for fmt, pos in (("space", False), ("tsv", False), ("tsv", True)):
            gold, pred = write_files(folder, *data[fmt == "tsv"], fmt, pos)
            options = SegmentationOptions(fmt, pos)
            ours_time, result = best_of(args.repeat, lambda: evaluate_files(pred, gold, options))
            ref_time, reference = best_of(args.repeat, lambda: reference_scores(gold, pred, fmt, pos))
            command = [sys.executable, "-m", "annoscore", "evaluate", str(pred), str(gold), "--json"]
            if pos:
                command.append("--pos")
            measured = min((run_measured(command) for _ in range(args.repeat)), key=lambda m: m.seconds)
            cli = cli_as_dict(json.loads(measured.stdout))
            ours = ours_as_dict(result.counts)
            agree = ours == reference == cli and not result.mismatched
            failures += not agree
            word = result.counts.score("Word")
            name = fmt + (" --pos" if pos else "")
            print(f"{name:<10} {ours_time:>9.2f}s {ref_time:>9.2f}s {ref_time / ours_time:>6.1f}x "
                  f"{measured.seconds:>13.2f}s {measured.peak_rss / 2**20:>7.0f}MB  "
                  f"{100 * word.precision:.2f}/{100 * word.recall:.2f}/{100 * word.f1:.2f}"
                  + ("" if agree else "  COUNTS DIFFER"))
            if not agree:
                print("  annoscore:", ours, "\n  reference:", reference, "\n  CLI:      ", cli)
        print()
        print("ratio = reference time / annoscore time (library, in-process, reading both files); "
              "CLI = `annoscore evaluate --json` as a new process.")
        print("Counts (Word, Boundary, TaggedWord, sentences) of annoscore, the reference and the CLI "
              + ("agree." if not failures else "DIFFER."))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(results.run(main, __file__))
