import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_SETTINGS, isClientSetting, isDiagnosticCode, normalizeSettings, SENTENCE_MODES } from '../../src/settings';

describe('settings normalization', () => {
  it('gives the defaults when nothing is set', () => {
    assert.deepEqual(normalizeSettings({}), { settings: DEFAULT_SETTINGS, problems: [] });
    assert.equal(DEFAULT_SETTINGS.threshold, 0.8);
    assert.equal(DEFAULT_SETTINGS.run, 'onSave');
    assert.equal(DEFAULT_SETTINGS.goldDiff, false);
    assert.equal(DEFAULT_SETTINGS.sentences, 'all');
    assert.equal(DEFAULT_SETTINGS.maxDiagnostics, 1000);
    assert.equal(DEFAULT_SETTINGS.inlayHints, true);
    assert.equal(DEFAULT_SETTINGS.foldUnparsedFindings, true);
    assert.equal(DEFAULT_SETTINGS.cache, true);
  });

  it('keeps valid values', () => {
    const { settings, problems } = normalizeSettings({
      threshold: 0.5,
      run: 'onType',
      severities: { 'low-confidence': 'hint', 'format-columns': 'off' },
      goldDiff: true,
      inlayHints: false,
      foldUnparsedFindings: false,
      cache: false,
      sentences: 'annotated',
      maxDiagnostics: 50,
      maxDiagnosticsPerDocument: 400,
      files: { segmentation: ['seg/*.txt'], labels: ['**/*.labels.tsv'] },
      validation: { level: 4, lang: 'cop', dataDir: '/ud/tools/data', exclude: ['misc-attr-typo', 'MORPHO'] },
      server: { command: ['/venv/bin/annoscore', 'lsp'] },
      allowOutsideProject: true,
      maxFileSize: '8G',
      docsUrl: 'https://annoscore.example/reference/codes/',
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      threshold: 0.5,
      run: 'onType',
      severities: { 'low-confidence': 'hint', 'format-columns': 'off' },
      goldDiff: true,
      inlayHints: false,
      foldUnparsedFindings: false,
      cache: false,
      sentences: 'annotated',
      maxDiagnostics: 50,
      maxDiagnosticsPerDocument: 400,
      files: { segmentation: ['seg/*.txt'], labels: ['**/*.labels.tsv'] },
      validation: { level: 4, lang: 'cop', dataDir: '/ud/tools/data', exclude: ['misc-attr-typo', 'MORPHO'] },
      server: { command: ['/venv/bin/annoscore', 'lsp'] },
      allowOutsideProject: true,
      maxFileSize: '8G',
      docsUrl: 'https://annoscore.example/reference/codes/',
    });
    const bad = normalizeSettings({ allowOutsideProject: 'yes', maxFileSize: 'lots', docsUrl: 'annoscore.example/codes',
      foldUnparsedFindings: 'no', cache: 0 });
    assert.deepEqual(bad.problems.map((p) => p.setting),
      ['annoscore.foldUnparsedFindings', 'annoscore.cache', 'annoscore.allowOutsideProject', 'annoscore.maxFileSize',
        'annoscore.docsUrl']);
    assert.equal(bad.settings.foldUnparsedFindings, true);
    assert.equal(bad.settings.cache, true);
    assert.equal(bad.settings.allowOutsideProject, false);
    assert.equal(bad.settings.docsUrl, '');
  });

  it('checks the validation settings, reporting bad values and keeping the rest', () => {
    assert.deepEqual(DEFAULT_SETTINGS.validation, { level: 'auto', lang: '', dataDir: '', exclude: [] });
    assert.equal(normalizeSettings({ validation: { level: 0 } }).settings.validation.level, 'off');
    const { settings, problems } = normalizeSettings({
      validation: { level: 6, lang: 'English', dataDir: 3, exclude: ['unknown-upos', 'unknwn-upos', 'syntax'] },
    });
    assert.deepEqual(settings.validation, { level: 'auto', lang: '', dataDir: '', exclude: ['unknown-upos', 'syntax'] });
    assert.deepEqual(problems.map((p) => p.setting), [
      'annoscore.validation.level', 'annoscore.validation.lang', 'annoscore.validation.dataDir',
      'annoscore.validation.exclude']);
    assert.match(problems[3]!.message, /"unknwn-upos" is neither a validator test id/);
  });

  it('accepts the ends of the threshold range and refuses values outside it', () => {
    assert.equal(normalizeSettings({ threshold: 0 }).settings.threshold, 0);
    assert.equal(normalizeSettings({ threshold: 1 }).settings.threshold, 1);
    for (const bad of [1.5, -0.1, '0.7', Number.NaN]) {
      const { settings, problems } = normalizeSettings({ threshold: bad });
      assert.equal(settings.threshold, 0.8, String(bad));
      assert.equal(problems.length, 1);
      assert.equal(problems[0]!.setting, 'annoscore.threshold');
    }
  });

  it('replaces a bad run mode and a non-boolean goldDiff by the defaults, saying so', () => {
    const { settings, problems } = normalizeSettings({ run: 'onChange', goldDiff: 'yes' });
    assert.equal(settings.run, 'onSave');
    assert.equal(settings.goldDiff, false);
    assert.deepEqual(problems.map((p) => p.setting), ['annoscore.run', 'annoscore.goldDiff']);
    assert.match(problems[0]!.message, /"onSave" or "onType"/);
  });

  it('keeps each sentence mode and replaces anything else by "all", saying so', () => {
    for (const mode of SENTENCE_MODES) {
      assert.deepEqual(normalizeSettings({ sentences: mode }), {
        settings: { ...DEFAULT_SETTINGS, sentences: mode },
        problems: [],
      });
    }
    for (const bad of ['All', 'predicted-only', '', true, 1, null, ['all']]) {
      const { settings, problems } = normalizeSettings({ sentences: bad });
      assert.equal(settings.sentences, 'all', JSON.stringify(bad));
      assert.deepEqual(problems.map((p) => p.setting), ['annoscore.sentences'], JSON.stringify(bad));
      assert.match(problems[0]!.message, /"all", "predicted", "annotated"/);
      assert.match(problems[0]!.message, /using "all"$/);
    }
  });

  for (const key of ['maxDiagnostics', 'maxDiagnosticsPerDocument'] as const) {
    it(`takes ${key} as a whole number of at least 1, else uses 1000, saying so`, () => {
      for (const good of [1, 7, 1000, 250000]) {
        const { settings, problems } = normalizeSettings({ [key]: good });
        assert.equal(settings[key], good);
        assert.deepEqual(problems, []);
      }
      for (const bad of [0, -5, 2.5, Number.NaN, Number.POSITIVE_INFINITY, '100', true, null, [10]]) {
        const { settings, problems } = normalizeSettings({ [key]: bad });
        assert.equal(settings[key], 1000, String(bad));
        assert.deepEqual(problems.map((p) => p.setting), [`annoscore.${key}`], String(bad));
        assert.match(problems[0]!.message, /whole number of at least 1/);
        assert.match(problems[0]!.message, /using 1000$/);
      }
    });
  }

  it('keeps the good settings when others are bad', () => {
    const { settings, problems } = normalizeSettings({ sentences: 'predicted', maxDiagnostics: 0, run: 'onType' });
    assert.deepEqual(settings, { ...DEFAULT_SETTINGS, sentences: 'predicted', run: 'onType' });
    assert.deepEqual(problems.map((p) => p.setting), ['annoscore.maxDiagnostics']);
  });

  it('drops unknown codes and bad severities but keeps the good entries', () => {
    const { settings, problems } = normalizeSettings({
      severities: { cycle: 'error', 'no-such-code': 'hint', unparsed: 'fatal', 'format': 'off', 'format-': 'off' },
    });
    assert.deepEqual(settings.severities, { cycle: 'error', 'format-': 'off' });
    assert.equal(problems.length, 3);
    assert.ok(problems.every((p) => p.setting === 'annoscore.severities'));
  });

  it('takes a string command as a list of one, and drops empty items', () => {
    const fromString = normalizeSettings({ server: { command: '/usr/bin/annoscore' } });
    assert.deepEqual(fromString.settings.server.command, ['/usr/bin/annoscore']);
    assert.equal(fromString.problems.length, 1);
    const withEmpty = normalizeSettings({ server: { command: ['annoscore', '', 3, 'lsp'] } });
    assert.deepEqual(withEmpty.settings.server.command, ['annoscore', 'lsp']);
    assert.equal(withEmpty.problems[0]!.setting, 'annoscore.server.command');
  });

  it('ignores a glob setting that is not a list', () => {
    const { settings, problems } = normalizeSettings({ files: { segmentation: { a: 1 } } });
    assert.deepEqual(settings.files.segmentation, []);
    assert.equal(problems[0]!.setting, 'annoscore.files.segmentation');
  });
});

describe('diagnostic codes and setting ownership', () => {
  it('knows the contract\'s codes and any format- code', () => {
    for (const code of ['unparsed', 'cycle', 'low-confidence', 'missing-item', 'format-bom']) {
      assert.ok(isDiagnosticCode(code), code);
    }
    assert.equal(isDiagnosticCode('format-'), true);  // a prefix for all reader problems, as the server takes it
    assert.equal(isDiagnosticCode('formats'), false);
    assert.equal(isDiagnosticCode('Cycle'), false);
  });

  it('warns in the editor only for the settings the extension itself uses', () => {
    assert.ok(isClientSetting('annoscore.server.command'));
    assert.ok(isClientSetting('annoscore.files.labels'));
    assert.equal(isClientSetting('annoscore.threshold'), false);
    // The server pulls these itself: a change needs no restart.
    assert.equal(isClientSetting('annoscore.sentences'), false);
    assert.equal(isClientSetting('annoscore.maxDiagnostics'), false);
    assert.equal(isClientSetting('annoscore.maxDiagnosticsPerDocument'), false);
  });
});
