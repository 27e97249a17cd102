import type { NumberedLine } from '../import-jsonl.js';
import { acceptedFilesText } from './accepted.js';

/** An element of a top-level JSON array, parsed, with the line it starts on; or why it is not JSON. */
export type ArrayElement = { line: number; value: unknown } | { line: number; error: string };

/**
 * The elements of the JSON arrays in a file, one at a time, each with the line it starts on. The
 * file may hold several arrays one after another: `gh api --paginate` writes one per page.
 */
export async function* jsonArrayElements(lines: AsyncIterable<NumberedLine>): AsyncIterable<ArrayElement> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let text = '';
  let start = 0;
  for await (const { line, text: raw } of lines) {
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i] as string;
      if (depth >= 2) text += c;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') {
        inString = true;
        if (depth === 1) return yield { line, error: 'expected an array of objects, found a string' };
      } else if (c === '[' || c === '{') {
        if (depth === 0 && c === '{')
          return yield {
            line,
            error: `expected a JSON array of GitHub issues, found an object (a Jira search answer is --format jira); ${acceptedFilesText}`,
          };
        depth++;
        if (depth === 2) {
          text = c;
          start = line;
        }
      } else if (c === ']' || c === '}') {
        depth--;
        if (depth === 1) {
          try {
            yield { line: start, value: JSON.parse(text) };
          } catch (error) {
            yield { line: start, error: `not JSON: ${(error as Error).message}` };
          }
          text = '';
        }
      } else if (depth === 1 && !/[\s,]/.test(c)) {
        return yield { line, error: `expected an object in the array, found ${JSON.stringify(c)}` };
      } else if (depth === 0 && !/\s/.test(c)) {
        return yield {
          line,
          error: `expected a JSON array, found ${JSON.stringify(c)}; ${acceptedFilesText}`,
        };
      }
    }
    if (depth >= 2) text += '\n';
  }
  if (depth !== 0) yield { line: start, error: 'the file ends inside an array: it was cut short' };
}
