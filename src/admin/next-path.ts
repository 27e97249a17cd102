/**
 * Where sign-in sends the browser back to. Only a path on this site is accepted: `//evil.test`,
 * `/\evil.test`, `https://evil.test` and anything with control characters are refused, so the
 * sign-in page cannot be used as an open redirect.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2048) return null;
  if (!next.startsWith('/') || next.startsWith('//')) return null;
  // Browsers treat a backslash like a slash and drop tabs and newlines before resolving.
  if ([...next].some(isUnsafeCharacter)) return null;
  const base = 'http://same-site.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return url.pathname + url.search;
}

const isUnsafeCharacter = (c: string) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/** The sign-in URL that comes back to `path` afterwards. */
export const signInUrl = (path: string): string => `/sign-in?next=${encodeURIComponent(path)}`;
