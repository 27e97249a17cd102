import { createRequire } from 'node:module';

// package.json sits three levels up from both src/core/webhooks and dist/core/webhooks, so the
// version is read from the one place it is written.
const { version } = createRequire(import.meta.url)('../../../package.json') as { version: string };

/** The User-Agent of every webhook delivery: `outcome-tracker/<package version>`. */
export const userAgent = `outcome-tracker/${version}`;
