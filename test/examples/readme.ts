import { readFileSync } from 'node:fs';

/** The README as committed. */
export const readme = readFileSync('README.md', 'utf8');

/** The fenced code blocks of a markdown text with the given info string, in order. */
export function codeBlocks(markdown: string, language: string): string[] {
  const blocks: string[] = [];
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of markdown.matchAll(fence)) blocks.push(match[1] ?? '');
  return blocks;
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
export function section(markdown: string, name: string): string {
  const start = markdown.indexOf(`<!-- ${name}:start -->`);
  const end = markdown.indexOf(`<!-- ${name}:end -->`);
  if (start === -1 || end <= start) throw new Error(`README.md has no ${name} section`);
  return markdown.slice(start, end);
}
