/// How long one operation took, for logs and progress lines: a download, a sync run, a request,
/// a loudness measurement. Never for a decision, which runs on the injected clock; this reads the
/// monotonic clock, so a change of the wall clock does not bend what it says.
package struct Stopwatch: Sendable {
    private let started: ContinuousClock.Instant

    /// Starts now.
    package init() { started = .now }

    package var elapsed: Duration { started.duration(to: .now) }
    package var seconds: Double { elapsed.inSeconds }
    /// Whole milliseconds, rounded down.
    package var milliseconds: Int64 { Int64((seconds * 1000).rounded(.down)) }
}
