import ipaddr from "ipaddr.js";

/** Whether an address may be fetched, and the range it belongs to. */
export interface AddressVerdict {
  readonly allowed: boolean;
  /** ipaddr.js's range name: `unicast`, `loopback`, `private`, `linkLocal`, `carrierGradeNat`, ... */
  readonly range: string;
  /** The address in canonical form (an IPv4-mapped IPv6 address as its IPv4). */
  readonly address: string;
}

/**
 * Only public unicast addresses are fetched by default: loopback, private, link-local,
 * carrier-grade NAT, multicast, broadcast, unspecified, reserved and the IPv6 transition ranges
 * that embed an IPv4 address are refused. An IPv4-mapped IPv6 address is judged as its IPv4.
 * `allow` lists CIDRs (`127.0.0.1/32`) that are accepted anyway: an explicit opt-in.
 */
export function checkAddress(address: string, allow: readonly string[] = []): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: "invalid", address };
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  const canonical = parsed.toString();
  const range = parsed.range();
  for (const cidr of allow) {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    if (network.kind() === parsed.kind() && parsed.match([network, bits] as never)) {
      return { allowed: true, range, address: canonical };
    }
  }
  return { allowed: range === "unicast", range, address: canonical };
}

/** Whether a CIDR list is well-formed; returns the first bad entry. */
export function invalidCidr(list: readonly string[]): string | undefined {
  return list.find((cidr) => {
    try {
      ipaddr.parseCIDR(cidr);
      return false;
    } catch {
      return true;
    }
  });
}
