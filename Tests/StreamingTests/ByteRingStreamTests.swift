import Foundation
import PlayerCore
import Synchronization
import Testing

@testable import Streaming

/// The reader every network source shares, without a network: writes and reads on one thread, in
/// an order that never makes the reader wait.
@Suite("Byte ring stream")
struct ByteRingStreamTests {
    /// The facts a stream told, and its link.
    final class Facts: Sendable {
        private final class Told: Sendable {
            let facts = Mutex<[ConnectionFact]>([])
        }

        private let told = Told()
        let link: ConnectionLink

        init(answersDrops: Bool = false) {
            let told = self.told
            link = ConnectionLink(answersDrops: answersDrops) { fact in told.facts.withLock { $0.append(fact) } }
        }

        var all: [ConnectionFact] { told.facts.withLock { $0 } }
    }

    /// Completions of held writes, in order.
    final class Completions: Sendable {
        private let results = Mutex<[Bool]>([])
        var all: [Bool] { results.withLock { $0 } }

        func record(_ result: Result<Void, any Error>) {
            results.withLock { if case .success = result { $0.append(true) } else { $0.append(false) } }
        }
    }

    /// Starts `stream` with no player answers; its first connection's number.
    static func start(_ stream: ByteRingStream) -> Int? {
        stream.start(onAbandon: { _ in }, onReopen: {})
    }

    static func read(_ stream: ByteRingStream, upTo count: Int) throws(PlaybackError) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 1)
        defer { buffer.deallocate() }
        let read = try stream.read(into: buffer)
        return Array(buffer.prefix(read))
    }

    @Test func whatDoesNotFitWaitsForTheReader_andItsProducerIsToldOnceItIsAllIn() throws {
        let facts = Facts()
        let stream = ByteRingStream(capacity: 4, connection: facts.link, endOfStream: nil)
        let number = try #require(Self.start(stream))
        let done = Completions()
        let outcome = stream.locked { state in state.write([1, 2, 3, 4, 5, 6, 7, 8, 9], of: number) { done.record($0) } }
        #expect(outcome == .held)
        #expect(stream.bufferedBytes == 9)
        #expect(try Self.read(stream, upTo: 3) == [1, 2, 3])
        #expect(done.all.isEmpty, "two bytes still wait")
        #expect(try Self.read(stream, upTo: 4) == [4, 5, 6, 7])
        #expect(done.all == [true])
        #expect(try Self.read(stream, upTo: 8) == [8, 9])
        #expect(facts.all.contains(.receiving))
    }

    @Test func aReopenRefusesTheEarlierConnectionAndLetsItsWaitingWriteGo() throws {
        let facts = Facts(answersDrops: true)
        let stream = ByteRingStream(capacity: 2, connection: facts.link, endOfStream: PlaybackError(.connectionLost))
        let first = try #require(Self.start(stream))
        let done = Completions()
        #expect(stream.locked { state in state.write([1, 2, 3], of: first) { done.record($0) } } == .held)
        stream.locked { state in state.end(first, droppedBy: PlaybackError(.connectionLost)) }
        #expect(facts.all.last == .dropped(PlaybackError(.connectionLost)))
        let second = stream.locked { state in state.reconnect() }
        #expect(done.all == [false], "the earlier connection's bytes are not kept")
        #expect(stream.locked { state in state.write([9], of: first) { _ in } } == .refused)
        #expect(stream.locked { state in state.write([4], of: second) { _ in } } == .held, "the ring is still full")
        #expect(try Self.read(stream, upTo: 8) == [1, 2], "what the ring held is kept")
        #expect(try Self.read(stream, upTo: 8) == [4])
    }

    @Test func aPacedProducerReadsAgainOnlyOnceTheReaderHasReadEverythingAndWouldWait() throws {
        let facts = Facts()
        let stream = ByteRingStream(capacity: 16, connection: facts.link, endOfStream: nil)
        let number = try #require(Self.start(stream))
        let released = Completions()
        #expect(stream.locked { state in state.write([1, 2, 3], of: number) { _ in } } == .taken)
        // Released, the producer reads its next piece: here, on the reader's thread, at once.
        let pause = stream.locked { state in
            state.pace { result in
                released.record(result)
                _ = stream.locked { state in state.write([4, 5], of: number) { _ in } }
            }
        }
        #expect(pause != nil)
        #expect(try Self.read(stream, upTo: 2) == [1, 2])
        #expect(try Self.read(stream, upTo: 8) == [3])
        #expect(released.all.isEmpty, "the reader has not had to wait yet")
        #expect(!facts.all.contains(.dry))
        #expect(try Self.read(stream, upTo: 8) == [4, 5], "the read that would wait let the producer go")
        #expect(released.all == [true])
        #expect(!facts.all.contains(.dry), "the reader did not wait on the network")
    }

    @Test func aPauseEndsAtItsOwnLimit_notAtAnEarlierPausesLimit_andNeverWithAnEmptyRing() throws {
        let stream = ByteRingStream(capacity: 16, connection: ConnectionLink(), endOfStream: nil)
        let number = try #require(Self.start(stream))
        let released = Completions()
        #expect(stream.locked { state in state.write([], of: number) { _ in } } == .taken)
        #expect(stream.locked { state in state.pace { released.record($0) } } == nil, "a reader would wait on this producer")
        _ = stream.locked { state in state.write([1], of: number) { _ in } }
        let first = try #require(stream.locked { state in state.pace { released.record($0) } })
        stream.locked { state in state.endPause(first) }
        #expect(released.all == [true])
        _ = stream.locked { state in state.write([2], of: number) { _ in } }
        let second = try #require(stream.locked { state in state.pace { released.record($0) } })
        stream.locked { state in state.endPause(first) }
        #expect(released.all == [true], "the first pause's limit is not the second's")
        stream.locked { state in state.endPause(second) }
        #expect(released.all == [true, true])
        #expect(try Self.read(stream, upTo: 8) == [1, 2])
    }

    @Test func aReopenOrACloseLetsAPacedProducerGo_withAnError() throws {
        let stream = ByteRingStream(capacity: 16, connection: ConnectionLink(answersDrops: true), endOfStream: PlaybackError(.connectionLost))
        let first = try #require(Self.start(stream))
        let released = Completions()
        _ = stream.locked { state in state.write([1], of: first) { _ in } }
        #expect(stream.locked { state in state.pace { released.record($0) } } != nil)
        let second = stream.locked { state in state.reconnect() }
        #expect(released.all == [false], "the earlier connection does not read on")
        _ = stream.locked { state in state.write([2], of: second) { _ in } }
        #expect(stream.locked { state in state.pace { released.record($0) } } != nil)
        stream.locked { state in state.close() }
        #expect(released.all == [false, false])
    }

    @Test func labelsComeBackWhenTheReaderReachesTheirByte_everyOneAReadCrosses() throws {
        let reached = Mutex<[String]>([])
        let stream = ByteRingStream(
            capacity: 64, connection: ConnectionLink(), endOfStream: nil, onLabel: { label in reached.withLock { $0.append(label) } })
        let number = try #require(Self.start(stream))
        for (index, label) in ["One", "Two", "Three"].enumerated() {
            _ = stream.locked { state in state.write([UInt8](repeating: UInt8(index), count: 10), of: number, label: label) { _ in } }
        }
        _ = try Self.read(stream, upTo: 5)
        #expect(reached.withLock { $0 } == ["One"])
        _ = try Self.read(stream, upTo: 20)
        #expect(reached.withLock { $0 } == ["One", "Two", "Three"])
    }

    @Test func theEndReadsZeroOrThrowsAsTheStreamSays_afterTheLastBytes() throws {
        let file = ByteRingStream(capacity: 8, connection: ConnectionLink(), endOfStream: nil)
        let one = try #require(Self.start(file))
        _ = file.locked { state in state.write([7], of: one) { _ in } }
        file.locked { state in state.end(one) }
        #expect(try Self.read(file, upTo: 4) == [7])
        #expect(try Self.read(file, upTo: 4).isEmpty)

        let live = ByteRingStream(capacity: 8, connection: ConnectionLink(), endOfStream: PlaybackError(.connectionLost))
        let two = try #require(Self.start(live))
        live.locked { state in state.end(two, droppedBy: PlaybackError(.connectionLost)) }
        // Nobody answers drops on this link: the reader gets the end at once.
        #expect(throws: PlaybackError.self) { try Self.read(live, upTo: 4) }
    }

    @Test func anAbandonedConnectionFailsWithThePlayersCause_andClosingCancels() throws {
        let stream = ByteRingStream(capacity: 8, connection: ConnectionLink(answersDrops: true), endOfStream: nil)
        let number = try #require(Self.start(stream))
        stream.locked { state in state.fail(PlaybackError(.connectionLost), of: number, asDrop: true) }
        #expect(stream.peek(\.awaitingAnswer), "a reader would wait for the player's answer")
        stream.locked { state in state.abandon(PlaybackError(.stalled)) }
        #expect(!stream.peek(\.awaitingAnswer))
        #expect(throws: PlaybackError(.connectionLost)) { try Self.read(stream, upTo: 4) }

        let closed = ByteRingStream(capacity: 8, connection: ConnectionLink(), endOfStream: nil)
        _ = closed.start(onAbandon: { _ in }, onReopen: {})
        closed.locked { state in state.close() }
        let error = #expect(throws: PlaybackError.self) { try Self.read(closed, upTo: 4) }
        #expect(error?.code == .cancelled)
        #expect(Self.start(closed) == nil, "a closed stream does not start")
    }
}
