// Where everything of a sentence's tree goes: the geometry the tree view's
// SVG is drawn from (treeSvg.ts turns it into markup). Pure: no vscode, no
// DOM, so the unit tests check the numbers.
//
// The algorithm, in plain words:
// - Words stand in one row, in the order of their IDs: left to right, or right
//   to left when most of the sentence's letters are Hebrew, Arabic (or another
//   right-to-left script), so that the row reads like the sentence. Each column
//   is as wide as the longest of its FORM, UPOS and DEPREL (text width is
//   estimated from the characters, for a monospace font).
// - Each word with a HEAD gets one arc above the row, from its head down to
//   it (an arrowhead at the dependent); the root gets a vertical arrow from the
//   top. An arc's height ("level") is one more than the highest level of the
//   arcs it overlaps that are shorter (placed first): two arcs whose spans
//   overlap never share a level, so their labels never collide, and a longer
//   arc always runs above the shorter ones inside it.
// - At a head word, the legs of its arcs are spread around its centre, the
//   higher ones nearest the centre, so that a leg does not cut through a lower
//   arc leaving the same word.
// - An arc is non-projective when some word between its ends does not descend
//   from its head.
// - With gold: a word whose HEAD differs from gold's has its arc marked
//   "head", one whose DEPREL alone differs "label"; for both, gold's arc is
//   drawn below the row (hanging down, levelled the same way), so the two
//   trees can be compared without the gold arcs crowding the prediction's.

import { GoldWord, isEmptyNode, SentenceTree, TreeWord } from './treePayload';

export const FONT_SIZE = 14;
const SMALL_FONT_SIZE = 11;
const COLUMN_PADDING = 18;
const MIN_COLUMN = 36;
const MARGIN = 12;
const LEVEL_STEP = 22;
const LEG_GAP = 5;
const CORNER = 5;
/** Above the highest arc: the root arrow starts here, with its label. */
const ROOT_SPACE = 26;
const WORD_ROW = 58;
const MULTIWORD_ROW = 22;

export type Difference = 'head' | 'label' | null;
export type Direction = 'ltr' | 'rtl';

export interface WordBox {
  index: number;
  word: TreeWord;
  /** Centre of the column. */
  x: number;
  left: number;
  width: number;
  /** Base direction of the word's own text (a Latin word in an Arabic sentence stays ltr). */
  textDirection: Direction;
  difference: Difference;
  /** No gold word is aligned with it (tokenization differs from gold). */
  unaligned: boolean;
  gold: GoldWord | null;
  /** The root of the prediction (HEAD 0). */
  root: boolean;
}

export interface ArcBox {
  /** Index (in words) of the dependent. */
  dependent: number;
  /** Index of the head word; null for the root arrow, or for a gold head with no partner here. */
  head: number | null;
  label: string;
  level: number;
  /** SVG path of the line, and of the arrowhead at the dependent. */
  path: string;
  arrow: string;
  labelX: number;
  labelY: number;
  labelWidth: number;
  nonProjective: boolean;
  difference: Difference;
}

export interface MultiwordBox {
  id: string;
  form: string;
  line: number;
  x1: number;
  x2: number;
  y: number;
}

export interface TreeLayout {
  width: number;
  height: number;
  direction: Direction;
  /** y of the top of the words' row. */
  rowTop: number;
  words: WordBox[];
  arcs: ArcBox[];
  goldArcs: ArcBox[];
  multiwords: MultiwordBox[];
}

// Scripts written right to left, and the wide (two-column) East Asian ones.
const RTL_CHAR = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}]/u;
const STRONG_LETTER = /\p{L}/u;
const WIDE_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u;
const ZERO_WIDTH = /[\p{M}\u200b-\u200f\u2060\ufeff]/u;

/** Estimated width in pixels of text in a monospace font of `fontSize`. */
export function textWidth(text: string, fontSize = FONT_SIZE): number {
  let columns = 0;
  for (const char of text) {
    if (ZERO_WIDTH.test(char)) continue;
    columns += WIDE_CHAR.test(char) ? 1.65 : 1;
  }
  return columns * fontSize * 0.62;
}

/** The direction of the first strong letter ('ltr' when there is none). */
export function textDirection(text: string): Direction {
  for (const char of text) {
    if (RTL_CHAR.test(char)) return 'rtl';
    if (STRONG_LETTER.test(char)) return 'ltr';
  }
  return 'ltr';
}

/** rtl when most letters of the sentence's forms are of a right-to-left script. */
export function sentenceDirection(words: readonly TreeWord[]): Direction {
  let rtl = 0;
  let ltr = 0;
  for (const word of words) {
    for (const char of word.form) {
      if (RTL_CHAR.test(char)) rtl++;
      else if (STRONG_LETTER.test(char)) ltr++;
    }
  }
  return rtl > ltr ? 'rtl' : 'ltr';
}

/** head → index of the head word, for the words that have one; the root is -1. */
function headIndexes(words: readonly TreeWord[], heads: ReadonlyArray<number | null>): Array<number | null> {
  const indexById = new Map<string, number>();
  words.forEach((word, i) => indexById.set(word.id, i));
  return heads.map((head) => {
    if (head === null) return null;
    if (head === 0) return -1;
    return indexById.get(String(head)) ?? null;
  });
}

/**
 * Which arcs are non-projective: the arc into word d (head h) is when some
 * word strictly between h and d does not descend from h. `heads` gives each
 * word's head index (-1 root, null none); cycles are cut off.
 */
export function nonProjectiveArcs(heads: ReadonlyArray<number | null>): boolean[] {
  const descendsFrom = (word: number, ancestor: number): boolean => {
    let current: number | null = word;
    for (let steps = 0; current !== null && current >= 0 && steps <= heads.length; steps++) {
      if (current === ancestor) return true;
      current = heads[current] ?? null;
    }
    return false;
  };
  return heads.map((head, dependent) => {
    if (head === null || head < 0) return false;
    const [low, high] = head < dependent ? [head, dependent] : [dependent, head];
    for (let k = low + 1; k < high; k++) {
      if (!descendsFrom(k, head)) return true;
    }
    return false;
  });
}

interface Span {
  low: number;
  high: number;
}

/**
 * Levels (from 1) of arcs over column spans: shortest first, each one level
 * above every already placed arc it overlaps (spans sharing only an end do
 * not overlap). Ties are broken by position, so the result is deterministic.
 */
export function arcLevels(spans: readonly Span[]): number[] {
  const order = spans.map((_, i) => i).sort((a, b) => {
    const sa = spans[a]!;
    const sb = spans[b]!;
    return (sa.high - sa.low) - (sb.high - sb.low) || sa.low - sb.low || a - b;
  });
  const levels = new Array<number>(spans.length).fill(0);
  const placed: number[] = [];
  for (const i of order) {
    const span = spans[i]!;
    let level = 1;
    for (const j of placed) {
      const other = spans[j]!;
      if (Math.max(span.low, other.low) < Math.min(span.high, other.high)) {
        level = Math.max(level, levels[j]! + 1);
      }
    }
    levels[i] = level;
    placed.push(i);
  }
  return levels;
}

/** From the server's `differs` (the scorer's comparison) when it gives it, else by comparing the cells. */
function differenceOf(word: TreeWord, gold: GoldWord | null): Difference {
  if (gold === null || isEmptyNode(word)) return null;
  if (gold.differs !== null) {
    return gold.differs.includes('head') ? 'head' : gold.differs.includes('deprel') ? 'label' : null;
  }
  if (gold.head !== word.head) return 'head';
  if (gold.deprel !== word.deprel) return 'label';
  return null;
}

interface ArcSpec {
  dependent: number;
  head: number;
  label: string;
  nonProjective: boolean;
  difference: Difference;
}

function spansOf(specs: readonly ArcSpec[]): Span[] {
  return specs.map((s) => ({ low: Math.min(s.head, s.dependent), high: Math.max(s.head, s.dependent) }));
}

/**
 * Draws arcs between columns at the given levels: above the row (`up`, from
 * `base` upwards) or below it (from `base` downwards).
 */
function placeArcs(specs: readonly ArcSpec[], levels: readonly number[], words: readonly WordBox[], base: number, up: boolean): ArcBox[] {
  // The legs at each head: per side, the highest arc nearest the centre.
  const legX = new Map<number, number>();
  const byHead = new Map<number, number[]>();
  specs.forEach((spec, i) => byHead.set(spec.head, [...(byHead.get(spec.head) ?? []), i]));
  for (const [head, arcIndexes] of byHead) {
    const box = words[head]!;
    for (const side of [-1, 1]) {
      const onSide = arcIndexes
        .filter((i) => Math.sign(words[specs[i]!.dependent]!.x - box.x) === side)
        .sort((a, b) => levels[b]! - levels[a]!);
      const gap = Math.min(LEG_GAP, (box.width / 2 - 4) / (onSide.length + 1));
      onSide.forEach((i, rank) => legX.set(i, box.x + side * gap * (rank + 1)));
    }
  }
  const sign = up ? -1 : 1;
  return specs.map((spec, i): ArcBox => {
    const level = levels[i]!;
    const x1 = legX.get(i)!;
    const x2 = words[spec.dependent]!.x;
    const y = base + sign * level * LEVEL_STEP;
    const toward = Math.sign(x2 - x1);
    const corner = Math.min(CORNER, Math.abs(x2 - x1) / 2);
    const path = `M${n(x1)},${n(base)} V${n(y - sign * corner)} Q${n(x1)},${n(y)} ${n(x1 + toward * corner)},${n(y)} ` +
      `H${n(x2 - toward * corner)} Q${n(x2)},${n(y)} ${n(x2)},${n(y - sign * corner)} V${n(base)}`;
    return {
      dependent: spec.dependent,
      head: spec.head,
      label: spec.label,
      level,
      path,
      arrow: arrowAt(x2, base, up),
      labelX: (x1 + x2) / 2,
      labelY: y,
      labelWidth: textWidth(spec.label, SMALL_FONT_SIZE) + 6,
      nonProjective: spec.nonProjective,
      difference: spec.difference,
    };
  });
}

/** An arrowhead whose tip touches (x, y), pointing down (into the row from above) or up. */
function arrowAt(x: number, y: number, down: boolean): string {
  const back = down ? y - 7 : y + 7;
  return `M${n(x)},${n(y)} L${n(x - 4)},${n(back)} L${n(x + 4)},${n(back)} Z`;
}

/** A vertical arrow from `from` to `to` (the root's, or a gold head with no partner). */
function verticalArc(dependent: number, box: WordBox, from: number, to: number, label: string, difference: Difference): ArcBox {
  return {
    dependent,
    head: null,
    label,
    level: 0,
    path: `M${n(box.x)},${n(from)} V${n(to)}`,
    arrow: arrowAt(box.x, to, to > from),
    labelX: box.x,
    labelY: from,
    labelWidth: textWidth(label, SMALL_FONT_SIZE) + 6,
    nonProjective: false,
    difference,
  };
}

/** Rounds to a tenth of a pixel, so the SVG text is short and stable. */
function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export function layoutTree(tree: SentenceTree): TreeLayout {
  const { words } = tree;
  const direction = sentenceDirection(words);
  const goldWords = tree.gold;
  const widths = words.map((word) => Math.max(
    MIN_COLUMN,
    textWidth(word.form) + COLUMN_PADDING,
    textWidth(word.upos, SMALL_FONT_SIZE) + COLUMN_PADDING,
    textWidth(word.deprel, SMALL_FONT_SIZE) + COLUMN_PADDING,
  ));
  const rowWidth = widths.reduce((sum, w) => sum + w, 0);
  const width = rowWidth + 2 * MARGIN;
  let offset = MARGIN;
  const boxes: WordBox[] = words.map((word, index) => {
    const columnWidth = widths[index]!;
    const left = direction === 'ltr' ? offset : width - offset - columnWidth;
    offset += columnWidth;
    const goldWord = goldWords?.[index] ?? null;
    return {
      index,
      word,
      x: left + columnWidth / 2,
      left,
      width: columnWidth,
      textDirection: textDirection(word.form),
      difference: differenceOf(word, goldWord),
      unaligned: goldWords !== null && goldWord === null && !isEmptyNode(word),
      gold: goldWord,
      root: word.head === 0,
    };
  });

  const heads = headIndexes(words, words.map((w) => (isEmptyNode(w) ? null : w.head)));
  const nonProjective = nonProjectiveArcs(heads);
  const specs: ArcSpec[] = [];
  heads.forEach((head, dependent) => {
    if (head !== null && head >= 0 && head !== dependent) {
      const box = boxes[dependent]!;
      specs.push({ dependent, head, label: box.word.deprel, nonProjective: nonProjective[dependent]!, difference: box.difference });
    }
  });
  const levels = arcLevels(spansOf(specs));
  const rowTop = ROOT_SPACE + Math.max(0, ...levels) * LEVEL_STEP + 4;
  const arcs = placeArcs(specs, levels, boxes, rowTop, true);
  heads.forEach((head, dependent) => {
    const box = boxes[dependent]!;
    if (head === -1) {
      arcs.push(verticalArc(dependent, box, ROOT_SPACE - 8, rowTop, box.word.deprel, box.difference));
    } else if (head === dependent) {
      // A self-loop (a refused tree): a short arrow onto the word itself.
      arcs.push(verticalArc(dependent, box, rowTop - LEVEL_STEP, rowTop, box.word.deprel, box.difference));
    } else if (head === null && box.word.head !== null && !isEmptyNode(box.word)) {
      // A HEAD naming no word of the sentence (head-out-of-range): a short arrow saying so.
      arcs.push(verticalArc(dependent, box, rowTop - LEVEL_STEP, rowTop, `${box.word.deprel} (HEAD ${box.word.head}?)`, box.difference));
    }
  });
  arcs.sort((a, b) => a.dependent - b.dependent);

  // Below the row: multiword tokens, then gold's arcs of the words that differ.
  let y = rowTop + WORD_ROW;
  const multiwords: MultiwordBox[] = [];
  const indexById = new Map(words.map((w, i) => [w.id, i] as const));
  for (const token of tree.multiwords) {
    const a = boxes[token.first];
    const b = boxes[token.last];
    if (a === undefined || b === undefined) continue;
    multiwords.push({
      id: token.id,
      form: token.form,
      line: token.line,
      x1: Math.min(a.left, b.left) + 4,
      x2: Math.max(a.left + a.width, b.left + b.width) - 4,
      y: y + 4,
    });
  }
  if (multiwords.length > 0) y += MULTIWORD_ROW;

  const goldArcs: ArcBox[] = [];
  let height = y + MARGIN;
  const differing = boxes.filter((box) => box.difference !== null);
  if (differing.length > 0) {
    const goldBase = y + 2;
    // Gold's arcs between two words here; the others (gold's root, a head
    // word with no partner here, a self-loop) are stubs hanging from the word.
    const goldSpecs: ArcSpec[] = [];
    const stubs: Array<{ box: WordBox; label: string }> = [];
    for (const box of differing) {
      const gold = box.gold!;
      const head = gold.head === null || gold.head === 0 ? undefined : indexById.get(String(gold.head));
      if (head !== undefined && head !== box.index) {
        goldSpecs.push({ dependent: box.index, head, label: gold.deprel, nonProjective: false, difference: box.difference });
      } else {
        const why = gold.head === 0 ? '' : gold.headOutside || gold.head !== null ? ' (head not here)' : ' (no HEAD)';
        stubs.push({ box, label: `${gold.deprel}${why}` });
      }
    }
    const goldLevels = arcLevels(spansOf(goldSpecs));
    const bottom = goldBase + Math.max(0, ...goldLevels) * LEVEL_STEP;
    goldArcs.push(...placeArcs(goldSpecs, goldLevels, boxes, goldBase, false));
    for (const { box, label } of stubs) {
      goldArcs.push(verticalArc(box.index, box, bottom + ROOT_SPACE - 8, goldBase, label, box.difference));
    }
    goldArcs.sort((a, b) => a.dependent - b.dependent);
    height = bottom + ROOT_SPACE + MARGIN;
  }
  return { width, height, direction, rowTop, words: boxes, arcs, goldArcs, multiwords };
}
