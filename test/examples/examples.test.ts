import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt } from '../cli/process.js';
import {
  dropSchema,
  freshSchema,
  postgresTitle,
  requireDatabaseUrl,
  testDatabaseUrl,
} from '../support/postgres.js';
import { codeBlocks, userDocs } from './readme.js';

const examples = [
  'examples/embed-memory.mjs',
  'examples/mount-in-hono.mjs',
  'examples/client.mjs',
  'examples/embed-postgres.mjs',
];

/**
 * The mounting recipes the README shows: each `// --- recipe ---` section of the test that runs them
 * against the real frameworks (and of the Next.js app it serves), without its indentation.
 */
function mountingRecipes(): string[] {
  const source = [
    'test/ecosystem/recipes.test.ts',
    'examples/express/app.mjs',
    'examples/fastify/app.mjs',
    'examples/next/app/tracker/[...path]/route.js',
    'examples/next/next.config.mjs',
  ]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return [...source.matchAll(/\/\/ --- recipe ---\n([\s\S]*?)\n\s*\/\/ --- end ---/g)].map((match) => {
    const lines = (match[1] ?? '').split('\n');
    const indent = Math.min(
      ...lines.filter((line) => line.trim()).map((line) => /^ */.exec(line)?.[0].length ?? 0),
    );
    return `${lines.map((line) => line.slice(indent)).join('\n')}\n`;
  });
}

/** Runs `node <file>` as written; resolves with its exit code and output. */
function runExample(
  file: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [file], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(assertBuilt);

describe('the examples, run as written with node', () => {
  it('embed-memory.mjs creates through typed operations and plain requests, and lists the result', async () => {
    const { code, stdout, stderr } = await runExample('examples/embed-memory.mjs');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^project APO prj_[0-9A-Za-z]+$/),
      'issue APO-1 status=open severity=medium',
      'POST /api/v1/issues/APO-1/transition -> 200 in_progress',
      'POST /api/v1/issues -> 201 APO-2',
      'issues total=2: APO-2 open, APO-1 in_progress',
    ]);
  });

  it('mount-in-hono.mjs serves its own route and the tracker under /api/v1', async () => {
    const { code, stdout, stderr } = await runExample('examples/mount-in-hono.mjs');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      'GET / -> 200 my app',
      'POST /api/v1/projects -> 201 APO',
      'GET /api/v1/projects -> 200 total=1',
    ]);
  });

  it('client.mjs creates, modifies, pages, streams signals and verifies a real webhook delivery', async () => {
    const { code, stdout, stderr } = await runExample('examples/client.mjs');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      'created APO-1 etag="1"',
      'modified APO-1 labels=launch etag="2"',
      '422 invalid_transition allowed=in_progress,blocked,resolved,closed',
      'listed APO-4,APO-3,APO-2,APO-1 total=4',
      'signals issue.created,issue.updated,issue.created',
      'verified webhook.test delivered=true',
    ]);
  });

  it.skipIf(!testDatabaseUrl)(
    postgresTitle('embed-postgres.mjs makes the workspace on its first run only'),
    async () => {
      const schema = freshSchema();
      const env = { DATABASE_URL: requireDatabaseUrl(), TRACKER_SCHEMA: schema };
      try {
        const first = await runExample('examples/embed-postgres.mjs', env);
        expect(first.stderr).toBe('');
        expect(first.stdout.trim().split('\n')).toEqual([
          'created the workspace acme',
          'project APO; 1 projects in acme',
        ]);
        const second = await runExample('examples/embed-postgres.mjs', env);
        expect(second.stdout.trim().split('\n')).toEqual([
          expect.stringMatching(/^project \w+; 2 projects in acme$/),
        ]);
      } finally {
        await dropSchema(schema);
      }
    },
  );

  it('every JavaScript block of the README and docs/ is an excerpt of an example or a tested recipe, so it runs as shown', () => {
    const sources = [...examples.map((file) => readFileSync(file, 'utf8')), ...mountingRecipes()];
    const blocks = codeBlocks(userDocs, 'js');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) {
      expect(
        sources.some((source) => source.includes(block)),
        `not in any example:\n${block}`,
      ).toBe(true);
    }
  });
});
