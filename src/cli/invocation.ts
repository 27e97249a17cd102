import { realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative } from 'node:path';

const tryRealpath = (path: string): string | null => {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
};

/**
 * How to run this CLI again from the shell that started it, for the commands it prints as hints.
 * `outcome-tracker` works only where the command is on the user's own PATH (a global install);
 * through npm (`npm start` in a checkout, `npx` or a script in an app) the package's bin is on a
 * PATH npm made for that run, so the hint is `npx outcome-tracker`, which finds it the same way;
 * started as `node …/main.js`, it is that.
 */
export function invocation(
  env: Readonly<Record<string, string | undefined>>,
  script: string,
  cwd: string,
): string {
  if (env.npm_command !== undefined || env.npm_lifecycle_event !== undefined) return 'npx outcome-tracker';
  const self = tryRealpath(script);
  const onPath = (env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !dir.endsWith(join('node_modules', '.bin')));
  if (self && onPath.some((dir) => tryRealpath(join(dir, 'outcome-tracker')) === self))
    return 'outcome-tracker';
  const shown =
    isAbsolute(script) && !relative(cwd, script).startsWith('..') ? relative(cwd, script) : script;
  return `node ${/^[\w./:@%+=,-]+$/.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`}`;
}
