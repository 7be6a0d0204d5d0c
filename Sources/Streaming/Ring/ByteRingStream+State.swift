import PlayerCore

extension ByteRingStream {
    /// Where the stream's connection stands.
    enum Phase: Sendable {
        case idle
        /// A connection was asked for; no answer yet.
        case connecting
        /// The current connection answered (its head, or its first bytes).
        case answered
        /// The stream ended: its last bytes are in the ring.
        case ended
        /// The connection failed (sticky until a reopen).
        case failed(PlaybackError)
        /// The owner closed the stream: every later call is refused.
        case closed
    }

    /// What `write` did with the bytes.
    enum WriteOutcome: Sendable, Equatable {
        /// All in the ring.
        case taken
        /// Part of them wait for room; `whenTaken` is called once all are in (or never will be).
        case held
        /// Not the current connection, or the stream is no longer open: nothing was taken.
        case refused
    }

    /// Everything the stream knows, guarded by its lock (`ByteRingStream.locked`). Side effects
    /// that must not run under the lock are queued and run once it is released.
    struct State {
        private(set) var phase = Phase.idle
        /// The current connection's number: each reopen makes a new one.
        private(set) var generation = 0
        /// Some connection has answered since the start.
        private(set) var hasAnswered = false
        /// A reopen is under way and its connection has not answered yet.
        private(set) var reopening = false
        /// A drop was told and the player has not answered it (`reopen` or `abandon`): a reader
        /// that has read everything waits.
        private(set) var awaitingAnswer = false

        private let connection: ConnectionLink
        private let maxLabels: Int
        private var ring: ByteRing
        /// Bytes of a write that did not fit, and who waits for them to be taken.
        private var held: (bytes: [UInt8], offset: Int, whenTaken: @Sendable (Result<Void, any Error>) -> Void)?
        /// A producer whose bytes are all in the ring, asked to wait before it reads again, so that
        /// a live stream's small pieces gather in the socket and arrive in fewer, larger reads; and
        /// how many producers were paced, which names each pause.
        private var paced: (pause: Int, whenReleased: @Sendable (Result<Void, any Error>) -> Void)?
        private var pauses = 0
        /// Bytes put into the ring and taken from it since the start, and labels at byte offsets
        /// the reader has not reached yet.
        private var written = 0
        private var taken = 0
        private var labels: [(at: Int, label: String)] = []
        private var queued: [@Sendable () -> Void] = []

        init(capacity: Int, connection: ConnectionLink, maxLabels: Int) {
            self.ring = ByteRing(capacity: capacity)
            self.connection = connection
            self.maxLabels = maxLabels
        }

        /// True while the stream may still deliver bytes.
        var isOpen: Bool {
            switch phase {
            case .idle, .connecting, .answered: true
            case .ended, .failed, .closed: false
            }
        }

        /// Whether `number` is the current connection of an open stream: reports of any other are stale.
        func isCurrent(_ number: Int) -> Bool { isOpen && number == generation }

        /// Nothing in the ring for a reader.
        var isEmpty: Bool { ring.isEmpty }

        /// Bytes received and not yet read: what the ring holds and a write waiting for room.
        var bufferedBytes: Int { ring.count + (held.map { $0.bytes.count - $0.offset } ?? 0) }

        /// The first connection is asked for. False when the stream has already started or closed.
        mutating func begin() -> Bool {
            guard case .idle = phase else { return false }
            phase = .connecting
            return true
        }

        /// A new connection after a drop (the player's reopen), keeping what the ring holds; returns
        /// its number. What an earlier connection reports from now on is refused, its write still
        /// waiting for room is dropped, and a reader waits for the new one.
        mutating func reconnect() -> Int {
            generation += 1
            reopening = true
            awaitingAnswer = true
            phase = .connecting
            release(with: CancellationError())
            return generation
        }

        /// Connection `number` answered (its head, or its first bytes): tells `receiving`. False
        /// when it is not the current one.
        @discardableResult
        mutating func answered(_ number: Int) -> Bool {
            guard isCurrent(number) else { return false }
            hasAnswered = true
            reopening = false
            awaitingAnswer = false
            if case .connecting = phase { phase = .answered }
            connection.tell(.receiving)
            return true
        }

        /// Puts connection `number`'s `bytes` into the ring and tells `receiving`; what does not fit
        /// is held until the reader makes room, and `whenTaken` is called (after the lock is
        /// released) once all of it is in, or with an error once it never will be. A producer
        /// writes again only after that: one write waits at a time.
        ///
        /// - Parameter label: handed to the reader when it reaches the first of these bytes.
        mutating func write(
            _ bytes: [UInt8], of number: Int, label: String? = nil, whenTaken: @escaping @Sendable (Result<Void, any Error>) -> Void
        ) -> WriteOutcome {
            guard isCurrent(number) else { return .refused }
            // A second write here would replace the bytes still waiting.
            assert(held == nil, "a write came before the last one was taken")
            if let label, labels.count < maxLabels { labels.append((written, label)) }
            connection.tell(.receiving)
            let count = ring.write(bytes, from: 0)
            written += count
            guard count < bytes.count else { return .taken }
            held = (bytes, count, whenTaken)
            return .held
        }

        /// Asks the producer of a write that was all `taken` to wait before it reads again; returns
        /// the pause's number for `endPause`, or nil (and calls nothing) when the ring is empty: a
        /// reader is waiting on that producer. The reader ends the pause as soon as it has read
        /// everything and would wait (`releasePacedProducer`), so a pause never starves it; the
        /// owner ends it after its own limit, so a reader that stopped reading does not stop the
        /// connection.
        mutating func pace(whenReleased: @escaping @Sendable (Result<Void, any Error>) -> Void) -> Int? {
            // A second pause here would lose the first one's producer.
            assert(paced == nil && held == nil, "a write came before the last one was released")
            guard !ring.isEmpty else { return nil }
            pauses += 1
            paced = (pauses, whenReleased)
            return pauses
        }

        /// Ends pause `number` if it still holds its producer (its limit passed).
        mutating func endPause(_ number: Int) {
            guard let pause = paced, pause.pause == number else { return }
            releasePacedProducer()
        }

        /// Lets a paced producer read again; false when none waits.
        @discardableResult
        mutating func releasePacedProducer() -> Bool {
            guard let whenReleased = paced?.whenReleased else { return false }
            paced = nil
            queued.append { whenReleased(.success(())) }
            return true
        }

        /// Moves up to `buffer.count` bytes out of the ring, then lets a held write in. Returns how
        /// many bytes moved, and the labels whose byte this read reached, in order (one read may
        /// cross several).
        mutating func take(into buffer: UnsafeMutableRawBufferPointer) -> (count: Int, reached: [String]) {
            let count = ring.read(into: buffer)
            taken += count
            var reached: [String] = []
            while let first = labels.first, first.at < taken {
                reached.append(first.label)
                labels.removeFirst()
            }
            if var waiting = held {
                let moved = ring.write(waiting.bytes, from: waiting.offset)
                waiting.offset += moved
                written += moved
                if waiting.offset >= waiting.bytes.count {
                    held = nil
                    let whenTaken = waiting.whenTaken
                    queued.append { whenTaken(.success(())) }
                } else {
                    held = waiting
                }
            }
            return (count, reached)
        }

        /// Connection `number` came to its end: its bytes are all in the ring. With `cause`, the
        /// end is a drop (a live stream never ends): it is told, and a reader waits for the
        /// player's answer when the player answers drops. False when it is not the current one.
        @discardableResult
        mutating func end(_ number: Int, droppedBy cause: PlaybackError? = nil) -> Bool {
            guard isCurrent(number) else { return false }
            phase = .ended
            reopening = false
            if let cause { drop(cause) }
            return true
        }

        /// The current connection failed (connection `number` when given, else whichever is
        /// current): the error is sticky and ends a held write. `asDrop`: it is told as a drop the
        /// player answers. False when the stream is no longer open (or `number` is stale).
        @discardableResult
        mutating func fail(_ error: PlaybackError, of number: Int? = nil, asDrop: Bool) -> Bool {
            guard isOpen, number.map({ $0 == generation }) ?? true else { return false }
            reopening = false
            phase = .failed(error)
            release(with: error)
            if asDrop { drop(error) }
            return true
        }

        /// The player gave the connection up (`ConnectionLink.abandon`): the stream fails with its
        /// cause, which is not a drop, and a reader stops waiting for an answer.
        mutating func abandon(_ cause: PlaybackError) {
            awaitingAnswer = false
            guard isOpen else { return }
            reopening = false
            phase = .failed(cause)
            release(with: cause)
        }

        /// The owner closed the stream: readers and a held write are let go.
        mutating func close() {
            phase = .closed
            awaitingAnswer = false
            release(with: CancellationError())
        }

        /// The work queued for after the lock, which is then forgotten.
        mutating func takeQueuedWork() -> [@Sendable () -> Void] {
            defer { queued = [] }
            return queued
        }

        private mutating func drop(_ cause: PlaybackError) {
            // The player answers the drop: it asks again (`reopen`) or gives up (`abandon`).
            awaitingAnswer = connection.answersDrops
            queued.append { [connection] in connection.tell(.dropped(cause)) }
        }

        private mutating func release(with error: any Error) {
            if let whenReleased = paced?.whenReleased {
                paced = nil
                queued.append { whenReleased(.failure(error)) }
            }
            guard let whenTaken = held?.whenTaken else { return }
            held = nil
            queued.append { whenTaken(.failure(error)) }
        }
    }
}
