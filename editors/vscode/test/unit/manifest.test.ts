// package.json must agree with the code: the settings it declares with the
// defaults the code assumes, the commands it contributes with those the code
// registers, and the files it names must exist.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, DIAGNOSTIC_CODES, RESTART_SETTINGS, RUN_MODES, SENTENCE_MODES, SEVERITIES } from '../../src/settings';
import { RESCORE_COMMAND } from '../../src/protocol';
import { NAVIGATION_COMMANDS } from '../../src/navigation';
import { EDIT_COMMAND, EDIT_COMMANDS } from '../../src/editing';
import { PACKAGE_ROOT } from '../support/paths';

interface SettingSchema {
  type: string;
  default: unknown;
  description?: string;
  markdownDescription?: string;
  enum?: string[];
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  properties?: Record<string, { enum?: string[] }>;
  patternProperties?: Record<string, { enum?: string[] }>;
  additionalProperties?: boolean | { enum?: string[] };
}

const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8'));
const settings: Record<string, SettingSchema> = manifest.contributes.configuration.properties;

function flatDefaults(prefix: string, value: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const id = `${prefix}.${key}`;
    if (typeof inner === 'object' && inner !== null && !Array.isArray(inner) && key !== 'severities') {
      Object.assign(flat, flatDefaults(id, inner as Record<string, unknown>));
    } else {
      flat[id] = inner;
    }
  }
  return flat;
}

describe('package.json settings', () => {
  it('declares exactly the settings the code knows, with the same defaults and a description', () => {
    const expected = flatDefaults('annoscore', DEFAULT_SETTINGS as unknown as Record<string, unknown>);
    assert.deepEqual(Object.keys(settings).sort(), Object.keys(expected).sort());
    for (const [id, schema] of Object.entries(settings)) {
      assert.deepEqual(schema.default, expected[id], `default of ${id}`);
      assert.ok((schema.description ?? schema.markdownDescription ?? '').length > 20, `description of ${id}`);
    }
  });

  it('constrains threshold to [0, 1] and run to the two modes', () => {
    assert.equal(settings['annoscore.threshold']!.minimum, 0);
    assert.equal(settings['annoscore.threshold']!.maximum, 1);
    assert.deepEqual(settings['annoscore.run']!.enum, [...RUN_MODES]);
  });

  it('offers the sentence modes with a description each, and the two diagnostics limits as integers of at least 1', () => {
    const sentences = settings['annoscore.sentences']!;
    assert.equal(sentences.type, 'string');
    assert.deepEqual(sentences.enum, [...SENTENCE_MODES]);
    assert.equal(sentences.enumDescriptions?.length, SENTENCE_MODES.length);
    assert.ok(sentences.enumDescriptions!.every((d) => d.length > 20));
    for (const key of ['annoscore.maxDiagnostics', 'annoscore.maxDiagnosticsPerDocument']) {
      const count = settings[key]!;
      assert.equal(count.type, 'integer', key);
      assert.equal(count.minimum, 1, key);
    }
  });

  it('describes the main diagnostic codes under severities, and takes any other code', () => {
    const severities = settings['annoscore.severities']!;
    const described = Object.keys(severities.properties ?? {});
    assert.ok(described.length >= 15);
    for (const code of described) {
      assert.ok(DIAGNOSTIC_CODES.includes(code), code);
    }
    const other = severities.additionalProperties;
    assert.deepEqual(typeof other === "object" ? other.enum : other, [...SEVERITIES]);
    for (const schema of Object.values(severities.properties ?? {})) {
      assert.deepEqual(schema.enum, [...SEVERITIES]);
    }
    assert.deepEqual(severities.patternProperties?.['^format-.*$']?.enum, [...SEVERITIES]);
  });

  it('names only existing settings as needing a restart', () => {
    for (const id of RESTART_SETTINGS) {
      assert.ok(id in settings, id);
    }
  });
});

describe('package.json contributions', () => {
  it('targets VS Code ^1.91.0 and points main at the bundle', () => {
    assert.equal(manifest.engines.vscode, '^1.91.0');
    assert.equal(manifest.main, './dist/extension.js');
    assert.deepEqual(manifest.activationEvents, ['onLanguage:conllu', 'workspaceContains:annoscore.toml']);
  });

  it('registers conllu for .conllu and .conll with a grammar and a language configuration that exist', () => {
    const [language] = manifest.contributes.languages;
    assert.equal(language.id, 'conllu');
    assert.deepEqual(language.extensions, ['.conllu', '.conll']);
    assert.ok(fs.existsSync(path.join(PACKAGE_ROOT, language.configuration)));
    const [grammar] = manifest.contributes.grammars;
    assert.equal(grammar.language, 'conllu');
    const grammarFile = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, grammar.path), 'utf8'));
    assert.equal(grammarFile.scopeName, grammar.scopeName);
  });

  it('keeps tabs and the final blank line in CoNLL-U files', () => {
    const defaults = manifest.contributes.configurationDefaults['[conllu]'];
    assert.equal(defaults['editor.insertSpaces'], false);
    assert.equal(defaults['files.trimFinalNewlines'], false);
    assert.equal(defaults['files.trimTrailingWhitespace'], false);
  });

  it('contributes the commands the extension registers, plus rescore from the server', () => {
    const source = fs.readdirSync(path.join(PACKAGE_ROOT, 'src'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => fs.readFileSync(path.join(PACKAGE_ROOT, 'src', f), 'utf8'))
      .join('\n');
    const registered = [...source.matchAll(/registerCommand\(\s*(?:'([\w.]+)'|(SHOW_REPORT_COMMAND))/g)]
      .map((m) => m[1] ?? 'annoscore.showReport');
    const contributed: string[] = manifest.contributes.commands.map((c: { command: string }) => c.command);
    assert.deepEqual(contributed.sort(), [...registered, RESCORE_COMMAND].sort());
    for (const [name] of NAVIGATION_COMMANDS) {
      assert.ok(contributed.includes(name), name);
    }
    assert.ok(contributed.includes('annoscore.showTree'));
  });

  it('contributes each edit command with its title, in the palette and the context submenu of CoNLL-U files only', () => {
    const commands: Array<{ command: string; title: string; category: string }> = manifest.contributes.commands;
    const palette: Array<{ command: string; when: string }> = manifest.contributes.menus.commandPalette;
    const submenu: Array<{ command: string }> = manifest.contributes.menus['annoscore.editSentence'];
    for (const { command, title } of EDIT_COMMANDS) {
      const contributed = commands.find((c) => c.command === command);
      assert.deepEqual([contributed?.title, contributed?.category], [title, 'annoscore'], command);
      assert.equal(palette.find((p) => p.command === command)?.when, 'editorLangId == conllu', command);
      assert.ok(submenu.some((m) => m.command === command), command);
    }
    assert.deepEqual(manifest.contributes.menus['editor/context'].map((m: { submenu: string; when: string }) => [m.submenu, m.when]),
      [['annoscore.editSentence', 'editorLangId == conllu']]);
    assert.ok(manifest.contributes.submenus.some((s: { id: string }) => s.id === 'annoscore.editSentence'));
    // The server's own command is registered by the language client, never contributed twice.
    assert.ok(!commands.some((c) => c.command === EDIT_COMMAND));
  });

  it('keeps the server command out of untrusted workspaces', () => {
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations,
      ['annoscore.server.command', 'annoscore.allowOutsideProject', 'annoscore.maxFileSize']);
  });

  it('lets no workspace allow paths outside the project or raise the file size bound', () => {
    const properties = manifest.contributes.configuration.properties;
    for (const key of ['annoscore.allowOutsideProject', 'annoscore.maxFileSize']) {
      assert.equal(properties[key].scope, 'machine', key);  // (user or remote settings only)
    }
  });
});
