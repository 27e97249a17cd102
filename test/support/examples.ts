import { existsSync } from 'node:fs';

/**
 * Why the example in examples/<name> cannot run here, or null when it can: the framework recipes
 * keep their frameworks (Next.js, Express, Fastify, Jest) out of the repository's own install, in
 * each example's package.json, which .ci/run installs. `npm test` without them skips, saying so.
 */
export function exampleSkipReason(name: string, packages: readonly string[]): string | null {
  const missing = packages.filter((pkg) => !existsSync(`examples/${name}/node_modules/${pkg}/package.json`));
  return missing.length === 0
    ? null
    : `examples/${name} is not installed (cd examples/${name} && npm install)`;
}
