import Foundation
import PlayerCore
import Presentation
import SnapshotTesting
import Testing

@testable import TerminalUI

/// Now Playing with a song's lyrics open (`t`): the pane titled "Lyrics", the line sung marked
/// with its time; lyrics without times shown whole, with the note that they are not synced and no
/// line marked. Text snapshots in English and Russian, as the other Now Playing snapshots.
@Suite("Lyrics on Now Playing")
struct LyricsSnapshotTests {
    static let synced = try! LyricsParser.parse(
        text: """
            [ar:The Band]
            [ti:The Song]
            [00:12.00]Morning comes over the river
            [00:17.50]Lights go out along the shore
            [00:23.00][01:10.00]Sing it once and sing it again
            [00:29.00]Every window, every door
            [00:35.00]
            [00:41.00]Second verse begins to wander
            """)

    static let unsynced = LyricsParser.plain("Morning comes over the river\nLights go out along the shore\n\nSing it once", info: LyricsInfo(origin: .tag))!

    static func screen(_ lyrics: Transcript, at position: Double, _ language: Language) -> String {
        var screen = NowPlayingSnapshotTests.screen("playing", language)
        screen.transcript = TranscriptViewState(transcript: lyrics, current: lyrics.current(at: position), selection: nil, language: language)
        return screen.render(width: 80, height: 24).text
    }

    @Test(arguments: [Language.english, .russian])
    func syncedLyricsFollowTheSong(language: Language) {
        let text = Self.screen(Self.synced, at: 25, language)
        #expect(text.contains(language == .english ? "Lyrics" : "Текст песни"))
        #expect(!text.contains("Transcript") && !text.contains("Расшифровка"))
        #expect(text.contains("▶ 0:23  Sing it once and sing it again"), "\(text)")
        #expect(text.contains("  1:10  Sing it once and sing it again"), "the repeat is its own line")
        assertSnapshot(of: text, as: .lines, named: "lyrics-synced-\(language.rawValue)-80x24", testName: "nowPlaying")
    }

    @Test(arguments: [Language.english, .russian])
    func unsyncedLyricsAreShownWholeAndSaySo(language: Language) {
        let text = Self.screen(Self.unsynced, at: 25, language)
        #expect(text.contains(language == .english ? "Not synced" : "Без синхронизации"))
        #expect(!text.contains("▶"), "no line is followed")
        #expect(text.contains("Sing it once"))
        assertSnapshot(of: text, as: .lines, named: "lyrics-unsynced-\(language.rawValue)-80x24", testName: "nowPlaying")
    }

    @Test func aTranscriptHasNoLyricsNote() throws {
        let talk = Transcript(cues: [try #require(TranscriptCue(start: 0, end: 0, text: "Page"))], timed: false)
        let view = try #require(TranscriptViewState(transcript: talk, current: nil, selection: nil, language: .english))
        #expect(view.heading == "Transcript" && view.note == nil)
    }
}
