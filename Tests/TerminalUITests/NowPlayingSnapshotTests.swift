import PlayerCore
import Presentation
import PresentationFixtures
import SnapshotTesting
import Testing

@testable import TerminalUI

/// Text snapshots of Now Playing in every state of `labels`, at 80x24 and 120x40, in English
/// and Russian. A snapshot is the canvas's text: what the terminal shows, colours aside. Snapshots
/// are files under __Snapshots__; a changed screen fails until the new text is looked at and
/// recorded (`SNAPSHOT_TESTING_RECORD=failed swift test --filter TerminalUITests`).
@Suite("Now Playing snapshots")
struct NowPlayingSnapshotTests {
    static let labels = [
        "idle", "preparing", "buffering live initial", "buffering episode underrun", "playing", "playing live", "paused",
        "crossfading 47%", "crossfadePaused continue", "crossfadePaused quickFinish", "fadingOut", "reconnecting scheduled",
        "reconnecting waiting", "failed recoverable", "failed final", "finished",
    ]

    static let sizes = [(80, 24), (120, 40)]

    static func screen(_ label: String, _ language: Language, connectivity: Connectivity = .online) -> NowPlayingScreen {
        let state = Samples.states.first { $0.label == label }!.state
        var context = Samples.context(language, connectivity: connectivity)
        if case .failed = state { context.episode = Samples.episode }
        // The samples' position (12:34) belongs to the hour-long episode; a song is a minute in.
        if let duration = state.currentTrack?.duration, duration < 754 { context.position = 61 }
        let view = NowPlayingViewState(state: state, context: context, preparingElapsed: 4)
        return NowPlayingScreen(view: view, language: language)
    }

    @Test(arguments: labels, [Language.english, .russian])
    func everyState(label: String, language: Language) {
        for (width, height) in Self.sizes {
            let canvas = Self.screen(label, language).render(width: width, height: height)
            assertSnapshot(
                of: canvas.text, as: .lines, named: "\(label.replacingOccurrences(of: " ", with: "-"))-\(language.rawValue)-\(width)x\(height)",
                testName: "nowPlaying")
        }
    }

    @Test func offlineBannerAndInlineError() {
        var screen = Self.screen("playing live", .english, connectivity: .offline)
        screen.inlineError = InlineErrorViewState(message: "Artwork could not be loaded.", language: .english)
        assertSnapshot(of: screen.render(width: 80, height: 24).text, as: .lines, named: "offline-inline-error-80x24", testName: "nowPlaying")
    }

    @Test func theErrorViewOffersRetryOnlyWhenRecoverable() {
        let recoverable = Self.screen("failed recoverable", .english).render(width: 80, height: 24).text
        let final = Self.screen("failed final", .english).render(width: 80, height: 24).text
        #expect(recoverable.contains("[r] ↻ Retry Playback"))
        #expect(!final.contains("Retry Playback"))
        #expect(final.contains("Playback Error") && recoverable.contains("Playback Error"))
        // The controls give way to the error view.
        #expect(!final.contains("Pause") && !final.contains("[s]"))
    }

    @Test func disallowedControlsAreDimAndAllowedOnesAreNot() {
        let canvas = Self.screen("paused", .english).render(width: 80, height: 24)
        let row = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("[space]") }!
        let line = (0..<canvas.width).map { canvas[row, $0] }
        let text = String(line.map(\.character))
        let resume = text.range(of: "Resume")!
        let skip = text.range(of: "Next")!
        #expect(line[text.distance(from: text.startIndex, to: resume.lowerBound)].style.dim == false)
        #expect(line[text.distance(from: text.startIndex, to: skip.lowerBound)].style.dim == true)
    }

    /// An episode with twelve chapters, the third playing: the chapter line under the podcast,
    /// and the list `c` opens with the playing one marked.
    static func chaptered(_ language: Language, listOpen: Bool) -> NowPlayingScreen {
        var screen = Self.screen("playing", language)
        let titles = [
            "Cold open", "Welcome back", "The interview, part one", "Listener mail", "A \u{202E}word from sponsors", "The interview, part two",
            "News in brief", "Corrections", "What we are reading", "Quiz", "Credits", "Outtakes",
        ]
        let chapters = ChapterList(
            trackID: "episode", origin: .feed,
            chapters: titles.enumerated().map { Chapter(start: Double($0.offset) * 300, title: $0.element) })
        screen.chapters = ChapterViewState(chapters: chapters, current: chapters.current(at: 754), language: language)
        screen.showsChapterList = listOpen
        return screen
    }

    @Test(arguments: [Language.english, .russian])
    func theChapterPlayingAndTheListOfChapters(language: Language) {
        let line = Self.chaptered(language, listOpen: false).render(width: 80, height: 24).text
        #expect(line.contains(language == .english ? "Chapter 3/12: The interview, part one" : "Глава 3 из 12: The interview, part one"))
        assertSnapshot(of: line, as: .lines, named: "chapter-\(language.rawValue)-80x24", testName: "nowPlaying")
        for (width, height) in Self.sizes {
            let list = Self.chaptered(language, listOpen: true).render(width: width, height: height).text
            #expect(list.contains("▶  3  10:00  The interview, part one"))
            #expect(!list.contains("\u{202E}"))
            assertSnapshot(of: list, as: .lines, named: "chapters-list-\(language.rawValue)-\(width)x\(height)", testName: "nowPlaying")
        }
    }

    /// The help overlay lists every action, the chapter keys among them; on a terminal too short
    /// for one column it uses two, so none is cut off.
    @Test(arguments: [Language.english, .russian])
    func theHelpOverlayListsEveryAction(language: Language) {
        for (width, height) in Self.sizes {
            var canvas = Self.screen("playing", language).render(width: width, height: height)
            canvas.drawHelp(.standard, language: language)
            let text = canvas.text
            for action in KeyAction.allCases {
                #expect(text.contains(String(TerminalStrings.actionName(action, in: language).prefix(12))), "\(action) at \(width)x\(height)")
            }
            assertSnapshot(of: text, as: .lines, named: "help-\(language.rawValue)-\(width)x\(height)", testName: "nowPlaying")
        }
    }
}
