import Foundation

/// Tells whether the machine can reach beyond itself, without sending a packet.
public protocol ConnectivityProbe: Sendable {
    func isOnline() -> Bool
}

/// Online means "a default route on an interface that is up", read from the kernel's routing table
/// (`/proc/net/route`, `/proc/net/ipv6_route`) and `/sys/class/net/IFACE/operstate`.
///
/// Why a cheap probe rather than netlink: reading two small files every couple of seconds costs
/// nothing, needs no privileges or C shim, and sees exactly what netlink would announce (a cable
/// pulled, Wi-Fi gone, a VPN down). It cannot see a captive portal or a dead upstream: those show as
/// failed connections, which the reconnect policy handles.
public struct DefaultRouteProbe: ConnectivityProbe {
    package var procRoot: String
    package var sysRoot: String

    public init(procRoot: String = "/proc", sysRoot: String = "/sys") {
        self.procRoot = procRoot
        self.sysRoot = sysRoot
    }

    public func isOnline() -> Bool {
        let ipv4 = (try? String(contentsOfFile: "\(procRoot)/net/route", encoding: .utf8)) ?? ""
        let ipv6 = (try? String(contentsOfFile: "\(procRoot)/net/ipv6_route", encoding: .utf8)) ?? ""
        return Self.hasDefaultRoute(ipv4Routes: ipv4, ipv6Routes: ipv6) { name in
            let state = (try? String(contentsOfFile: "\(sysRoot)/class/net/\(name)/operstate", encoding: .utf8)) ?? "unknown"
            // "unknown" is what many virtual interfaces (tun, veth) report while working.
            return state.trimmingCharacters(in: .whitespacesAndNewlines) != "down"
        }
    }

    /// Pure: the decision from the tables' text. IPv4 lines: `Iface Destination Gateway Flags ...`
    /// with Destination `00000000`, Mask `00000000` and the UP flag (0x1). IPv6 lines: destination
    /// of 32 zeros with prefix length `00`, on an interface other than `lo`, not a reject route
    /// (flag 0x0200).
    package static func hasDefaultRoute(ipv4Routes: String, ipv6Routes: String, interfaceUp: (String) -> Bool) -> Bool {
        for line in ipv4Routes.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                let flags = UInt32(fields[3], radix: 16), flags & 0x1 != 0
            else { continue }
            let name = String(fields[0])
            if name != "lo", interfaceUp(name) { return true }
        }
        for line in ipv6Routes.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10, fields[0] == String(repeating: "0", count: 32), fields[1] == "00",
                let flags = UInt32(fields[8], radix: 16), flags & 0x0200 == 0
            else { continue }
            let name = String(fields[9])
            if name != "lo", interfaceUp(name) { return true }
        }
        return false
    }
}
