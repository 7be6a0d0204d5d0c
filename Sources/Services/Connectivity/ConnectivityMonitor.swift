import Foundation
import PlayerCore

/// Publishes online/offline for the whole program: the connectivity banner shows it, and the
/// player pauses reconnect attempts while offline (none are spent) and reconnects at once when the
/// network returns.
///
/// It polls its probe every `interval` seconds on an injected clock and publishes only changes
/// (the first value is published at once).
public actor ConnectivityMonitor {
    private let probe: any ConnectivityProbe
    private let interval: Double
    private let clock: any Clock<Duration>
    private var current: Bool?
    private var subscribers: [UUID: AsyncStream<Bool>.Continuation] = [:]
    private var polling: Task<Void, Never>?

    public init(probe: any ConnectivityProbe = DefaultRouteProbe(), interval: Double = 2, clock: any Clock<Duration> = SystemClock()) {
        self.probe = probe
        self.interval = interval
        self.clock = clock
    }

    /// The last verdict (probing now if there is none yet).
    public var isOnline: Bool {
        if let current { return current }
        let value = probe.isOnline()
        current = value
        return value
    }

    /// The current verdict at once, then every change, until the monitor stops.
    public func updates() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(isOnline)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        startPolling()
        return stream
    }

    /// Probes now and publishes a change (the poll loop calls this; so can a caller that has a
    /// reason to suspect a change, such as a failed connection).
    package func check() {
        let value = probe.isOnline()
        guard value != current else { return }
        current = value
        for continuation in subscribers.values { continuation.yield(value) }
    }

    public func stop() {
        polling?.cancel()
        polling = nil
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    private func startPolling() {
        guard polling == nil else { return }
        let clock = self.clock
        let interval = self.interval
        // Off the shared pool: a busy process must not hide that the network came back.
        polling = Task(executorPreference: ThreadExecutor(name: "tonearm.connectivity")) { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: .seconds(interval))
                } catch {
                    return
                }
                await self?.check()
            }
        }
    }
}
