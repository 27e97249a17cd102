import type { NumberedLine } from '../import-jsonl.js';
import { acceptedFilesText } from './accepted.js';
import type { ArrayElement } from './json-array.js';

/** The longest member name kept while reading: longer ones are not `issues`. */
const longestName = 64;

/**
 * The elements of the `member` array of each top-level JSON object in a file, one at a time, each
 * with the line it starts on: the `issues` of Jira's search answers, one page or several one after
 * another. The rest of each object is read past, not kept, so a file of many pages is never held
 * whole; an element is held while it is read, as `JSON.parse` needs it.
 */
export async function* objectMemberElements(
  lines: AsyncIterable<NumberedLine>,
  member: string,
  what: string,
): AsyncIterable<ArrayElement> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  // At depth 1: the string being read, the last one read, and the member whose value comes next.
  let current = '';
  let lastString = '';
  let name = '';
  let inMember = false;
  let sawMember = false;
  let text = '';
  let start = 0;
  let objectLine = 0;
  const keep = (c: string) => {
    if (depth === 1 && current.length < longestName) current += c;
  };
  for await (const { line, text: raw } of lines) {
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i] as string;
      if (inMember && depth >= 3) text += c;
      if (inString) {
        if (escaped) {
          escaped = false;
          keep(c);
        } else if (c === '\\') {
          escaped = true;
          keep(c);
        } else if (c === '"') {
          inString = false;
          if (depth === 1) lastString = current;
        } else keep(c);
        continue;
      }
      if (c === '"') {
        inString = true;
        if (depth === 1) current = '';
        if (depth === 2 && inMember)
          return yield { line, error: `expected ${what} objects in "${member}", found a string` };
      } else if (c === ':' && depth === 1) {
        name = lastString;
      } else if (c === '{' || c === '[') {
        if (depth === 0 && c === '[')
          return yield {
            line,
            error: `expected ${what}: a JSON object with "${member}", found an array; ${acceptedFilesText}`,
          };
        if (depth === 0) {
          sawMember = false;
          objectLine = line;
        }
        if (depth === 1 && name === member) {
          if (c !== '[') return yield { line, error: `expected "${member}" to be an array` };
          inMember = true;
          sawMember = true;
        }
        if (depth === 2 && inMember && c === '[')
          return yield { line, error: `expected ${what} objects in "${member}", found an array` };
        depth++;
        if (depth === 3 && inMember) {
          text = c;
          start = line;
        }
      } else if (c === '}' || c === ']') {
        depth--;
        if (depth === 2 && inMember) {
          try {
            yield { line: start, value: JSON.parse(text) };
          } catch (error) {
            yield { line: start, error: `not JSON: ${(error as Error).message}` };
          }
          text = '';
        } else if (depth === 1 && inMember) {
          inMember = false;
          name = '';
        } else if (depth === 0 && !sawMember) {
          return yield {
            line: objectLine,
            error: `expected ${what}: a JSON object with "${member}"; ${acceptedFilesText}`,
          };
        }
      } else if (depth === 2 && inMember && !/[\s,]/.test(c)) {
        return yield { line, error: `expected ${what} objects in "${member}", found ${JSON.stringify(c)}` };
      } else if (depth === 0 && !/\s/.test(c)) {
        return yield {
          line,
          error: `expected ${what}: a JSON object, found ${JSON.stringify(c)}; ${acceptedFilesText}`,
        };
      } else if (depth === 1 && c === ',') {
        name = '';
      }
    }
    if (inMember && depth >= 3) text += '\n';
  }
  if (depth !== 0)
    yield { line: start || objectLine, error: 'the file ends inside an object: it was cut short' };
}
