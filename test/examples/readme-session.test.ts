import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, type Served, startServeJson, tempDir } from '../cli/process.js';
import { codeBlocks, readme, section } from './readme.js';

const tokenLine = 'export TOKEN=cn_paste_the_token_npm_start_printed';
const apiLine = 'export API=http://127.0.0.1:3000/api/v1';

/** Runs a bash script; resolves with its exit code and output. */
function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe("the README's curl session", () => {
  let served: Served & { startup: { apiUrl: string; init: { token: string } | null } };
  beforeAll(async () => {
    assertBuilt();
    served = await startServeJson(['--db', join(tempDir(), 'tracker.db')]);
  });
  afterAll(async () => {
    await served?.stop();
  });

  it('runs as written against a fresh serve, with every status the comments promise', async () => {
    const [session, ...others] = codeBlocks(section(readme, 'curl-session'), 'sh');
    expect(others).toEqual([]);
    expect(session).toBeDefined();
    const lines = (session ?? '').split('\n');
    // The README points at npm start's address and a pasted token; the test's server has its own.
    expect(lines).toContain(tokenLine);
    expect(lines).toContain(apiLine);
    const script = lines
      .map((line) =>
        line === tokenLine
          ? `export TOKEN=${served.startup.init?.token}`
          : line === apiLine
            ? `export API=${served.startup.apiUrl}`
            : line,
      )
      .join('\n');

    const result = await bash(`set -euo pipefail\n${script}`);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;

    const statuses = [...out.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));
    // Replay, GET, 304, PATCH, stale PATCH, transition, refused transition.
    expect(statuses).toEqual([200, 200, 304, 200, 409, 200, 422]);
    expect(out.split('\n')[0]).toBe('APO-1');
    expect(out).toMatch(/^Idempotent-Replayed: true\r?$/m);
    expect(out).toContain('"severity":"high"');
    expect(out).not.toContain('"severity":"critical"');
    expect(out).toContain('"error":"version_conflict"');
    expect(out).toContain('"status":"in_progress"');
    expect(out).toContain('"allowed":["open","blocked","resolved"]');

    const pages = out
      .trim()
      .split('\n')
      .slice(-2)
      .map((line) => JSON.parse(line));
    // Newest first: the second issue, then the first and the end of the list.
    expect(pages.map((page) => page.data.map((issue: { key: string }) => issue.key))).toEqual([
      ['APO-2'],
      ['APO-1'],
    ]);
    expect(pages.map((page) => page.total)).toEqual([2, 2]);
    expect(pages[0].nextCursor).toEqual(expect.any(String));
    expect(pages[1].nextCursor).toBeNull();
  });
});
