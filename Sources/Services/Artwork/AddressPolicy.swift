import Foundation
import PlayerCore

#if canImport(Glibc)
    import Glibc
#endif

/// Which hosts a URL named by a server may point at. A station's status
/// API or an ICY `StreamUrl` names artwork URLs; without this check a hostile or compromised
/// server could make the player fetch from the listener's own machine or LAN (a router's admin
/// page, a local service): server-side request forgery from a desktop.
///
/// Refused: loopback (127/8, ::1), "this network" (0/8, ::), private (10/8, 172.16/12,
/// 192.168/16), carrier-grade NAT (100.64/10), link-local (169.254/16, fe80::/10), unique-local
/// (fc00::/7), multicast and broadcast, and IPv4-mapped/compatible IPv6 forms of all of these.
/// A host is refused when *any* address it resolves to is refused, so a DNS answer that mixes a
/// public and a private address cannot slip through.
///
/// Known limit: the check runs on the URL asked for. Redirects are followed by the program's
/// shared HTTP client (capped at `StreamingLimits.maxRedirects`) and their targets are not
/// re-checked, and the client resolves the name again (DNS rebinding stays possible).
package struct AddressPolicy: Sendable {
    /// Tests and LAN setups (a station served from the listener's own NAS) allow them.
    package var allowPrivateAddresses: Bool

    package init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// Throws unless `url` is http(s) with a host whose every address is public.
    ///
    /// - Parameter numericOnly: resolve literal addresses only (no DNS query); tests use it to
    ///   stay off the network. A name then fails as `dnsFailure`.
    /// - Throws: `streamUnavailable` for another scheme, a missing host or a refused address;
    ///   `dnsFailure` when the name does not resolve.
    package func check(_ url: URL, numericOnly: Bool = false) async throws(PlaybackError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw PlaybackError(.streamUnavailable, underlying: "artwork URL is not http(s)")
        }
        guard let host = Self.host(of: url) else { throw PlaybackError(.streamUnavailable, underlying: "artwork URL has no host") }
        if allowPrivateAddresses { return }
        // getaddrinfo blocks: on a thread of its own, never one the player's services share.
        let result = await BlockingCall.onOwnThread { Self.resolve(host, numericOnly: numericOnly) }
        let addresses = try result.get()
        guard !addresses.isEmpty else { throw PlaybackError(.dnsFailure, underlying: "no address for the artwork host") }
        if let refused = addresses.first(where: Self.isRefused) {
            // Final, never retried: the same host would be refused again.
            throw PlaybackError(.permissionDenied, underlying: "artwork host resolves to a non-public address (\(Self.describe(refused)))")
        }
    }

    /// The host of `url` without IPv6 brackets.
    static func host(of url: URL) -> String? {
        guard var host = URLComponents(url: url, resolvingAgainstBaseURL: false)?.host ?? url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host
    }

    /// The addresses of `host` as raw bytes (4 for IPv4, 16 for IPv6).
    static func resolve(_ host: String, numericOnly: Bool) -> Result<[[UInt8]], PlaybackError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        if numericOnly { hints.ai_flags = AI_NUMERICHOST }
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else {
            return .failure(PlaybackError(.dnsFailure, underlying: "getaddrinfo: \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(list) }
        var addresses: [[UInt8]] = []
        var node = list
        while let entry = node {
            if let address = entry.pointee.ai_addr {
                switch Int32(address.pointee.sa_family) {
                case AF_INET:
                    let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) } }
                    addresses.append(bytes)
                case AF_INET6:
                    let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } }
                    addresses.append(bytes)
                default:
                    break
                }
            }
            node = entry.pointee.ai_next
        }
        return .success(addresses)
    }

    /// Whether the address (4 or 16 bytes) is anything but a public unicast address.
    package static func isRefused(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: return isRefusedIPv4(address)
        case 16: return isRefusedIPv6(address)
        default: return true
        }
    }

    static func isRefusedIPv4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1]) {
        case (0, _), (127, _), (10, _): return true  // this network, loopback, private
        case (172, 16...31), (192, 168), (169, 254): return true  // private, private, link-local
        case (100, 64...127): return true  // carrier-grade NAT
        case (224...255, _): return true  // multicast, reserved, broadcast
        default: return false
        }
    }

    static func isRefusedIPv6(_ a: [UInt8]) -> Bool {
        let firstTen = a[0..<10].allSatisfy { $0 == 0 }
        // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible (::a.b.c.d) forms.
        if firstTen, a[10] == 0xFF, a[11] == 0xFF { return isRefusedIPv4(Array(a[12..<16])) }
        if firstTen, a[10] == 0, a[11] == 0 { return true }  // ::, ::1 and ::a.b.c.d
        if a[0] & 0xFE == 0xFC { return true }  // unique local fc00::/7
        if a[0] == 0xFE, a[1] & 0xC0 == 0x80 { return true }  // link-local fe80::/10
        if a[0] == 0xFE, a[1] & 0xC0 == 0xC0 { return true }  // deprecated site-local fec0::/10
        if a[0] == 0xFF { return true }  // multicast
        return false
    }

    /// The address class for logs, never the address itself of a listener's network.
    static func describe(_ address: [UInt8]) -> String {
        address.count == 4 ? "IPv4" : "IPv6"
    }
}
