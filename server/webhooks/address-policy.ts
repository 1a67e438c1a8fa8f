import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may not reach unless an operator lists its host: loopback, private,
 * link-local (cloud metadata), carrier-grade NAT, unspecified and multicast, in IPv4 and IPv6.
 */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address (IPv4, IPv6, IPv4-mapped IPv6) is internal; false for a name. */
export function isInternalAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return INTERNAL.check(mapped[1]!, 'ipv4');
  const family = isIP(bare);
  if (family === 0) return false;
  return INTERNAL.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * `webhooks.allowed_hosts` as the service applies it. Empty (the default): any host whose
 * address is not internal. Otherwise only the hosts listed (a name, an address, or
 * `*.example.com` for its subdomains), at whatever address: the operator vouched for them.
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
  return {
    /** A URL's host, before any request: listed, or (none listed) not an internal address. */
    allowsHost: (hostname: string) =>
      patterns.length === 0 ? !isInternalAddress(hostname) : listed(hostname),
    /** The address a host name resolved to, as the connection is made. */
    allowsAddress: (address: string) => patterns.length > 0 || !isInternalAddress(address),
  };
}

export type HostPolicyOf = ReturnType<typeof hostPolicy>;
