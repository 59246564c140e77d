/** The undici dispatcher every link-check request goes through: through a proxy, or straight to sites. */
import { Agent, Pool, ProxyAgent, type Dispatcher } from 'undici';
import { guardDestinations } from './guard-destinations.ts';
import { createGuardedLookup, type ResolveHost } from './guarded-lookup.ts';
import type { OutboundPolicy } from './outbound-policy.ts';

/** Options of createLinkDispatcher. */
export interface LinkDispatcherOptions {
  /** Proxy URL; undefined connects to sites directly. */
  proxy: string | undefined;
  /** Requests in flight at most (the run's concurrency): connections to the proxy. */
  concurrency: number;
  /** Connections per site; the host gate already limits requests, this only bounds sockets. */
  perHost: number;
  /** Where requests may go (STYLE 29); the proxy itself is the operator's choice and is not judged. */
  policy: OutboundPolicy;
  /** The resolver of direct connections (tests inject one); the system's by default. */
  resolve?: ResolveHost;
}

/** The dispatcher, and how to let go of every connection it holds. */
export interface LinkDispatcher {
  dispatcher: Dispatcher;
  destroy(): Promise<void>;
}

// Hosts are revisited at the politeness interval (1 s by default): a short idle keep-alive lets the next
// request to the same host reuse its connection without holding thousands of idle sockets open.
const KEEP_ALIVE_MS = 2_000;

/**
 * Creates the dispatcher. Through a proxy, `http://` URLs go in absolute form (`GET http://host/path`)
 * over one pool of connections to the proxy, and `https://` URLs through a CONNECT tunnel per site, TLS
 * end to end with the site. undici's ProxyAgent could do both, but for plain HTTP it keeps one
 * dispatcher per site it has seen for as long as it lives (about 23 KB each, measured): a weekly run
 * visits thousands of sites, so memory would grow with the URL list. Tunnels and direct connections
 * are per-site pools that undici drops once their connections close.
 *
 * The proxy URL's user and password (percent-decoded) go to the proxy as Basic `Proxy-Authorization` on
 * both paths: on every plain request and on every CONNECT.
 *
 * Every request is judged by its URL first (guardDestinations). Direct connections also judge every
 * address a name resolves to, at connect time (createGuardedLookup); through a proxy the proxy resolves
 * names, so only the URL check applies.
 */
export function createLinkDispatcher(options: LinkDispatcherOptions): LinkDispatcher {
  const keepAlive = { keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS };
  if (options.proxy === undefined) {
    const lookup = createGuardedLookup(options.policy, options.resolve);
    const agent = new Agent({ connections: options.perHost, ...keepAlive, connect: { lookup } });
    return { dispatcher: agent.compose(guardDestinations(options.policy)), destroy: () => agent.destroy() };
  }
  const proxyUrl = new URL(options.proxy);
  const proxyOrigin = proxyUrl.origin;
  const credentials = proxyCredentials(proxyUrl);
  const plain = new Pool(proxyOrigin, { connections: options.concurrency, ...keepAlive });
  // The same header on CONNECT (ProxyAgent would send none for a user without a password).
  const token = credentials['proxy-authorization'];
  const tunnels = new ProxyAgent({ uri: options.proxy, connections: options.perHost, ...keepAlive, ...(token === undefined ? {} : { token }) });
  const dispatcher = tunnels.compose((dispatch) => (opts, handler) => {
    const origin = new URL(String(opts.origin));
    if (origin.protocol !== 'http:') return dispatch(opts, handler);
    const headers = { ...(opts.headers as Record<string, string> | undefined), host: origin.host, ...credentials };
    return plain.dispatch({ ...opts, origin: proxyOrigin, path: `${origin.origin}${opts.path}`, headers }, handler);
  }, guardDestinations(options.policy)); // the last interceptor is the outermost: the guard sees every request first
  return { dispatcher, destroy: async () => void (await Promise.all([plain.destroy(), tunnels.destroy()])) };
}

/** The Proxy-Authorization header for the user and password of `proxy`, as ProxyAgent builds it for CONNECT. */
function proxyCredentials(proxy: URL): { 'proxy-authorization'?: string } {
  if (proxy.username === '' && proxy.password === '') return {};
  const pair = `${percentDecoded(proxy.username)}:${percentDecoded(proxy.password)}`;
  return { 'proxy-authorization': `Basic ${Buffer.from(pair).toString('base64')}` };
}

// The URL parser leaves a stray `%` as it is; such a user or password is taken literally.
function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
