import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach: a subscriber could otherwise make the tracker call
 * its own host, the cloud metadata service or the private network behind it.
 */
const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network, unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible form (::127.0.0.1)
  ['::ffff:0:0:0', 96], // IPv4-translated (RFC 2765): ::ffff:0:7f00:1 wraps 127.0.0.1
  ['64:ff9b::', 96], // NAT64 maps IPv4 (possibly private) into IPv6
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: tunnels to an IPv4 address hidden in the last 32 bits
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (deprecated, RFC 7526): 2002:7f00:1:: wraps 127.0.0.1
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a webhook may not be delivered to. IPv4-mapped IPv6 counts as its IPv4. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return forbidden.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether a text holds a space or an ASCII control character (DEL included). */
function hasSpaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return false;
}

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The checks a subscription URL passes before any DNS lookup: https only (unless private
 * targets are allowed, for local development), no credentials, and no literal forbidden address.
 * Names are checked again against the addresses they resolve to, at every delivery.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): UrlVerdict {
  // The URL parser drops tabs and line breaks and escapes spaces: a URL holding them would be
  // stored (and shown, and signed into events) as something other than what is delivered to.
  if (hasSpaceOrControl(raw)) {
    return { ok: false, reason: 'webhook URLs must not contain spaces or control characters' };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { ok: false, reason: 'webhook URLs must use https' };
  }
  if (url.username || url.password) return { ok: false, reason: 'webhook URLs must not carry credentials' };
  // Port 0 names no port: Node would connect to the scheme's default instead.
  if (url.port === '0') return { ok: false, reason: 'webhook URLs must not use port 0' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) {
    return {
      ok: false,
      reason: `webhook URLs must not point at a private, loopback or reserved address (${host})`,
    };
  }
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
    return { ok: false, reason: 'webhook URLs must not point at localhost' };
  }
  return { ok: true, url };
}
