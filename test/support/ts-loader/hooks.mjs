// Module hooks that let a child Node process run the TypeScript sources directly (tests start
// one to exercise a second, separate connection to a database file). Imports written as
// `./x.js` resolve to `./x.ts` when only the source exists; `.ts` files are transpiled, not
// type-checked (tsc does that).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, next) {
  if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const js = new URL(specifier, context.parentURL);
    const source = new URL(js.href.replace(/\.js$/, '.ts'));
    if (!existsSync(js) && existsSync(source)) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
