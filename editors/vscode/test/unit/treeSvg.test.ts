import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { layoutTree } from '../../src/treeLayout';
import { problemSeverity, summaryText, treeSummary, treeSvg } from '../../src/treeSvg';
import { SentenceTree } from '../../src/treePayload';
import { HEARING, Row, tree } from '../support/trees';

function svgOf(t: SentenceTree, standalone = false): string {
  return treeSvg(t, layoutTree(t), { standalone });
}

/** The elements' opening tags whose class list has `name`. */
function withClass(svg: string, name: string): string[] {
  return [...svg.matchAll(/<(\w+) class="([^"]*)"[^>]*>/g)].filter((m) => m[2]!.split(' ').includes(name)).map((m) => m[0]);
}

/** Checks that the tags nest and close (a small stand-in for an XML parser). */
function assertWellFormed(svg: string): void {
  const open: string[] = [];
  for (const [tag, closing, name, selfClosing] of svg.matchAll(/<(\/?)(\w+)[^>]*?(\/?)>/g)) {
    if (closing) assert.equal(open.pop(), name, `closing ${tag}`);
    else if (!selfClosing) open.push(name!);
  }
  assert.deepEqual(open, []);
  assert.doesNotMatch(svg.replace(/<[^>]*>/g, ''), /[<>]|&(?!(amp|lt|gt|quot|apos);)/, 'text is escaped');
}

describe('tree SVG', () => {
  it('has one arc group per word and one word group per word, each with its document line', () => {
    const svg = svgOf(tree(HEARING));
    assertWellFormed(svg);
    assert.equal(withClass(svg, 'arc').length, HEARING.length);
    const words = withClass(svg, 'word');
    assert.equal(words.length, HEARING.length);
    assert.deepEqual(words.map((w) => /data-line="(\d+)"/.exec(w)![1]), HEARING.map((_, i) => String(i + 2)));
    assert.equal(withClass(svg, 'root').length, 1);
    assert.match(withClass(svg, 'root')[0]!, /data-id="4"/);
    assert.equal(withClass(svg, 'nonprojective').length, 1);
    assert.equal(withClass(svg, 'root-arc').length, 1);
  });

  it('marks the arcs that differ from gold and draws gold\'s arcs for them', () => {
    const gold: Array<[string, string]> = HEARING.map((r) => [r[3], r[4]]);
    gold[1] = ['3', 'nsubj'];   // head differs
    gold[7] = ['4', 'obl'];     // relation differs
    const svg = svgOf(tree(HEARING, gold));
    assertWellFormed(svg);
    assert.deepEqual(withClass(svg, 'differs-head').filter((t) => /class="arc /.test(t)).map((t) => /data-id="(\d+)"/.exec(t)![1]), ['2']);
    assert.equal(withClass(svg, 'differs-label').filter((t) => /class="arc /.test(t)).length, 1);
    assert.equal(withClass(svg, 'gold-arc').length, 2);
    assert.match(svg, /<text class="arc-label"[^>]*>obl<\/text>/);
  });

  it('escapes the document\'s text', () => {
    const svg = svgOf(tree([['1', '<b>&"x"', 'X', '0', 'root'], ['2', "it's", 'X', '1', 'a&b']]));
    assertWellFormed(svg);
    assert.ok(svg.includes('&lt;b&gt;&amp;&quot;x&quot;'));
    assert.ok(!svg.includes('<b>'));
  });

  it('writes right-to-left words with their direction, and the sentence\'s', () => {
    const svg = svgOf(tree([['1', 'كتب', 'VERB', '0', 'root'], ['2', 'الولد', 'NOUN', '1', 'nsubj'], ['3', 'HTML', 'PROPN', '1', 'obj']]));
    assert.match(svg, /data-direction="rtl"/);
    assert.equal((svg.match(/<text class="form"[^>]*direction="rtl"/g) ?? []).length, 2);
    assert.match(svg, /<text class="form"[^>]*>HTML</);
    assert.doesNotMatch(/<text class="form"[^>]*>HTML</.exec(svg)![0], /direction/);
  });

  it('marks the words with problems by the worst one', () => {
    const svg = svgOf(tree([['1', 'a', 'X', '2', 'dep', 'low-confidence'], ['2', 'b', 'X', '2', 'root', 'cycle,low-confidence'], ['3', 'c', 'X', '2', 'dep', 'gold-diff']]));
    assert.deepEqual(withClass(svg, 'problem-warning').map((t) => /data-id="(\d+)"/.exec(t)![1]), ['1']);
    assert.deepEqual(withClass(svg, 'problem-error').map((t) => /data-id="(\d+)"/.exec(t)![1]), ['2']);
    assert.equal((svg.match(/class="problem-mark"/g) ?? []).length, 2, 'gold-diff is shown by the arcs, not as a mark');
    assert.equal(problemSeverity(['unknown-upos']), 'information');
    assert.equal(problemSeverity([]), null);
  });

  it('carries its styles only when standalone', () => {
    const t = tree(HEARING);
    assert.doesNotMatch(svgOf(t), /<style>/);
    const standalone = svgOf(t, true);
    assert.match(standalone, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(standalone, /<style>[^<]*\.arc-line \{[^}]*var\(--annoscore-arc, #[0-9a-f]{6}\)/);
    assert.match(standalone, /<\/style><rect class="background" width="100%" height="100%" fill="#ffffff"\/><g class="arcs">/,
      'a white ground under the light fallback colours, drawn first');
    assert.doesNotMatch(svgOf(t), /class="background"/, 'in the view the theme\'s background shows through');
  });
});

describe('tree summary', () => {
  const rows: Row[] = [['1', 'She', 'PRON', '2', 'nsubj'], ['2', 'saw', 'VERB', '0', 'root'], ['3', 'him', 'PRON', '_', '_', 'unparsed']];

  it('counts words, missing heads, differences and problems', () => {
    const t = tree(rows, [['2', 'nsubj'], ['3', 'root'], null]);
    const summary = treeSummary(layoutTree(t));
    assert.deepEqual(summary, { words: 3, arcs: 2, nonProjective: 0, differsHead: 1, differsLabel: 0, unaligned: 1, withoutHead: 1, problems: 1 });
    assert.equal(summaryText(t, summary), 'test-1 · 3 words · 1 without HEAD · 1 head differs from gold · 1 word without a gold partner · 1 word with problems');
  });

  it('says when the sentence is as gold, or has no gold', () => {
    const parsed: Row[] = rows.slice(0, 2);
    const asGold = tree(parsed, parsed.map((r) => [r[3], r[4]]));
    assert.equal(summaryText(asGold, treeSummary(layoutTree(asGold))), 'test-1 · 2 words · as gold');
    const noGold = tree(parsed);
    assert.equal(summaryText(noGold, treeSummary(layoutTree(noGold))), 'test-1 · 2 words · no gold');
  });
});
