/** The undici dispatcher every link-check request goes through: a proxy agent, or a plain agent. */
import { Agent, ProxyAgent, type Dispatcher } from 'undici';

/** Options of createLinkDispatcher. */
export interface LinkDispatcherOptions {
  /** Proxy URL; undefined connects to sites directly. */
  proxy: string | undefined;
  /** Connections per origin; the host gate already limits requests, this only bounds sockets. */
  perHost: number;
}

// Hosts are revisited at the politeness interval (1 s by default): a short idle keep-alive lets the next
// request to the same host reuse its connection without holding thousands of idle sockets open.
const KEEP_ALIVE_MS = 2_000;

/**
 * Creates the dispatcher. Through a proxy, `http://` URLs are sent in absolute form to the proxy
 * (`proxyTunnel: false`: undici would otherwise open a CONNECT tunnel even for plain HTTP) and
 * `https://` URLs through a CONNECT tunnel, TLS end to end with the site.
 */
export function createLinkDispatcher(options: LinkDispatcherOptions): Dispatcher {
  const common = { connections: options.perHost, keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS };
  if (options.proxy === undefined) return new Agent(common);
  return new ProxyAgent({ uri: options.proxy, proxyTunnel: false, ...common });
}
