/** Reading the Cookie header and writing Set-Cookie values for the admin pages. */

/** The cookies of a request by name (the first of duplicates wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name && !cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

/**
 * A Set-Cookie value. Always HttpOnly (no script reads it), SameSite=Strict (no other site's
 * page can make the browser send it) and Path=/; Secure when the page was served over https.
 */
export function setCookie(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; secure: boolean },
): string {
  const attributes = [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (options.secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** A Set-Cookie value that makes the browser forget the cookie. */
export const clearCookie = (name: string, secure: boolean): string =>
  setCookie(name, '', { maxAgeSeconds: 0, secure });
