import Foundation
import Library
import LibraryKit
import Logging
import MPDProtocol
import PlayerCore
import PlayerKit
import TestProcesses
import Testing

@testable import MPD

/// The library as MPD clients browse and queue it, on a real library (SQLite) with a podcast
/// fetched from a real HTTP server and a real music folder.
@Suite("MPD catalog")
struct MPDCatalogTests {
    static func fields(_ response: MPDResponse, _ key: String) -> [String] { response.fields.filter { $0.key == key }.map(\.value) }

    @Test func podcastsAreDirectoriesAndAnEpisodeStartsWhereItWasStopped() async throws {
        let feed = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><title>Night/Day Show</title><link>https://example.org/</link>
            <item><guid>g1</guid><title>First Night</title><enclosure url="https://example.org/1.mp3" length="1" type="audio/mpeg"/></item>
            <item><guid>g2</guid><title>No Audio</title></item>
            </channel></rss>
            """.utf8)
        let server = try TestHTTPServer { _ in .complete(contentType: "application/rss+xml", body: feed) }
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-mpdcatalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await LibraryContext.open(directory: directory, logger: Logger(label: "test"))
        let podcast = try await library.podcasts.add(feedURL: server.url("/feed.xml"))
        let catalog = MPDCatalog(library: library, musicDirectory: nil)

        // A slash in a title never makes the path deeper.
        #expect(Self.fields(try catalog.list("Podcasts"), "directory") == ["Podcasts/Night∕Day Show"])
        let episodes = try catalog.list("Podcasts/Night∕Day Show")
        #expect(Self.fields(episodes, "file").contains("Podcasts/Night∕Day Show/First Night"))
        #expect(Self.fields(episodes, "Album").allSatisfy { $0 == "Night/Day Show" })

        let first = try #require(try library.store.episodes(podcastID: podcast.id).first { $0.title == "First Night" })
        try library.store.savePosition(episodeID: first.id, position: 12.5, duration: 60)
        let queued = try catalog.entries(for: "Podcasts/Night∕Day Show/First Night")
        #expect(queued.count == 1)
        #expect(queued[0].episodeID == first.id)
        #expect(queued[0].items.first?.startPosition == 12.5)
        // Stopped later elsewhere: the place it starts from is read again when it starts.
        try library.store.savePosition(episodeID: first.id, position: 30, duration: 60)
        #expect(catalog.refreshedEpisode(queued[0]).items.first?.startPosition == 30)

        // An episode without audio: the client's error alone, left out of its directory.
        #expect(throws: MPDAck.self) { try catalog.entries(for: "Podcasts/Night∕Day Show/No Audio") }
        #expect(try catalog.entries(for: "Podcasts/Night∕Day Show").map(\.title) == ["First Night"])
        #expect(throws: MPDAck.self) { try catalog.entries(for: "Podcasts/Nothing Like It") }
    }

    @Test func stationsURLsAndTheMusicFolder() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-mpdcatalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let library = try await LibraryContext.open(directory: directory.appendingPathComponent("data"), logger: Logger(label: "test"))
        _ = try library.store.addStation(name: "Kitchen Radio", url: URL(string: "https://radio.example/live")!)
        let music = directory.appendingPathComponent("music")
        let album = music.appendingPathComponent("Album")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        for name in ["b.mp3", "a.flac", ".hidden.mp3", "notes.txt"] {
            _ = FileManager.default.createFile(atPath: album.appendingPathComponent(name).path, contents: Data())
        }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("escape"), withDestinationURL: outside)
        let catalog = MPDCatalog(library: library, musicDirectory: music)

        #expect(Self.fields(try catalog.list(""), "directory") == ["Stations", "Podcasts", "Sessions", "Music"])
        #expect(Self.fields(try catalog.list("Stations"), "file") == ["Stations/Kitchen Radio"])
        let station = try catalog.entries(for: "Stations/Kitchen Radio")
        #expect(station.first?.items.first?.track.isLive == true)
        #expect(station.first?.name == "Kitchen Radio")

        let stream = try catalog.entries(for: "https://radio.example/other")
        #expect(stream.first?.items.first?.track.isLive == true)
        #expect(throws: MPDAck.self) { try catalog.entries(for: "file:///etc/passwd") }

        // Audio files only, sorted, hidden ones left out; a folder adds every song under it.
        #expect(Self.fields(try catalog.list("Music/Album"), "file") == ["Music/Album/a.flac", "Music/Album/b.mp3"])
        #expect(try catalog.entries(for: "Music").map(\.uri) == ["Music/Album/a.flac", "Music/Album/b.mp3"])
        // Nothing outside the music folder is reachable, by `..` or by a link.
        #expect(throws: MPDAck.self) { try catalog.list("Music/../data") }
        #expect(throws: MPDAck.self) { try catalog.list("Music/escape") }
        #expect(throws: MPDAck.self) { try catalog.entries(for: "Music/Album/none.mp3") }
    }
}
