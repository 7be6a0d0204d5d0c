import Foundation
import Library
import LibraryKit
import PlayerCore
import Testing

/// The one map from the player's tracks to the library's episodes, fed the updates a player
/// publishes, against a real library.
@Suite("Episode places")
struct EpisodePlacesTests {
    struct Fixture {
        let store: LibraryStore
        let directory: URL
        let episodes: [Int64]

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-places-\(UUID().uuidString)")
            store = try LibraryStore.open(directory: directory)
            let feed = PodcastFeed(
                title: "Talks",
                episodes: (1...2).map { n in
                    FeedEpisode(guid: "ep-\(n)", title: "Talk \(n)", enclosure: Enclosure(url: URL(string: "https://cdn.example.org/\(n).mp3")!))
                })
            let podcast = try store.addPodcast(feedURL: URL(string: "https://example.org/talks.xml")!, feed: feed, validators: .none)
            episodes = try store.episodes(podcastID: podcast.id).sorted { $0.title < $1.title }.map(\.id)
        }

        func place(_ index: Int) throws -> (position: TimeInterval, played: Bool) {
            let record = try store.episode(id: episodes[index])
            return (record.position, record.played)
        }
    }

    static func track(_ id: String) -> Track {
        Track(id: id, url: URL(fileURLWithPath: "/tmp/\(id).mp3"), kind: .episode, title: id)
    }

    static func state(_ state: PlayerState) -> PlayerUpdate { .state(state, audioTime: 0, now: PlayerTime(seconds: 0)) }
    static func position(_ seconds: Double) -> PlayerUpdate { .position(seconds: seconds, duration: 60, audioTime: seconds) }

    @Test func positionsGoToTheCurrentTracksEpisodeAndAnUnnamedTrackWritesNothing() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.directory) }
        let places = EpisodePlaces(store: f.store)
        let (one, two, file) = (Self.track("mpd1/episode"), Self.track("mpd2/episode"), Self.track("file"))
        places.follow(trackID: one.id, episode: f.episodes[0])
        places.follow(trackID: two.id, episode: f.episodes[1])

        places.observe(Self.state(.playing(track: file)))
        places.observe(Self.position(30))
        #expect(try f.place(0).position == 0 && f.place(1).position == 0, "a track no one named is no episode")

        places.observe(Self.state(.playing(track: one)))
        places.observe(Self.position(5))
        // A crossfade: the outgoing track is still current, and its place is its own.
        places.observe(Self.state(.crossfading(fromTrack: one, toTrack: two, progress: 0.5, canQuickFinish: true)))
        places.observe(Self.position(12))
        #expect(try f.place(0).position == 12 && f.place(1).position == 0)
        places.observe(Self.state(.playing(track: two)))
        // Where the outgoing one stopped, told after the next became current.
        places.observe(.notice(.savePosition(ResumePoint(track: one, position: 13, duration: 60)), audioTime: 13))
        places.observe(Self.position(4))
        #expect(try f.place(0).position == 13)
        #expect(try f.place(1).position == 4)
        #expect(places.firstError == nil)
    }

    /// A recorder belongs to one play: an episode heard to its end and started again has its
    /// place kept again (a recorder kept for the episode would ignore everything after the end).
    @Test func anEpisodePlayedToItsEndAndStartedAgainIsKeptAgain() throws {
        let f = try Fixture()
        defer { try? FileManager.default.removeItem(at: f.directory) }
        let places = EpisodePlaces(store: f.store)
        let track = Self.track("episode:1")
        places.follow(trackID: track.id, episode: f.episodes[0])

        places.observe(Self.state(.playing(track: track)))
        places.observe(Self.position(59))
        places.observe(.notice(.trackFinished(track), audioTime: 60))
        places.observe(Self.state(.finished))
        #expect(try f.place(0).played && f.place(0).position == 60)

        places.observe(Self.state(.preparing(track: track)))
        places.observe(Self.state(.playing(track: track)))
        places.observe(Self.position(8))
        #expect(try f.place(0).position == 8, "the second play's place is kept")
        places.observe(.notice(.savePosition(ResumePoint(track: track, position: 9.5, duration: 60)), audioTime: 9.5))
        #expect(try f.place(0).position == 9.5)
    }
}
