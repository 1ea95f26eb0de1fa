import { BlockList, isIP } from "node:net";

/** 127.0.0.0/8 and ::1 (BlockList also matches their IPv4-mapped form, ::ffff:127.x.x.x). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/**
 * Whether an interface address is loopback, i.e. only this machine can reach
 * a server bound to it: IPv4 127.0.0.0/8 (RFC 1122 section 3.2.1.3), IPv6 ::1
 * (RFC 4291 section 2.5.3) in any spelling, their IPv4-mapped form, and the
 * name `localhost` (RFC 6761 section 6.3). Anything else, including the
 * wildcards `0.0.0.0` and `::` and every other host name, is not.
 * @example isLoopbackAddress("127.0.0.1") // true
 * @example isLoopbackAddress("0.0.0.0") // false
 */
export function isLoopbackAddress(address: string): boolean {
  const a = address.trim().replace(/^\[(.*)\]$/, "$1");
  if (/^localhost\.?$/i.test(a)) return true;
  const family = isIP(a);
  return family !== 0 && LOOPBACK.check(a, family === 6 ? "ipv6" : "ipv4");
}
