import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clientReference } from '../../scripts/generate-client-docs.mjs';
import { clientTypesSource } from '../../scripts/generate-client-types.mjs';
import { openApiDocument } from '../../src/core/openapi/document.js';

const clientDir = new URL('../../src/client/', import.meta.url);

describe('the client is typed from the server', () => {
  it('src/client/generated/openapi.ts is what generating from the OpenAPI document gives now (npm run gen:client)', async () => {
    const committed = readFileSync(new URL('generated/openapi.ts', clientDir), 'utf8');
    const fresh = await clientTypesSource(openApiDocument());
    expect(fresh === committed, 'src/client/generated/openapi.ts is stale: run npm run gen:client').toBe(
      true,
    );
  });

  it('docs/client.md is the reference generated from the declarations as they are now (npm run gen:client)', () => {
    const committed = readFileSync(new URL('../../docs/client.md', import.meta.url), 'utf8');
    expect(clientReference() === committed, 'docs/client.md is stale: run npm run gen:client').toBe(true);
  }, 120_000);

  it('imports nothing but its own files, so it runs in browsers and other fetch runtimes', () => {
    const files = readdirSync(clientDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const source = readFileSync(new URL(file, clientDir), 'utf8');
      const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1] ?? '');
      const foreign = specifiers.filter(
        (s) => !new URL(s, new URL(file, clientDir)).href.startsWith(clientDir.href),
      );
      expect(foreign, `${file} imports ${foreign.join(', ')}`).toEqual([]);
      expect(source, `${file} uses a Node global`).not.toMatch(/(?<![\w./-])(Buffer|process|require)\b[.(]/);
    }
  });
});
