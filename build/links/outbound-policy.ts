/**
 * Where an outbound request of this project may go (STYLE 29): `http` and `https` URLs whose host is a
 * public address. Loopback, private, carrier-grade NAT, link-local, unique-local, multicast, unspecified,
 * broadcast, documentation, benchmarking and other reserved ranges are refused, in IPv4 and IPv6 and in
 * the IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4), and so are the cloud
 * metadata endpoints. Address ranges come from ipaddr.js, whose tables follow the IANA registries.
 */
import { createRequire } from 'node:module';

// ipaddr.js ships CommonJS typed as `export =`, which a default import cannot name without esModuleInterop.
const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof import('ipaddr.js');
type IPv4 = import('ipaddr.js').IPv4;
type IPv6 = import('ipaddr.js').IPv6;

/** What the checker may reach; `allowPrivateAddresses` is for tests and development against a loopback site. */
export interface OutboundPolicy {
  /**
   * Lets loopback, private and other non-public addresses through (`--allow-private-addresses`). The
   * scheme rule and the cloud metadata endpoints stay refused: no test needs them.
   */
  allowPrivateAddresses: boolean;
}

/** The error a refused destination raises inside the HTTP client; `describeRequestFailure` names it. */
export class DestinationRefused extends Error {
  readonly code = 'ERR_HRA_DESTINATION_REFUSED';

  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

// Answered by the metadata service of a cloud VM: credentials live there. The addresses are also in
// refused ranges (link-local, unique-local); naming them makes the refusal say what was at stake.
const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);

const DOTTED_QUAD = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

// Ranges whose IPv6 address embeds an IPv4 one that the network may end up reaching.
const EMBEDS_IPV4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4']);

/** Words for ipaddr.js's range names in refusal reasons. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback', private: 'private', carrierGradeNat: 'carrier-grade NAT', linkLocal: 'link-local',
  uniqueLocal: 'unique-local', multicast: 'multicast', unspecified: 'unspecified', broadcast: 'broadcast',
  reserved: 'reserved', benchmarking: 'benchmarking', deprecatedSiteLocal: 'site-local', discard: 'discard',
};

/**
 * Why a connection to `address` (an IP address as a resolver or a URL gives it, IPv6 without brackets)
 * is refused, as `loopback address 127.0.0.1`; undefined when it may be reached.
 */
export function refusedAddress(address: string, policy: OutboundPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `unusable address ${address}`;
  const parsed = ipaddr.parse(address);
  const embedded = parsed.kind() === 'ipv6' ? embeddedIpv4(parsed as IPv6) : undefined;
  // An IPv6 form carrying an IPv4 address is judged, and named, by the IPv4 address the network reaches.
  const shown = `${parsed.toString()}${embedded === undefined ? '' : ` (IPv4 ${embedded.toString()})`}`;
  const judged = embedded ?? parsed;
  if (METADATA_ADDRESSES.has(judged.toString())) return `cloud metadata address ${shown}`;
  if (policy.allowPrivateAddresses) return undefined;
  const range = judged.range();
  return range === 'unicast' ? undefined : `${RANGE_WORDS[range] ?? range} address ${shown}`;
}

/**
 * Why `url` may not be requested, judged from the URL alone: its scheme, an IP literal in a refused
 * range (the WHATWG parser has already turned `2130706433`, `0x7f.1` or `127.1` into `127.0.0.1`), or a
 * name that always means this machine or a metadata service. Undefined when the URL may be requested;
 * a name's addresses are judged again at connect time when the checker resolves it itself.
 */
export function refusedUrl(url: string, policy: OutboundPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `unusable URL ${JSON.stringify(url)}`;
  }
  const scheme = refusedScheme(parsed);
  if (scheme !== undefined) return scheme;
  const host = parsed.hostname;
  // After WHATWG parsing an IPv4 host is always dotted decimal and an IPv6 one bracketed; anything else
  // is a name. Deciding by shape keeps ipaddr.js, which tries every IPv4 and IPv6 form before it fails
  // on a name, to real literals: this runs for every request.
  if (host.startsWith('[')) return refusedAddress(host.slice(1, -1), policy);
  if (DOTTED_QUAD.test(host)) return refusedAddress(host, policy);
  const name = host.replace(/\.$/, '').toLowerCase();
  if (METADATA_NAMES.has(name)) return `cloud metadata host ${name}`;
  // RFC 6761: `localhost` and every name under it are this machine, whatever a resolver says.
  if (!policy.allowPrivateAddresses && (name === 'localhost' || name.endsWith('.localhost'))) return `loopback host ${name}`;
  return undefined;
}

/** Why a URL of this scheme is not fetched (`ftp: URL (only http and https are fetched)`); undefined for http and https. */
export function refusedScheme(url: URL): string | undefined {
  return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `${url.protocol} URL (only http and https are fetched)`;
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4, or the deprecated `::a.b.c.d`), if any. */
function embeddedIpv4(address: IPv6): IPv4 | undefined {
  const range = address.range();
  const bytes = address.toByteArray();
  // 6to4 carries the IPv4 address in bits 16-47; the other forms in the last 32 bits.
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as IPv4;
  if (EMBEDS_IPV4.has(range) || isIpv4Compatible(address)) return ipaddr.fromByteArray(bytes.slice(12, 16)) as IPv4;
  return undefined;
}

/** `::a.b.c.d` (the deprecated IPv4-compatible form), but not `::` and `::1`, which have ranges of their own. */
function isIpv4Compatible(address: IPv6): boolean {
  const parts = address.parts;
  return parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || (parts[7] ?? 0) > 1);
}
