import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isReportResult, isScorePayload, parseNextResult, scorePayloadProblems } from '../../src/protocol';
import { fullPayload } from '../support/payloads';

describe('score payload validation', () => {
  it('accepts payloads of every format, with and without gold', () => {
    for (const format of ['conllu', 'space', 'tsv', 'labels'] as const) {
      assert.deepEqual(scorePayloadProblems(fullPayload(format)), [], format);
      assert.ok(isScorePayload(fullPayload(format, { gold: null, metrics: {} })), `${format} without gold`);
    }
  });

  it('names each broken field', () => {
    const broken = {
      ...fullPayload('conllu'),
      format: 'xml',
      gold: 3,
      metrics: { LAS: { precision: 1.2, recall: Number.NaN, f1: '0.5' } },
      counts: { sentences: 1, unparsed: -1, refused: 0.5 },
    };
    assert.deepEqual(scorePayloadProblems(broken), [
      'format "xml" is not one of conllu, space, tsv, labels',
      'gold is neither a string nor null',
      'metrics.LAS.precision is not a number in [0, 1]',
      'metrics.LAS.recall is not a number in [0, 1]',
      'metrics.LAS.f1 is not a number in [0, 1]',
      'counts.unparsed is not a non-negative integer',
      'counts.refused is not a non-negative integer',
      'counts.lowConfidence is not a non-negative integer',
    ]);
    assert.equal(isScorePayload(broken), false);
  });

  it('rejects percentages (the contract is proportions in [0, 1])', () => {
    const percent = fullPayload('space', { metrics: { Word: { precision: 95, recall: 95, f1: 95 } } });
    assert.equal(isScorePayload(percent), false);
  });

  it('rejects non-objects and a missing uri', () => {
    assert.deepEqual(scorePayloadProblems(null), ['payload is not an object']);
    assert.deepEqual(scorePayloadProblems([]), ['payload is not an object']);
    const { uri: _uri, ...noUri } = fullPayload('labels');
    assert.deepEqual(scorePayloadProblems(noUri), ['uri is not a non-empty string']);
  });
});

describe('score payload: test split and annotation progress', () => {
  it('accepts the test split\'s payload and progress as the server sends them', () => {
    const testSplit = fullPayload('conllu', { gold: null, metrics: {}, testSplit: true, message: 'test split: run annoscore evaluate --final' });
    assert.deepEqual(scorePayloadProblems(testSplit), []);
    const progress = fullPayload('conllu', { progress: { sentences: 6, annotated: 5, marker: 'annotated', marked: 0 } });
    assert.deepEqual(scorePayloadProblems(progress), []);
    assert.deepEqual(scorePayloadProblems({ ...progress, progress: { sentences: 6, annotated: 5, marker: null, marked: null } }), []);
  });

  it('names a test split without a message, and broken progress counts', () => {
    assert.deepEqual(scorePayloadProblems({ ...fullPayload('conllu'), testSplit: true }), ['testSplit without a message to show']);
    assert.deepEqual(scorePayloadProblems({ ...fullPayload('conllu'), testSplit: 'yes', message: 3 }),
      ['testSplit is not a boolean', 'message is not a string']);
    assert.deepEqual(scorePayloadProblems({ ...fullPayload('conllu'), progress: { sentences: 2, annotated: 3, marker: 7, marked: -1 } }), [
      'progress.marked is neither a non-negative integer nor null',
      'progress.marker is neither a string nor null',
      'progress.annotated is more than progress.sentences',
    ]);
    assert.deepEqual(scorePayloadProblems({ ...fullPayload('conllu'), progress: 'half' }), ['progress is not an object']);
  });
});

describe('report result validation', () => {
  it('wants uri and text strings', () => {
    assert.ok(isReportResult({ uri: 'file:///a.conllu', text: 'LAS ...' }));
    assert.equal(isReportResult({ uri: 'file:///a.conllu' }), false);
    assert.equal(isReportResult(null), false);
  });
});

describe('annoscore/next answers', () => {
  it('takes a place found, or the sentence saying there is none further', () => {
    const range = { start: { line: 4, character: 2 }, end: { line: 4, character: 5 } };
    assert.deepEqual(parseNextResult({ found: true, kind: 'gold-diff', range, message: 'UPOS: gold has VERB', total: null }),
      { found: true, range, message: 'UPOS: gold has VERB' });
    assert.deepEqual(parseNextResult({ found: false, message: 'no further refused tree below line 9' }),
      { found: false, message: 'no further refused tree below line 9' });
  });

  it('refuses answers without found or with a broken range', () => {
    for (const bad of [null, {}, { found: 'yes' }, { found: true }, { found: true, range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } } }]) {
      assert.equal(parseNextResult(bad), undefined, JSON.stringify(bad));
    }
  });
});
