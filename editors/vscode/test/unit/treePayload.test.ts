import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTreePayload, parseHead } from '../../src/treePayload';
import { wirePayload } from '../support/trees';

describe('annoscore/tree answers', () => {
  it('takes a sound answer, with gold aligned word by word', () => {
    const { tree, problems } = checkTreePayload(wirePayload(
      [['1', 'Hi', 'INTJ', '0', 'root'], ['2', '!', 'PUNCT', '1', 'punct', 'low-confidence']],
      [['0', 'root'], null],
      [{ id: '1-2', form: 'Hi!', line: 1, first: 0, last: 1 }],
    ));
    assert.deepEqual(problems, []);
    assert.equal(tree!.sentId, 'test-1');
    assert.deepEqual(tree!.words.map((w) => [w.id, w.head, w.line, w.problems]), [['1', 0, 2, []], ['2', 1, 3, ['low-confidence']]]);
    assert.deepEqual(tree!.gold, [{ form: '', upos: '', head: 0, deprel: 'root', headOutside: false, differs: null }, null]);
    assert.deepEqual(tree!.multiwords, [{ id: '1-2', form: 'Hi!', line: 1, first: 0, last: 1 }]);
    assert.equal(tree!.endLine, 3);
  });

  it('puts empty nodes among the words after the word they follow, and keeps gold and tokens on their words', () => {
    const payload = wirePayload(
      [['1', 'I', 'PRON', '2', 'nsubj'], ['2', 'like', 'VERB', '0', 'root'], ['3', 'tea', 'NOUN', '2', 'obj']],
      [['2', 'nsubj'], ['0', 'root'], ['2', 'obj']],
      [{ id: '2-3', form: 'liketea', line: 3, first: 1, last: 2 }],
    );
    payload.emptyNodes = [{ id: '2.1', form: 'likes', upos: 'VERB', line: 4, after: 1 }, { id: '0.1', form: 'x', line: 1, after: -1 }];
    (payload.gold as Record<string, unknown>).unaligned = [{ id: '4', form: 'too', after: 2 }];
    const { tree, problems } = checkTreePayload(payload);
    assert.deepEqual(problems, []);
    assert.deepEqual(tree!.words.map((w) => w.id), ['0.1', '1', '2', '2.1', '3']);
    assert.deepEqual(tree!.gold!.map((g) => g?.deprel ?? null), [null, 'nsubj', 'root', null, 'obj']);
    assert.deepEqual([tree!.multiwords[0]!.first, tree!.multiwords[0]!.last], [2, 4]);
    assert.deepEqual(tree!.goldOnly, [{ form: 'too', after: 4 }]);
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
