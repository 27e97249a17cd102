import { readFileSync } from 'node:fs';

/** The README as committed. */
export const readme = readFileSync('README.md', 'utf8');

/**
 * The README and the user docs it sends readers to for the rest (the CLI, embedding, the client,
 * operations), as committed: their examples are held to the same checks wherever they moved.
 */
export const userDocs = [
  readme,
  ...['cli', 'configuration', 'operations', 'embedding', 'client-guide', 'benchmarks'].map((name) =>
    readFileSync(`docs/${name}.md`, 'utf8'),
  ),
].join('\n');

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
