import { runHttpSuite } from './suite.js';

runHttpSuite('node');
