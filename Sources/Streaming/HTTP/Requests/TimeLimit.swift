import PlayerCore

/// A request's body raced against a timer on an injected clock: whichever ends first decides, and
/// the other is cancelled (AsyncHTTPClient cancels a request with its task). Every time limit of a
/// request is one of these: the whole exchange of a document, and a download's silence.
enum TimeLimit {
    /// Runs `body`; when `timer` returns first, throws `expired` instead.
    static func race<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T, against timer: @escaping @Sendable () async throws -> Void,
        expired: PlaybackError
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await timer()
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw expired }
            return value
        }
    }

    /// Runs `body`; when `limit` passes on `clock` first, throws `expired` instead.
    static func race<T: Sendable>(
        _ body: @escaping @Sendable () async throws -> T, within limit: Duration, on clock: any Clock<Duration>, expired: PlaybackError
    ) async throws -> T {
        try await race(body, against: { try await clock.sleep(for: limit) }, expired: expired)
    }
}

extension Clock where Duration == Swift.Duration {
    /// Reads the time passed since this call, on this clock.
    func stopwatch() -> @Sendable () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }
}
