import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** One open connection, and the request it is exchanging, if any. */
interface Held {
  socket: Socket;
  address: string;
  request: IncomingMessage | null;
  response: ServerResponse | null;
}

export interface FairConnectionLimits {
  /** Open connections at most. */
  maxConnections: number;
  /** Open connections one client address may hold at most (0: no bound). */
  maxConnectionsPerAddress: number;
}

/**
 * Bounds the open connections, fairly between client addresses when they run out. Each address
 * may hold `maxConnectionsPerAddress`; past that its new connections are closed on arrival. When
 * all `maxConnections` are open, a connection from an address holding fewer than the address that
 * holds the most is still let in: one of that address's connections that is not being answered
 * (still sending its headers or its body, or idle between requests) is closed to make room. So a
 * few addresses trickling headers or bodies into every connection (five were enough at 256 each)
 * no longer shut everyone else out for the length of their timeouts, and while connections last,
 * no one is held to a share. Behind a proxy every connection has the proxy's address, and this is
 * the plain bound.
 */
export function admitConnectionsFairly(server: Server, limits: FairConnectionLimits): void {
  const byAddress = new Map<string, Set<Held>>();
  const bySocket = new Map<Socket, Held>();

  const forget = (held: Held) => {
    if (!bySocket.delete(held.socket)) return;
    const own = byAddress.get(held.address);
    own?.delete(held);
    if (own?.size === 0) byAddress.delete(held.address);
  };

  /** A connection of the address holding the most, beyond `than`, that can be closed to make room. */
  const roomFrom = (than: number): Held | null => {
    let heaviest: Set<Held> | undefined;
    for (const own of byAddress.values()) if (!heaviest || own.size > heaviest.size) heaviest = own;
    if (!heaviest || heaviest.size <= than + 1) return null;
    for (const held of heaviest) if (notAnswering(held)) return held;
    return null;
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const own = byAddress.get(address)?.size ?? 0;
    const perAddress = limits.maxConnectionsPerAddress;
    if (perAddress > 0 && own >= perAddress) {
      socket.destroy();
      return;
    }
    if (bySocket.size >= limits.maxConnections) {
      const victim = roomFrom(own);
      if (victim === null) {
        socket.destroy();
        return;
      }
      forget(victim);
      victim.socket.destroy();
    }
    const held: Held = { socket, address, request: null, response: null };
    bySocket.set(socket, held);
    let set = byAddress.get(address);
    if (!set) {
      set = new Set();
      byAddress.set(address, set);
    }
    set.add(held);
    socket.once('close', () => forget(held));
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const held = bySocket.get(request.socket);
    if (!held) return;
    held.request = request;
    held.response = response;
    const done = () => {
      if (held.response !== response) return;
      held.request = null;
      held.response = null;
    };
    response.once('finish', done);
    response.once('close', done);
  });
}

/**
 * Whether a connection is not being answered: idle, still sending its request's headers, or its
 * body (the app may wait for it; nothing of the answer has been sent).
 */
function notAnswering({ request, response }: Held): boolean {
  if (request === null || response === null) return true;
  return !request.complete && !response.headersSent;
}
