import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (file: string) =>
  new Set(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchor(line.replace(/^#+ /, ''))),
  );

const files = ['README.md', ...readdirSync('docs').map((name) => join('docs', name))].filter((f) =>
  f.endsWith('.md'),
);

describe('links between the README and docs/', () => {
  it('every relative link names a file that exists, and a heading in it when it has an anchor', () => {
    const broken: string[] = [];
    for (const file of files) {
      // Links outside code: fenced blocks and inline code are not links.
      const text = readFileSync(file, 'utf8')
        .replace(/^```[\s\S]*?^```$/gm, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path = '', hash] = target.split('#');
        const resolved = path === '' ? file : join(dirname(file), path);
        if (!existsSync(resolved)) broken.push(`${file}: ${target} (no ${resolved})`);
        else if (hash && resolved.endsWith('.md') && !anchorsOf(resolved).has(hash)) {
          broken.push(`${file}: ${target} (no heading #${hash} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README stays a five-minute read, with a More section for the rest', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme).toMatch(/^## More$/m);
  });
});
