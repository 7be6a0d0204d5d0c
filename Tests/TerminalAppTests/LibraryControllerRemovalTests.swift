import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Services
import Streaming
import Clocks
import TerminalUI
import TestProcesses
import Testing

@testable import TerminalApp

extension LibraryControllerTests {
    @Suite("Removing, with undo")
    struct Removal {
        /// `X` asks before removing, naming what goes; `n` keeps it, `y` takes it off the list, `U`
        /// brings it back, and the library loses it only when the screen closes. `e` renames a station.
        @Test func removalIsConfirmedByNameUndoableAndRenamingWorks() async throws {
            let f = try await Fixture()
            _ = try f.library.store.addStation(name: "Alpha FM", url: URL(string: "http://127.0.0.1:9/a")!)
            _ = try f.library.store.addStation(name: "Beta FM", url: URL(string: "http://127.0.0.1:9/b")!)
            f.controller.load()
            #expect(f.screen.contains("▸ Alpha FM"), "screen:\n\(f.screen)")
            f.press(.character("X"))
            #expect(f.screen.contains("Remove “Alpha FM” from the library? y / n"), "screen:\n\(f.screen)")
            f.press(.character("n"))
            #expect(f.screen.contains("Alpha FM") && !f.screen.contains("Remove “"), "screen:\n\(f.screen)")
            f.press(.character("X"), .character("y"))
            #expect(f.model { $0.list.items.map(\.title) } == ["Beta FM"])
            #expect(f.screen.contains("U Undo removing Alpha FM"), "screen:\n\(f.screen)")
            #expect(try f.library.store.stations().count == 2, "kept until the screen closes")
            f.press(.character("U"))
            #expect(f.screen.contains("Alpha FM") && !f.screen.contains("Undo removing"), "screen:\n\(f.screen)")

            // Renaming: the prompt starts with the name; what is typed replaces it.
            f.press(.character("e"))
            #expect(f.screen.contains("New name: Alpha FM"), "screen:\n\(f.screen)")
            for _ in 0..<2 { f.press(.backspace) }
            f.type("Radio")
            f.press(.enter)
            #expect(try f.library.store.stations().map(\.name).contains("Alpha Radio"))
            f.press(.down)
            #expect(f.model { ($0.selection, $0.prompt?.text, $0.search) } == (1, nil, nil))
            f.press(.character("e"))
            #expect(f.screen.contains("New name: Beta FM"), "screen:\n\(f.screen)")
            for _ in 0..<7 { f.press(.backspace) }
            f.type("alpha radio")
            f.press(.enter)
            #expect(
                f.model { $0.alert?.code } == .alreadyInLibrary,
                "a name another station has is refused: \((try? f.library.store.stations().map(\.name)) ?? [])\n\(f.screen)")
            f.press(.enter)

            // Removing a second thing carries out the first; closing carries out the last.
            f.press(.up, .character("X"), .character("y"), .character("X"), .character("y"))
            #expect(try f.library.store.stations().map(\.name) == ["Beta FM"])
            await f.controller.finish()
            #expect(try f.library.store.stations().isEmpty)
        }

        /// A podcast removed from the screen takes its downloaded episodes with it.
        @Test func aRemovedPodcastTakesItsDownloadsWithIt() async throws {
            let f = try await Fixture()
            let audio = Data(repeating: 7, count: 50_000)
            let server = try TestHTTPServer { .file(audio, for: $0) }
            defer { server.stop() }
            let podcast = try f.library.store.addPodcast(
                feedURL: URL(string: "https://example.org/gone.xml")!,
                feed: PodcastFeed(title: "Gone Soon", episodes: [FeedEpisode(guid: "g", title: "Kept", enclosure: Enclosure(url: server.url("/k.mp3")))]),
                validators: .none)
            let episode = try #require(try f.library.store.episodes(podcastID: podcast.id).first)
            _ = await f.library.downloads.download([episode.id])
            let file = try #require(f.library.downloads.playableFile(episodeID: episode.id))
            f.controller.load()
            f.press(.tab, .character("X"))
            #expect(f.screen.contains("Remove “Gone Soon”"), "screen:\n\(f.screen)")
            f.press(.character("y"))
            await f.controller.finish()
            #expect(try f.library.store.podcasts().isEmpty)
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }
}
