import * as path from 'node:path';

/** editors/vscode, from out-test/test/support. */
export const PACKAGE_ROOT = path.resolve(__dirname, '..', '..', '..');
