// Regenerates schema.d.ts from the document the API serves: `npm run gen:client` (builds first).
// test/openapi/typed-client.test.ts fails while the committed file differs from what this writes.
import { writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';
import { memoryStorage } from '../../dist/adapters/memory/index.js';
import { createTracker } from '../../dist/core/index.js';

const tracker = createTracker({ storage: memoryStorage(), rateLimit: false });
const served = await tracker.handle({ method: 'GET', path: '/api/v1/openapi.json', headers: {} });
await tracker.close();
if (served.status !== 200 || !served.body)
  throw new Error(`GET /api/v1/openapi.json answered ${served.status}`);

const types = astToString(await openapiTS(JSON.parse(served.body)));
await writeFile(new URL('./schema.d.ts', import.meta.url), types);
console.log('wrote examples/typed-client/schema.d.ts');
