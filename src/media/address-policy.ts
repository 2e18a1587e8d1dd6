import ipaddr from "ipaddr.js";

/** Whether an address may be fetched, and the range it belongs to. */
export interface AddressVerdict {
  readonly allowed: boolean;
  /** ipaddr.js's range name: `unicast`, `loopback`, `private`, `linkLocal`, `carrierGradeNat`, ... */
  readonly range: string;
  /** The address in canonical form (an IPv4-mapped IPv6 address as its IPv4). */
  readonly address: string;
}

/** The IPv4 address an IPv6 address carries, and in which form; undefined when it carries none. */
function embeddedIPv4(address: ipaddr.IPv6): { ipv4: ipaddr.IPv4; form: string } | undefined {
  const parts = address.parts;
  const v4 = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  // ::a.b.c.d (IPv4-compatible, deprecated), except :: and ::1 themselves.
  if (zeros(0, 6) && (parts[6] !== 0 || parts[7] > 1)) {
    return { ipv4: v4(parts[6], parts[7]), form: "IPv4-compatible" };
  }
  if (zeros(0, 5) && parts[5] === 0xffff)
    return { ipv4: v4(parts[6], parts[7]), form: "IPv4-mapped" };
  // ::ffff:0:a.b.c.d (RFC 6145 translated).
  if (zeros(0, 4) && parts[4] === 0xffff && parts[5] === 0) {
    return { ipv4: v4(parts[6], parts[7]), form: "IPv4-translated" };
  }
  // 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64, RFC 6052 and RFC 8215).
  if (parts[0] === 0x64 && parts[1] === 0xff9b && (zeros(2, 6) || parts[2] === 1)) {
    return { ipv4: v4(parts[6], parts[7]), form: "NAT64" };
  }
  if (parts[0] === 0x2002) return { ipv4: v4(parts[1], parts[2]), form: "6to4" };
  // Teredo: the client's address, every bit inverted, in the last 32 bits.
  if (parts[0] === 0x2001 && parts[1] === 0) {
    return { ipv4: v4(parts[6] ^ 0xffff, parts[7] ^ 0xffff), form: "Teredo" };
  }
  return undefined;
}

/**
 * Only public unicast addresses are fetched by default: loopback, private, link-local,
 * carrier-grade NAT, multicast, broadcast, unspecified, reserved and the IPv6 transition ranges
 * are refused. An IPv6 address that carries an IPv4 address (IPv4-compatible, -mapped or
 * -translated, NAT64, 6to4, Teredo) is judged by that IPv4 address too: both must be public, and
 * the compatible, mapped and translated forms are the IPv4 host itself.
 * `allow` lists CIDRs (`127.0.0.1/32`) that are accepted anyway: an explicit opt-in.
 */
export function checkAddress(address: string, allow: readonly string[] = []): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: "invalid", address };
  let parsed = ipaddr.parse(address);
  let embedded: ipaddr.IPv4 | undefined;
  if (parsed.kind() === "ipv6") {
    const found = embeddedIPv4(parsed as ipaddr.IPv6);
    if (found !== undefined && /^IPv4-/.test(found.form)) parsed = found.ipv4;
    else embedded = found?.ipv4;
  }
  const canonical = parsed.toString();
  const own = parsed.range();
  const range =
    embedded !== undefined && embedded.range() !== "unicast"
      ? `${own} carrying ${embedded.range()}`
      : own;
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
