// The bundle esbuild makes from the package.json script: VS Code loads it
// with only `vscode` and node's built-ins available (the .vsix ships no
// node_modules), so everything else must be inside it.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { BuiltBundle, buildBundle, loadBundle, manifest } from '../support/bundle';

let bundle: BuiltBundle;

before(() => {
  bundle = buildBundle();
});

after(() => {
  bundle.remove();
});

describe('extension bundle', () => {
  it('is written where package.json main points (relative to the package)', () => {
    assert.match(manifest.scripts.bundle, /--outfile=dist\/extension\.js(\s|$)/);
    assert.equal(manifest.main, './dist/extension.js');
  });

  it('loads with only vscode and node built-ins, and exports activate and deactivate', () => {
    const required = new Set<string>();
    const exported = loadBundle(bundle.path, (request) => {
      required.add(request);
      if (request === 'vscode') {
        // vscode-languageclient subclasses vscode classes when it loads; activate() is not called.
        return new Proxy({}, { get: () => class FakeVscodeClass {} });
      }
      const name = request.replace(/^node:/, '');
      assert.ok(builtinModules.includes(name), `the bundle requires "${request}", which a .vsix without node_modules lacks`);
      return undefined;
    });
    assert.equal(typeof exported.activate, 'function');
    assert.equal(typeof exported.deactivate, 'function');
    assert.ok(required.has('vscode'), 'the bundle uses the vscode API');
    const text = fs.readFileSync(bundle.path, 'utf8');
    assert.match(text, /annoscore\/score/, 'the score notification handler is in the bundle');
  });
});
