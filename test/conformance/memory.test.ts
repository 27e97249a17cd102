import { adaptersUnderTest } from '../support/adapters.js';
import { runConformanceSuite } from './suite.js';

const memory = adaptersUnderTest.find((adapter) => adapter.name === 'memory');
if (!memory) throw new Error('the memory adapter is not in the list of adapters under test');
runConformanceSuite(memory);
