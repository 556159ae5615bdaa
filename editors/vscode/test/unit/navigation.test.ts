import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnosticCode, findTarget, isLowConfidence, Range } from '../../src/navigation';

function cell(line: number, start: number, end: number): Range {
  return { start: { line, character: start }, end: { line, character: end } };
}

// Given out of order, as diagnostics can be.
const RANGES = [cell(9, 40, 44), cell(2, 10, 13), cell(5, 0, 3), cell(5, 20, 25)];

describe('low-confidence navigation', () => {
  it('goes to the next cell after the cursor, across lines and within a line', () => {
    assert.deepEqual(findTarget(RANGES, { line: 0, character: 0 }, 'next'), cell(2, 10, 13));
    assert.deepEqual(findTarget(RANGES, { line: 5, character: 0 }, 'next'), cell(5, 20, 25));
    assert.deepEqual(findTarget(RANGES, { line: 5, character: 21 }, 'next'), cell(9, 40, 44));
  });

  it('goes to the previous cell before the cursor', () => {
    assert.deepEqual(findTarget(RANGES, { line: 9, character: 40 }, 'previous'), cell(5, 20, 25));
    assert.deepEqual(findTarget(RANGES, { line: 5, character: 20 }, 'previous'), cell(5, 0, 3));
    assert.deepEqual(findTarget(RANGES, { line: 100, character: 0 }, 'previous'), cell(9, 40, 44));
  });

  it('wraps around at the ends of the file', () => {
    assert.deepEqual(findTarget(RANGES, { line: 9, character: 40 }, 'next'), cell(2, 10, 13));
    assert.deepEqual(findTarget(RANGES, { line: 2, character: 10 }, 'previous'), cell(9, 40, 44));
    assert.deepEqual(findTarget(RANGES, { line: 0, character: 0 }, 'previous'), cell(9, 40, 44));
  });

  it('visits every cell once going forward from a selected cell, then comes back', () => {
    const visited: Range[] = [];
    let from = cell(2, 10, 13).start;
    for (let i = 0; i < RANGES.length; i++) {
      const target = findTarget(RANGES, from, 'next')!;
      visited.push(target);
      from = target.start;
    }
    assert.deepEqual(visited, [cell(5, 0, 3), cell(5, 20, 25), cell(9, 40, 44), cell(2, 10, 13)]);
  });

  it('does not get stuck on two diagnostics of the same cell', () => {
    const ranges = [cell(1, 0, 3), cell(1, 0, 3), cell(4, 0, 3)];
    assert.deepEqual(findTarget(ranges, { line: 1, character: 0 }, 'next'), cell(4, 0, 3));
    assert.deepEqual(findTarget(ranges, { line: 4, character: 0 }, 'previous'), cell(1, 0, 3));
  });

  it('has nowhere to go without low-confidence cells', () => {
    assert.equal(findTarget([], { line: 0, character: 0 }, 'next'), undefined);
    assert.equal(findTarget([], { line: 0, character: 0 }, 'previous'), undefined);
  });
});

describe('which diagnostics are low-confidence', () => {
  it('reads codes given as strings, numbers or {value, target}', () => {
    assert.equal(diagnosticCode('cycle'), 'cycle');
    assert.equal(diagnosticCode(7), '7');
    assert.equal(diagnosticCode({ value: 'low-confidence' }), 'low-confidence');
    assert.equal(diagnosticCode(undefined), undefined);
  });

  it('wants source annoscore and code low-confidence', () => {
    assert.ok(isLowConfidence({ source: 'annoscore', code: 'low-confidence' }));
    assert.ok(isLowConfidence({ source: 'annoscore', code: { value: 'low-confidence' } }));
    assert.equal(isLowConfidence({ source: 'other-linter', code: 'low-confidence' }), false);
    assert.equal(isLowConfidence({ source: 'annoscore', code: 'cycle' }), false);
    assert.equal(isLowConfidence({ source: 'annoscore' }), false);
  });
});
