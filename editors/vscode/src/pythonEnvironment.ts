// The Python interpreter the user selected: from the Python extension's API
// when it is installed, else from the `python.defaultInterpreterPath` setting.
// Only the few API members used here are declared, so the extension does not
// depend on the Python extension's npm package.

import * as os from 'node:os';
import * as vscode from 'vscode';
import { OsFamily, resolveInterpreterSetting } from './serverCommand';

const PYTHON_EXTENSION_ID = 'ms-python.python';

interface EnvironmentPath {
  readonly id: string;
  readonly path: string;
}

interface PythonExtensionApi {
  readonly ready?: Promise<void>;
  readonly environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(environment: EnvironmentPath | string): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
  readonly settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

export interface Interpreter {
  path: string;
  /** Where it came from, for the log. */
  origin: string;
}

async function pythonExtensionApi(log: vscode.LogOutputChannel): Promise<PythonExtensionApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
  if (extension === undefined) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    await api?.ready;
    return api;
  } catch (error) {
    log.warn(`Could not use the Python extension's API: ${String(error)}`);
    return undefined;
  }
}

export async function selectedInterpreter(
  resource: vscode.Uri | undefined,
  osFamily: OsFamily,
  log: vscode.LogOutputChannel,
): Promise<Interpreter | undefined> {
  const api = await pythonExtensionApi(log);
  if (api?.environments !== undefined) {
    try {
      const active = api.environments.getActiveEnvironmentPath(resource);
      const resolved = await api.environments.resolveEnvironment(active);
      // Without an executable (a conda env without Python, say) active.path is a folder: not usable.
      const executable = resolved?.executable.uri?.fsPath;
      if (executable) {
        return { path: executable, origin: 'the Python extension' };
      }
    } catch (error) {
      log.warn(`The Python extension could not resolve the active environment: ${String(error)}`);
    }
  }
  // Older Python extensions: execution details (a conda env can be ["conda", "run", …]: skip those).
  const execCommand = api?.settings?.getExecutionDetails(resource).execCommand;
  if (execCommand !== undefined && execCommand.length === 1 && execCommand[0]) {
    return { path: execCommand[0], origin: 'the Python extension' };
  }
  const folder = resource !== undefined ? vscode.workspace.getWorkspaceFolder(resource) : vscode.workspace.workspaceFolders?.[0];
  const setting = vscode.workspace.getConfiguration('python', resource).get<string>('defaultInterpreterPath');
  const settingPath = resolveInterpreterSetting(setting, folder?.uri.fsPath, os.homedir(), osFamily);
  return settingPath !== undefined ? { path: settingPath, origin: 'python.defaultInterpreterPath' } : undefined;
}

/** Fires when the user selects another environment in the Python extension (if it is installed). */
export async function onDidChangeInterpreter(
  listener: () => void,
  log: vscode.LogOutputChannel,
): Promise<vscode.Disposable | undefined> {
  const api = await pythonExtensionApi(log);
  return api?.environments?.onDidChangeActiveEnvironmentPath(() => listener());
}
