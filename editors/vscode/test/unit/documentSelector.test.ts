import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildDocumentSelector, globFilters } from '../../src/documentSelector';

describe('document selector', () => {
  it('always covers the conllu language, in any scheme (untitled buffers too)', () => {
    assert.deepEqual(buildDocumentSelector({ segmentation: [], labels: [] }, []), [{ language: 'conllu' }]);
  });

  it('anchors relative globs at every workspace folder', () => {
    const folders = ['file:///w/one', 'file:///w/two'];
    assert.deepEqual(buildDocumentSelector({ segmentation: ['seg/*.txt'], labels: ['./labels/*.tsv'] }, folders), [
      { language: 'conllu' },
      { scheme: 'file', pattern: { baseUri: 'file:///w/one', pattern: 'seg/*.txt' } },
      { scheme: 'file', pattern: { baseUri: 'file:///w/two', pattern: 'seg/*.txt' } },
      { scheme: 'file', pattern: { baseUri: 'file:///w/one', pattern: 'labels/*.tsv' } },
      { scheme: 'file', pattern: { baseUri: 'file:///w/two', pattern: 'labels/*.tsv' } },
    ]);
  });

  it('uses absolute and ** globs as they are', () => {
    assert.deepEqual(globFilters(['**/*.seg', '/data/*.txt', 'C:\\data\\*.txt'], ['file:///w']), [
      { scheme: 'file', pattern: '**/*.seg' },
      { scheme: 'file', pattern: '/data/*.txt' },
      { scheme: 'file', pattern: 'C:/data/*.txt' },
    ]);
  });

  it('matches relative globs at any depth when no folder is open', () => {
    assert.deepEqual(globFilters(['seg/*.txt'], []), [{ scheme: 'file', pattern: '**/seg/*.txt' }]);
  });
});
