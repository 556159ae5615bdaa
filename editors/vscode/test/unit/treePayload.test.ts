import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTreePayload, lastLine, parseHead } from '../../src/treePayload';
import { wirePayload } from '../support/trees';

describe('annoscore/tree answers', () => {
  it('takes a sound answer, with gold aligned word by word', () => {
    const { tree, problems } = checkTreePayload(wirePayload(
      [['1', 'Hi', 'INTJ', '0', 'root'], ['2', '!', 'PUNCT', '1', 'punct', 'low-confidence']],
      [['0', 'root'], null],
      [{ id: '1-2', form: 'Hi!', line: 1 }],
    ));
    assert.deepEqual(problems, []);
    assert.equal(tree!.sentId, 'test-1');
    assert.deepEqual(tree!.words.map((w) => [w.id, w.head, w.line, w.problems]), [['1', 0, 2, []], ['2', 1, 3, ['low-confidence']]]);
    assert.deepEqual(tree!.gold, [{ form: '', upos: '', head: 0, deprel: 'root' }, null]);
    assert.deepEqual(tree!.multiwords, [{ id: '1-2', form: 'Hi!', line: 1, first: 1, last: 2 }]);
    assert.equal(lastLine(tree!), 3);
  });

  it('reads null as "no sentence there" and keeps HEADs that are not numbers as none', () => {
    assert.deepEqual(checkTreePayload(null), { tree: null, problems: [] });
    assert.deepEqual([7, '7', '_', null, 'x', -1, 1.5].map(parseHead), [7, 7, null, null, null, null, null]);
  });

  it('refuses answers that break the contract, saying what is wrong', () => {
    assert.deepEqual(checkTreePayload('tree').problems, ['the answer is neither an object nor null']);
    assert.deepEqual(checkTreePayload({ line: -1, words: 'x' }).problems, ['line is not a line number', 'words is not a list']);
    const payload = wirePayload([['1', 'a', 'X', '0', 'root']], [['0', 'root']]);
    (payload.gold as { words: unknown[] }).words.push(null);
    assert.deepEqual(checkTreePayload(payload).problems, ['gold.words is not a list as long as words']);
    const badWord = wirePayload([['1', 'a', 'X', '0', 'root']]);
    (badWord.words as Array<Record<string, unknown>>)[0]!.id = '1-2';
    assert.deepEqual(checkTreePayload(badWord).problems, ['words[0].id is not a word ID']);
  });
});
