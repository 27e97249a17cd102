import { adaptersUnderTest } from '../../support/adapters.js';
import { runFamilySuites } from './all.js';

for (const adapter of adaptersUnderTest) runFamilySuites({ host: 'hono', adapter });
