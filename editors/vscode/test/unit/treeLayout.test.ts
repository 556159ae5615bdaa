import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arcLevels, layoutTree, nonProjectiveArcs, sentenceDirection, textDirection, textWidth, TreeLayout } from '../../src/treeLayout';
import { HEARING, randomRows, Row, tree } from '../support/trees';

/** The numbers of an SVG path, as [x, y] pairs of its commands' end points (M, V, H, Q's end). */
function pathPoints(path: string): Array<[number, number]> {
  const points: Array<[number, number]> = [];
  let x = 0;
  let y = 0;
  for (const [, command, args] of path.matchAll(/([MLVHQZ])([^MLVHQZ]*)/g)) {
    const numbers = (args ?? '').trim().split(/[ ,]+/).filter(Boolean).map(Number);
    if (command === 'V') y = numbers[0]!;
    else if (command === 'H') x = numbers[0]!;
    else if (command === 'M' || command === 'L') [x, y] = [numbers[0]!, numbers[1]!];
    else if (command === 'Q') [x, y] = [numbers[2]!, numbers[3]!];
    else continue;
    points.push([x, y]);
  }
  return points;
}

function columnOf(layout: TreeLayout, x: number): number {
  return layout.words.findIndex((w) => x >= w.left && x <= w.left + w.width);
}

describe('arc levels', () => {
  it('puts an arc above the arcs inside it, and arcs that do not overlap on one level', () => {
    // 0-1, 1-2 (share only an end), 0-2 over both, 3-4 apart.
    assert.deepEqual(arcLevels([{ low: 0, high: 1 }, { low: 1, high: 2 }, { low: 0, high: 2 }, { low: 3, high: 4 }]), [1, 1, 2, 1]);
  });

  it('gives crossing arcs different levels', () => {
    const [a, b] = arcLevels([{ low: 0, high: 2 }, { low: 1, high: 3 }]);
    assert.notEqual(a, b);
  });

  it('keeps the rule on random trees: overlapping spans never share a level, a containing arc is higher', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rows = randomRows(25, seed);
      const spans = rows.filter((r) => r[3] !== '0').map((r) => {
        const [d, h] = [Number(r[0]), Number(r[3])];
        return { low: Math.min(d, h), high: Math.max(d, h) };
      });
      const levels = arcLevels(spans);
      spans.forEach((a, i) => spans.forEach((b, j) => {
        if (i === j) return;
        if (Math.max(a.low, b.low) < Math.min(a.high, b.high)) assert.notEqual(levels[i], levels[j], `seed ${seed}`);
        if (a.low <= b.low && b.high <= a.high && (a.high - a.low) > (b.high - b.low)) assert.ok(levels[i]! > levels[j]!, `seed ${seed}`);
      }));
    }
  });
});

describe('non-projective arcs', () => {
  it('finds none in a projective tree', () => {
    // 1←2, 2 root, 3←2
    assert.deepEqual(nonProjectiveArcs([1, -1, 1]), [false, false, false]);
  });

  it('finds the arc over a word that does not descend from its head', () => {
    const heads = HEARING.map((r) => (r[3] === '0' ? -1 : Number(r[3]) - 1));
    const found = nonProjectiveArcs(heads);
    // Only nmod (issue ← hearing): "is" (3) between them hangs from "scheduled".
    assert.deepEqual(found.map((f, i) => (f ? HEARING[i]![1] : null)).filter(Boolean), ['issue']);
  });

  it('answers for a cycle too (words 1 and 3 heading each other over the root)', () => {
    assert.deepEqual(nonProjectiveArcs([2, -1, 0]), [true, false, true]);
    assert.deepEqual(nonProjectiveArcs([2, 0, 1]), [false, false, false]);
  });
});

describe('text direction and width', () => {
  it('tells right-to-left scripts by their letters, not by digits or punctuation', () => {
    assert.equal(textDirection('שלום'), 'rtl');
    assert.equal(textDirection('كتاب'), 'rtl');
    assert.equal(textDirection('«Hello»'), 'ltr');
    assert.equal(textDirection('2024'), 'ltr');
    assert.equal(textDirection('.'), 'ltr');
  });

  it('takes the sentence direction from most of its letters', () => {
    const arabic = tree([['1', 'ذهب', 'VERB', '0', 'root'], ['2', 'الولد', 'NOUN', '1', 'nsubj'], ['3', 'Google', 'PROPN', '1', 'obj']]);
    assert.equal(sentenceDirection(arabic.words), 'rtl');
    assert.equal(sentenceDirection(tree(HEARING).words), 'ltr');
  });

  it('counts combining marks as nothing and East Asian characters as wide', () => {
    assert.equal(textWidth('e\u0301'), textWidth('e'));
    assert.ok(textWidth('漢字') > textWidth('ab') * 1.5);
  });
});

describe('tree layout', () => {
  it('draws one arc per word: the root as a vertical arrow, every other word from its head', () => {
    const layout = layoutTree(tree(HEARING));
    assert.equal(layout.arcs.length, HEARING.length);
    const root = layout.arcs.filter((a) => a.head === null);
    assert.deepEqual(root.map((a) => layout.words[a.dependent]!.word.form), ['scheduled']);
    assert.ok(layout.words[3]!.root);
    for (const arc of layout.arcs) {
      const points = pathPoints(arc.path);
      const [start, end] = [points[0]!, points.at(-1)!];
      // Ends at the dependent's centre on the row's top, after leaving from the head's column.
      assert.ok(Math.abs(end[0] - layout.words[arc.dependent]!.x) <= 0.05 && end[1] === layout.rowTop, `${arc.label} ends at its word`);
      assert.equal(start[1], arc.head === null ? start[1] : layout.rowTop);
      if (arc.head !== null) assert.equal(columnOf(layout, start[0]), arc.head, `${arc.label} leaves from its head`);
      assert.ok(points.every(([x, y]) => x >= 0 && x <= layout.width && y >= 0 && y <= layout.rowTop));
    }
    assert.deepEqual(layout.arcs.filter((a) => a.nonProjective).map((a) => a.label), ['nmod']);
  });

  it('puts the labels of overlapping arcs at different heights', () => {
    const layout = layoutTree(tree(randomRows(30, 7)));
    const arcs = layout.arcs.filter((a) => a.head !== null);
    for (const a of arcs) {
      for (const b of arcs) {
        if (a === b) continue;
        const [la, ha] = [Math.min(a.head!, a.dependent), Math.max(a.head!, a.dependent)];
        const [lb, hb] = [Math.min(b.head!, b.dependent), Math.max(b.head!, b.dependent)];
        if (Math.max(la, lb) < Math.min(ha, hb)) assert.notEqual(a.labelY, b.labelY);
      }
    }
  });

  it('orders the words by ID left to right, or right to left for a Hebrew sentence, keeping their text', () => {
    const ltr = layoutTree(tree(HEARING));
    assert.equal(ltr.direction, 'ltr');
    assert.ok(ltr.words.every((w, i) => i === 0 || w.x > ltr.words[i - 1]!.x));
    const hebrew = layoutTree(tree([
      ['1', 'הילד', 'NOUN', '2', 'nsubj'], ['2', 'אכל', 'VERB', '0', 'root'], ['3', 'תפוח', 'NOUN', '2', 'obj'], ['4', 'iPhone', 'PROPN', '3', 'nmod'],
    ]));
    assert.equal(hebrew.direction, 'rtl');
    assert.ok(hebrew.words.every((w, i) => i === 0 || w.x < hebrew.words[i - 1]!.x), 'ID 1 is rightmost');
    assert.deepEqual(hebrew.words.map((w) => w.textDirection), ['rtl', 'rtl', 'rtl', 'ltr']);
    assert.deepEqual(hebrew.words.map((w) => w.word.form), ['הילד', 'אכל', 'תפוח', 'iPhone']);
    // The arc into "אכל"'s subject runs rightwards (towards ID 1).
    const subject = hebrew.arcs.find((a) => a.label === 'nsubj')!;
    const points = pathPoints(subject.path);
    assert.ok(points.at(-1)![0] > points[0]![0]);
  });

  it('lays a 60-word sentence out wider than a window, with bounded height, arcs inside', () => {
    const layout = layoutTree(tree(randomRows(60, 3)));
    assert.equal(layout.arcs.length, 60);
    assert.ok(layout.width > 1600, `width ${layout.width}`);
    assert.ok(layout.height < 1200, `height ${layout.height}`);
    for (const arc of layout.arcs) {
      assert.ok(pathPoints(arc.path).every(([x]) => x > 0 && x < layout.width));
    }
  });

  it('gives a word without HEAD no arc, and an empty node none either', () => {
    const layout = layoutTree(tree([
      ['1', 'I', 'PRON', '2', 'nsubj'], ['2', 'like', 'VERB', '0', 'root'], ['2.1', 'like', 'VERB', '_', '_'], ['3', 'tea', 'NOUN', '_', '_'],
    ]));
    assert.deepEqual(layout.arcs.map((a) => layout.words[a.dependent]!.word.id), ['1', '2']);
  });

  it('draws a HEAD past the sentence as a short arrow naming it', () => {
    const layout = layoutTree(tree([['1', 'a', 'X', '0', 'root'], ['2', 'b', 'X', '7', 'dep', 'head-out-of-range']]));
    assert.deepEqual(layout.arcs.map((a) => [a.dependent, a.head, a.label]), [[0, null, 'root'], [1, null, 'dep (HEAD 7?)']]);
  });

  it('draws a self-loop of a refused tree as a short arrow onto the word', () => {
    const layout = layoutTree(tree([['1', 'a', 'X', '1', 'dep', 'cycle'], ['2', 'b', 'X', '0', 'root']]));
    assert.equal(layout.arcs.length, 2);
    assert.equal(layout.arcs[0]!.head, null);
    assert.ok(layout.arcs[0]!.labelY < layout.rowTop);
  });

  it('puts a multiword token under the words it spans', () => {
    const layout = layoutTree(tree(
      [['1', 'de', 'ADP', '3', 'case'], ['2', 'le', 'DET', '3', 'det'], ['3', 'chat', 'NOUN', '0', 'root']], undefined,
      [{ id: '1-2', form: 'du', line: 2, first: 0, last: 1 }],
    ));
    const [token] = layout.multiwords;
    assert.ok(token!.x1 >= layout.words[0]!.left && token!.x2 <= layout.words[1]!.left + layout.words[1]!.width);
    assert.ok(token!.x2 > layout.words[1]!.x && token!.x1 < layout.words[0]!.x);
    assert.ok(token!.y > layout.rowTop);
  });
});

describe('tree layout against gold', () => {
  const rows: Row[] = [['1', 'She', 'PRON', '2', 'nsubj'], ['2', 'saw', 'VERB', '0', 'root'], ['3', 'him', 'PRON', '2', 'iobj'], ['4', 'there', 'ADV', '3', 'advmod']];

  it('marks a differing HEAD and a differing relation, and draws gold\'s arc below for each', () => {
    const layout = layoutTree(tree(rows, [['2', 'nsubj'], ['0', 'root'], ['2', 'obj'], ['2', 'advmod']]));
    assert.deepEqual(layout.words.map((w) => w.difference), [null, null, 'label', 'head']);
    assert.deepEqual(layout.arcs.map((a) => a.difference), [null, null, 'label', 'head']);
    assert.deepEqual(layout.goldArcs.map((a) => [a.dependent, a.head, a.label]), [[2, 1, 'obj'], [3, 1, 'advmod']]);
    for (const arc of layout.goldArcs) {
      assert.ok(pathPoints(arc.path).every(([, y]) => y > layout.rowTop + 40), 'gold hangs below the words');
    }
    assert.ok(layout.height > layout.goldArcs[0]!.labelY);
  });

  it('draws nothing below when the prediction is gold', () => {
    const layout = layoutTree(tree(rows, rows.map((r) => [r[3], r[4]])));
    assert.equal(layout.goldArcs.length, 0);
    assert.ok(layout.words.every((w) => w.difference === null && !w.unaligned));
  });

  it('marks a word with no gold partner, and a gold head that is not among these words', () => {
    const t = tree(rows, [['2', 'nsubj'], ['0', 'root'], null, [null, 'advmod']]);
    t.gold![3]!.headOutside = true;
    const layout = layoutTree(t);
    assert.deepEqual(layout.words.map((w) => w.unaligned), [false, false, true, false]);
    assert.equal(layout.words[3]!.difference, 'head');
    assert.deepEqual(layout.goldArcs.map((a) => [a.dependent, a.head, a.label]), [[3, null, 'advmod (head not here)']]);
  });

  it('follows the server\'s differs over its own comparison (the scorer compares universal relations)', () => {
    const t = tree(rows, [['2', 'nsubj:outer'], ['0', 'root'], ['2', 'iobj'], ['3', 'advmod']]);
    t.gold![0]!.differs = [];
    t.gold![2]!.differs = ['deprel'];
    const layout = layoutTree(t);
    assert.deepEqual(layout.words.map((w) => w.difference), [null, null, 'label', null]);
  });

  it('shows gold\'s root as a stub when gold roots another word', () => {
    const layout = layoutTree(tree(rows, [['2', 'nsubj'], ['3', 'ccomp'], ['0', 'root'], ['3', 'advmod']]));
    const stub = layout.goldArcs.find((a) => a.dependent === 2)!;
    assert.equal(stub.head, null);
    assert.equal(stub.label, 'root');
  });
});
