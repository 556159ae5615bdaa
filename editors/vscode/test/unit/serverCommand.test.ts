import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  describeTried,
  findServerCommand,
  interpreterScriptPaths,
  isExecutableFile,
  notFoundMessage,
  pathScriptPaths,
  resolveInterpreterSetting,
  serverCandidates,
} from '../../src/serverCommand';

describe('candidate paths', () => {
  it('looks beside a venv interpreter, without resolving its symlink', () => {
    assert.deepEqual(interpreterScriptPaths('/home/me/proj/.venv/bin/python', 'posix'), ['/home/me/proj/.venv/bin/annoscore']);
  });

  it('looks in Scripts on Windows, for venvs and for conda or base interpreters at the root', () => {
    assert.deepEqual(interpreterScriptPaths('C:\\proj\\.venv\\Scripts\\python.exe', 'win32'), ['C:\\proj\\.venv\\Scripts\\annoscore.exe']);
    assert.deepEqual(interpreterScriptPaths('C:\\conda\\envs\\ud\\python.exe', 'win32'), [
      'C:\\conda\\envs\\ud\\annoscore.exe',
      'C:\\conda\\envs\\ud\\Scripts\\annoscore.exe',
    ]);
  });

  it('looks in each absolute PATH folder in order', () => {
    assert.deepEqual(pathScriptPaths('/usr/local/bin::relative/bin:/usr/bin', 'posix'), ['/usr/local/bin/annoscore', '/usr/bin/annoscore']);
    assert.deepEqual(pathScriptPaths('C:\\Python311\\Scripts;"C:\\Tools";', 'win32'), [
      'C:\\Python311\\Scripts\\annoscore.exe',
      'C:\\Tools\\annoscore.exe',
    ]);
    assert.deepEqual(pathScriptPaths(undefined, 'posix'), []);
  });

  it('puts the selected environment before PATH and tries a folder only once', () => {
    const candidates = serverCandidates({
      interpreterPath: '/venv/bin/python',
      interpreterOrigin: 'the Python extension',
      pathEnv: '/venv/bin:/usr/bin',
      os: 'posix',
    });
    assert.deepEqual(candidates, [
      { path: '/venv/bin/annoscore', origin: 'Python environment of /venv/bin/python (from the Python extension)' },
      { path: '/usr/bin/annoscore', origin: 'PATH' },
    ]);
  });
});

describe('choosing the command', () => {
  const candidates = [
    { path: '/venv/bin/annoscore', origin: 'venv' },
    { path: '/usr/local/bin/annoscore', origin: 'PATH' },
    { path: '/usr/bin/annoscore', origin: 'PATH' },
  ];

  it('uses the configured command as it is, without looking anywhere', () => {
    const result = findServerCommand(['uv', 'run', 'annoscore', 'lsp'], candidates, () => {
      throw new Error('must not look for files');
    });
    assert.deepEqual(result, { kind: 'configured', command: ['uv', 'run', 'annoscore', 'lsp'] });
  });

  it('takes the first executable candidate and adds the lsp argument', () => {
    const existing = new Set(['/usr/local/bin/annoscore', '/usr/bin/annoscore']);
    const result = findServerCommand([], candidates, (p) => existing.has(p));
    assert.deepEqual(result, { kind: 'found', command: ['/usr/local/bin/annoscore', 'lsp'], candidate: candidates[1] });
  });

  it('reports every candidate it tried when none exists', () => {
    const result = findServerCommand([], candidates, () => false);
    assert.deepEqual(result, { kind: 'notFound', tried: candidates });
    assert.equal(describeTried(candidates).length, 3);
    assert.match(describeTried(candidates)[0]!, /\/venv\/bin\/annoscore {2}\[venv\]/);
    assert.match(describeTried([])[0]!, /no Python interpreter/);
  });
});

describe('executable files on disk', () => {
  it('accepts an executable file and refuses a plain file, a folder and a missing path', { skip: process.platform === 'win32' }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'annoscore-cmd-'));
    try {
      const bin = path.join(dir, 'bin');
      fs.mkdirSync(bin);
      const script = path.join(bin, 'annoscore');
      fs.writeFileSync(script, '#!/bin/sh\n');
      assert.equal(isExecutableFile(script, 'posix'), false, 'not executable yet');
      fs.chmodSync(script, 0o755);
      assert.equal(isExecutableFile(script, 'posix'), true);
      assert.equal(isExecutableFile(bin, 'posix'), false);
      assert.equal(isExecutableFile(path.join(bin, 'missing'), 'posix'), false);

      // The whole automatic search on a real venv-like layout.
      const candidates = serverCandidates({ interpreterPath: path.join(bin, 'python'), pathEnv: '/nonexistent', os: 'posix' });
      assert.deepEqual(findServerCommand([], candidates, (p) => isExecutableFile(p, 'posix')), {
        kind: 'found', command: [script, 'lsp'], candidate: candidates[0],
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('python.defaultInterpreterPath', () => {
  it('expands ${workspaceFolder} and ~, and resolves relative paths from the folder', () => {
    assert.equal(resolveInterpreterSetting('${workspaceFolder}/.venv/bin/python', '/w/proj', '/home/me', 'posix'), '/w/proj/.venv/bin/python');
    assert.equal(resolveInterpreterSetting('~/venvs/ud/bin/python', '/w', '/home/me', 'posix'), '/home/me/venvs/ud/bin/python');
    assert.equal(resolveInterpreterSetting('.venv/bin/python', '/w/proj', '/home/me', 'posix'), '/w/proj/.venv/bin/python');
    assert.equal(resolveInterpreterSetting('.venv\\Scripts\\python.exe', 'C:\\proj', 'C:\\Users\\me', 'win32'), 'C:\\proj\\.venv\\Scripts\\python.exe');
  });

  it('gives nothing for a bare name (the default "python"), an empty value or an unknown variable', () => {
    assert.equal(resolveInterpreterSetting('python', '/w', '/home/me', 'posix'), undefined);
    assert.equal(resolveInterpreterSetting('', '/w', '/home/me', 'posix'), undefined);
    assert.equal(resolveInterpreterSetting(undefined, '/w', '/home/me', 'posix'), undefined);
    assert.equal(resolveInterpreterSetting('${env:VENV}/bin/python', '/w', '/home/me', 'posix'), undefined);
  });
});

describe('the not-found message', () => {
  it('says to install from a clone into the selected environment, and the setting to use instead', () => {
    const message = notFoundMessage('/w/.venv/bin/python');
    assert.match(message, /"\/w\/\.venv\/bin\/python" -m pip install \/path\/to\/annoscore/);
    assert.match(message, /clone of the annoscore repository \(it is not on PyPI\)/);
    assert.match(message, /annoscore\.server\.command/);
  });

  it('without a selected environment, says how to install from a clone and to select it', () => {
    const message = notFoundMessage(undefined);
    assert.match(message, /\.venv\/bin\/pip install \/path\/to\/annoscore/);
    assert.match(message, /not on PyPI/);
    assert.match(message, /select that environment/);
    assert.match(message, /annoscore\.server\.command/);
  });

  it('never says pip install annoscore (there is no such package on PyPI)', () => {
    for (const interpreter of ['/w/.venv/bin/python', undefined]) {
      assert.doesNotMatch(notFoundMessage(interpreter), /pip install annoscore\b/);
    }
  });
});
