/**
 * Imports keep where each issue came from, and read the files people have: Jira's CSV and its
 * REST search JSON find the same issues, a re-import finds what an import made before issues kept
 * their source, files with a byte order mark or CRLF line ends are read, whole numbers are bounded
 * to what every adapter stores, and a file of an unknown shape is answered with the files import
 * reads and how to get each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatSource,
  type ImportFormat,
  type NumberedLine,
  runImport,
  type Storage,
  sniffFormat,
} from '../../src/core/index.js';
import { memoryCli } from '../cli/memory-io.js';
import { inWorld } from '../properties/support.js';
import { adaptersUnderTest, tempDir } from '../support/adapters.js';
import { bareWorkspace, buildWorkspace, exportLines, importLines, recordsOf } from './support.js';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

/** The text's lines as a reader that splits on LF alone gives them: a CRLF file's keep their CR. */
const linesOfText = (text: string) =>
  async function* (): AsyncIterable<NumberedLine> {
    let line = 0;
    for (const part of text.split('\n')) yield { line: ++line, text: part };
  };

const importText = (storage: Storage, slug: string, format: ImportFormat, file: string, text: string) =>
  runImport(storage, formatSource(format, { file, lines: linesOfText(text), project: 'EXT' }), {
    workspace: slug,
    file,
  });

/** Adds the member the fixtures assign issues to, by email. */
const addAda = (world: { call: (m: string, p: string, o: object) => Promise<unknown> }) =>
  world.call('POST', '/members', {
    body: { email: 'ada@acme.test', role: 'member' },
    headers: { 'idempotency-key': crypto.randomUUID() },
  });

const crlfWithMark = (text: string) => `\uFEFF${text.replace(/\r?\n/g, '\r\n')}`;

describe.each(adaptersUnderTest)('imports that keep their source on $name storage', (adapter) => {
  it("finds the issues of Jira's CSV export again in its REST search JSON, by their keys", async () => {
    await inWorld(adapter, async (world) => {
      const storage = world.tracker.storage;
      await addAda(world);
      const csv = readFileSync(fixture('jira-issues.csv'), 'utf8');
      expect((await importText(storage, world.ws.slug, 'jira', 'jira.csv', csv)).created).toEqual({
        projects: 1,
        issues: 4,
      });
      const json = readFileSync(fixture('jira-search.json'), 'utf8');
      const again = await importText(storage, world.ws.slug, 'jira', 'search.json', json);
      expect(again).toMatchObject({ problems: [], created: {}, existing: { projects: 1, issues: 4 } });
    });
  });

  it('finds by its derived id an issue imported before issues kept their source, and creates nothing', async () => {
    await inWorld(adapter, async (world) => {
      const storage = world.tracker.storage;
      await addAda(world);
      const csv = readFileSync(fixture('plain.csv'), 'utf8');
      await importText(storage, world.ws.slug, 'csv', 'plain.csv', csv);
      // As an import of an earlier version left them: the same ids, no external.
      await storage.transaction(async (tx) => {
        const { rows } = await tx.collections.issues.list({ workspaceId: world.ws.workspaceId, limit: 10 });
        for (const row of rows.filter((r) => r.external !== null))
          await tx.collections.issues.update(
            { ...row, external: null, version: row.version + 1 },
            row.version,
          );
      });
      const again = await importText(storage, world.ws.slug, 'csv', 'plain.csv', csv);
      expect(again).toMatchObject({ problems: [], created: {}, existing: { issues: 3 } });
    });
  });

  it('reads files with a byte order mark and CRLF line ends: GitHub JSON, Jira and plain CSV, an export', async () => {
    await inWorld(adapter, async (world) => {
      const storage = world.tracker.storage;
      await addAda(world);
      const cases: [ImportFormat, string, number][] = [
        ['github', 'github-issues.json', 3],
        ['jira', 'jira-issues.csv', 4],
        ['jira', 'jira-search.json', 0], // the same four issues as the CSV's
        ['csv', 'plain.csv', 3],
      ];
      for (const [format, file, created] of cases) {
        const text = crlfWithMark(readFileSync(fixture(file), 'utf8'));
        expect(sniffFormat(file, text.split('\n')[0] ?? '')).toBe(format);
        const report = await importText(storage, world.ws.slug, format, file, text);
        expect(report.problems).toEqual([]);
        expect(report.created.issues ?? 0).toBe(created);
      }
      const issues = await world.call('GET', '/issues', { query: { externalId: 'SHOP-12' } });
      // The CSV's cell with a line break in it keeps an LF, not the file's CRLF.
      expect(issues.json.data[0].description).toBe(
        'The call to the gateway takes 30 s.\nIt should fail after 5 s, with "Try again".',
      );

      const exported = await exportLines(storage, world.ws.slug);
      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, world.ws.slug);
        const text = crlfWithMark(`${exported.join('\n')}\n`);
        const report = await importText(fresh, world.ws.slug, 'jsonl', 'export.jsonl', text);
        expect(report.problems).toEqual([]);
        expect(await exportLines(fresh, world.ws.slug).then((lines) => lines.slice(1))).toEqual(
          exported.slice(1),
        );
      } finally {
        await fresh.close();
      }
    });
  });

  it("refuses, in the check, an export's issue whose number or version PostgreSQL's integer cannot hold, naming its line", async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, [{ kind: 'issue', pick: 0, assignee: null, labels: [] }]);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const at = lines.findIndex((line) => line.includes('"family":"issues"'));
      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, world.ws.slug);
        for (const [field, value] of [
          ['number', 2_147_483_648],
          ['version', 2_147_483_648],
          ['commentCount', 2_147_483_648],
        ] as const) {
          const edited = [...lines];
          const record = JSON.parse(edited[at] ?? '');
          record.record[field] = value;
          edited[at] = JSON.stringify(record);
          const report = await importLines(fresh, world.ws.slug, edited);
          expect(report.problems).toEqual([
            {
              file: 'export.jsonl',
              line: at + 1,
              field: `record.${field}`,
              message: expect.stringContaining('2147483647'),
            },
          ]);
          expect(report.created).toEqual({});
        }
        // The largest it can hold goes in.
        const edited = [...lines];
        const record = JSON.parse(edited[at] ?? '');
        record.record.number = 2_147_483_647;
        record.record.key = record.record.key.replace(/-\d+$/, '-2147483647');
        edited[at] = JSON.stringify(record);
        expect((await importLines(fresh, world.ws.slug, edited)).problems).toEqual([]);
      } finally {
        await fresh.close();
      }
    });
  });

  it('imports an export made before issues kept their source (no external) with none, and refuses an external id the workspace holds', async () => {
    await inWorld(adapter, async (world) => {
      await buildWorkspace(world, [
        { kind: 'issue', pick: 0, assignee: null, labels: [] },
        { kind: 'issue', pick: 0, assignee: null, labels: ['ui'] },
      ]);
      const lines = await exportLines(world.tracker.storage, world.ws.slug);
      const fresh = await adapter.create();
      try {
        await bareWorkspace(fresh, world.ws.slug);
        const older = lines.map((line) => line.replace(',"external":null', ''));
        expect(older.join('\n')).toContain('"external":{');
        expect(older.filter((line) => line.includes('"external":null'))).toEqual([]);
        expect((await importLines(fresh, world.ws.slug, older)).problems).toEqual([]);
        // The same records; an issue without one gets external null last, as the migration gave stored rows.
        expect(await exportLines(fresh, world.ws.slug).then(recordsOf)).toEqual(recordsOf(lines));
      } finally {
        await fresh.close();
      }
      // Into the workspace it came from, under other ids: the external id is another issue's there.
      const at = lines.findIndex((line) => line.includes('"external":{'));
      const record = JSON.parse(lines[at] ?? '');
      const moved = {
        ...record,
        record: { ...record.record, id: 'iss_000000000000000000zz', number: 99, key: 'APO-99' },
      };
      const edited = [...lines];
      edited[at] = JSON.stringify(moved);
      const report = await importLines(world.tracker.storage, world.ws.slug, edited);
      expect(report.problems).toEqual([
        {
          file: 'export.jsonl',
          line: at + 1,
          field: 'record.external.id',
          message: expect.stringContaining('is the external id of another issue'),
        },
      ]);
    });
  });

  it('answers a file of an unknown shape with the files import reads and how to get each', async () => {
    await inWorld(adapter, async (world) => {
      const storage = world.tracker.storage;
      const object = await importText(storage, world.ws.slug, 'jira', 'x.json', '{"values": []}');
      expect(object.problems).toEqual([
        {
          file: 'x.json',
          line: 1,
          field: null,
          message: expect.stringMatching(/"issues".*Filters → Export → CSV.*\/rest\/api\/3\/search/),
        },
      ]);
      const github = await importText(storage, world.ws.slug, 'github', 'x.json', '{"issues": []}');
      expect(github.problems[0]?.message).toMatch(/--format jira.*gh api/);
    });
  });
});

describe('outcome-tracker import of a file it cannot tell', () => {
  it('names every file it reads and how to get each, and reads a CRLF file with a byte order mark', async () => {
    const cli = memoryCli();
    expect(
      (await cli.run(['init', '--workspace', 'acme', '--admin-email', 'ada@acme.test', '--db', 'x.db'])).code,
    ).toBe(0);
    const dir = tempDir();
    const notes = join(dir, 'notes.txt');
    writeFileSync(notes, 'hello\n');
    const unknown = await cli.run(['import', '--workspace', 'acme', '--from', notes, '--db', 'x.db']);
    expect(unknown.code).toBe(1);
    const said = unknown.stderr.join('\n');
    for (const expected of [
      '--format',
      'jsonl',
      'gh api',
      'Filters → Export → CSV',
      '/rest/api/3/search',
      'Linear',
    ])
      expect(said).toContain(expected);

    const csv = join(dir, 'plain.csv');
    writeFileSync(csv, crlfWithMark(readFileSync(fixture('plain.csv'), 'utf8').replace('ada@acme.test', '')));
    const read = await cli.run([
      'import',
      '--workspace',
      'acme',
      '--from',
      csv,
      '--project',
      'EXT',
      '--db',
      'x.db',
    ]);
    expect(read.stderr).toEqual([]);
    expect(read.stdout).toEqual(['Created 1 projects, 3 issues; already there: nothing.']);
  });
});
