import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentEdits, EDIT_COMMANDS, editArguments, headChoices, parseEditAnswer, staleEdit, wordAtLine } from '../../src/editing';
import { tree } from '../support/trees';

const URI = 'file:///work/t.conllu';

/** The answer as the server unstructures it (lsprotocol's converter): camelCase, versioned document changes. */
function answer(version: number | null, newText = '4\tbüyük\t_\t_\t_\t_\t_\t_\t_\t_\n') {
  return {
    label: "Insert 'büyük' after 3 'ev'",
    edit: {
      documentChanges: [{
        textDocument: { uri: URI, version },
        edits: [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, newText }],
      }],
    },
  };
}

describe('edit commands', () => {
  it('names every operation the server knows once, with the input each needs', () => {
    // server/lsp/features/editing.py: OPERATIONS of scorer/conllu/editing/operations.py, plus "renumber".
    assert.deepEqual(EDIT_COMMANDS.map((c) => c.operation).sort(), [
      'attach', 'delete', 'insertAfter', 'insertBefore', 'joinWithNext', 'makeToken', 'mergeWithNext',
      'renumber', 'splitSentence', 'splitWord', 'undoToken']);
    assert.equal(new Set(EDIT_COMMANDS.map((c) => c.command)).size, EDIT_COMMANDS.length);
    const inputs = Object.fromEntries(EDIT_COMMANDS.map((c) => [c.operation, c.input]));
    assert.deepEqual([inputs.insertAfter, inputs.insertBefore, inputs.attach, inputs.delete, inputs.renumber],
      ['form', 'form', 'head', 'none', 'none']);
  });
});

describe('editArguments', () => {
  it('sends the cursor, the version and the operation, nothing else when nothing was asked', () => {
    assert.deepEqual(editArguments(URI, 7, { line: 4, character: 2 }, 'delete'),
      { uri: URI, version: 7, line: 4, character: 2, operation: 'delete' });
  });

  it('sends the FORM typed (also an empty one: the server writes _), the head and a DEPREL', () => {
    assert.deepEqual(editArguments(URI, 1, { line: 4, character: 0 }, 'insertAfter', { form: 'büyük' }),
      { uri: URI, version: 1, line: 4, character: 0, operation: 'insertAfter', form: 'büyük' });
    assert.equal(editArguments(URI, 1, { line: 4, character: 0 }, 'insertBefore', { form: '' }).form, '');
    assert.deepEqual(editArguments(URI, 2, { line: 3, character: 5 }, 'attach', { head: 0, deprel: ' amod ' }),
      { uri: URI, version: 2, line: 3, character: 5, operation: 'attach', head: 0, deprel: 'amod' });
  });

  it('leaves an empty DEPREL out, so the word keeps its own', () => {
    assert.equal('deprel' in editArguments(URI, 2, { line: 3, character: 5 }, 'attach', { head: 5, deprel: '' }), false);
    assert.equal(editArguments(URI, 2, { line: 3, character: 5 }, 'attach', { head: 5, deprel: '' }).head, 5);
  });
});

describe('parseEditAnswer', () => {
  it('takes the label and the versioned document edits', () => {
    assert.deepEqual(parseEditAnswer(answer(3)), {
      kind: 'edit',
      label: "Insert 'büyük' after 3 'ev'",
      documents: [{
        uri: URI, version: 3,
        edits: [{ range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } },
          newText: '4\tbüyük\t_\t_\t_\t_\t_\t_\t_\t_\n' }],
      }],
    });
  });

  it('says a refusal with the server\'s reason', () => {
    assert.deepEqual(parseEditAnswer({ refused: 'a cycle: 5 → 3 → 5' }), { kind: 'refused', reason: 'a cycle: 5 → 3 → 5' });
  });

  it('applies nothing of an answer that breaks the contract', () => {
    const broken = [
      null, 'x', {}, { label: 'x' }, { label: 'x', edit: { changes: {} } },
      { label: 'x', edit: { documentChanges: [{ kind: 'create', uri: URI }] } },
      { label: 'x', edit: { documentChanges: [{ textDocument: { uri: URI, version: 'v' }, edits: [] }] } },
      { label: 'x', edit: { documentChanges: [{ textDocument: { uri: URI, version: 1 }, edits: [{ newText: 'a' }] }] } },
      { label: 'x', edit: { documentChanges: [{ textDocument: { uri: URI, version: 1 },
        edits: [{ range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, newText: '' }] }] } },
    ];
    for (const value of broken) {
      assert.equal(parseEditAnswer(value).kind, 'broken', JSON.stringify(value));
    }
  });
});

function documentsOf(value: unknown): DocumentEdits[] {
  const parsed = parseEditAnswer(value);
  assert.equal(parsed.kind, 'edit');
  return parsed.kind === 'edit' ? parsed.documents : [];
}

describe('staleEdit', () => {
  it('lets an edit for the document\'s version (or for any) through', () => {
    const documents = documentsOf(answer(3));
    assert.equal(staleEdit(documents, () => 3), undefined);
    const any = documentsOf(answer(null));
    assert.equal(staleEdit(any, () => 9), undefined);
  });

  it('refuses an edit made for another version, or for a document not open', () => {
    const documents = documentsOf(answer(3));
    assert.match(staleEdit(documents, () => 4)!, /changed while the edit was made \(version 3, now 4\)/);
    assert.match(staleEdit(documents, () => undefined)!, /not open/);
  });
});

describe('the quick pick of "Attach to…"', () => {
  // Words on lines 2.. (after two comments); a multiword token 2-3 on line 3 in the last case.
  const sentence = tree([['1', 'Ali', 'PROPN', '3', 'nsubj'], ['2', 'demir', 'NOUN', '3', 'obj'], ['3', 'aldı', 'VERB', '0', 'root']]);

  it('offers the root, then every other word as "ID FORM (UPOS)", the current head said', () => {
    const word = wordAtLine(sentence, 3)!;
    assert.equal(word.form, 'demir');
    assert.deepEqual(headChoices(sentence, word), [
      { label: '0 root', head: 0 },
      { label: '1 Ali (PROPN)', head: 1 },
      { label: '3 aldı (VERB)', head: 3, description: 'current head' },
    ]);
    assert.deepEqual(headChoices(sentence, wordAtLine(sentence, 4)!)[0], { label: '0 root', head: 0, description: 'current head' });
  });

  it('leaves out empty nodes, and reads a multiword token\'s line as its first word', () => {
    const withEmpty = tree([['1', 'a', 'X', '0', 'root'], ['1.1', 'e', 'X', '_', '_'], ['2', 'b', 'X', '1', 'dep']]);
    assert.deepEqual(headChoices(withEmpty, wordAtLine(withEmpty, 4)!).map((c) => c.head), [0, 1]);
    assert.equal(wordAtLine(withEmpty, 3), undefined, 'an empty node is not a word to attach');
    const token = tree([['1', 'de', 'ADP', '2', 'case'], ['2', 'le', 'DET', '0', 'root']], undefined,
      [{ id: '1-2', form: 'du', line: 1, first: 0, last: 1 }]);
    assert.equal(wordAtLine(token, 1)!.form, 'de');
    assert.equal(wordAtLine(token, 0), undefined);
  });
});
