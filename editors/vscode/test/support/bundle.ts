// Builds the extension bundle with the package.json `bundle` script into a
// temporary folder, and loads it with a given module standing in for `vscode`.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { PACKAGE_ROOT } from './paths';

export const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));

export interface BuiltBundle {
  path: string;
  remove(): void;
}

export function buildBundle(): BuiltBundle {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'annoscore-bundle-'));
  const bundlePath = path.join(outDir, 'extension.js');
  const script: string = manifest.scripts.bundle;
  const args = script.split(/\s+/).slice(1).map((arg) => (arg.startsWith('--outfile=') ? `--outfile=${bundlePath}` : arg));
  execFileSync(path.join(PACKAGE_ROOT, 'node_modules', '.bin', 'esbuild'), args, { cwd: PACKAGE_ROOT, stdio: 'pipe' });
  return { path: bundlePath, remove: () => fs.rmSync(outDir, { recursive: true, force: true }) };
}

type Loader = { _load: (request: string, parent: unknown, isMain: boolean) => unknown };

/**
 * Requires the bundle afresh; `resolve` answers each of the bundle's own
 * require calls (return undefined to let node load the module).
 */
export function loadBundle(bundlePath: string, resolve: (request: string) => unknown): Record<string, unknown> {
  const loader = Module as unknown as Loader;
  const originalLoad = loader._load;
  loader._load = (request, parent, isMain) => {
    if (parent !== null && (parent as { filename?: string }).filename === bundlePath) {
      const answer = resolve(request);
      if (answer !== undefined) return answer;
    }
    return originalLoad(request, parent, isMain);
  };
  try {
    delete require.cache[bundlePath];
    return require(bundlePath) as Record<string, unknown>;
  } finally {
    loader._load = originalLoad;
  }
}
