import Foundation
import PlayerCore

/// The blocking reader every network source shares, as MPD's AsyncInputStream serves every
/// asynchronous input: the network's callbacks write into a bounded ring (`ByteRing`), the
/// decoder's thread reads from it and blocks while it is empty, and both meet under one lock.
///
/// What is the same for every source lives in `State`: the ring, and a write that did not fit,
/// held until the reader makes room (its producer waits meanwhile, so TCP backpressure reaches the
/// server), and a producer paced before its next read (released once the reader has read
/// everything, or when its owner's pause ends); the phase of the connection; which connection is
/// current (a reopen makes a new one, and whatever an earlier one still reports is refused);
/// whether a drop waits for the player's answer (`ConnectionLink.reopen` or `abandon`), during
/// which a reader that has read everything waits instead of failing; and labels a source puts at
/// a byte (a segment's title), handed back when the reader reaches that byte. A reader tells the
/// connection's facts on the link: `dry` when it waits with room in the ring; writes and answers
/// tell `receiving`; a drop is told once the state has taken it.
///
/// Its owner (`HTTPByteSource`, `HLSByteSource`) makes the connections and keeps its own fields
/// under the same lock (`locked`), so one lock orders everything a source knows. Work that must not
/// run under the lock (ending a producer's wait, telling a drop) is queued by the state and runs
/// right after the lock is released.
///
/// `read` and `waitForAnswer` block their thread: call them from a dedicated thread (the
/// decoder's), never from the Swift concurrency pool or an event loop.
///
/// `@unchecked Sendable`: its fields are guarded by an `NSCondition`, whose waits `Mutex` does not
/// offer, and the compiler cannot see which lock guards a field.
final class ByteRingStream: @unchecked Sendable {
    /// How a wait for the connection's first answer ended.
    enum Answer: Sendable, Equatable {
        /// The connection answered (a response head, or the first bytes).
        case answered
        /// The stream ended before any answer.
        case ended
        /// The owner closed the stream.
        case closed
        /// The wait's time limit passed first.
        case timedOut
    }

    /// Where the time limits of `waitForAnswer` run: off the shared pool, so a busy process does
    /// not hold a limit past its time. Its work is one flag per limit.
    private static let timers = ThreadExecutor(name: "tonearm.ring-timers")

    let connection: ConnectionLink
    private let condition = NSCondition()
    private var state: State
    private let endOfStream: PlaybackError?
    private let onLabel: (@Sendable (String) -> Void)?

    /// - Parameters:
    ///   - capacity: the ring's size in bytes.
    ///   - endOfStream: what a reader gets at the end of the stream once the ring is empty: nil
    ///     reads 0 (a file, a finished playlist); an error is thrown (a live stream, whose end is a
    ///     drop, never an end).
    ///   - maxLabels: labels kept ahead of the reader; more are not kept.
    ///   - onLabel: each label, on the reader's thread, once a read reached its byte.
    init(
        capacity: Int, connection: ConnectionLink, endOfStream: PlaybackError?, maxLabels: Int = 64,
        onLabel: (@Sendable (String) -> Void)? = nil
    ) {
        self.connection = connection
        self.endOfStream = endOfStream
        self.onLabel = onLabel
        self.state = State(capacity: capacity, connection: connection, maxLabels: maxLabels)
    }

    /// Runs `body` with the lock held, wakes every waiter, and once the lock is released runs the
    /// work the state queued, in order.
    @discardableResult
    func locked<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        condition.lock()
        defer {
            let work = state.takeQueuedWork()
            condition.broadcast()
            condition.unlock()
            work.forEach { $0() }
        }
        return try body(&state)
    }

    /// Reads the state (and the owner's fields) under the lock, waking nobody.
    func peek<T>(_ body: (State) -> T) -> T {
        condition.withLock { body(state) }
    }

    /// Bytes received and not yet read: what the ring holds and a write waiting for room.
    var bufferedBytes: Int { peek(\.bufferedBytes) }

    /// Starts the first connection (once; nil when already started or closed) and registers the
    /// player's answers on the link. The owner then connects with the returned number.
    func start(onAbandon: @escaping @Sendable (PlaybackError) -> Void, onReopen: @escaping @Sendable () -> Void) -> Int? {
        locked { state in
            guard state.begin() else { return nil }
            connection.onAbandon(onAbandon)
            connection.onReopen(onReopen)
            connection.onBufferedBytes { [weak self] in self?.bufferedBytes ?? 0 }
            return state.generation
        }
    }

    /// Moves up to `buffer.count` bytes to `buffer`, blocking while there are none and more may
    /// come. Returns 0 at the end of a stream that ends (`endOfStream` nil).
    ///
    /// - Throws: the connection's error once the ring is empty (after a drop, only once the
    ///   player gave the connection up); `cancelled` once closed; `endOfStream` at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(PlaybackError) -> Int {
        guard buffer.count > 0 else { return 0 }
        condition.lock()
        while true {
            if !state.isEmpty {
                let (count, reached) = state.take(into: buffer)
                let work = state.takeQueuedWork()
                condition.unlock()
                work.forEach { $0() }
                if let onLabel { reached.forEach(onLabel) }
                return count
            }
            switch state.phase {
            case .failed where state.awaitingAnswer, .ended where state.awaitingAnswer:
                // Between a drop and the player's answer: a reopen may bring audio.
                condition.wait()
            case .failed(let error):
                condition.unlock()
                throw error
            case .closed:
                condition.unlock()
                throw PlaybackError(.cancelled, underlying: "source closed")
            case .ended:
                condition.unlock()
                if let endOfStream { throw endOfStream }
                return 0
            case .idle, .connecting, .answered:
                if state.releasePacedProducer() {
                    // The reader has caught up with a paced producer: it reads again now.
                    let work = state.takeQueuedWork()
                    condition.unlock()
                    work.forEach { $0() }
                    condition.lock()
                    continue
                }
                // Nothing buffered and room for more: the reader waits on the network.
                connection.tell(.dry)
                condition.wait()
            }
        }
    }

    /// Blocks until the connection has answered once, the stream ended or was closed, or
    /// `timeout` passed on `clock`; throws the stream's error when it failed first.
    ///
    /// - Parameter tellsDry: the wait counts as a reader waiting on the network (`dry`), so the
    ///   player's stall decision applies to it.
    func waitForAnswer(tellsDry: Bool, timeout: Duration? = nil, clock: any Clock<Duration>) throws(PlaybackError) -> Answer {
        let expiry = Expiry()
        let timer = timeout.map { limit in
            Task(executorPreference: Self.timers) { [weak self] in
                do { try await clock.sleep(for: limit) } catch { return }
                self?.locked { _ in expiry.passed = true }
            }
        }
        defer { timer?.cancel() }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if state.hasAnswered { return .answered }
            switch state.phase {
            case .failed(let error): throw error
            case .closed: return .closed
            case .ended: return .ended
            case .idle, .connecting, .answered: break
            }
            if expiry.passed { return .timedOut }
            if tellsDry { connection.tell(.dry) }
            condition.wait()
        }
    }

    /// Whether a wait's time limit passed; guarded by the stream's lock (`@unchecked Sendable`:
    /// the compiler cannot see that lock, and a `Mutex` here would be a second one).
    private final class Expiry: @unchecked Sendable {
        var passed = false
    }
}
