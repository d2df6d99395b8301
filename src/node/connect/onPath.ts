// Finding a program on PATH the way a shell would (`which`), and the node that runs Agent Plan's
// MCP server: the host's own when it is a real Node, else `node` from PATH (in VS Code's desktop
// host process.execPath is Electron, which runs a script as Node only with ELECTRON_RUN_AS_NODE,
// a variable the agents would not set).
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { Env } from './connectAgents';

/** The first executable file named `name` in `env.PATH`, or undefined. */
export async function findOnPath(name: string, env: Env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
  const pathVariable = env['PATH'] ?? env['Path'] ?? '';
  const delimiter = platform === 'win32' ? ';' : ':';
  const extensions = platform === 'win32' ? ['', ...(env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '')] : [''];
  for (const folder of pathVariable.split(delimiter)) {
    if (folder === '' || !path.isAbsolute(folder)) continue;
    for (const extension of extensions) {
      const candidate = path.join(folder, name + extension);
      const stat = await fsp.stat(candidate).catch(() => undefined);
      if (!stat?.isFile()) continue;
      if (platform === 'win32') return candidate;
      const executable = await fsp.access(candidate, fsp.constants.X_OK).then(
        () => true,
        () => false,
      );
      if (executable) return candidate;
    }
  }
  return undefined;
}

/** The Node that runs the server: the host's when it is Node itself, else `node` on PATH; undefined when there is none. */
export async function nodeForServer(host: { execPath: string; versions: NodeJS.ProcessVersions }, env: Env): Promise<string | undefined> {
  if (host.versions['electron'] === undefined) return host.execPath;
  return findOnPath('node', env);
}
