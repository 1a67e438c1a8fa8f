import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Why an IPv4 range is refused, by ipaddr.js's name for it; `unicast` (public) is not here. */
const IPV4_REFUSED: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (where cloud metadata answers)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  reserved: 'a reserved or documentation address',
  as112: 'a special-purpose address',
  amt: 'a special-purpose address',
  benchmarking: 'a benchmarking address',
};

/** Why an IPv6 range that embeds no IPv4 address is refused; `unicast` (global) is not here. */
const IPV6_REFUSED: Record<string, string> = {
  unspecified: 'the unspecified address',
  loopback: 'a loopback address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique-local address',
  deprecatedSiteLocal: 'a site-local address',
  multicast: 'a multicast address',
};

/** The IPv4 address in the last 32 bits. */
const lastFour = (address: IPv6) => ipaddr.fromByteArray(address.toByteArray().slice(12)) as IPv4;

/**
 * The IPv4 address an IPv6 one carries, where a gateway or the kernel may connect to it (so that
 * the IPv4 rules apply), and the form's name.
 */
function embeddedIPv4(address: IPv6): { v4: IPv4[]; form: string } | undefined {
  const bytes = address.toByteArray();
  switch (address.range() as string) {
    case 'ipv4Mapped':
      return { v4: [lastFour(address)], form: 'an IPv4-mapped' };
    case 'rfc6145':
      return { v4: [lastFour(address)], form: 'an IPv4-translated' };
    case 'rfc6052':
      return { v4: [lastFour(address)], form: 'a NAT64' };
    case '6to4':
      return { v4: [ipaddr.fromByteArray(bytes.slice(2, 6)) as IPv4], form: 'a 6to4' };
    case 'teredo':
      // The server's address as it is; the client's with every bit flipped (RFC 4380).
      return {
        v4: [
          ipaddr.fromByteArray(bytes.slice(4, 8)) as IPv4,
          ipaddr.fromByteArray(bytes.slice(12).map((byte) => byte ^ 0xff)) as IPv4,
        ],
        form: 'a Teredo',
      };
    default:
      return undefined;
  }
}

function refusedIPv4(address: IPv4): string | undefined {
  const range = address.range() as string;
  return range === 'unicast' ? undefined : (IPV4_REFUSED[range] ?? 'a special-purpose address');
}

function refusedIPv6(address: IPv6): string | undefined {
  const range = address.range() as string;
  const parts = address.parts;
  // ::a.b.c.d, deprecated (RFC 4291): no public receiver is reached through it.
  if (range === 'unicast' && parts.slice(0, 6).every((part) => part === 0)) {
    return `an IPv4-compatible address (deprecated) of ${lastFour(address).toString()}`;
  }
  // 64:ff9b:1::/48 is for a network's own translator (RFC 8215): never a public receiver.
  if (range === 'rfc6052' && parts[2] !== 0) return 'a local-use NAT64 address';
  const embedded = embeddedIPv4(address);
  if (embedded) {
    for (const v4 of embedded.v4) {
      const why = refusedIPv4(v4);
      if (why) return `${embedded.form} address of ${v4.toString()}, ${why}`;
    }
    return undefined;
  }
  if (range === 'unicast') return undefined;
  return IPV6_REFUSED[range] ?? 'a special-purpose or documentation address';
}

/**
 * Why a webhook may not reach an address unless an operator lists its host, or undefined when
 * it may: anything but a public (global unicast) address, an IPv4 address carried in an IPv6
 * one judged as that IPv4 address. False for a name: names are judged by what they resolve to.
 */
export function internalAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return refusedIPv4(ipaddr.IPv4.parse(bare));
  if (family !== 6) return undefined;
  // Written in hex first, as a URL writes it: ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`.
  const hex = new URL(`http://[${bare}]`).hostname.slice(1, -1);
  return refusedIPv6(ipaddr.IPv6.parse(hex));
}

/** Whether an IP address (IPv4 or IPv6, any IPv4 embedding) is internal; false for a name. */
export const isInternalAddress = (address: string) => internalAddressReason(address) !== undefined;

/**
 * `webhooks.allowed_hosts` as the service applies it. Empty (the default): any host whose
 * address is not internal. Otherwise only the hosts listed (a name, an address, or
 * `*.example.com` for its subdomains), at whatever address: the operator vouched for them.
 * Each check gives the reason a host or address is refused, or undefined.
 */
export function hostPolicy(allowed: readonly string[]) {
  const patterns = allowed.map((host) => host.toLowerCase().replace(/\.$/, ''));
  const listed = (hostname: string) => {
    const host = hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^\[(.*)\]$/, '$1');
    return patterns.some((pattern) =>
      pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) : host === pattern,
    );
  };
  const internal = (address: string) => {
    const why = internalAddressReason(address);
    return why && `${why}: list the host in webhooks.allowed_hosts to allow it`;
  };
  return {
    /** A URL's host, before any request: listed, or (none listed) not an internal address. */
    refusesHost: (hostname: string): string | undefined => {
      if (patterns.length === 0) {
        const why = internal(hostname);
        return why && `host "${hostname}" is ${why}`;
      }
      return listed(hostname)
        ? undefined
        : `host "${hostname}" is not in the service's webhooks.allowed_hosts`;
    },
    /** The address a host name resolved to, as the connection is made. */
    refusesAddress: (address: string): string | undefined =>
      patterns.length > 0 ? undefined : internal(address),
  };
}

export type HostPolicyOf = ReturnType<typeof hostPolicy>;
