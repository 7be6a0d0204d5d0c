import Foundation
import Library
import LibraryKit
import Logging
import PlayerCore
import Presentation
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

extension LibraryControllerTests {
    /// The Music tab on a real library and a real music folder (songs ffmpeg tags here), a real
    /// player on the null output: `R` fills the index through the indexer, Enter goes down to an
    /// album's songs and plays the album from the song chosen, `a` on a song puts it after.
    @Suite("Music")
    struct Music {
        /// A folder of three 20 s songs of one album, tagged with track numbers and a year.
        static func makeMusic(in folder: URL) throws {
            for (track, title) in [(1, "Harbour"), (2, "Lanterns"), (3, "Tide")] {
                let tags = ["title=\(title)", "artist=Aurora Trio", "album=Night Ferry", "date=2019", "track=\(track)"]
                let arguments = ["-f", "lavfi", "-i", "sine=frequency=330:duration=20"] + tags.flatMap { ["-metadata", $0] } + ["-c:a", "libmp3lame"]
                let data = try FFmpegFixture.make(arguments, fileName: "song.mp3").get()
                let url = folder.appendingPathComponent("Aurora Trio/Night Ferry/0\(track) \(title).mp3")
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }

        @Test func rIndexesTheFolderEnterPlaysTheAlbumFromASongAndAQueuesAfterIt() async throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-tab-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let folder = root.appendingPathComponent("Music")
            try Self.makeMusic(in: folder)
            let library = try await LibraryContext.open(directory: root.appendingPathComponent("data"), logger: Logger(label: "test"))
            let controller = LibraryController(
                library: library, output: .null, language: .english, bindings: .standard, logger: Logger(label: "test"), syncPassword: { nil },
                musicDirectory: folder)
            func model<T: Sendable>(_ body: (LibraryModel) -> T) -> T { controller.machine.withLock { body($0.model) } }
            func until(_ what: String, _ condition: () -> Bool) async throws {
                guard await eventually(timeout: 20, condition) else { throw Failure(what) }
            }
            var screen: String { controller.frame(tick: 0, width: 100, height: 30).text }

            controller.load()
            // The left arrow from Stations: the last tab, Music, empty and saying how to fill it.
            controller.handle(.left)
            try await until("the empty Music tab") { model { $0.tab == .music && $0.list == .empty } }
            #expect(screen.contains("No music in the index yet") && screen.contains("[R] Update the index"))

            controller.handle(.character("R"))
            try await until("the index is read and the artist listed") { model { $0.musicIndexing == nil && $0.list.items.map(\.title) == ["Aurora Trio"] } }
            #expect(try library.store.musicTotals().songs == 3)

            controller.handle(.enter)
            try await until("the artist's album with its year") { model { $0.list.items == [LibraryRow(title: "Night Ferry", detail: "2019")] } }
            #expect(screen.contains("◂ Aurora Trio"))
            controller.handle(.enter)
            try await until("the album's songs") { model { $0.list.items.count == 3 } }
            #expect(model { $0.list.items.map(\.title) } == [" 1  Harbour", " 2  Lanterns", " 3  Tide"])

            controller.handle(.down)
            controller.handle(.enter)
            try await until("Lanterns plays") { model { $0.player.state.name == .playing && $0.player.state.currentTrack?.title == "Lanterns" } }
            #expect(model { $0.nowPlayingOpen })
            #expect(model { $0.player.state.currentTrack?.artist } == "Aurora Trio")

            // Back to the songs; `a` on Harbour puts it after Tide, the song after the one heard.
            controller.handle(.escape)
            controller.handle(.up)
            controller.handle(.character("a"))
            #expect(model { $0.notice } == "Up next: Harbour")
            let upcoming = controller.machine.withLock { $0.music?.items.map(\.track.title) }
            #expect(upcoming == ["Lanterns", "Tide", "Harbour"])
            #expect(model { $0.alert } == nil)

            controller.handle(.character("q"))
            await controller.finish()
        }

        /// A music folder that is not there is named on the empty tab, and `R` says so again.
        @Test func aMissingFolderIsNamedOnTheEmptyTab() async throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-music-tab-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: root) }
            let library = try await LibraryContext.open(directory: root.appendingPathComponent("data"), logger: Logger(label: "test"))
            let missing = root.appendingPathComponent("NoMusicHere")
            let controller = LibraryController(
                library: library, output: .null, language: .english, bindings: .standard, logger: Logger(label: "test"), syncPassword: { nil },
                musicDirectory: missing)
            controller.load()
            controller.handle(.left)
            let text = { controller.frame(tick: 0, width: 120, height: 30).text }
            #expect(await eventually(timeout: 20) { text().contains("No music folder") && text().contains("NoMusicHere") })
            controller.handle(.character("R"))
            #expect(await eventually(timeout: 20) { controller.machine.withLock { $0.model.musicIndexing == nil } })
            #expect(text().contains("No music folder"))
            await controller.finish()
        }
    }
}
