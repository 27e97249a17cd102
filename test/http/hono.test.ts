import { runHttpSuite } from './suite.js';

runHttpSuite('hono');
