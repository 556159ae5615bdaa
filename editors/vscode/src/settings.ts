// The `annoscore.*` settings: their types, values and defaults come from the
// one table of settings (server/settings_schema.py, written into
// settingsSchema.ts and package.json by scripts/write_settings.py); here they
// are checked. The server pulls these itself with workspace/configuration;
// the extension reads them to find the server and to build the document
// selector, and warns about bad values early.

import { ANNOSCORE_CODES, VALIDATION_CODES } from './codes';
import type { AnnoscoreSettings, RunMode, SentenceMode, Severity, ValidationLevel } from './settingsSchema';
import { DEFAULT_SETTINGS, LANGUAGE_CODE, RESTART_SETTINGS, RUN_MODES, SENTENCE_MODES, SEVERITIES } from './settingsSchema';
import { VALIDATION_CLASSES, VALIDATION_LEVELS } from './settingsSchema';

export type { AnnoscoreSettings, RunMode, SentenceMode, Severity, ValidationLevel } from './settingsSchema';
export { DEFAULT_SETTINGS, RESTART_SETTINGS, RUN_MODES, SENTENCE_MODES, SEVERITIES } from './settingsSchema';
export { VALIDATION_CLASSES, VALIDATION_LEVELS } from './settingsSchema';

/** Stable diagnostic codes of the server (see codes.ts); reader problems are `format-…`. */
export const DIAGNOSTIC_CODES: readonly string[] = [...ANNOSCORE_CODES, ...VALIDATION_CODES];
export const FORMAT_CODE_PREFIX = 'format-';

export function isDiagnosticCode(code: string): boolean {
  return DIAGNOSTIC_CODES.includes(code) ||
    code.startsWith(FORMAT_CODE_PREFIX);  // `format-` alone: every reader problem, as the server reads it
}

/** The settings as read from the editor, before validation: anything a user can type. */
export interface RawSettings {
  threshold?: unknown;
  run?: unknown;
  severities?: unknown;
  goldDiff?: unknown;
  sentences?: unknown;
  maxDiagnostics?: unknown;
  maxDiagnosticsPerDocument?: unknown;
  files?: { segmentation?: unknown; labels?: unknown };
  validation?: { level?: unknown; lang?: unknown; dataDir?: unknown; exclude?: unknown };
  server?: { command?: unknown };
  allowOutsideProject?: unknown;
  maxFileSize?: unknown;
  inlayHints?: unknown;
  foldUnparsedFindings?: unknown;
  cache?: unknown;
  docsUrl?: unknown;
}

export interface SettingProblem {
  /** Full setting id, e.g. "annoscore.threshold". */
  setting: string;
  message: string;
}

export interface NormalizedSettings {
  settings: AnnoscoreSettings;
  problems: SettingProblem[];
}

/**
 * Valid values are kept, invalid ones replaced by the default and reported,
 * so one typo never stops the server from starting.
 */
export function normalizeSettings(raw: RawSettings): NormalizedSettings {
  const problems: SettingProblem[] = [];
  const report = (key: string, message: string): void => {
    problems.push({ setting: `annoscore.${key}`, message });
  };

  let threshold = DEFAULT_SETTINGS.threshold;
  if (raw.threshold !== undefined) {
    if (typeof raw.threshold === 'number' && raw.threshold >= 0 && raw.threshold <= 1) {
      threshold = raw.threshold;
    } else {
      report('threshold', `must be a number from 0 to 1, not ${JSON.stringify(raw.threshold)}; using ${threshold}`);
    }
  }

  let run = DEFAULT_SETTINGS.run;
  if (raw.run !== undefined) {
    if (RUN_MODES.includes(raw.run as RunMode)) {
      run = raw.run as RunMode;
    } else {
      report('run', `must be "onSave" or "onType", not ${JSON.stringify(raw.run)}; using "${run}"`);
    }
  }

  const severities: Record<string, Severity> = {};
  if (raw.severities !== undefined) {
    if (typeof raw.severities === 'object' && raw.severities !== null && !Array.isArray(raw.severities)) {
      for (const [code, severity] of Object.entries(raw.severities)) {
        if (!isDiagnosticCode(code)) {
          report('severities', `"${code}" is not an annoscore diagnostic code; ignored`);
        } else if (!SEVERITIES.includes(severity as Severity)) {
          report('severities', `"${code}": must be one of ${SEVERITIES.join(', ')}, not ${JSON.stringify(severity)}; ignored`);
        } else {
          severities[code] = severity as Severity;
        }
      }
    } else {
      report('severities', 'must be an object mapping diagnostic codes to severities; ignored');
    }
  }

  const goldDiff = flag(raw.goldDiff, 'goldDiff', DEFAULT_SETTINGS.goldDiff, report);

  const inlayHints = flag(raw.inlayHints, 'inlayHints', DEFAULT_SETTINGS.inlayHints, report);

  const foldUnparsedFindings = flag(raw.foldUnparsedFindings, 'foldUnparsedFindings',
    DEFAULT_SETTINGS.foldUnparsedFindings, report);
  const cache = flag(raw.cache, 'cache', DEFAULT_SETTINGS.cache, report);

  let sentences = DEFAULT_SETTINGS.sentences;
  if (raw.sentences !== undefined) {
    if (SENTENCE_MODES.includes(raw.sentences as SentenceMode)) {
      sentences = raw.sentences as SentenceMode;
    } else {
      report('sentences', `must be one of ${SENTENCE_MODES.map((m) => `"${m}"`).join(', ')}, ` +
        `not ${JSON.stringify(raw.sentences)}; using "${sentences}"`);
    }
  }

  const count = (key: 'maxDiagnostics' | 'maxDiagnosticsPerDocument'): number => {
    const value = raw[key];
    if (value === undefined) return DEFAULT_SETTINGS[key];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return value;
    report(key, `must be a whole number of at least 1, not ${JSON.stringify(value)}; using ${DEFAULT_SETTINGS[key]}`);
    return DEFAULT_SETTINGS[key];
  };
  const maxDiagnostics = count('maxDiagnostics');
  const maxDiagnosticsPerDocument = count('maxDiagnosticsPerDocument');

  let allowOutsideProject = DEFAULT_SETTINGS.allowOutsideProject;
  if (raw.allowOutsideProject !== undefined) {
    if (typeof raw.allowOutsideProject === 'boolean') {
      allowOutsideProject = raw.allowOutsideProject;
    } else {
      report('allowOutsideProject', `must be true or false, not ${JSON.stringify(raw.allowOutsideProject)}; using false`);
    }
  }
  let maxFileSize = DEFAULT_SETTINGS.maxFileSize;
  if (raw.maxFileSize !== undefined && raw.maxFileSize !== null) {
    const text = typeof raw.maxFileSize === 'number' ? String(raw.maxFileSize) : raw.maxFileSize;
    if (typeof text === 'string' && /^\s*(\d+(\.\d+)?\s*([kKmMgGtT](i?[bB])?|[bB])?)?\s*$/.test(text)) {
      maxFileSize = text.trim();
    } else {
      report('maxFileSize', `must be a size such as "8G" or a number of bytes, not ${JSON.stringify(raw.maxFileSize)}; ` +
        'using the default');
    }
  }

  // The codes' reference page diagnostics link to; checked as the server checks it (server/config/values.py).
  let docsUrl = DEFAULT_SETTINGS.docsUrl;
  if (raw.docsUrl !== undefined && raw.docsUrl !== null) {
    if (typeof raw.docsUrl === 'string' && (raw.docsUrl === '' || /^https?:\/\/[^\s#]+$/.test(raw.docsUrl))) {
      docsUrl = raw.docsUrl;
    } else {
      report('docsUrl', `must be an http:// or https:// address without #, or "" for none, not ` +
        `${JSON.stringify(raw.docsUrl)}; no links`);
    }
  }

  const segmentation = stringList(raw.files?.segmentation, 'files.segmentation', report);
  const labels = stringList(raw.files?.labels, 'files.labels', report);
  const command = stringList(raw.server?.command, 'server.command', report);
  const validation = normalizeValidation(raw.validation ?? {}, report);

  return {
    settings: {
      threshold, run, severities, goldDiff, sentences, maxDiagnostics, maxDiagnosticsPerDocument,
      files: { segmentation, labels }, validation, server: { command }, allowOutsideProject, maxFileSize,
      inlayHints, foldUnparsedFindings, cache, docsUrl,
    },
    problems,
  };
}

/** A true/false setting: its value, or the default with a problem said. */
function flag(value: unknown, key: string, fallback: boolean,
  report: (key: string, message: string) => void): boolean {
  if (value === undefined) {
    return fallback;
  }
  if (typeof value === 'boolean') {
    return value;
  }
  report(key, `must be true or false, not ${JSON.stringify(value)}; using ${fallback}`);
  return fallback;
}

function normalizeValidation(raw: NonNullable<RawSettings['validation']>,
  report: (key: string, message: string) => void): AnnoscoreSettings['validation'] {
  const validation = { ...DEFAULT_SETTINGS.validation, exclude: [] as string[] };
  if (raw.level !== undefined && raw.level !== null) {
    if (VALIDATION_LEVELS.includes(raw.level as ValidationLevel)) {
      validation.level = raw.level as ValidationLevel;
    } else if (raw.level === 0) {
      validation.level = 'off';
    } else {
      report('validation.level', `must be "auto", "off" or a level from 1 to 5, not ${JSON.stringify(raw.level)}; ` +
        'using "auto"');
    }
  }
  if (raw.lang !== undefined && raw.lang !== null) {
    if (typeof raw.lang === 'string' && (raw.lang === '' || LANGUAGE_CODE.test(raw.lang))) {
      validation.lang = raw.lang;
    } else {
      report('validation.lang', `must be a UD language code such as "en" or "cop", not ${JSON.stringify(raw.lang)}; ` +
        'using the file name\'s');
    }
  }
  if (raw.dataDir !== undefined && raw.dataDir !== null) {
    if (typeof raw.dataDir === 'string') {
      validation.dataDir = raw.dataDir;
    } else {
      report('validation.dataDir', `must be a folder (a string), not ${JSON.stringify(raw.dataDir)}; ignored`);
    }
  }
  for (const name of stringList(raw.exclude, 'validation.exclude', report)) {
    if (VALIDATION_CODES.includes(name) || ANNOSCORE_CODES.includes(name) || VALIDATION_CLASSES.includes(name.toUpperCase())) {
      validation.exclude.push(name);
    } else {
      report('validation.exclude', `"${name}" is neither a validator test id (such as "unknown-upos") nor a class ` +
        `(${VALIDATION_CLASSES.join(', ')}); ignored`);
    }
  }
  return validation;
}

/** A list of non-empty strings; a single string is accepted as a list of one (a common slip). */
function stringList(value: unknown, key: string, report: (key: string, message: string) => void): string[] {
  if (value === undefined || value === null) {
    return [];
  }
  if (typeof value === 'string') {
    report(key, 'should be a list of strings; treating the string as a list of one');
    return value.trim() === '' ? [] : [value];
  }
  if (!Array.isArray(value)) {
    report(key, `must be a list of strings, not ${JSON.stringify(value)}; ignored`);
    return [];
  }
  const strings = value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
  if (strings.length !== value.length) {
    report(key, 'contains items that are not non-empty strings; they are ignored');
  }
  return strings;
}

/** Settings the extension itself acts on; problems in the others are the server's to report. */
export function isClientSetting(setting: string): boolean {
  return RESTART_SETTINGS.includes(setting);
}
