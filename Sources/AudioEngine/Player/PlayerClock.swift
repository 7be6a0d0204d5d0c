/// The player's injected clock, erased to two functions: seconds since the player started, and a
/// cancellable sleep. Production passes `SystemClock`; tests pass a test clock and never sleep.
struct PlayerClock: Sendable {
    let now: @Sendable () -> Double
    let sleep: @Sendable (Double) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self.init(opened: clock)
    }

    private init<C: Clock>(opened clock: C) where C.Duration == Duration {
        let start = clock.now
        now = {
            start.duration(to: clock.now).inSeconds
        }
        sleep = { seconds in try await clock.sleep(for: .seconds(max(0, seconds))) }
    }
}
