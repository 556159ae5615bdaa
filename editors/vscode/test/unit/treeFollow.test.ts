import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { onAnswer, onCursor, Shown } from '../../src/treeFollow';

const SHOWN: Shown = { uri: 'file:///a.conllu', version: 3, firstLine: 10, lastLine: 20, svg: '<svg>1</svg>' };

describe('when the tree view asks and draws', () => {
  it('only marks the word while the cursor stays in the sentence shown', () => {
    for (const line of [10, 15, 20]) {
      assert.equal(onCursor(SHOWN, { uri: SHOWN.uri, version: 3, line }), 'mark');
    }
  });

  it('asks when the cursor leaves the sentence, the text changed, or the document is another', () => {
    assert.equal(onCursor(SHOWN, { uri: SHOWN.uri, version: 3, line: 9 }), 'ask');
    assert.equal(onCursor(SHOWN, { uri: SHOWN.uri, version: 3, line: 21 }), 'ask');
    assert.equal(onCursor(SHOWN, { uri: SHOWN.uri, version: 4, line: 15 }), 'ask');
    assert.equal(onCursor(SHOWN, { uri: 'file:///b.conllu', version: 3, line: 15 }), 'ask');
    assert.equal(onCursor(undefined, { uri: SHOWN.uri, version: 3, line: 15 }), 'ask');
  });

  it('draws an answer only when its SVG is not the one shown', () => {
    assert.equal(onAnswer(SHOWN, '<svg>1</svg>'), 'mark');
    assert.equal(onAnswer(SHOWN, '<svg>2</svg>'), 'render');
    assert.equal(onAnswer(undefined, '<svg>1</svg>'), 'render');
  });
});
