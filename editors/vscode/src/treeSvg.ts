// The tree's SVG markup, from the geometry of treeLayout.ts. Pure: a string
// in, a string out, so the unit tests read the markup directly.
//
// Every drawn thing carries a class saying what it is (`arc`, `gold-arc`,
// `differs-head`, `nonprojective`, `word`, `root`, `problem-error` ...) and the
// words carry their document line (`data-line`), which the webview script
// uses for hover and click. Colours come from TREE_CSS through CSS variables
// (`--annoscore-*`) with light-theme fallbacks: the webview maps them to the
// VS Code theme's colours, and a saved SVG (`standalone`, with the CSS inside)
// shows the fallbacks anywhere. All text from the document is escaped.

import { ArcBox, FONT_SIZE, MultiwordBox, TreeLayout, WordBox } from './treeLayout';
import { isEmptyNode, SentenceTree } from './treePayload';

/** Codes that make the official scorer refuse the sentence, or leave it unscored. */
const ERROR_CODES = new Set(['cycle', 'multiple-roots', 'no-root', 'head-out-of-range', 'missing-head', 'unparsed']);
/** Codes shown by the arcs themselves, not as a mark on the word. */
const ARC_CODES = new Set(['gold-diff']);

export const TREE_CSS = `
.annoscore-tree { font-family: var(--annoscore-font, ui-monospace, "DejaVu Sans Mono", monospace); }
.annoscore-tree text { fill: var(--annoscore-foreground, #1f2328); }
.arc-line { fill: none; stroke: var(--annoscore-arc, #57606a); stroke-width: 1.3; }
.arc-arrow { fill: var(--annoscore-arc, #57606a); stroke: none; }
.arc-label { font-size: 11px; text-anchor: middle; dominant-baseline: central; }
.arc-label-bg { fill: var(--annoscore-background, #ffffff); }
.arc.nonprojective .arc-line { stroke: var(--annoscore-nonprojective, #8250df); stroke-dasharray: 7 3; }
.arc.nonprojective .arc-arrow { fill: var(--annoscore-nonprojective, #8250df); }
.arc.differs-head .arc-line { stroke: var(--annoscore-wrong, #cf222e); stroke-width: 2.4; }
.arc.differs-head .arc-arrow { fill: var(--annoscore-wrong, #cf222e); }
.annoscore-tree .arc.differs-head .arc-label, .annoscore-tree .arc.differs-label .arc-label { fill: var(--annoscore-wrong, #cf222e); font-weight: bold; }
.gold-arc .arc-line { stroke: var(--annoscore-gold, #1a7f37); stroke-dasharray: 4 3; stroke-width: 1.6; }
.gold-arc .arc-arrow { fill: var(--annoscore-gold, #1a7f37); }
.annoscore-tree .gold-arc .arc-label { fill: var(--annoscore-gold, #1a7f37); }
.word-box { fill: transparent; stroke: none; }
.word { cursor: pointer; }
.word .form { font-size: ${FONT_SIZE}px; text-anchor: middle; }
.annoscore-tree .word .upos, .annoscore-tree .word .word-id, .annoscore-tree .multiword text { fill: var(--annoscore-muted, #656d76); }
.word .upos { font-size: 11px; text-anchor: middle; }
.word .word-id { font-size: 10px; text-anchor: middle; }
.word.root .form { font-weight: bold; text-decoration: underline; }
.word.empty-node .form { font-style: italic; }
.annoscore-tree .word.unaligned .form { fill: var(--annoscore-muted, #656d76); font-style: italic; }
.word:hover .word-box, .word.hovered .word-box { fill: var(--annoscore-hover, rgba(9, 105, 218, 0.12)); }
.word.cursor .word-box { stroke: var(--annoscore-cursor, #0969da); stroke-width: 1.5; }
.problem-mark { stroke: none; }
.word.problem-error .problem-mark { fill: var(--annoscore-error, #cf222e); }
.word.problem-warning .problem-mark { fill: var(--annoscore-warning, #bf8700); }
.word.problem-information .problem-mark { fill: var(--annoscore-information, #0969da); }
.multiword path { fill: none; stroke: var(--annoscore-muted, #656d76); stroke-width: 1; }
.multiword text { font-size: 11px; text-anchor: middle; }
`;

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]!};`);
}

/** The worst kind of problem among a word's codes, for its mark. */
export function problemSeverity(codes: readonly string[]): 'error' | 'warning' | 'information' | null {
  const shown = codes.filter((c) => !ARC_CODES.has(c));
  if (shown.some((c) => ERROR_CODES.has(c))) return 'error';
  if (shown.includes('low-confidence')) return 'warning';
  return shown.length > 0 ? 'information' : null;
}

function arcClasses(base: string, arc: ArcBox): string {
  const classes = [base];
  if (arc.head === null && base === 'arc') classes.push('root-arc');
  if (arc.nonProjective) classes.push('nonprojective');
  if (arc.difference !== null) classes.push(`differs-${arc.difference}`);
  return classes.join(' ');
}

function arcMarkup(base: string, arc: ArcBox, layout: TreeLayout, title: string): string {
  const word = layout.words[arc.dependent]!;
  const halfLabel = arc.labelWidth / 2;
  return `<g class="${arcClasses(base, arc)}" data-id="${escapeXml(word.word.id)}" data-line="${word.word.line}">` +
    `<title>${escapeXml(title)}</title>` +
    `<path class="arc-line" d="${arc.path}"/><path class="arc-arrow" d="${arc.arrow}"/>` +
    `<rect class="arc-label-bg" x="${r(arc.labelX - halfLabel)}" y="${r(arc.labelY - 7)}" width="${r(arc.labelWidth)}" height="14" rx="3"/>` +
    `<text class="arc-label" x="${r(arc.labelX)}" y="${r(arc.labelY)}">${escapeXml(arc.label)}</text></g>`;
}

function headName(layout: TreeLayout, head: number | null): string {
  if (head === null) return 'the root';
  const box = layout.words[head]!;
  return `${box.word.id} ${box.word.form}`;
}

function wordTitle(box: WordBox): string {
  const { word } = box;
  const parts = [`${word.id} ${word.form}  ${word.lemma}  ${word.upos}  ${word.feats}`,
    `HEAD ${word.head ?? '_'}  DEPREL ${word.deprel}  (line ${word.line + 1})`];
  if (word.problems.length > 0) parts.push(`problems: ${word.problems.join(', ')}`);
  if (box.unaligned) parts.push('gold: no word aligned with it');
  else if (box.gold !== null && box.difference !== null) {
    parts.push(`gold: HEAD ${box.gold.head ?? 'not in this sentence'}  DEPREL ${box.gold.deprel}`);
  }
  return parts.join('\n');
}

function wordMarkup(box: WordBox, rowTop: number): string {
  const { word } = box;
  const classes = ['word'];
  if (box.root) classes.push('root');
  if (isEmptyNode(word)) classes.push('empty-node');
  if (box.unaligned) classes.push('unaligned');
  if (box.difference !== null) classes.push(`differs-${box.difference}`);
  const severity = problemSeverity(word.problems);
  if (severity !== null) classes.push(`problem-${severity}`);
  const direction = box.textDirection === 'rtl' ? ' direction="rtl" unicode-bidi="embed"' : '';
  const x = r(box.x);
  // The mark sits in the column's top corner (after the form in reading order), clear of the arcs' ends.
  const markX = box.textDirection === 'rtl' ? box.left + 7 : box.left + box.width - 7;
  const mark = severity === null ? '' : `<circle class="problem-mark" cx="${r(markX)}" cy="${r(rowTop + 9)}" r="3.5"/>`;
  return `<g class="${classes.join(' ')}" data-id="${escapeXml(word.id)}" data-line="${word.line}">` +
    `<title>${escapeXml(wordTitle(box))}</title>` +
    `<rect class="word-box" x="${r(box.left + 2)}" y="${r(rowTop + 1)}" width="${r(box.width - 4)}" height="56" rx="4"/>` +
    `<text class="form" x="${x}" y="${r(rowTop + 18)}"${direction}>${escapeXml(word.form)}</text>` +
    `<text class="upos" x="${x}" y="${r(rowTop + 33)}">${escapeXml(word.upos)}</text>` +
    `<text class="word-id" x="${x}" y="${r(rowTop + 46)}">${escapeXml(word.id)}</text>` +
    `${mark}</g>`;
}

function multiwordMarkup(token: MultiwordBox): string {
  const { x1, x2, y } = token;
  const middle = (x1 + x2) / 2;
  return `<g class="multiword" data-id="${escapeXml(token.id)}" data-line="${token.line}">` +
    `<path d="M${r(x1)},${r(y)} V${r(y + 5)} H${r(x2)} V${r(y)}"/>` +
    `<text x="${r(middle)}" y="${r(y + 16)}">${escapeXml(token.id)} ${escapeXml(token.form)}</text></g>`;
}

function r(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export interface SvgOptions {
  /** Put TREE_CSS inside the SVG, for a file that shows the same anywhere. */
  standalone: boolean;
}

export function treeSvg(tree: SentenceTree, layout: TreeLayout, options: SvgOptions): string {
  const name = tree.sentId !== null ? `sentence ${tree.sentId}` : `the sentence at line ${tree.line + 1}`;
  // A saved SVG is read anywhere (dark viewers too): its light colours get their own white ground.
  const style = options.standalone
    ? `<style>${TREE_CSS}</style><rect class="background" width="100%" height="100%" fill="#ffffff"/>`
    : '';
  const arcs = layout.arcs.map((arc) => {
    const word = layout.words[arc.dependent]!.word;
    return arcMarkup('arc', arc, layout, `${word.id} ${word.form} ← ${headName(layout, arc.head)}: ${arc.label}` +
      (arc.nonProjective ? ' (non-projective)' : '') + (arc.difference !== null ? ` (differs from gold: ${arc.difference})` : ''));
  });
  const goldArcs = layout.goldArcs.map((arc) => {
    const word = layout.words[arc.dependent]!.word;
    return arcMarkup('gold-arc', arc, layout, `gold: ${word.id} ${word.form} ← ${arc.head === null ? 'no word here' : headName(layout, arc.head)}: ${arc.label}`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="annoscore-tree" width="${r(layout.width)}" height="${r(layout.height)}" ` +
    `viewBox="0 0 ${r(layout.width)} ${r(layout.height)}" data-direction="${layout.direction}" role="img" ` +
    `aria-label="${escapeXml(`Dependency tree of ${name}`)}">${style}` +
    `<g class="arcs">${arcs.join('')}</g>` +
    `<g class="gold-arcs">${goldArcs.join('')}</g>` +
    `<g class="words">${layout.words.map((box) => wordMarkup(box, layout.rowTop)).join('')}</g>` +
    `<g class="multiwords">${layout.multiwords.map(multiwordMarkup).join('')}</g></svg>`;
}

export interface TreeSummary {
  words: number;
  arcs: number;
  nonProjective: number;
  differsHead: number;
  differsLabel: number;
  unaligned: number;
  withoutHead: number;
  problems: number;
}

export function treeSummary(layout: TreeLayout): TreeSummary {
  const words = layout.words.filter((box) => !isEmptyNode(box.word));
  return {
    words: words.length,
    arcs: layout.arcs.length,
    nonProjective: layout.arcs.filter((a) => a.nonProjective).length,
    differsHead: words.filter((b) => b.difference === 'head').length,
    differsLabel: words.filter((b) => b.difference === 'label').length,
    unaligned: words.filter((b) => b.unaligned).length,
    withoutHead: words.filter((b) => b.word.head === null).length,
    problems: layout.words.filter((b) => problemSeverity(b.word.problems) !== null).length,
  };
}

/**
 * One line over the tree: "s1 · 12 words · UAS 10/12 LAS 9/12 · 1 non-projective
 * arc · 2 heads differ from gold", with what else the annotator should know
 * (refused by the official scorer, gold's words that have no partner here,
 * why gold is not shown).
 */
export function summaryText(tree: SentenceTree, summary: TreeSummary): string {
  const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  const parts = [tree.sentId ?? `line ${tree.line + 1}`, plural(summary.words, 'word', 'words')];
  if (tree.uas !== null && tree.las !== null) parts.push(`UAS ${tree.uas[0]}/${tree.uas[1]} LAS ${tree.las[0]}/${tree.las[1]}`);
  if (tree.unparsed) parts.push('not parsed');
  else if (summary.withoutHead > 0) parts.push(`${summary.withoutHead} without HEAD`);
  if (tree.refused.length > 0) parts.push(`refused by the official scorer (${tree.refused.join(', ')})`);
  if (summary.nonProjective > 0) parts.push(plural(summary.nonProjective, 'non-projective arc', 'non-projective arcs'));
  if (tree.gold !== null) {
    if (summary.differsHead + summary.differsLabel === 0 && summary.unaligned === 0 && tree.goldOnly.length === 0) parts.push('as gold');
    if (summary.differsHead > 0) parts.push(`${plural(summary.differsHead, 'head differs', 'heads differ')} from gold`);
    if (summary.differsLabel > 0) parts.push(`${plural(summary.differsLabel, 'relation differs', 'relations differ')} from gold`);
    if (summary.unaligned > 0) parts.push(`${plural(summary.unaligned, 'word', 'words')} without a gold partner`);
    if (tree.goldOnly.length > 0) parts.push(`gold's own words here: ${tree.goldOnly.map((w) => w.form).join(' ')}`);
  } else {
    parts.push(tree.goldNote !== null ? `no gold: ${tree.goldNote}` : 'no gold');
  }
  if (summary.problems > 0) parts.push(plural(summary.problems, 'word with problems', 'words with problems'));
  return parts.join(' · ');
}
