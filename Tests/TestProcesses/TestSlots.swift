import Foundation
import Synchronization

/// How many tests that block may run at once in one test process, whatever runs them (`swift
/// test`, `make test`, a single filter).
///
/// These tests run real components in real time: players paced by a sound server or the null
/// sink's clock, Icecast fed by ffmpeg, PulseAudio, tmux. Each needs its share of the machine to
/// keep its real-time deadlines (a 2 s tone must sound for 2 s, a server must answer before the
/// player's 8 s connect timeout). Started all together, as Swift Testing does, dozens of them
/// would share two cores and measure the machine's overload instead of Tonearm. Twice as many
/// as there are cores keeps the cores busy without oversubscribing them.
package enum TestSlots {
    package static let width = max(2, ProcessInfo.processInfo.activeProcessorCount * 2)

    private struct State {
        var free = TestSlots.width
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private static let state = Mutex(State())

    /// Runs `body` once a slot is free, and frees it after.
    package static func withSlot<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private static func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.free > 0 {
                    state.free -= 1
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    private static func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
