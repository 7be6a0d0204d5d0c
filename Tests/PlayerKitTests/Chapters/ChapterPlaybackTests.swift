import AudioEngine
import Foundation
import PlayerCore
import PlayerKit
import Services
import TestProcesses
import Testing

/// An item's chapters reach the front ends through the composed player: a file's own, an
/// episode's JSON document from a loopback server, the rule when both exist, and failures that
/// leave playback alone.
@Suite("Chapters while playing", .serialized, .blocking)
struct ChapterPlaybackTests {
    static let document = Data(
        #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Feed intro"},{"startTime":2,"title":"Feed middle"},{"startTime":4,"title":"Feed end"}]}"#
            .utf8)

    /// A minute of tone (so a busy machine's late chapters still find it playing; the tests stop it
    /// long before its end); with `embedded`, chapters at 0, 1.5 and 3 s written into the file.
    static func file(embedded: Bool, in fixtures: AudioFixtures) throws -> URL {
        let output = fixtures.url(embedded ? "embedded.mp3" : "plain.mp3")
        var arguments = ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=60"]
        if embedded {
            let meta = try fixtures.write(
                "meta.txt",
                Data(
                    """
                    ;FFMETADATA1
                    [CHAPTER]
                    TIMEBASE=1/1000
                    START=0
                    END=1500
                    title=File one
                    [CHAPTER]
                    TIMEBASE=1/1000
                    START=1500
                    END=3000
                    title=File two
                    [CHAPTER]
                    TIMEBASE=1/1000
                    START=3000
                    END=6000
                    title=File three

                    """.utf8))
            arguments += ["-i", meta.path, "-map", "0:a", "-map_metadata", "1", "-map_chapters", "1", "-id3v2_version", "3"]
        }
        try fixtures.ffmpeg(arguments + AudioFixtures.Codec.mp3.encoderArguments + [output.path])
        return output
    }

    static func lists(_ updates: [PlayerUpdate]) -> [ChapterList?] {
        updates.compactMap { if case .notice(.chapters(let list), _) = $0 { .some(list) } else { nil } }
    }

    static func positions(_ updates: [PlayerUpdate]) -> [ChapterPosition?] {
        updates.compactMap { if case .notice(.chapter(let position), _) = $0 { .some(position) } else { nil } }
    }

    @Test func anEpisodesFeedChaptersArePublishedAndNextChapterSeeksToTheNextStart() async throws {
        let fixtures = try AudioFixtures()
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json+chapters", body: Self.document) }
        defer { server.stop() }
        let radio = try await RadioHarness()
        let track = Track(
            id: "episode:7", url: try Self.file(embedded: false, in: fixtures), kind: .episode, title: "E",
            chaptersURL: server.url("/chapters.json"))
        try await radio.player.play(PlayRequest(track: track))
        #expect(await radio.waitUntil("the feed's chapters", timeout: 20) { Self.lists(radio.updates).contains { $0 != nil } })
        let list = try #require(Self.lists(radio.updates).compactMap { $0 }.first)
        #expect(list.origin == .feed)
        #expect(list.trackID == "episode:7")
        #expect(list.chapters.map(\.title) == ["Feed intro", "Feed middle", "Feed end"])
        #expect(await radio.waitUntil("the first chapter", timeout: 20) { Self.positions(radio.updates).last??.index == 0 })

        // `n` in the first chapter: a seek to the second one's start, and the chapter changes.
        let state = await radio.player.state
        let intent = PlayerCommand.chapter(.next).intent(
            in: state, position: await radio.player.currentPosition, chapters: await radio.player.currentChapters)
        #expect(intent == .seek(to: 2))
        try await radio.player.send(try #require(intent))
        #expect(await radio.waitUntil("the second chapter", timeout: 20) { Self.positions(radio.updates).last??.index == 1 })
        #expect(Self.positions(radio.updates).last??.title == "Feed middle")
        #expect(server.requests.count == 1)
        await radio.shutdown()
    }

    @Test func aFilesOwnChaptersWinOverTheFeeds() async throws {
        let fixtures = try AudioFixtures()
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json", body: Self.document) }
        defer { server.stop() }
        let radio = try await RadioHarness()
        let track = Track(
            id: "episode:8", url: try Self.file(embedded: true, in: fixtures), kind: .episode, chaptersURL: server.url("/chapters.json"))
        try await radio.player.play(PlayRequest(track: track))
        #expect(await radio.waitUntil("the file's chapters and the feed's fetch", timeout: 20) {
            Self.lists(radio.updates).contains { $0?.origin == .embedded } && !server.requests.isEmpty
        })
        await radio.waitFor("playing", timeout: 20) { $0.name == .playing }
        // Whatever order the two arrived in, the file's stay.
        #expect(Self.lists(radio.updates).last??.origin == .embedded)
        #expect(await radio.player.currentChapters?.chapters.map(\.title) == ["File one", "File two", "File three"])
        await radio.shutdown()
    }

    @Test(arguments: ["refused", "too large"])
    func chaptersThatCannotBeHadLeavePlaybackAlone(_ failure: String) async throws {
        let fixtures = try AudioFixtures()
        let body = failure == "too large" ? Data(("{\"chapters\":[]}" + String(repeating: " ", count: 4096)).utf8) : Self.document
        let server = try TestHTTPServer { _ in .complete(contentType: "application/json", body: body) }
        defer { server.stop() }
        let chapters = failure == "refused"
            ? ChaptersService.Configuration(allowPrivateAddresses: false)
            : ChaptersService.Configuration(allowPrivateAddresses: true, maxBytes: 1024)
        let radio = try await RadioHarness(chapters: chapters)
        let track = Track(
            id: "episode:9", url: try Self.file(embedded: false, in: fixtures), kind: .episode, chaptersURL: server.url("/c.json"))
        try await radio.player.play(PlayRequest(track: track))
        #expect(await radio.waitUntil("the failure in the analytics", timeout: 20) {
            ((try? await radio.analytics.events()) ?? []).contains { $0.operation == "loadChapters" }
        }, "the failure is recorded in the analytics")
        await radio.waitFor("playing", timeout: 20) { $0.name == .playing }
        #expect(Self.lists(radio.updates).isEmpty)
        #expect(server.requests.count == (failure == "refused" ? 0 : 1))
        #expect(!radio.names.contains(.failed))
        await radio.shutdown()
    }
}
