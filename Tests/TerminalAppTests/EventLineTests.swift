import Foundation
import PlayerCore
import Testing

@testable import TerminalApp

/// The `--events jsonl` lines scripts read for radio: metadata and the reconnect fields.
@Suite("Event lines")
struct EventLineTests {
    static func object(_ update: PlayerUpdate) throws -> [String: Any] {
        let line = EventLine.json(for: update, language: .english)
        #expect(!line.contains("\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func metadataIsItsOwnEvent() throws {
        let m = NowPlayingMetadata(title: "Song", artist: nil, station: "Radio X", artwork: .station)
        let o = try Self.object(.notice(.metadata(m), audioTime: 12.3456))
        #expect(o["event"] as? String == "metadata")
        #expect(o["title"] as? String == "Song")
        #expect(o["artist"] is NSNull)
        #expect(o["station"] as? String == "Radio X")
        #expect(o["artwork"] as? String == "station")
        #expect(o["t"] as? Double == 12.346)
    }

    /// A stream that keeps dropping: how often, in how long, and the advice in the listener's words.
    @Test func aStreamThatKeepsDroppingIsANoticeWithAdvice() throws {
        let track = Track(id: "r", url: URL(string: "https://radio.example/live")!, kind: .liveStream, title: "R")
        let o = try Self.object(.notice(.keepsDropping(track, drops: 3, within: 1_800), audioTime: 1))
        #expect(o["event"] as? String == "notice", "\(o)")
        #expect(o["notice"] as? String == "keepsDropping")
        #expect(o["drops"] as? Int == 3 && o["withinSeconds"] as? Double == 1_800)
        let text = try #require(o["text"] as? String)
        #expect(text.hasPrefix("This stream dropped 3 times in 30 minutes."), "\(text)")
        #expect(!text.contains("radio.example"))
        let russian = EventLine.json(for: .notice(.keepsDropping(track, drops: 4, within: 1_800), audioTime: 1), language: .russian)
        #expect(russian.contains("прерывался 4 раза за 30 минут"), "\(russian)")
    }

    @Test func reconnectingCarriesAttemptCountdownAndCause() throws {
        let track = Track(id: "r", url: URL(string: "https://user:secret@radio.example/live")!, kind: .liveStream, title: "R")
        let state = PlayerState.reconnecting(
            track: track, attempt: 2, maxAttempts: 9, nextRetryAt: PlayerTime(seconds: 13.5), cause: PlaybackError(.stalled))
        let o = try Self.object(.state(state, audioTime: 1, now: PlayerTime(seconds: 10)))
        #expect(o["state"] as? String == "reconnecting")
        #expect(o["attempt"] as? Int == 2 && o["maxAttempts"] as? Int == 9)
        #expect(o["retryIn"] as? Double == 3.5)
        let cause = try #require(o["cause"] as? [String: Any])
        #expect(cause["code"] as? Int == PlaybackError.Code.stalled.rawValue)
        #expect(cause["retryable"] as? Bool == true)
        // The URL (with its credentials) never appears.
        #expect(!EventLine.json(for: .state(state, audioTime: 1, now: PlayerTime(seconds: 10))).contains("secret"))
        // Waiting for the network: no countdown.
        let waiting = PlayerState.reconnecting(track: track, attempt: 2, maxAttempts: 9, nextRetryAt: nil, cause: PlaybackError(.offline))
        #expect(try Self.object(.state(waiting, audioTime: 1, now: PlayerTime(seconds: 10)))["retryIn"] is NSNull)
    }

    @Test func stillConnectingIsABufferingReason() throws {
        let track = Track(id: "r", url: URL(string: "https://radio.example/live")!, kind: .liveStream, title: "R")
        let o = try Self.object(.state(.buffering(track: track, progress: 0, reason: .connecting), audioTime: 0, now: PlayerTime(seconds: 3)))
        #expect(o["state"] as? String == "buffering")
        #expect(o["reason"] as? String == "connecting")
    }

    @Test func volumeLinesCarryTheLevelAndPercent() throws {
        let o = try Self.object(.volume(Volume(0.55), audioTime: 1.25))
        #expect(o["event"] as? String == "volume")
        #expect(o["volume"] as? Double == 0.55)
        #expect(o["percent"] as? Int == 55)
        #expect(o["t"] as? Double == 1.25)
    }

    @Test func stdinVolumeCommands() {
        #expect(HeadlessInput.parse("volume 0.5") == .volume(.to(Volume(0.5))))
        #expect(HeadlessInput.parse("volume 50%") == .volume(.to(Volume(0.5))))
        #expect(HeadlessInput.parse("volume +5%") == .volume(.by(0.05)))
        #expect(HeadlessInput.parse("volume - 5 %") == .volume(.by(-0.05)))
        #expect(HeadlessInput.parse("volume loud") == nil)
        #expect(HeadlessInput.parse("volume") == nil)
    }

    @Test func loudnessLinesCarryTheModeTargetAndGain() throws {
        let o = try Self.object(.loudness(LoudnessLevelling(mode: .session, target: -18), trackGain: 4.25, audioTime: 2))
        #expect(o["event"] as? String == "loudness")
        #expect(o["mode"] as? String == "session")
        #expect(o["target"] as? Double == -18)
        #expect(o["gain"] as? Double == 4.25)
        let adaptive = try Self.object(.loudness(LoudnessLevelling(mode: .track), trackGain: nil, audioTime: 0))
        #expect(adaptive["gain"] is NSNull, "no gain yet: levelled adaptively")
    }

    @Test func stdinChapterCommands() {
        #expect(HeadlessInput.parse("chapter next") == .chapter(.next))
        #expect(HeadlessInput.parse("Chapter PREVIOUS") == .chapter(.previous))
        #expect(HeadlessInput.parse("chapter prev") == .chapter(.previous))
        #expect(HeadlessInput.parse("chapter 3") == .chapter(.number(3)))
        #expect(HeadlessInput.parse("chapter 0") == nil)
        #expect(HeadlessInput.parse("chapter -1") == nil)
        #expect(HeadlessInput.parse("chapter") == nil)
        #expect(HeadlessInput.parse("next") == .next, "plain next stays the next item")
    }

    @Test func chapterEventsAndTheChapterFieldOnPositionsAndStates() throws {
        let list = ChapterList(
            trackID: "e", origin: .feed, chapters: [Chapter(start: 0, end: 62.5, title: "Intro"), Chapter(start: 62.5, title: nil)])
        let chapters = try Self.object(.notice(.chapters(list), audioTime: 0.3))
        #expect(chapters["event"] as? String == "chapters")
        #expect(chapters["origin"] as? String == "feed")
        let entries = try #require(chapters["chapters"] as? [[String: Any]])
        #expect(entries.map { $0["start"] as? Double } == [0, 62.5])
        #expect(entries[0]["end"] as? Double == 62.5 && entries[1]["end"] is NSNull && entries[1]["title"] is NSNull)
        let none = try Self.object(.notice(.chapters(nil), audioTime: 1))
        #expect((none["chapters"] as? [Any])?.isEmpty == true && none["origin"] is NSNull)

        let position = ChapterPosition(index: 1, count: 2, title: nil)
        let entered = try Self.object(.notice(.chapter(position), audioTime: 62.6))
        #expect(entered["event"] as? String == "chapter")
        #expect((entered["chapter"] as? [String: Any])?["index"] as? Int == 1)

        func line(_ update: PlayerUpdate, chapter: ChapterPosition?) throws -> [String: Any] {
            let text = EventLine.json(for: update, language: .english, chapter: chapter)
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        let moving = try line(.position(seconds: 63, duration: 100, audioTime: 63), chapter: position)
        #expect((moving["chapter"] as? [String: Any])?["count"] as? Int == 2)
        let state = try line(.state(.idle, audioTime: 63, now: PlayerTime(seconds: 0)), chapter: position)
        #expect((state["chapter"] as? [String: Any])?["index"] as? Int == 1)
        #expect(try line(.volume(Volume(0.5), audioTime: 1), chapter: position)["chapter"] == nil, "only positions and states")
        #expect(try line(.position(seconds: 1, duration: nil, audioTime: 1), chapter: nil)["chapter"] == nil)
    }

    @Test func stdinLoudnessCommands() {
        #expect(HeadlessInput.parse("loudness track") == .loudness(.to(.track)))
        #expect(HeadlessInput.parse("Loudness SESSION") == .loudness(.to(.session)))
        #expect(HeadlessInput.parse("loudness off") == .loudness(.to(.off)))
        #expect(HeadlessInput.parse("loudness album") == nil)
        #expect(HeadlessInput.parse("loudness") == nil)
    }

    @Test func connectionLinesCarryTheQualityAndTheReconnectFlag() throws {
        let quality = ConnectionQuality(bitrate: 128, bufferedSeconds: 4.123, reconnectsLastHour: 1, stallsLastHour: 0, reconnecting: true)
        let o = try Self.object(.connection(quality, audioTime: 40.2))
        #expect(o["event"] as? String == "connection")
        #expect(o["bitrate"] as? Int == 128)
        #expect(o["buffered"] as? Double == 4.123)
        #expect(o["reconnects"] as? Int == 1 && o["stalls"] as? Int == 0)
        #expect(o["reconnecting"] as? Bool == true)
        #expect(o["quality"] as? String == "fair")
        let unknown = try Self.object(.connection(ConnectionQuality(), audioTime: 0))
        #expect(unknown["bitrate"] is NSNull && unknown["buffered"] is NSNull)
        #expect(unknown["quality"] as? String == "good")
        // While the buffer covers a reconnect, a playing state event says so too.
        let track = Track(id: "r", url: URL(string: "http://radio.example/live")!, kind: .liveStream, title: "R")
        let line = EventLine.json(for: .state(.playing(track: track), audioTime: 1, now: .zero), reconnecting: true)
        let playing = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(playing["state"] as? String == "playing" && playing["reconnecting"] as? Bool == true)
        #expect(!EventLine.json(for: .state(.playing(track: track), audioTime: 1, now: .zero)).contains("reconnecting"))
    }
}
