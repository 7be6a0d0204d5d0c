import PlayerCore
import Synchronization

/// The player's latest state as the daemon's update consumer saw it, and waits for a state: the
/// shutdown waits for the fade-out to end in a state that has stopped sounding.
final class StateWatch: Sendable {
    private struct Watched {
        var current: PlayerState.Name?
        var waiting: [(names: Set<PlayerState.Name>, continuation: AsyncStream<Void>.Continuation)] = []
        var ended = false
    }

    private let watched = Mutex(Watched())

    /// The consumer saw `name`.
    func see(_ name: PlayerState.Name) {
        let woken = watched.withLock { watched in
            watched.current = name
            let woken = watched.waiting.filter { $0.names.contains(name) }
            watched.waiting.removeAll { $0.names.contains(name) }
            return woken
        }
        woken.forEach { $0.continuation.finish() }
    }

    /// The player's updates ended: nobody waits any longer.
    func end() {
        let woken = watched.withLock { watched in
            watched.ended = true
            defer { watched.waiting.removeAll() }
            return watched.waiting
        }
        woken.forEach { $0.continuation.finish() }
    }

    /// Returns once the state is one of `names` (at once if it is already), or the updates end.
    func wait(for names: Set<PlayerState.Name>) async {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        let done = watched.withLock { watched in
            if watched.ended || watched.current.map(names.contains) == true { return true }
            watched.waiting.append((names, continuation))
            return false
        }
        if done { return }
        for await _ in stream {}
    }
}
