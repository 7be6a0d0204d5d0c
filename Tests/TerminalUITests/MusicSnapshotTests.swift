import PlayerCore
import Presentation
import SnapshotTesting
import Testing

@testable import TerminalUI

/// Text snapshots of the library's Music tab: nothing indexed (how to index), no music folder,
/// an update under way (over the empty tab and over a list), the artists, an artist's albums
/// with their years, an album's songs with track numbers and lengths, and the songs a search found.
/// Recorded like the other screens' (`SNAPSHOT_TESTING_RECORD=failed`).
@Suite("Music tab snapshots")
struct MusicSnapshotTests {
    typealias Row = LibraryScreen.Row

    static let artists = [MusicRowText.artist("Aurora Trio"), MusicRowText.artist("Кино")]
    static let albums = [MusicRowText.album(title: "Night Ferry", year: 2019), MusicRowText.album(title: "Day Ferry", year: 2021)]
    static let songs = [
        MusicRowText.song(track: 1, title: "Harbour", duration: 185), MusicRowText.song(track: 2, title: "Lanterns", duration: 242.5),
        MusicRowText.song(track: 12, title: "Tide", duration: 3_725),
    ]
    static let found = [MusicRowText.found(title: "Группа крови", artist: "Кино", album: "Группа крови", duration: 283)]

    static var cases: [(String, LibraryScreen)] {
        var out: [(String, LibraryScreen)] = []
        for language in Language.allCases {
            let l = language.rawValue
            out.append(("music-loading-\(l)", LibraryScreen(tab: .music, list: .initial, language: language)))
            out.append(("music-empty-\(l)", LibraryScreen(tab: .music, list: .empty, language: language)))
            out.append(("music-no-folder-\(l)", LibraryScreen(tab: .music, list: .empty, missingMusicFolder: "~/Music", language: language)))
            out.append(("music-indexing-empty-\(l)", LibraryScreen(
                tab: .music, list: .empty, musicIndexing: MusicIndexProgress(read: 100, total: 450), language: language)))
            out.append(("music-indexing-artists-\(l)", LibraryScreen(
                tab: .music, list: .loaded(artists), musicIndexing: .scanning, language: language)))
            out.append(("music-artists-\(l)", LibraryScreen(tab: .music, list: .loaded(artists), selection: 1, language: language)))
            out.append(("music-albums-\(l)", LibraryScreen(tab: .music, list: .loaded(albums), musicPath: ["Aurora Trio"], language: language)))
            out.append(("music-songs-\(l)", LibraryScreen(
                tab: .music, list: .loaded(songs), selection: 1, musicPath: ["Aurora Trio", "Night Ferry"], notice: "Up next: Night Ferry",
                language: language)))
            out.append(("music-search-\(l)", LibraryScreen(tab: .music, list: .loaded(found), libraryQuery: "крови", language: language)))
            out.append(("music-search-none-\(l)", LibraryScreen(tab: .music, list: .empty, libraryQuery: "zzz", language: language)))
            out.append(("music-error-\(l)", LibraryScreen(
                tab: .music, list: .error(PlaybackError(.libraryUnavailable), existing: artists), language: language)))
        }
        return out
    }

    @Test func everyMusicState() {
        for (name, screen) in Self.cases {
            for (width, height) in [(80, 24), (120, 40)] {
                assertSnapshot(of: screen.render(width: width, height: height).text, as: .lines, named: "\(name)-\(width)x\(height)", testName: "music")
            }
        }
    }

    @Test func theEmptyTabSaysHowToIndexAndTheKeyDoesIt() {
        let text = LibraryScreen(tab: .music, list: .empty, language: .english).render(width: 80, height: 24).text
        #expect(text.contains("run tonearm music"))
        #expect(text.contains("[R] Update the index"))
        #expect(text.contains("R Update index"))
    }

    @Test func progressReplacesTheKeyWhileTheIndexUpdates() {
        let text = LibraryScreen(tab: .music, list: .empty, musicIndexing: MusicIndexProgress(read: 7, total: 9), language: .english)
            .render(width: 80, height: 24).text
        #expect(text.contains("Reading tags: 7 of 9 files"))
        #expect(!text.contains("[R]"))
    }

    /// Eight tabs fit 80 columns: only the current one is padded when all padded would not fit.
    @Test func everyTabStaysInSightOnANarrowTerminal() {
        for language in Language.allCases {
            let line = LibraryScreen(tab: .music, list: .empty, language: language).render(width: 80, height: 24).text
                .split(separator: "\n", omittingEmptySubsequences: false)[1]
            for tab in LibraryTab.allCases { #expect(line.contains(TerminalStrings.tab(tab, in: language)), "\(tab) in \(line)") }
        }
    }
}
