import Synchronization

/// What the process has received from the network and how its downloads ended: totals only, for
/// metrics (`tonearm_received_bytes_total`, `tonearm_downloads_total`) and never per address.
///
/// One registry per process, like the circuit breakers: every network path adds to it where its
/// bytes arrive, and whoever reports (a scrape) reads it when asked. Atomic counters, because
/// bytes are counted on event-loop threads for every chunk and must never wait for a lock.
package final class TransferCounters: Sendable {
    /// The process's counters.
    package static let shared = TransferCounters()

    /// How the bytes were asked for.
    package enum Kind: String, Sendable, CaseIterable {
        /// A stream's or a streamed episode's body as it arrives (HLS segments too).
        case stream
        /// An episode downloaded to a file.
        case download
        /// A whole document in one request: a feed, a playlist, artwork, an API answer.
        case request
    }

    /// How a download ended.
    package enum DownloadOutcome: String, Sendable, CaseIterable {
        case completed
        case failed
    }

    /// A reading of every counter.
    package struct Snapshot: Sendable, Hashable {
        package var bytes: [Kind: Int]
        package var downloads: [DownloadOutcome: Int]
    }

    private let stream = Atomic<Int>(0)
    private let download = Atomic<Int>(0)
    private let request = Atomic<Int>(0)
    private let completed = Atomic<Int>(0)
    private let failed = Atomic<Int>(0)

    package init() {}

    package func received(_ count: Int, as kind: Kind) {
        guard count > 0 else { return }
        switch kind {
        case .stream: stream.wrappingAdd(count, ordering: .relaxed)
        case .download: download.wrappingAdd(count, ordering: .relaxed)
        case .request: request.wrappingAdd(count, ordering: .relaxed)
        }
    }

    /// A download ended; cancellations are neither (the listener's choice).
    package func downloadEnded(_ outcome: DownloadOutcome) {
        switch outcome {
        case .completed: completed.wrappingAdd(1, ordering: .relaxed)
        case .failed: failed.wrappingAdd(1, ordering: .relaxed)
        }
    }

    package var snapshot: Snapshot {
        Snapshot(
            bytes: [
                .stream: stream.load(ordering: .relaxed), .download: download.load(ordering: .relaxed),
                .request: request.load(ordering: .relaxed),
            ],
            downloads: [.completed: completed.load(ordering: .relaxed), .failed: failed.load(ordering: .relaxed)])
    }
}
