import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mainFigures, orderedMetrics } from '../../src/metrics';
import { escapeMarkdown, scoredStatusText, scoreTooltip, statusView, uriBaseName } from '../../src/statusView';
import { fullPayload, metric, NO_PROBLEMS, single } from '../support/payloads';
import { ScorePayload } from '../../src/protocol';

describe('status bar text', () => {
  it('shows LAS then UAS F1 for CoNLL-U with gold, as percentages with two decimals', () => {
    const payload = fullPayload('conllu', {
      metrics: { UAS: metric(0.9, 0.91, 0.90123), LAS: metric(0.87, 0.88, 0.87346), UPOS: metric(0.99, 0.99, 0.99) },
    });
    assert.equal(scoredStatusText(payload), '$(graph) LAS 87.35 UAS 90.12');
  });

  it('shows word F1 for segmentation (space and tsv) and accuracy for labels', () => {
    const space = fullPayload('space', { metrics: { Boundary: metric(1, 1, 1), Word: metric(0.94, 0.96, 0.95) } });
    assert.equal(scoredStatusText(space), '$(graph) Word 95.00');
    const tsv = fullPayload('tsv', { metrics: { Word: metric(0.5, 0.5, 0.5) } });
    assert.equal(scoredStatusText(tsv), '$(graph) Word 50.00');
    const labels = fullPayload('labels', { metrics: { MacroF1: single(0.7), Accuracy: single(0.912) } });
    assert.equal(scoredStatusText(labels), '$(graph) Accuracy 91.20');
  });

  it('adds the non-zero counts of unparsed, refused and low-confidence, and leaves zeros out', () => {
    const payload = fullPayload('conllu', {
      metrics: { LAS: metric(0.8, 0.8, 0.8), UAS: metric(0.9, 0.9, 0.9) },
      counts: { sentences: 40, unparsed: 1, refused: 2, lowConfidence: 17 },
    });
    assert.equal(scoredStatusText(payload), '$(graph) LAS 80.00 UAS 90.00 | 1 unparsed, 2 refused, 17 low-conf');
    const onlyLow = { ...payload, counts: { ...NO_PROBLEMS, lowConfidence: 3 } };
    assert.equal(scoredStatusText(onlyLow), '$(graph) LAS 80.00 UAS 90.00 | 3 low-conf');
  });

  it('shows no figure without gold, but still the counts', () => {
    const payload = fullPayload('conllu', {
      gold: null, metrics: {}, counts: { sentences: 6, unparsed: 1, refused: 1, lowConfidence: 9 },
    });
    const text = scoredStatusText(payload);
    assert.equal(text, '$(graph) no gold | 1 unparsed, 1 refused, 9 low-conf');
    assert.doesNotMatch(text, /\d+\.\d\d/);
  });

  it('shows the server\'s message instead of figures against a declared test split, keeping the gold-free counts', () => {
    const payload = fullPayload('conllu', {
      gold: null, metrics: {}, testSplit: true, message: 'test split: run annoscore evaluate --final',
      counts: { sentences: 6, unparsed: 0, refused: 2, lowConfidence: 4 },
    });
    const text = scoredStatusText(payload);
    assert.equal(text, '$(graph) test split: run annoscore evaluate --final | 2 refused, 4 low-conf');
    assert.doesNotMatch(text, /no gold|LAS|\d+\.\d\d/);
    // Even if figures came with it, none is shown.
    const withFigures = { ...fullPayload('conllu'), testSplit: true, message: 'test split: run annoscore evaluate --final' };
    assert.equal(scoredStatusText(withFigures), '$(graph) test split: run annoscore evaluate --final');
    const tooltip = scoreTooltip(payload);
    assert.match(tooltip, /declared test split/);
    assert.match(tooltip, /annoscore evaluate --final/);
    assert.doesNotMatch(tooltip, /\| Metric/);
    assert.doesNotMatch(tooltip, /No gold file is paired/);
  });

  it('adds the annotation progress while some sentence lacks a HEAD, and the marked ones once there are any', () => {
    const base = fullPayload('conllu', {
      metrics: { LAS: metric(0.8, 0.8, 0.8), UAS: metric(0.9, 0.9, 0.9) },
      counts: { sentences: 40, unparsed: 1, refused: 0, lowConfidence: 0 },
    });
    const progress = { sentences: 40, annotated: 39, marker: 'annotated', marked: 0 };
    assert.equal(scoredStatusText({ ...base, progress }), '$(graph) LAS 80.00 UAS 90.00 | 1 unparsed | 39/40 annotated');
    assert.equal(scoredStatusText({ ...base, progress: { ...progress, marked: 12 } }),
      '$(graph) LAS 80.00 UAS 90.00 | 1 unparsed | 39/40 annotated, 12/40 marked');
    const clean = { ...base, counts: { ...NO_PROBLEMS, sentences: 40 } };
    assert.equal(scoredStatusText({ ...clean, progress: { ...progress, annotated: 40 } }), '$(graph) LAS 80.00 UAS 90.00',
      'complete: nothing added');
    assert.equal(scoredStatusText({ ...clean, progress: { ...progress, annotated: 40, marked: 40, marker: null } }),
      '$(graph) LAS 80.00 UAS 90.00 | 40/40 marked');
    assert.equal(scoredStatusText({ ...clean, progress: { sentences: 0, annotated: 0, marker: null, marked: null } }),
      '$(graph) LAS 80.00 UAS 90.00');
    const tooltip = scoreTooltip({ ...base, progress: { ...progress, marked: 10 } });
    assert.match(tooltip, /Annotation progress: 39 of 40 sentences \(97\.50%\) with a HEAD in every word · 10 \(25\.00%\) marked `# annotated`/);
    assert.doesNotMatch(scoreTooltip(base), /Annotation progress/);
  });

  it('says "no score" rather than inventing figures when gold exists but the main metrics are absent', () => {
    const payload = fullPayload('conllu', { metrics: { Tokens: metric(1, 1, 1) } });
    assert.equal(scoredStatusText(payload), '$(graph) no score');
  });
});

describe('main figures', () => {
  it('takes F1 of the format\'s main metrics, skipping missing ones', () => {
    const payload = fullPayload('conllu', { metrics: { UAS: metric(0.1, 0.2, 0.3) } });
    assert.deepEqual(mainFigures(payload), [{ name: 'UAS', value: 0.3 }]);
  });
});

describe('tooltip', () => {
  it('has a P/R/F1 row for every metric, in the report\'s order, then unknown metrics', () => {
    const payload = fullPayload('conllu');
    payload.metrics['Custom'] = metric(0.1, 0.2, 0.3);
    const tooltip = scoreTooltip(payload);
    const rows = tooltip.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Metric'));
    assert.deepEqual(rows.map((row) => row.split('|')[1]!.trim()), [
      'Tokens', 'Sentences', 'Words', 'UPOS', 'XPOS', 'UFeats', 'AllTags', 'Lemmas',
      'UAS', 'LAS', 'CLAS', 'MLAS', 'BLEX', 'ELAS', 'EULAS', 'Custom',
    ]);
    assert.match(tooltip, /^\| Metric \| Precision \| Recall \| F1 \|$/m);
    // Tokens is metric 0: 0.5 / 0.501 / 0.502.
    assert.match(tooltip, /^\| Tokens \| 50\.00 \| 50\.10 \| 50\.20 \|$/m);
    assert.match(tooltip, /^\| Custom \| 10\.00 \| 20\.00 \| 30\.00 \|$/m);
  });

  it('names the file and its gold, and all four counts', () => {
    const payload = fullPayload('conllu', {
      uri: 'file:///w/my%20pred.conllu',
      gold: 'file:///w/gold/my_gold.conllu',
      counts: { sentences: 12, unparsed: 0, refused: 3, lowConfidence: 4 },
    });
    const tooltip = scoreTooltip(payload);
    assert.match(tooltip, /my pred\\\.conllu against my\\_gold\\\.conllu/);
    assert.match(tooltip, /Sentences: 12 · unparsed: 0 · refused by the official scorer: 3 · low confidence: 4/);
    assert.match(tooltip, /Click for the full report/);
  });

  it('uses one value column for labels, whose metrics are single-valued', () => {
    const tooltip = scoreTooltip(fullPayload('labels'));
    assert.match(tooltip, /^\| Metric \| Value \|$/m);
    assert.match(tooltip, /^\| Accuracy \| 50\.00 \|$/m);
    assert.doesNotMatch(tooltip, /Precision/);
  });

  it('without gold, tells how to pair this very file with gold instead of a table', () => {
    const tooltip = scoreTooltip(fullPayload('space', { uri: 'file:///w/seg/out.txt', gold: null, metrics: {} }));
    assert.match(tooltip, /no gold/);
    assert.match(tooltip, /out\\\.gold\\\.txt/);
    assert.match(tooltip, /annoscore\.toml/);
    assert.doesNotMatch(tooltip, /\| Metric/);
  });
});

describe('status states', () => {
  it('is hidden for documents annoscore does not score', () => {
    assert.equal(statusView({ kind: 'hidden' }).visible, false);
  });

  it('says the file is not scored yet until the first score arrives, and how to score it', () => {
    const view = statusView({ kind: 'waiting', uri: 'file:///w/a.conllu' });
    assert.equal(view.visible, true);
    assert.match(view.text, /not scored yet/);
    assert.match(view.tooltip, /a\\\.conllu/);
    assert.match(view.tooltip, /Rescore File/);
    assert.equal(view.warning, false);
  });

  it('warns when the server is not running, with the reason in the tooltip', () => {
    const view = statusView({ kind: 'serverNotRunning', reason: 'annoscore was not found' });
    assert.equal(view.warning, true);
    assert.match(view.text, /server not running/);
    assert.match(view.tooltip, /annoscore was not found/);
    assert.match(view.tooltip, /Restart Server/);
  });

  it('shows the scored text and tooltip for a payload', () => {
    const payload = fullPayload('labels');
    const view = statusView({ kind: 'scored', payload });
    assert.equal(view.text, scoredStatusText(payload));
    assert.equal(view.tooltip, scoreTooltip(payload));
  });
});

describe('helpers', () => {
  it('orders known metrics by the report and keeps unknown ones in arrival order', () => {
    const payload = fullPayload('space', { metrics: { zeta: single(0), TaggedWord: single(0), alpha: single(0), Word: single(0) } });
    assert.deepEqual(orderedMetrics(payload).map(([name]) => name), ['Word', 'TaggedWord', 'zeta', 'alpha']);
  });

  it('takes the decoded last path segment of a URI', () => {
    assert.equal(uriBaseName('file:///c%3A/data/a%20b.conllu'), 'a b.conllu');
    assert.equal(uriBaseName('untitled:Untitled-1'), 'Untitled-1');
    assert.equal(uriBaseName('file:///x/y.conllu?query#frag'), 'y.conllu');
  });

  it('escapes Markdown so file names show literally', () => {
    assert.equal(escapeMarkdown('a_b|c*d'), 'a\\_b\\|c\\*d');
  });
});

describe('status bar: agreement with another annotation', () => {
  const base = makePayloadForAgreement();
  it('shows the first other annotation\'s LAS and kappas after the score', () => {
    assert.equal(scoredStatusText(base),
      '$(graph) LAS 87.35 UAS 90.12 | agree bob/t.conllu LAS 88.65 κ UPOS 0.89 DEPREL 0.91');
  });
  it('shows it alone without gold, with how many others there are', () => {
    const noGold = { ...base, gold: null, metrics: {}, agreement: [...(base.agreement ?? []), { uri: 'file:///c', name: 'c', available: true }] };
    assert.equal(scoredStatusText(noGold), '$(graph) agree bob/t.conllu LAS 88.65 κ UPOS 0.89 DEPREL 0.91 (+1)');
  });
  it('says when the other file cannot be read, and lists the figures in the tooltip', () => {
    const missing = { ...base, agreement: [{ uri: 'file:///b', name: 'bob/t.conllu', available: false }] };
    assert.equal(scoredStatusText(missing), '$(graph) LAS 87.35 UAS 90.12 | agree: bob/t.conllu not found');
    const tooltip = scoreTooltip(base);
    assert.ok(tooltip.includes('**Agreement with bob/t\\.conllu** · 12 cells differ'), tooltip);
    assert.ok(tooltip.includes('| UPOS | 100 | 90.00 | 0.8900 | 0.8901 |'), tooltip);
    assert.ok(tooltip.includes('LAS 88.65'), tooltip);
  });
});

function makePayloadForAgreement(): ScorePayload {
  return {
    uri: 'file:///w/alice/t.conllu', format: 'conllu', gold: 'file:///w/alice/t.gold.conllu',
    metrics: { LAS: { precision: 0.8735, recall: 0.8735, f1: 0.8735 }, UAS: { precision: 0.9012, recall: 0.9012, f1: 0.9012 } },
    counts: { sentences: 10, unparsed: 0, refused: 0, lowConfidence: 0 },
    agreement: [{
      uri: 'file:///w/bob/t.conllu', name: 'bob/t.conllu', available: true, disagreements: 12,
      variables: { UPOS: { items: 100, observed: 0.9, kappa: 0.89, alpha: 0.8901 },
        DEPREL: { items: 100, observed: 0.92, kappa: 0.91, alpha: 0.9101 } },
      attachment: { Words: 1, UAS: 0.9, LAS: 0.8865, CLAS: 0.88 },
    }],
  };
}
