import { describe, expect, it } from "vitest";
import { clientAddress, clientAddressOf, normalizeAddress, PEER_HEADER } from "./client-address";

describe("the client's address", () => {
  it("with no trusted proxy (the default) is the connection's, whatever X-Forwarded-For claims", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.20", 0)).toBe("198.51.100.20");
    expect(clientAddress(null, "::ffff:127.0.0.1", 0)).toBe("127.0.0.1");
    expect(clientAddress("203.0.113.9", null, 0)).toBeNull();
  });

  it("behind trusted proxies is the entry the outermost one added; a spoofed left-most entry is ignored", () => {
    // client 198.51.100.7 → proxy (10.0.0.2) → console; the client sent its own X-Forwarded-For.
    expect(clientAddress("6.6.6.6, 198.51.100.7", "10.0.0.2", 1)).toBe("198.51.100.7");
    expect(clientAddress("198.51.100.7", "10.0.0.2", 1)).toBe("198.51.100.7");
    // client → CDN (192.0.2.50) → load balancer (10.0.0.2) → console.
    expect(clientAddress("6.6.6.6, 5.5.5.5, 198.51.100.7, 192.0.2.50", "10.0.0.2", 2)).toBe("198.51.100.7");
    // Fewer entries than hops: the left-most there is; none at all: the connection's.
    expect(clientAddress("198.51.100.7", "10.0.0.2", 3)).toBe("198.51.100.7");
    expect(clientAddress(null, "10.0.0.2", 1)).toBe("10.0.0.2");
    // An entry that is no address is not recorded as one.
    expect(clientAddress("6.6.6.6, <script>", "10.0.0.2", 1)).toBeNull();
  });

  it("writes addresses as the audit log keeps them", () => {
    expect(normalizeAddress(" 2001:DB8::1 ")).toBe("2001:db8::1");
    expect(normalizeAddress("[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(normalizeAddress("198.51.100.7:5123")).toBe("198.51.100.7");
    expect(normalizeAddress("::FFFF:198.51.100.7")).toBe("198.51.100.7");
    expect(normalizeAddress("unknown")).toBeNull();
    expect(normalizeAddress("")).toBeNull();
  });

  it("reads the headers the server and the proxies set", () => {
    const headers = new Headers({ "X-Forwarded-For": "6.6.6.6, 198.51.100.7", [PEER_HEADER]: "10.0.0.2" });
    expect(clientAddressOf(headers, 0)).toBe("10.0.0.2");
    expect(clientAddressOf(headers, 1)).toBe("198.51.100.7");
  });
});
