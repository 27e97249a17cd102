/**
 * The checkable examples of docs/api.md. An example is a fenced `http` block holding a request
 * (`METHOD /path`, headers, a blank line, an optional JSON body) followed by a fenced `http` block
 * holding the answer (`HTTP/1.1 <status> <reason>`, the headers that matter, an optional JSON body).
 * An HTML comment `<!-- first sent 99 times -->` just before a request makes the check send it that
 * many times (each must succeed) before the one whose answer is documented. `<!-- sent by the service -->` turns the pair around: the first block is a
 * webhook delivery the service sends (its path is the subscription URL's), the second the answer
 * the receiver gives it.
 *
 * `$NAME` stands for a value: in a request it is replaced by the value it holds; in an answer (or a
 * delivery), a header value or JSON string that is exactly `$NAME` takes the value when it has none
 * yet and must equal it otherwise. `…` in an answer matches anything: a JSON value `"…"`, a
 * `"…": "…"` member (other members may follow), a last array element `"…"` (more may follow), and
 * in a header value any non-empty text (`t=…,v1=…`).
 */

export interface ExampleRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | null;
  /** How many times the request is sent, each succeeding, before the documented exchange. */
  sentBefore: number;
  /** The service sends this request (a webhook delivery); the check plays the receiver. */
  sentByService: boolean;
}

export interface ExampleResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface GuideExample {
  /** The line of the request block in the guide, for messages. */
  line: number;
  /** The heading the example is under. */
  section: string;
  request: ExampleRequest;
  response: ExampleResponse;
}

interface Block {
  line: number;
  section: string;
  text: string;
  /** The comment directly before the block, if any. */
  directive: string | null;
}

/** Every fenced `http` block, with where it is. */
export function httpBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, '');
    if (line.trim() !== '```http') continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i]?.trim() !== '```'; i++) body.push(lines[i] as string);
    const before = lines
      .slice(0, start)
      .reverse()
      .find((l) => l.trim() !== '');
    const directive = before?.match(/^<!--\s*(.*?)\s*-->$/)?.[1] ?? null;
    blocks.push({ line: start + 1, section, text: body.join('\n'), directive });
  }
  return blocks;
}

function splitHead(text: string): { head: string[]; body: string | null } {
  const blank = text.split('\n').findIndex((l) => l.trim() === '');
  const lines = text.split('\n');
  if (blank === -1) return { head: lines, body: null };
  const body = lines
    .slice(blank + 1)
    .join('\n')
    .trim();
  return { head: lines.slice(0, blank), body: body === '' ? null : body };
}

function headersOf(lines: string[], line: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const header of lines) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new Error(`docs/api.md:${line}: not a header line: ${header}`);
    headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
  }
  return headers;
}

/** Pairs each request block with the answer block after it. */
export function guideExamples(markdown: string): GuideExample[] {
  const blocks = httpBlocks(markdown);
  const examples: GuideExample[] = [];
  for (let i = 0; i < blocks.length; i += 2) {
    const requestBlock = blocks[i] as Block;
    const responseBlock = blocks[i + 1];
    const request = splitHead(requestBlock.text);
    const requestLine = request.head[0]?.match(/^([A-Z]+) (\/\S*)$/);
    if (!requestLine) throw new Error(`docs/api.md:${requestBlock.line}: expected "METHOD /path"`);
    const statusLine = responseBlock && splitHead(responseBlock.text).head[0]?.match(/^HTTP\/1\.1 (\d{3})\b/);
    if (!responseBlock || !statusLine) {
      throw new Error(
        `docs/api.md:${requestBlock.line}: a request block needs an "HTTP/1.1 <status>" block after it`,
      );
    }
    const response = splitHead(responseBlock.text);
    const repeat = requestBlock.directive?.match(/^first sent (\d+) times$/);
    examples.push({
      line: requestBlock.line,
      section: requestBlock.section,
      request: {
        method: requestLine[1] as string,
        path: requestLine[2] as string,
        headers: headersOf(request.head.slice(1), requestBlock.line),
        body: request.body,
        sentBefore: repeat ? Number(repeat[1]) : 0,
        sentByService: requestBlock.directive === 'sent by the service',
      },
      response: {
        status: Number(statusLine[1]),
        headers: headersOf(response.head.slice(1), responseBlock.line),
        body: response.body === null ? undefined : JSON.parse(response.body),
      },
    });
  }
  return examples;
}

const anything = '…';
const variable = /^\$[A-Z][A-Z0-9_]*$/;

/** Values of the `$NAME`s, filled in as answers bring them. */
export class Variables {
  readonly #values = new Map<string, string>();
  constructor(
    initial: Record<string, string>,
    private readonly fresh: (name: string) => string | undefined,
  ) {
    for (const [name, value] of Object.entries(initial)) this.#values.set(name, value);
  }

  /** Replaces every `$NAME` in request text; a name with no value may be made up by `fresh`. */
  substitute(text: string, where: string): string {
    return text.replace(/\$([A-Z][A-Z0-9_]*)/g, (_, name: string) => {
      let value = this.#values.get(name);
      if (value === undefined) {
        value = this.fresh(name);
        if (value === undefined) throw new Error(`${where}: $${name} has no value yet`);
        this.#values.set(name, value);
      }
      return value;
    });
  }

  /** Takes `actual` as the value of `name`, or checks it against the value it has. */
  bind(name: string, actual: string): boolean {
    const known = this.#values.get(name);
    if (known === undefined) {
      this.#values.set(name, actual);
      return true;
    }
    return known === actual;
  }
}

/** Where `actual` departs from the documented `expected`, as readable lines (none: it matches). */
export function mismatches(expected: unknown, actual: unknown, vars: Variables, at = 'body'): string[] {
  if (expected === anything) return actual === undefined ? [`${at}: missing`] : [];
  if (typeof expected === 'string' && variable.test(expected)) {
    if (typeof actual !== 'string')
      return [`${at}: expected a string for ${expected}, got ${JSON.stringify(actual)}`];
    return vars.bind(expected.slice(1), actual)
      ? []
      : [`${at}: ${JSON.stringify(actual)} is not ${expected}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    const open = expected.at(-1) === anything;
    const items = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < items.length : actual.length !== items.length) {
      return [`${at}: expected ${items.length}${open ? ' or more' : ''} items, got ${actual.length}`];
    }
    return items.flatMap((item, i) => mismatches(item, actual[i], vars, `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    const documented = Object.entries(expected).filter(([key]) => key !== anything);
    const problems = documented.flatMap(([key, value]) =>
      key in actual
        ? mismatches(value, (actual as Record<string, unknown>)[key], vars, `${at}.${key}`)
        : [`${at}.${key}: missing`],
    );
    if (!(anything in expected)) {
      const extra = Object.keys(actual).filter((key) => !(key in expected));
      if (extra.length > 0) problems.push(`${at}: undocumented members ${extra.join(', ')}`);
    }
    return problems;
  }
  return Object.is(expected, actual)
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Checks one documented header value (`…`, `$NAME` or literal) against the one received. */
export function headerMismatch(
  name: string,
  expected: string,
  actual: string | null,
  vars: Variables,
): string[] {
  if (actual === null) return [`header ${name}: missing`];
  if (variable.test(expected)) {
    return vars.bind(expected.slice(1), actual) ? [] : [`header ${name}: ${actual} is not ${expected}`];
  }
  const pattern = new RegExp(`^${expected.split(anything).map(escapeRegExp).join('.+')}$`);
  return pattern.test(actual) ? [] : [`header ${name}: expected ${expected}, got ${actual}`];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
