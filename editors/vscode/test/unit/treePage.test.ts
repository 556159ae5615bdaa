import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, parsePageMessage, treePage } from '../../src/treePage';
import { PACKAGE_ROOT } from '../support/paths';

const PARTS = { nonce: 'n0nceABC', scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/treeView.js' };

describe('tree view page', () => {
  it('allows nothing by default, and only its own nonce-tagged style and script', () => {
    const policy = contentSecurityPolicy(PARTS);
    const directives = new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'nonce-n0nceABC'"]);
    assert.deepEqual(directives.get('style-src'), ["'nonce-n0nceABC'"]);
    for (const directive of ['img-src', 'font-src', 'connect-src', 'frame-src']) {
      assert.deepEqual(directives.get(directive), ["'none'"], directive);
    }
    assert.doesNotMatch(policy, /unsafe|\*|https?:/);
  });

  it('puts the policy in the page, and the nonce on its only script and style', () => {
    const page = treePage(PARTS);
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src &apos;none&apos;|default-src 'none'/);
    const scripts = [...page.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, [`<script nonce="n0nceABC" src="${PARTS.scriptUri}">`]);
    const styles = [...page.matchAll(/<style[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(styles, ['<style nonce="n0nceABC">']);
    assert.doesNotMatch(page, / style="/, 'no inline style attributes (the policy would block them)');
    // Nothing remote: the only URL is the script's own.
    assert.deepEqual([...page.matchAll(/https?:\/\/[^"' )]+/g)].map((m) => m[0]), [PARTS.scriptUri]);
  });

  it('ships a page script that only talks to the extension', () => {
    const script = fs.readFileSync(path.join(PACKAGE_ROOT, 'media', 'treeView.js'), 'utf8');
    assert.doesNotMatch(script, /fetch\(|XMLHttpRequest|WebSocket|eval\(|new Function|https?:\/\//);
    const ignore = fs.readFileSync(path.join(PACKAGE_ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!media\/treeView\.js$/m, 'the .vsix ships it');
  });

  it('accepts only the messages it knows from the page', () => {
    assert.deepEqual(parsePageMessage({ type: 'reveal', line: 4 }), { type: 'reveal', line: 4 });
    assert.deepEqual(parsePageMessage({ type: 'hover', line: null }), { type: 'hover', line: null });
    assert.deepEqual(parsePageMessage({ type: 'copy', extra: 1 }), { type: 'copy' });
    for (const bad of [null, 'reveal', { type: 'reveal', line: null }, { type: 'reveal', line: -1 }, { type: 'hover', line: '3' }, { type: 'run', line: 1 }]) {
      assert.equal(parsePageMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
