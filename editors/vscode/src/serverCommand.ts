// Finding the command that starts the server: the setting if given, else
// `annoscore` beside the selected Python interpreter, else on PATH. Uses node's
// fs and path but not vscode, so it is unit-tested with temporary folders;
// path rules are chosen by the platform argument, so Windows layouts are
// tested on Linux too.

import * as fs from 'node:fs';
import * as path from 'node:path';

export type OsFamily = 'posix' | 'win32';

export const SERVER_EXECUTABLE = 'annoscore';
export const SERVER_ARGS: readonly string[] = ['lsp'];

export interface Candidate {
  /** Absolute path of an `annoscore` executable that may exist. */
  path: string;
  /** Where the candidate comes from, for the log ("Python environment …", "PATH"). */
  origin: string;
}

export type ServerCommand =
  | { kind: 'configured'; command: string[] }
  | { kind: 'found'; command: string[]; candidate: Candidate }
  | { kind: 'notFound'; tried: Candidate[] };

function pathFor(os: OsFamily): path.PlatformPath {
  return os === 'win32' ? path.win32 : path.posix;
}

/**
 * Where pip puts console scripts for an interpreter: beside it (venv `bin/`,
 * venv `Scripts\`), and on Windows also in `Scripts\` below a base or conda
 * interpreter that sits at the environment's root. The interpreter path is not
 * resolved through symlinks: a venv's `bin/python` links to the base Python,
 * but the venv's scripts are beside the link.
 */
export function interpreterScriptPaths(interpreterPath: string, os: OsFamily): string[] {
  const p = pathFor(os);
  const dir = p.dirname(interpreterPath);
  if (os === 'win32') {
    // pip makes .exe launchers; .cmd/.bat cannot be spawned without a shell.
    const beside = p.join(dir, `${SERVER_EXECUTABLE}.exe`);
    const inScripts = p.join(dir, 'Scripts', `${SERVER_EXECUTABLE}.exe`);
    return p.basename(dir).toLowerCase() === 'scripts' ? [beside] : [beside, inScripts];
  }
  return [p.join(dir, SERVER_EXECUTABLE)];
}

/** `annoscore` in each folder of PATH, in order (empty entries skipped). */
export function pathScriptPaths(pathEnv: string | undefined, os: OsFamily): string[] {
  if (pathEnv === undefined || pathEnv === '') {
    return [];
  }
  const p = pathFor(os);
  const name = os === 'win32' ? `${SERVER_EXECUTABLE}.exe` : SERVER_EXECUTABLE;
  return pathEnv
    .split(os === 'win32' ? ';' : ':')
    .map((dir) => dir.trim().replace(/^"(.*)"$/, '$1'))
    .filter((dir) => dir !== '' && p.isAbsolute(dir))
    .map((dir) => p.join(dir, name));
}

export interface CandidateSources {
  /** Absolute path of the selected Python interpreter, if one is known. */
  interpreterPath?: string;
  /** How the interpreter was found ("Python extension", "python.defaultInterpreterPath"). */
  interpreterOrigin?: string;
  pathEnv?: string;
  os: OsFamily;
}

export function serverCandidates(sources: CandidateSources): Candidate[] {
  const candidates: Candidate[] = [];
  if (sources.interpreterPath !== undefined) {
    const origin = `Python environment of ${sources.interpreterPath}` +
      (sources.interpreterOrigin !== undefined ? ` (from ${sources.interpreterOrigin})` : '');
    for (const candidatePath of interpreterScriptPaths(sources.interpreterPath, sources.os)) {
      candidates.push({ path: candidatePath, origin });
    }
  }
  for (const candidatePath of pathScriptPaths(sources.pathEnv, sources.os)) {
    candidates.push({ path: candidatePath, origin: 'PATH' });
  }
  // The same folder can come from both sources (an activated venv): try it once.
  const seen = new Set<string>();
  return candidates.filter((c) => !seen.has(c.path) && (seen.add(c.path), true));
}

/** The configured command wins; otherwise the first candidate that is an executable file. */
export function findServerCommand(
  configuredCommand: readonly string[],
  candidates: readonly Candidate[],
  isExecutable: (filePath: string) => boolean,
): ServerCommand {
  if (configuredCommand.length > 0) {
    return { kind: 'configured', command: [...configuredCommand] };
  }
  for (const candidate of candidates) {
    if (isExecutable(candidate.path)) {
      return { kind: 'found', command: [candidate.path, ...SERVER_ARGS], candidate };
    }
  }
  return { kind: 'notFound', tried: [...candidates] };
}

export function isExecutableFile(filePath: string, os: OsFamily = currentOs()): boolean {
  try {
    if (!fs.statSync(filePath).isFile()) {
      return false;
    }
    if (os !== 'win32') {
      fs.accessSync(filePath, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

export function currentOs(): OsFamily {
  return process.platform === 'win32' ? 'win32' : 'posix';
}

/**
 * Turns the `python.defaultInterpreterPath` setting into an absolute path:
 * `${workspaceFolder}` and `~` are expanded, a relative path with a folder
 * part (".venv/bin/python") is taken from the workspace folder. A bare name
 * ("python", the setting's default) names no environment: undefined, and
 * the PATH search covers it.
 */
export function resolveInterpreterSetting(
  value: string | undefined,
  workspaceFolderPath: string | undefined,
  homeDir: string,
  os: OsFamily,
): string | undefined {
  if (value === undefined || value.trim() === '') {
    return undefined;
  }
  const p = pathFor(os);
  let expanded = value.trim();
  if (workspaceFolderPath !== undefined) {
    expanded = expanded.replace(/\$\{workspaceFolder\}/g, workspaceFolderPath);
  }
  if (expanded.includes('${')) {
    return undefined; // another variable we cannot expand
  }
  if (expanded === '~' || expanded.startsWith('~/') || expanded.startsWith('~\\')) {
    expanded = p.join(homeDir, expanded.slice(1));
  }
  if (p.isAbsolute(expanded)) {
    return p.normalize(expanded);
  }
  const hasFolderPart = expanded.includes('/') || (os === 'win32' && expanded.includes('\\'));
  if (hasFolderPart && workspaceFolderPath !== undefined) {
    return p.join(workspaceFolderPath, expanded);
  }
  return undefined;
}

/**
 * The error shown when no server is found: what to install, where, or what to set.
 * annoscore is not on PyPI (`pip install annoscore` fails): it is installed from a clone.
 */
export function notFoundMessage(interpreterPath: string | undefined): string {
  const fromClone = 'from a clone of the annoscore repository (it is not on PyPI)';
  const install = interpreterPath !== undefined
    ? `Install it ${fromClone} into the selected Python environment: "${interpreterPath}" -m pip install /path/to/annoscore`
    : `Install it ${fromClone} into a Python environment (python3 -m venv .venv && .venv/bin/pip install /path/to/annoscore) ` +
      'and select that environment in the Python extension';
  return `annoscore: the language server (annoscore lsp) was not found. ${install}, ` +
    'or set "annoscore.server.command" to the command that starts it, e.g. ["/path/to/annoscore", "lsp"].';
}

/** One line per candidate for the output channel. */
export function describeTried(tried: readonly Candidate[]): string[] {
  if (tried.length === 0) {
    return ['  (no Python interpreter selected and no PATH folders to look in)'];
  }
  return tried.map((c) => `  ${c.path}  [${c.origin}]: not found or not executable`);
}
