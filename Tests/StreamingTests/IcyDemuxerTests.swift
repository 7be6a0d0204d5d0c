import Foundation
import PlayerCore
import Testing
@testable import Streaming


/// One metadata slot after each audio interval.
private enum Slot {
    case none                 // length byte 0
    case padding(Int)         // L blocks of NUL
    case title(String)
}

private struct SyntheticStream {
    var wire: [UInt8] = []
    var audio: [UInt8] = []
    var titles: [String] = []

    /// `intervals` full audio runs of `metaint` bytes, each followed by a slot, then `tail` audio bytes.
    init(metaint: Int, slots: [Slot], tail: Int) {
        var counter: UInt8 = 0
        func audioRun(_ count: Int) -> [UInt8] {
            (0..<count).map { _ in counter &+= 1; return counter }
        }
        for slot in slots {
            let run = audioRun(metaint)
            audio += run
            wire += run
            switch slot {
            case .none:
                wire.append(0)
            case .padding(let blocks):
                wire.append(UInt8(blocks))
                wire += [UInt8](repeating: 0, count: blocks * 16)
            case .title(let title):
                var body = Array("StreamTitle='\(title)';".utf8)
                while body.count % 16 != 0 { body.append(0) }
                wire.append(UInt8(body.count / 16))
                wire += body
                titles.append(title)
            }
        }
        let run = audioRun(tail)
        audio += run
        wire += run
    }
}

private func feedAll(
    _ demuxer: inout IcyDemuxer, _ wire: [UInt8], using rng: inout SeededRandom, maxChunk: Int
) throws(PlaybackError) -> IcyOutput {
    var total = IcyOutput()
    var index = 0
    while index < wire.count {
        // Mix tiny chunks (0-3 bytes: boundaries on the length byte, empty feeds) with large ones.
        let size = Int.random(in: 0...3, using: &rng) == 0
            ? Int.random(in: 0...3, using: &rng) : Int.random(in: 1...maxChunk, using: &rng)
        let end = min(wire.count, index + size)
        let out = try demuxer.feed(wire[index..<end])
        total.audio += out.audio
        total.metadata += out.metadata
        index = end
    }
    return total
}

@Suite("IcyDemuxer")
struct IcyDemuxerTests {
    private static let titles = [
        "Guns N' Roses - Sweet Child o' Mine", "Кино - Группа крови", "A", "A",
        String(repeating: "long ", count: 40) + "end", "Artist - Title; with semicolon",
    ]

    private func slots(_ rng: inout SeededRandom, count: Int) -> [Slot] {
        (0..<count).map { _ in
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: .none
            case 1: .padding(Int.random(in: 1...2, using: &rng))
            default: .title(Self.titles.randomElement(using: &rng)!)
            }
        }
    }

    @Test(arguments: [16, 8192])
    func randomChunkingPreservesAudioAndMetadata(metaint: Int) throws {
        for seed in UInt64(1)...200 {
            var rng = SeededRandom(seed: seed &* 7919 &+ UInt64(metaint))
            let slotCount = metaint == 16 ? 40 : 6
            let stream = SyntheticStream(
                metaint: metaint, slots: slots(&rng, count: slotCount), tail: Int.random(in: 0..<metaint, using: &rng))
            var demuxer = try IcyDemuxer(metaInterval: metaint)
            let out = try feedAll(&demuxer, stream.wire, using: &rng, maxChunk: metaint == 16 ? 40 : 20_000)
            try demuxer.finish()
            #expect(out.audio == stream.audio, "seed \(seed)")
            #expect(out.metadata.map(\.title) == stream.titles.map { Optional($0) }, "seed \(seed)")
        }
    }

    @Test func byteByByteFeeding() throws {
        let stream = SyntheticStream(metaint: 16, slots: [.title("One"), .none, .title("Two")], tail: 5)
        var demuxer = try IcyDemuxer(metaInterval: 16)
        var audio: [UInt8] = []
        var titles: [String?] = []
        for byte in stream.wire {
            let out = try demuxer.feed([byte])
            audio += out.audio
            titles += out.metadata.map(\.title)
        }
        try demuxer.finish()
        #expect(audio == stream.audio)
        #expect(titles == ["One", "Two"])
    }

    @Test func metadataReportedInTheChunkThatCompletesIt() throws {
        let stream = SyntheticStream(metaint: 16, slots: [.title("X")], tail: 0)
        var demuxer = try IcyDemuxer(metaInterval: 16)
        let first = try demuxer.feed(stream.wire.prefix(20))
        #expect(first.audio.count == 16)
        #expect(first.metadata.isEmpty)
        let second = try demuxer.feed(stream.wire.dropFirst(20))
        #expect(second.audio.isEmpty)
        #expect(second.metadata.map(\.title) == ["X"])
    }

    @Test(arguments: [nil, 0] as [Int?])
    func noMetaintPassesEverythingThrough(_ metaint: Int?) throws {
        var demuxer = try IcyDemuxer(metaInterval: metaint)
        let bytes: [UInt8] = Array("StreamTitle='not parsed';".utf8) + [0, 1, 255, 16]
        let out = try demuxer.feed(bytes)
        #expect(out.audio == bytes)
        #expect(out.metadata.isEmpty)
        try demuxer.finish()
        #expect(demuxer.metaInterval == nil)
    }

    @Test func cutInsideBlockThrowsConnectionLost() throws {
        let stream = SyntheticStream(metaint: 16, slots: [.title("Cut here please")], tail: 0)
        for cut in 18..<stream.wire.count {  // after the length byte, before the block's last byte
            var demuxer = try IcyDemuxer(metaInterval: 16)
            _ = try demuxer.feed(stream.wire.prefix(cut))
            #expect(throws: PlaybackError(.connectionLost)) { try demuxer.finish() }
        }
    }

    @Test func cutRightAfterNonZeroLengthByteThrows() throws {
        var demuxer = try IcyDemuxer(metaInterval: 16)
        _ = try demuxer.feed([UInt8](repeating: 1, count: 16) + [2])
        #expect(throws: PlaybackError(.connectionLost)) { try demuxer.finish() }
    }

    @Test func cutAtBlockBoundaryOrInsideAudioIsClean() throws {
        let stream = SyntheticStream(metaint: 16, slots: [.title("Whole"), .none], tail: 7)
        let blockEnd = 16 + 1 + 32
        for cut in [0, 5, 16, 17 - 1, blockEnd, blockEnd + 3, blockEnd + 16, blockEnd + 17, stream.wire.count] {
            var demuxer = try IcyDemuxer(metaInterval: 16)
            _ = try demuxer.feed(stream.wire.prefix(cut))
            #expect(throws: Never.self) { try demuxer.finish() }
        }
    }

    @Test func lyingLengthByteWithGarbageIsMalformedData() throws {
        var rng = SeededRandom(seed: 42)
        let audio = (0..<16).map { UInt8($0) }
        let garbage = (0..<(255 * 16)).map { _ in UInt8.random(in: 0x80...0xFF, using: &rng) }
        var demuxer = try IcyDemuxer(metaInterval: 16)
        #expect(throws: PlaybackError(.malformedData)) { _ = try demuxer.feed(audio + [255] + garbage + audio) }
        // Sticky: the demuxer does not resume in an unknown position.
        #expect(throws: PlaybackError(.malformedData)) { _ = try demuxer.feed(audio) }
        #expect(throws: PlaybackError(.malformedData)) { try demuxer.finish() }
    }

    @Test func lyingLengthByteThatTooShortDesynchronisesIsCaught() throws {
        // Length byte says 1 block (16 bytes) but the server sent 2: the second half is read as
        // audio, then an audio byte (0xFB) is taken as a length byte and its "block" fails the check.
        var body = Array("StreamTitle='Much longer title';".utf8)
        while body.count % 16 != 0 { body.append(0) }
        #expect(body.count == 32)
        var wire = [UInt8](repeating: 0xAA, count: 16) + [1] + body
        wire += [UInt8](repeating: 0xFB, count: 5000)
        var demuxer = try IcyDemuxer(metaInterval: 16)
        #expect(throws: PlaybackError(.malformedData)) { _ = try demuxer.feed(wire) }
    }

    @Test func garbageFedInTinyChunksStillFailsCleanly() throws {
        var rng = SeededRandom(seed: 7)
        let wire = [UInt8](repeating: 1, count: 16) + [255] + (0..<4080).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var demuxer = try IcyDemuxer(metaInterval: 16)
        var failed: PlaybackError?
        var index = 0
        while index < wire.count, failed == nil {
            let end = min(wire.count, index + Int.random(in: 1...50, using: &rng))
            do { _ = try demuxer.feed(wire[index..<end]) } catch { failed = error }
            index = end
        }
        #expect(failed?.code == .malformedData)
    }

    @Test(arguments: [IcyDemuxer.maxMetaInterval + 1, Int.max, -1])
    func absurdMetaintRejected(_ metaint: Int) {
        #expect(throws: PlaybackError(.malformedData)) { _ = try IcyDemuxer(metaInterval: metaint) }
    }

    @Test func largestMetaintAccepted() throws {
        let demuxer = try IcyDemuxer(metaInterval: IcyDemuxer.maxMetaInterval)
        #expect(demuxer.metaInterval == IcyDemuxer.maxMetaInterval)
    }

    @Test func metaintHeaderParsing() throws {
        #expect(try IcyDemuxer(metaIntervalHeader: " 8192 ").metaInterval == 8192)
        #expect(try IcyDemuxer(metaIntervalHeader: nil).metaInterval == nil)
        #expect(try IcyDemuxer(metaIntervalHeader: "").metaInterval == nil)
        #expect(throws: PlaybackError(.malformedData)) { _ = try IcyDemuxer(metaIntervalHeader: "lots") }
        #expect(throws: PlaybackError(.malformedData)) { _ = try IcyDemuxer(metaIntervalHeader: "99999999") }
    }

    @Test func hostileTitleInStreamIsSanitised() throws {
        let hostile = "\u{1B}]52;c;ZXZpbA==\u{07}Evil\u{202E}Title"
        let stream = SyntheticStream(metaint: 16, slots: [.title(hostile)], tail: 0)
        var demuxer = try IcyDemuxer(metaInterval: 16)
        let out = try demuxer.feed(stream.wire)
        let title = try #require(out.metadata.first?.title)
        #expect(!title.unicodeScalars.contains { TextSanitizer.isForbidden($0) })
        #expect(title.hasSuffix("EvilTitle"))
    }
}
