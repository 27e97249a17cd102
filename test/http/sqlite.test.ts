import { adaptersUnderTest } from '../support/adapters.js';
import { runHttpSuite } from './suite.js';

const sqlite = adaptersUnderTest.find((adapter) => adapter.name === 'sqlite');
if (!sqlite) throw new Error('the sqlite adapter is not in the list of adapters under test');
runHttpSuite('node', sqlite);
