import { ApiError } from '../errors.js';
import type { ParsedRequest } from './request.js';

/**
 * Text no part of the server can store or compare is refused where it enters, the same on every
 * adapter: a NUL (PostgreSQL's text cannot hold one, and answered 500 where SQLite answered 404),
 * a lone surrogate, or percent-escaped bytes that are not UTF-8 (overlong forms such as %C0%80,
 * truncated sequences, encoded surrogates). Checked: the path, every query parameter, every
 * header value and every field of a form body. JSON bodies are checked by their own parser.
 */
export function illFormedText(req: ParsedRequest): ApiError | null {
  const queryAt = req.url.indexOf('?');
  const path = queryAt === -1 ? req.url : req.url.slice(0, queryAt);
  const pathFlaw = flawOf(path, 'url');
  if (pathFlaw) return refusal('path', '', pathFlaw);
  if (queryAt !== -1) {
    const flaw = formFlaw(req.url.slice(queryAt + 1));
    if (flaw) return refusal('query', flaw.name, flaw.flaw);
  }
  for (const name in req.headers) {
    const flaw = flawOf(req.headers[name] as string, 'header');
    if (flaw) return refusal('header', name, flaw);
  }
  const type = req.headers['content-type'];
  if (req.body !== null && type !== undefined && /^\s*application\/x-www-form-urlencoded\b/i.test(type)) {
    let text: string;
    try {
      text = typeof req.body === 'string' ? req.body : strictUtf8.decode(req.body);
    } catch {
      return refusal('body', '', notUtf8);
    }
    const flaw = formFlaw(text);
    if (flaw) return refusal('body', flaw.name, flaw.flaw);
  }
  return null;
}

/**
 * What is wrong with a path and its query string, checked as a request's are: a batch operation
 * names one, which is routed and decoded as a request's own. Null when nothing is.
 */
export function urlFlaw(url: string): string | null {
  const queryAt = url.indexOf('?');
  const pathFlaw = flawOf(queryAt === -1 ? url : url.slice(0, queryAt), 'url');
  if (pathFlaw !== null || queryAt === -1) return pathFlaw;
  return formFlaw(url.slice(queryAt + 1))?.flaw ?? null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const notUtf8 = 'bytes that are not UTF-8 (an overlong, truncated or surrogate sequence)';

/** Most text is plain ASCII without escapes: only the rest is looked at closely. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL is what is looked for
const needsALook = /[^\u0001-\u007f]|%/;

/** A high surrogate not followed by a low one, or a low one not after a high one (code units). */
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with one piece of text, or null. `url`: percent-escapes are bytes, other
 * characters are themselves. `header`: characters up to U+00FF are the bytes on the wire (both
 * hosts hand header values over as latin1), others (from an in-process caller) are themselves.
 */
function flawOf(raw: string, form: 'url' | 'header'): string | null {
  if (!needsALook.test(raw)) return null;
  if (raw.includes('\u0000')) return 'a NUL character';
  if (loneSurrogate.test(raw)) return 'a lone surrogate';
  const bytes = bytesOf(raw, form);
  if (bytes === null) return null;
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return notUtf8;
  }
  return text.includes('\u0000') ? 'a NUL character' : null;
}

/** The bytes the text stands for, or null when it stands for nothing but its own (valid) characters. */
function bytesOf(raw: string, form: 'url' | 'header'): Uint8Array | null {
  const bytes: number[] = [];
  let special = false;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (form === 'url' && code === 0x25 && isHex(raw, i + 1) && isHex(raw, i + 2)) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      special = true;
      i += 2;
    } else if (code < 0x80) bytes.push(code);
    else if (form === 'header' && code <= 0xff) {
      bytes.push(code);
      special = true;
    } else {
      const point = raw.codePointAt(i) as number;
      if (point > 0xffff) i++;
      bytes.push(...Buffer.from(String.fromCodePoint(point), 'utf8'));
    }
  }
  return special ? Uint8Array.from(bytes) : null;
}

const isHex = (text: string, at: number): boolean => /^[0-9a-fA-F]$/.test(text[at] ?? '');

/** The first ill-formed name or value of `a=1&b=2` text (a query string, a form body). */
function formFlaw(text: string): { name: string; flaw: string } | null {
  if (!needsALook.test(text)) return null;
  for (const pair of text.split('&')) {
    const at = pair.indexOf('=');
    const rawName = at === -1 ? pair : pair.slice(0, at);
    const nameFlaw = flawOf(rawName, 'url');
    const name = nameFlaw ? '' : safeDecode(rawName);
    if (nameFlaw) return { name, flaw: nameFlaw };
    const valueFlaw = at === -1 ? null : flawOf(pair.slice(at + 1), 'url');
    if (valueFlaw) return { name, flaw: valueFlaw };
  }
  return null;
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return raw;
  }
}

function refusal(where: 'path' | 'query' | 'header' | 'body', name: string, flaw: string): ApiError {
  const what =
    where === 'path'
      ? 'The path'
      : where === 'body'
        ? `The form field ${name === '' ? '' : `"${name}" `}`.trimEnd()
        : `The ${where} ${where === 'header' ? name : `parameter "${name}"`}`;
  return new ApiError(400, 'validation_failed', `${what} holds ${flaw}, which no value of the API has.`, {
    issues: [{ in: where, path: name, message: `holds ${flaw}` }],
  });
}
