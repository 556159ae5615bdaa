// The bundle esbuild makes from the package.json script: VS Code loads it
// with only `vscode` and node's built-ins available (the .vsix ships no
// node_modules), so everything else must be inside it.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module, { builtinModules } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PACKAGE_ROOT } from '../support/paths';

const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
let outDir: string;
let bundlePath: string;

before(() => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'annoscore-bundle-'));
  bundlePath = path.join(outDir, 'extension.js');
  // The package.json bundle script, with the output moved to a temporary folder.
  const script: string = manifest.scripts.bundle;
  const args = script.split(/\s+/).slice(1).map((arg) => (arg.startsWith('--outfile=') ? `--outfile=${bundlePath}` : arg));
  execFileSync(path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'esbuild'), args, { cwd: PACKAGE_ROOT, stdio: 'pipe' });
});

after(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe('extension bundle', () => {
  it('is written where package.json main points (relative to the package)', () => {
    assert.match(manifest.scripts.bundle, /--outfile=dist\/extension\.js(\s|$)/);
    assert.equal(manifest.main, './dist/extension.js');
  });

  it('loads with only vscode and node built-ins, and exports activate and deactivate', () => {
    const required = new Set<string>();
    const loader = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
    const originalLoad = loader._load;
    loader._load = (request, parent, isMain) => {
      if (parent !== null && (parent as { filename?: string }).filename === bundlePath) {
        required.add(request);
        if (request === 'vscode') {
          // vscode-languageclient subclasses vscode classes when it loads; activate() is not called.
          return new Proxy({}, { get: () => class FakeVscodeClass {} });
        }
        const name = request.replace(/^node:/, '');
        assert.ok(builtinModules.includes(name), `the bundle requires "${request}", which a .vsix without node_modules lacks`);
      }
      return originalLoad(request, parent, isMain);
    };
    try {
      const exported = require(bundlePath) as Record<string, unknown>;
      assert.equal(typeof exported.activate, 'function');
      assert.equal(typeof exported.deactivate, 'function');
    } finally {
      loader._load = originalLoad;
    }
    assert.ok(required.has('vscode'), 'the bundle uses the vscode API');
    const bundle = fs.readFileSync(bundlePath, 'utf8');
    assert.match(bundle, /annoscore\/score/, 'the score notification handler is in the bundle');
  });
});
