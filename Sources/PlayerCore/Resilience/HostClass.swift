/// Where a host is, in three words an operator can act on and that name nobody: the listener's own
/// machine, their local network, or the internet.
///
/// Why: metrics and reports must say which kind of server is failing (the NAS's Icecast in the
/// house, or stations far away) without a host name, which is personal data and would make a
/// label of unbounded cardinality. Read from the breaker key alone (`HostCircuitBreakers.host(of:)`),
/// with no DNS query: a literal address by its range, a name by the suffixes that only local
/// networks use.
public enum HostClass: String, Sendable, Hashable, CaseIterable, Codable {
    /// 127/8, ::1, `localhost`.
    case loopback
    /// Private and link-local ranges (10/8, 172.16/12, 192.168/16, 100.64/10, 169.254/16,
    /// fc00::/7, fe80::/10), names under `.local`, `.lan`, `.home.arpa`, `.internal`, and names
    /// without a dot (a LAN's own DNS).
    case local
    /// Everything else.
    case internet

    /// The class of a breaker key: a host, lower-cased, with `:port` when not the default, and an
    /// IPv6 literal in brackets.
    public init(breakerKey key: String) {
        let host = Self.hostPart(of: key.lowercased())
        if let octets = Self.ipv4(host) {
            self = Self.classify(ipv4: octets)
        } else if host.contains(":") {
            self = Self.classify(ipv6: host)
        } else if host == "localhost" || host.hasSuffix(".localhost") {
            self = .loopback
        } else if !host.contains(".") || [".local", ".lan", ".home.arpa", ".internal"].contains(where: { host.hasSuffix($0) }) {
            self = .local
        } else {
            self = .internet
        }
    }

    /// The host without its port and IPv6 brackets.
    private static func hostPart(of key: String) -> String {
        if key.hasPrefix("["), let close = key.firstIndex(of: "]") {
            return String(key[key.index(after: key.startIndex)..<close])
        }
        if let colon = key.lastIndex(of: ":"), key.firstIndex(of: ":") == colon { return String(key[..<colon]) }
        return key
    }

    private static func ipv4(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let octets = parts.compactMap { part in (1...3).contains(part.count) && part.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(part) : nil }
        guard octets.count == 4, octets.allSatisfy({ (0...255).contains($0) }) else { return nil }
        return octets
    }

    private static func classify(ipv4 a: [Int]) -> HostClass {
        switch (a[0], a[1]) {
        case (127, _), (0, _): .loopback
        case (10, _), (172, 16...31), (192, 168), (169, 254), (100, 64...127): .local
        default: .internet
        }
    }

    private static func classify(ipv6 host: String) -> HostClass {
        if host == "::1" || host == "::" { return .loopback }
        if host.hasPrefix("::ffff:"), let mapped = ipv4(String(host.dropFirst(7))) { return classify(ipv4: mapped) }
        let firstGroup = host.split(separator: ":", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let value = UInt16(firstGroup, radix: 16) else { return .internet }
        if value & 0xFE00 == 0xFC00 { return .local }  // unique local fc00::/7
        if value & 0xFFC0 == 0xFE80 { return .local }  // link-local fe80::/10
        return .internet
    }
}
