import PlayerCore
import Presentation
import PresentationFixtures
import SnapshotTesting
import Testing

@testable import TerminalUI

/// Text snapshots of the library screens: each list state (loading with skeletons, error with
/// Try Again, empty with its action, loaded, searched, nothing found), the episodes of a podcast,
/// Diagnostics, the offline banner, the mini player (playing and failed) and the error alert.
@Suite("Library snapshots")
struct LibrarySnapshotTests {
    typealias Row = LibraryScreen.Row

    static let stations: [Row] = [
        Row(title: "FIP", detail: "Eclectic"), Row(title: "Jazz Radio", detail: "Jazz"), Row(title: "Radio Paradise", detail: "Rock"),
        Row(title: "SomaFM Groove Salad", detail: "Ambient"),
    ]

    static let summary = ErrorAnalyticsSummary(
        totalErrors: 42, errorsLast24Hours: 5, errorsLast7Days: 17, retryableErrorsPercentage: 71.4,
        topErrorTypes: [.init(type: "Network.connectionLost", count: 20), .init(type: "Network.timeout", count: 12), .init(type: "Resource.notFound", count: 4)],
        topErrorOperations: [.init(operation: "playStation", errorCount: 30), .init(operation: "refreshPodcast", errorCount: 12)],
        resolutionStats: [:], successRate: 0.8)

    /// Retry statistics: feeds recovered by a retry 2 times in 3, artwork once in 1, status never retried.
    static let retries = RetryStatisticsSummary([
        "podcastFeed": .init(attempts: 14, firstTrySuccesses: 6, successesAfterRetry: 2, failures: 1, failuresAfterRetry: 1),
        "artwork": .init(attempts: 5, firstTrySuccesses: 3, successesAfterRetry: 1),
        "radioStatus": .init(attempts: 8, firstTrySuccesses: 8),
    ])

    static func mini(_ label: String, _ language: Language) -> MiniPlayerViewState {
        let state = Samples.states.first { $0.label == label }!.state
        return MiniPlayerViewState(state: state, context: Samples.context(language))
    }

    static var cases: [(String, LibraryScreen)] {
        var out: [(String, LibraryScreen)] = []
        for language in Language.allCases {
            let l = language.rawValue
            out.append(("stations-loading-\(l)", LibraryScreen(tab: .stations, list: .initial, language: language)))
            out.append(("stations-error-\(l)", LibraryScreen(tab: .stations, list: .error(PlaybackError(.libraryUnavailable), existing: []), language: language)))
            out.append(("stations-empty-\(l)", LibraryScreen(tab: .stations, list: .empty, language: language)))
            out.append(("stations-loaded-playing-\(l)", LibraryScreen(
                tab: .stations, list: .loaded(stations), selection: 1, miniPlayer: mini("playing live", language), language: language)))
            out.append(("stations-search-\(l)", LibraryScreen(tab: .stations, list: .loaded(stations), search: "radio", language: language)))
            out.append(("stations-no-results-\(l)", LibraryScreen(tab: .stations, list: .loaded(stations), search: "zzz", language: language)))
            out.append(("stations-reload-failed-over-items-\(l)", LibraryScreen(
                tab: .stations, list: .error(PlaybackError(.connectionFailed), existing: stations), language: language)))
            out.append(("podcasts-empty-\(l)", LibraryScreen(tab: .podcasts, list: .empty, language: language)))
            out.append(("episodes-\(l)", LibraryScreen(
                tab: .podcasts, list: .loaded([Row(title: "Episode 42: Resilience", detail: "12:34 / 1:00:00"), Row(title: "Episode 41", detail: "played")]),
                episodesOf: "The Swift Show", miniPlayer: mini("failed recoverable", language), language: language)))
            out.append(("sessions-empty-\(l)", LibraryScreen(tab: .sessions, list: .empty, language: language)))
            out.append(("directory-results-\(l)", LibraryScreen(
                tab: .stations,
                list: .loaded([Row(title: "Jazz Radio Blues", detail: "✓ MP3 128k · FR · jazz, blues"), Row(title: "HLS Jazz", detail: "AAC 96k · DE · jazz")]),
                directoryQuery: "jazz country:DE", language: language)))
            out.append(("directory-none-\(l)", LibraryScreen(tab: .stations, list: .empty, directoryQuery: "nothing-matches", language: language)))
            out.append(("stations-confirm-remove-\(l)", LibraryScreen(
                tab: .stations, list: .loaded(stations), confirmation: TerminalStrings.confirmRemove("Night FM", in: language), language: language)))
            out.append(("stations-undo-\(l)", LibraryScreen(tab: .stations, list: .loaded(stations), undo: "Night FM", language: language)))
            out.append(("queue-empty-\(l)", LibraryScreen(tab: .queue, list: .empty, language: language)))
            out.append(("queue-\(l)", LibraryScreen(
                tab: .queue, list: .loaded([Row(title: "1. Episode 42", detail: "The Swift Show"), Row(title: "2. Night FM", detail: "Jazz")]),
                selection: 1, language: language)))
            out.append(("diagnostics-\(l)", LibraryScreen(tab: .diagnostics, diagnostics: summary, retries: retries, language: language)))
            out.append(("offline-alert-\(l)", LibraryScreen(
                tab: .podcasts, list: .loaded([Row(title: "The Swift Show", detail: "2 episodes")]), connectivity: .offline,
                alert: ErrorAlertViewState(error: PlaybackError(.invalidFeed), language: language), language: language)))
        }
        return out
    }

    @Test func everyListState() {
        for (name, screen) in Self.cases {
            for (width, height) in [(80, 24), (120, 40)] {
                assertSnapshot(of: screen.render(width: width, height: height).text, as: .lines, named: "\(name)-\(width)x\(height)", testName: "library")
            }
        }
    }

    @Test func theEmptyStationListSaysHowToAddOne() {
        let text = LibraryScreen(tab: .stations, list: .empty, language: .english).render(width: 80, height: 24).text
        #expect(text.contains("[a] "))
        // And how to find one without knowing an address.
        #expect(text.contains("[f] Find stations"))
        #expect(text.contains(UIStrings.text(.emptyStationsTitle, in: .english)))
    }

    @Test func searchKeepsOnlyMatchingRowsAndTheSelectionIsHighlighted() {
        let screen = LibraryScreen(tab: .stations, list: .loaded(Self.stations), selection: 0, search: "radio", language: .english)
        #expect(screen.visibleItems.map(\.title) == ["Jazz Radio", "Radio Paradise"])
        let canvas = screen.render(width: 80, height: 24)
        let row = canvas.text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("▸ Jazz Radio") }
        #expect(row.map { canvas[$0, 4].style.reverse } == true)
    }
}
