// Tokenizes CoNLL-U with the grammar through vscode-textmate and
// vscode-oniguruma, the engine VS Code itself uses, and checks the scope of
// each column.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { INITIAL, IGrammar, parseRawGrammar, Registry } from 'vscode-textmate';
import { loadWASM, OnigScanner, OnigString } from 'vscode-oniguruma';
import { PACKAGE_ROOT } from '../support/paths';

const GRAMMAR_PATH = path.join(PACKAGE_ROOT, 'syntaxes', 'conllu.tmLanguage.json');

let grammar: IGrammar;

before(async () => {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources: string[]) => new OnigScanner(sources),
      createOnigString: (text: string) => new OnigString(text),
    }),
    loadGrammar: async (scopeName: string) =>
      scopeName === 'source.conllu' ? parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH) : null,
  });
  const loaded = await registry.loadGrammar('source.conllu');
  assert.ok(loaded, 'grammar source.conllu loads');
  grammar = loaded;
});

interface Token {
  text: string;
  scopes: string[];
}

function tokenize(line: string): Token[] {
  const { tokens } = grammar.tokenizeLine(line, INITIAL);
  return tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
}

/** The innermost scope of the token(s) spelling `text`, which must be one token. */
function scopeOf(tokens: Token[], text: string, occurrence = 0): string[] {
  const matches = tokens.filter((t) => t.text === text);
  const token = matches[occurrence];
  assert.ok(token, `a token "${text}" (#${occurrence}) in ${JSON.stringify(tokens.map((t) => t.text))}`);
  return token.scopes;
}

function innermost(tokens: Token[], text: string, occurrence = 0): string {
  const scopes = scopeOf(tokens, text, occurrence);
  return scopes[scopes.length - 1]!;
}

describe('CoNLL-U grammar', () => {
  it('gives each of the ten columns of a word line its own scope', () => {
    const tokens = tokenize('6\tmat\tmat\tNOUN\tNN\tNumber=Sing\t3\tobl\t3:obl:on\tSpaceAfter=No');
    assert.equal(innermost(tokens, '6'), 'constant.numeric.id.word.conllu');
    assert.equal(innermost(tokens, 'mat', 0), 'entity.name.function.form.conllu');
    assert.equal(innermost(tokens, 'mat', 1), 'string.unquoted.lemma.conllu');
    assert.equal(innermost(tokens, 'NOUN'), 'entity.name.type.upos.conllu');
    assert.equal(innermost(tokens, 'NN'), 'storage.type.xpos.conllu');
    assert.equal(innermost(tokens, 'Number'), 'entity.other.attribute-name.feature.conllu');
    assert.equal(innermost(tokens, 'Sing'), 'support.constant.feature-value.conllu');
    assert.ok(scopeOf(tokens, 'Sing').includes('meta.feats.conllu'));
    assert.equal(innermost(tokens, '3', 0), 'constant.numeric.head.conllu');
    assert.equal(innermost(tokens, 'obl', 0), 'keyword.other.deprel.conllu');
    assert.equal(innermost(tokens, 'obl:on'), 'keyword.other.deprel.conllu');
    assert.ok(scopeOf(tokens, 'obl:on').includes('meta.deps.conllu'), 'DEPS relation inside meta.deps');
    assert.equal(innermost(tokens, '3', 1), 'constant.numeric.head.conllu');
    assert.equal(innermost(tokens, 'SpaceAfter'), 'entity.other.attribute-name.misc.conllu');
    assert.ok(scopeOf(tokens, 'No').includes('meta.misc.conllu'));
    const tabs = tokens.filter((t) => t.text === '\t');
    assert.equal(tabs.length, 9);
    assert.ok(tabs.every((t) => t.scopes.at(-1) === 'punctuation.separator.column.conllu'));
    assert.ok(tokens.every((t) => t.scopes.includes('meta.token.conllu')));
  });

  it('tells multiword ranges and empty nodes from word IDs', () => {
    const range = tokenize("2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_");
    assert.equal(innermost(range, '2-3'), 'constant.numeric.id.multiword-range.conllu');
    assert.equal(innermost(range, "don't"), 'entity.name.function.form.conllu');
    const empty = tokenize('5.1\tgot\tget\tVERB\t_\t_\t_\t_\t3:conj\t_');
    assert.equal(innermost(empty, '5.1'), 'constant.numeric.id.empty-node.conllu');
  });

  it('marks an unparsed HEAD and DEPREL `_` as unspecified', () => {
    const tokens = tokenize('1\tNobody\tnobody\tPRON\tNN\t_\t_\t_\t_\t_');
    const underscores = tokens.filter((t) => t.text === '_');
    assert.equal(underscores.length, 5, 'FEATS HEAD DEPREL DEPS MISC');
    assert.ok(underscores.every((t) => t.scopes.at(-1) === 'constant.language.unspecified.conllu'));
    assert.ok(underscores[1]!.scopes.includes('constant.numeric.head.conllu'), 'the HEAD `_` keeps the HEAD scope');
  });

  it('splits a relation subtype and highlights confidences in MISC', () => {
    const tokens = tokenize('3\tcells\tcell\tNOUN\tNNS\tNumber=Plur\t6\tobl:arg\t_\tSpaceAfter=No|Conf=UPOS:0.98,HEAD:0.72');
    assert.equal(innermost(tokens, 'obl'), 'keyword.other.deprel.conllu');
    assert.equal(innermost(tokens, 'arg'), 'keyword.other.deprel.subtype.conllu');
    assert.equal(innermost(tokens, 'Conf'), 'keyword.other.confidence.conllu');
    assert.equal(innermost(tokens, 'HEAD'), 'variable.parameter.confidence-column.conllu');
    assert.equal(innermost(tokens, '0.72'), 'constant.numeric.confidence.conllu');
    const single = tokenize('1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\tConf=0.99');
    assert.equal(innermost(single, '0.99'), 'constant.numeric.confidence.conllu');
  });

  it('highlights sent_id and text comments and other metadata', () => {
    const sentId = tokenize('# sent_id = demo-1');
    assert.equal(innermost(sentId, 'sent_id'), 'keyword.other.sent-id.conllu');
    assert.equal(innermost(sentId, 'demo-1'), 'entity.name.section.sent-id.conllu');
    assert.ok(sentId.every((t) => t.scopes.some((s) => s.startsWith('comment.line'))));
    const text = tokenize('# text = The cat sat on the mat.');
    assert.equal(innermost(text, 'The cat sat on the mat.'), 'string.unquoted.sentence-text.conllu');
    const newdoc = tokenize('# newdoc id = doc1');
    assert.equal(innermost(newdoc, 'newdoc id'), 'keyword.other.metadata.conllu');
    const plain = tokenize('# any remark at all');
    assert.equal(plain.at(-1)!.scopes.at(-1), 'comment.line.number-sign.conllu');
  });

  it('marks a line without ten tab-separated columns as invalid, but not a blank line', () => {
    const nine = tokenize('1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_');
    assert.ok(nine.every((t) => t.scopes.includes('invalid.illegal.malformed-line.conllu')));
    const spaces = tokenize('1 The the DET DT _ 2 det _ _');
    assert.ok(spaces.every((t) => t.scopes.includes('invalid.illegal.malformed-line.conllu')));
    const blank = tokenize('');
    assert.ok(blank.every((t) => !t.scopes.some((s) => s.startsWith('invalid'))));
  });
});
