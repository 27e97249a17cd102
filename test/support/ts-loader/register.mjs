// `node --import ./test/support/ts-loader/register.mjs file.ts` runs a TypeScript entry point.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
