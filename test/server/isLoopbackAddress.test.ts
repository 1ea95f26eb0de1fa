/**
 * Which bind addresses keep the replay server on this machine: 127.0.0.0/8
 * (RFC 1122 3.2.1.3), ::1 (RFC 4291 2.5.3) in any spelling, their IPv4-mapped
 * form (RFC 4291 2.5.5.2), and the name localhost (RFC 6761 6.3).
 */
import { describe, expect, it } from "vitest";
import { isLoopbackAddress } from "../../src/server/isLoopbackAddress.js";

describe("isLoopbackAddress", () => {
  it.each([
    "127.0.0.1",
    "127.0.0.0",
    "127.255.255.255", // the last of 127.0.0.0/8
    "127.1.2.3",
    "::1",
    "0:0:0:0:0:0:0:1", // ::1 written out
    "[::1]", // as in a URL
    "::ffff:127.0.0.1", // IPv4-mapped
    "localhost",
    "LOCALHOST",
    "localhost.", // fully qualified
    " 127.0.0.1 ",
  ])("%s is loopback", (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([
    "0.0.0.0", // every IPv4 interface
    "::", // every interface
    "126.255.255.255", // just below 127.0.0.0/8
    "128.0.0.0", // just above
    "10.0.0.1",
    "192.168.1.10",
    "::2",
    "::ffff:10.0.0.1",
    "example.com",
    "localhost.example.com",
    "mylocalhost",
    "",
  ])("%j is not loopback", (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});
