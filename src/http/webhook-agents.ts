import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { RecentlyUsed } from './recently-used.js';

/** Sockets one receiver origin may have open at once: the dispatcher's per-subscription caps keep it lower. */
const socketsPerOrigin = 16;
/** An idle kept-alive socket is closed after this long: below the 5 s most servers keep one. */
const idleSocketMs = 4_000;
/** Origins whose agents are kept; the least recently used one beyond this is let go. */
const originsKept = 256;

/**
 * Keep-alive agents, one per receiver origin and guard setting, so deliveries to one receiver
 * reuse their connections. Each agent connects through `lookup`, which runs the SSRF address
 * check on every new connection: a pooled socket was checked when it was made, and a name that
 * rebinds to a forbidden address later gets no new connection. An agent let go of (more than
 * `originsKept` origins) is not destroyed, as attempts may still use its sockets: its idle
 * sockets close after `idleSocketMs` and it is collected.
 */
export class ReceiverAgents {
  private readonly agents = new RecentlyUsed<string, http.Agent>(originsKept);

  constructor(private readonly lookups: { guarded: LookupFunction; open: LookupFunction }) {}

  /** The agent for `url`'s origin. */
  for(url: URL, guarded: boolean): http.Agent {
    const key = `${guarded ? 'g' : 'o'} ${url.protocol}//${url.host}`;
    const known = this.agents.get(key);
    if (known) return known;
    const options = {
      keepAlive: true,
      maxSockets: socketsPerOrigin,
      maxFreeSockets: socketsPerOrigin,
      timeout: idleSocketMs,
      scheduling: 'lifo' as const,
      lookup: guarded ? this.lookups.guarded : this.lookups.open,
    };
    const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    this.agents.set(key, agent);
    return agent;
  }

  /** Closes every idle socket and forgets the agents (attempts in flight keep theirs until they end). */
  close(): void {
    for (const agent of this.agents.values()) {
      for (const sockets of Object.values(agent.freeSockets))
        for (const socket of sockets ?? []) socket.destroy();
    }
    this.agents.clear();
  }
}
