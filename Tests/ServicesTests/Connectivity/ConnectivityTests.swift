import Clocks
import Foundation
import Services
import TestProcesses
import Testing

@Suite("Connectivity", .blocking)
struct ConnectivityTests {
    static let header = "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"

    @Test func aDefaultIPv4RouteOnAnUpInterfaceIsOnline() {
        let table = Self.header + "eth0\t00000000\t010200C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\neth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
        #expect(DefaultRouteProbe.hasDefaultRoute(ipv4Routes: table, ipv6Routes: "") { _ in true })
        // The same route on an interface that is down: offline.
        #expect(!DefaultRouteProbe.hasDefaultRoute(ipv4Routes: table, ipv6Routes: "") { $0 != "eth0" })
    }

    @Test func onlyALocalSubnetOrLoopbackIsOffline() {
        let table = Self.header + "eth0\t000200C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\nlo\t00000000\t00000000\t0001\t0\t0\t0\t00000000\t0\t0\t0\n"
        #expect(!DefaultRouteProbe.hasDefaultRoute(ipv4Routes: table, ipv6Routes: "") { _ in true })
        // A default route whose UP flag is clear does not count either.
        let down = Self.header + "eth0\t00000000\t010200C0\t0002\t0\t0\t0\t00000000\t0\t0\t0\n"
        #expect(!DefaultRouteProbe.hasDefaultRoute(ipv4Routes: down, ipv6Routes: "") { _ in true })
    }

    @Test func aDefaultIPv6RouteCountsAndRejectRoutesDoNot() {
        let zeros = String(repeating: "0", count: 32)
        let route = "\(zeros) 00 \(zeros) 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003 wlan0\n"
        #expect(DefaultRouteProbe.hasDefaultRoute(ipv4Routes: Self.header, ipv6Routes: route) { _ in true })
        let reject = "\(zeros) 00 \(zeros) 00 \(zeros) ffffffff 00000001 00000000 00200200 lo\n"
        #expect(!DefaultRouteProbe.hasDefaultRoute(ipv4Routes: Self.header, ipv6Routes: reject) { _ in true })
    }

    @Test func thisMachinesTablesAreReadable() {
        // Whatever the verdict, reading the real /proc and /sys must not fail or hang.
        _ = DefaultRouteProbe().isOnline()
        let missing = DefaultRouteProbe(procRoot: "/nonexistent", sysRoot: "/nonexistent")
        #expect(!missing.isOnline())
    }

    final class Flag: ConnectivityProbe, @unchecked Sendable {
        private let lock = NSLock()
        private var value = true
        func set(_ v: Bool) { lock.withLock { value = v } }
        func isOnline() -> Bool { lock.withLock { value } }
    }

    @Test func theMonitorPublishesTheFirstVerdictThenOnlyChanges() async throws {
        let probe = Flag()
        let monitor = ConnectivityMonitor(probe: probe, interval: 3600)
        var updates = await monitor.updates().makeAsyncIterator()
        #expect(await updates.next() == true)
        await monitor.check()  // no change: nothing published
        probe.set(false)
        await monitor.check()
        #expect(await updates.next() == false)
        probe.set(true)
        await monitor.check()
        #expect(await updates.next() == true)
        #expect(await monitor.isOnline)
        await monitor.stop()
        #expect(await updates.next() == nil)
    }

    @Test func theMonitorPollsOnItsClock() async throws {
        let probe = Flag()
        let clock = TestClock()
        let monitor = ConnectivityMonitor(probe: probe, interval: 2, clock: clock)
        let stream = await monitor.updates()
        let seen = Seen()
        let reader = Task {
            for await online in stream { seen.append(online) }
        }
        probe.set(false)
        // Advance in steps until the poll has run (the polling task may not be asleep yet).
        for _ in 0..<100 where seen.values.count < 2 {
            await clock.advance(by: .seconds(2))
            await Task.yield()
        }
        #expect(seen.values == [true, false])
        await monitor.stop()
        _ = await reader.value
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Bool] = []
        func append(_ v: Bool) { lock.withLock { list.append(v) } }
        var values: [Bool] { lock.withLock { list } }
    }
}
