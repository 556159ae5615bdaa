// Which documents the server gets: CoNLL-U by language id, segmentation and
// label files by the glob lists in the settings. Built in the protocol's form
// (plain objects), which vscode-languageclient converts; no vscode import.

export const CONLLU_LANGUAGE_ID = 'conllu';

export interface RelativeGlob {
  /** URI of the workspace folder the glob is relative to. */
  baseUri: string;
  pattern: string;
}

/** The two shapes used here of the protocol's TextDocumentFilter. */
export type DocumentFilter =
  | { language: string; scheme?: string; pattern?: undefined }
  | { language?: undefined; scheme: string; pattern: string | RelativeGlob };

/**
 * A glob that is absolute or starts with `**` matches anywhere and is used
 * as it is; any other glob ("pred/*.txt") is relative to each workspace folder,
 * as globs in annoscore.toml are relative to the root. With no folder open it
 * matches at any depth.
 */
export function globFilters(globs: readonly string[], workspaceFolderUris: readonly string[]): DocumentFilter[] {
  const filters: DocumentFilter[] = [];
  for (const glob of globs) {
    const normalized = glob.replace(/\\/g, '/');
    const isAnywhere = normalized.startsWith('/') || normalized.startsWith('**') || /^[A-Za-z]:\//.test(normalized);
    if (isAnywhere) {
      filters.push({ scheme: 'file', pattern: normalized });
    } else if (workspaceFolderUris.length === 0) {
      filters.push({ scheme: 'file', pattern: `**/${normalized.replace(/^\.\//, '')}` });
    } else {
      for (const baseUri of workspaceFolderUris) {
        filters.push({ scheme: 'file', pattern: { baseUri, pattern: normalized.replace(/^\.\//, '') } });
      }
    }
  }
  return filters;
}

export function buildDocumentSelector(
  files: { segmentation: readonly string[]; labels: readonly string[] },
  workspaceFolderUris: readonly string[],
): DocumentFilter[] {
  return [
    // No scheme: untitled CoNLL-U buffers are checked too (they have no gold).
    { language: CONLLU_LANGUAGE_ID },
    ...globFilters(files.segmentation, workspaceFolderUris),
    ...globFilters(files.labels, workspaceFolderUris),
  ];
}
