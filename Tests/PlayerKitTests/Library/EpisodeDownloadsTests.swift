import AudioEngine
import Clocks
import Foundation
import Library
import LibraryKit
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import TestProcesses
import Testing

/// Episodes kept on disk, end to end against real HTTP servers: the library's download of an
/// episode, a cut one continued in a later run at the byte, at most two at once, a full disk,
/// the storage cap and "keep the newest N", and a downloaded episode played with the server gone.
@Suite("Episode downloads", .serialized, .blocking)
struct EpisodeDownloadsTests {
    /// A library in a fresh directory, subscribed to a feed whose episodes `server` serves.
    struct Setup {
        let directory: URL
        let store: LibraryStore
        let downloads: EpisodeDownloads
        let episodes: [EpisodeRecord]

        init(
            server: TestHTTPServer, episodes count: Int, policy: BackoffPolicy = .network, episodesDirectory: URL? = nil
        ) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-downloads-\(UUID().uuidString)")
            store = try LibraryStore.open(directory: directory)
            let network = NetworkClient(clock: ImmediateClock(), seed: 9, breakers: nil)
            let library = PodcastLibrary(store: store, network: network)
            let podcast = try await library.add(feedURL: server.url("/feed.xml"))
            #expect(try store.episodes(podcastID: podcast.id).count == count)
            self.episodes = try store.episodes(podcastID: podcast.id)
            var options = FileDownload.Options()
            options.policy = policy
            downloads = EpisodeDownloads(store: store, network: network, directory: episodesDirectory, options: options)
        }

        /// The episode whose enclosure ends with `/episode-n.wav`.
        func episode(_ n: Int) -> EpisodeRecord {
            episodes.first { $0.audioURL?.lastPathComponent == "episode-\(n).wav" }!
        }

        /// The episodes folder's files, without the folder of the downloads' lock files.
        func files() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: downloads.directory.path)) ?? []).filter { $0 != ".locks" }.sorted()
        }
    }

    /// A server for a feed of `count` episodes, each `files(n)`; `answer` may change how one is served.
    static func server(
        count: Int, files: @escaping @Sendable (Int) -> Data,
        answer: @escaping @Sendable (Int, TestHTTPServer.Request, Data) -> TestHTTPServer.Response = { _, request, data in
            .file(data, for: request, etag: "\"v1\"", contentType: "audio/wav")
        }
    ) throws -> TestHTTPServer {
        let base = Mutex<String?>(nil)
        let server = try TestHTTPServer { request in
            if request.path == "/feed.xml" {
                let root = base.withLock { $0 } ?? ""
                let items = (1...count).map { n in ("guid-\(n)", "Episode \(n)", Optional("\(root)/episode-\(n).wav")) }
                return .complete(contentType: "application/rss+xml", body: PodcastLibraryTests.feed(title: "Offline Talks", items: items))
            }
            guard let n = Int(request.path.dropFirst("/episode-".count).dropLast(".wav".count)) else {
                return .init(status: 404, headers: [("Content-Length", "0")])
            }
            return answer(n, request, files(n))
        }
        base.withLock { $0 = server.baseURL }
        return server
    }

    static func bytes(_ n: Int, size: Int = 120_000) -> Data {
        Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ n &* 7 &+ ($0 >> 8)) })
    }

    @Test func anEpisodeIsKeptUnderAHashedNameAndListedAsDownloaded() async throws {
        let server = try Self.server(count: 2, files: { Self.bytes($0) })
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 2)
        let episode = setup.episode(1)
        let events = Mutex<[EpisodeDownloads.Event]>([])
        let outcomes = await setup.downloads.download([episode.id, episode.id]) { event in events.withLock { $0.append(event) } }
        #expect(outcomes.count == 1, "one episode asked twice is downloaded once")
        let record = try #require(try outcomes.first?.result.get())
        #expect(record.state == .downloaded && record.receivedBytes == 120_000)
        // The file's name says nothing of the episode's title; no partial file is left.
        #expect(setup.files() == [record.fileName])
        #expect(record.fileName.hasPrefix("episode-\(episode.id)-") && record.fileName.hasSuffix(".wav"))
        #expect(try Data(contentsOf: setup.downloads.directory.appendingPathComponent(record.fileName)) == Self.bytes(1))
        let listed = try setup.store.episodes(podcastID: episode.podcastID)
        #expect(listed.first { $0.id == episode.id }?.downloaded == true)
        #expect(listed.first { $0.id != episode.id }?.downloaded == false)
        let kinds = events.withLock { $0 }.map { event -> String in
            switch event {
            case .started: "started"
            case .progress: "progress"
            case .finished: "finished"
            case .failed: "failed"
            case .removed: "removed"
            }
        }
        #expect(kinds.first == "started" && kinds.last == "finished", "\(kinds)")
        // Asked again, nothing is fetched: it is already whole on disk.
        let requests = server.requests.count
        _ = await setup.downloads.download([episode.id])
        #expect(server.requests.count == requests)
    }

    /// A download cut at 40 % fails this run (one try), keeps the part, and the next run
    /// continues at the byte: the file is the server's, byte for byte.
    @Test func aDownloadCutAt40PercentResumesInTheNextRun() async throws {
        let source = Self.bytes(1, size: 1_000_000)
        let cutAt = 400_000
        let cut = Mutex(true)
        let server = try Self.server(count: 1, files: { _ in source }) { _, request, data in
            let ending: TestHTTPServer.Response.Ending = cut.withLock { $0 } ? .cut(after: cutAt) : .complete
            return .file(data, for: request, etag: "\"v1\"", contentType: "audio/wav", ending: ending)
        }
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 1, policy: .once)
        let id = setup.episode(1).id
        let first = await setup.downloads.download([id])
        guard case .failure(let error)? = first.first?.result else {
            Issue.record("the cut download did not fail")
            return
        }
        #expect(error.code == .connectionLost)
        let failed = try #require(try setup.store.download(episodeID: id))
        #expect(failed.state == .failed && failed.receivedBytes == Int64(cutAt))
        #expect(setup.files() == [failed.partialFileName], "only the partial file, never a complete-looking one")
        #expect(try setup.store.episodes(podcastID: setup.episode(1).podcastID).first?.downloadProgress == 0.4)

        cut.withLock { $0 = false }
        let second = await setup.downloads.download([id])
        let record = try #require(try second.first?.result.get())
        #expect(server.requests.last.flatMap(TestHTTPServer.Response.requestedStart) == cutAt)
        #expect(server.requests.last?.header("If-Range") == "\"v1\"")
        let kept = try Data(contentsOf: setup.downloads.directory.appendingPathComponent(record.fileName))
        #expect(kept.count == source.count && kept == source, "the resumed file differs from the source")
        #expect(setup.files() == [record.fileName])
    }

    @Test func atMostTwoDownloadAtOnce() async throws {
        let server = try Self.server(count: 4, files: { Self.bytes($0) }) { _, request, data in
            // Each body takes a while, so the downloads overlap if the batch lets them.
            var response = TestHTTPServer.Response.file(data, for: request, contentType: "audio/wav")
            response.body = [.pause(0.3)] + response.body
            return response
        }
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 4)
        let running = Mutex((now: 0, most: 0))
        let outcomes = await setup.downloads.download((1...4).map { setup.episode($0).id }) { event in
            running.withLock { running in
                switch event {
                case .started: running.now += 1
                case .finished, .failed: running.now -= 1
                default: break
                }
                running.most = max(running.most, running.now)
            }
        }
        #expect(outcomes.allSatisfy { (try? $0.result.get()) != nil })
        #expect(running.withLock { $0.most } == 2)
        #expect(outcomes.map(\.episode.id) == (1...4).map { setup.episode($0).id }, "outcomes in the order asked")
    }

    /// Two downloaders of one episode (two processes, or two batches of one) never write its
    /// partial file together: the second waits for the first, then finds the file whole and
    /// fetches nothing.
    @Test func twoDownloadersOfOneEpisodeTakeTurnsAndTheFileIsTheServers() async throws {
        let source = Self.bytes(1, size: 600_000)
        let server = try Self.server(count: 1, files: { _ in source }) { _, request, data in
            // A pause mid-body keeps the first download running while the second asks.
            var response = TestHTTPServer.Response.file(data, for: request, etag: "\"v1\"", contentType: "audio/wav")
            if TestHTTPServer.Response.requestedStart(request) == nil {
                response.body = [.bytes(Data(data.prefix(200_000))), .pause(0.5), .bytes(Data(data.dropFirst(200_000)))]
            }
            return response
        }
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 1)
        let other = EpisodeDownloads(store: setup.store, network: NetworkClient(clock: ImmediateClock(), seed: 3, breakers: nil))
        #expect(other.directory == setup.downloads.directory)
        let id = setup.episode(1).id
        async let first = setup.downloads.download([id])
        async let second = other.download([id])
        let outcomes = await first + second
        let records = try outcomes.map { try $0.result.get() }
        #expect(records.count == 2 && records.allSatisfy { $0.state == .downloaded && $0.receivedBytes == Int64(source.count) })
        let fileName = try #require(records.first?.fileName)
        #expect(try Data(contentsOf: setup.downloads.directory.appendingPathComponent(fileName)) == source)
        #expect(setup.files() == [fileName], "no partial file is left")
        #expect(server.requests.filter { $0.path.hasPrefix("/episode-") }.count == 1, "the second downloader fetched nothing")
    }

    /// A real full disk under the episodes folder: a typed error, the download marked failed, and
    /// nothing named as a complete episode.
    @Test func aFullDiskFailsTheDownloadAndLeavesNoCompleteLookingFile() async throws {
        let disk = try SmallDisk(bytes: 256 * 1024)
        defer { disk.unmount() }
        let server = try Self.server(count: 1, files: { Self.bytes($0, size: 1_000_000) })
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 1, episodesDirectory: disk.directory)
        let id = setup.episode(1).id
        let outcome = await setup.downloads.download([id])
        guard case .failure(let error)? = outcome.first?.result else {
            Issue.record("a download larger than the disk succeeded")
            return
        }
        expectExplained(error, .diskFull)
        let record = try #require(try setup.store.download(episodeID: id))
        #expect(record.state == .failed && record.errorCode == PlaybackError.Code.diskFull.rawValue)
        #expect(setup.files() == [record.partialFileName])
        #expect(setup.downloads.playableFile(episodeID: id) == nil)
        #expect(try setup.store.episode(id: id).downloaded == false)
    }

    @Test func aWebPageIsRefusedAndNothingIsKept() async throws {
        let server = try Self.server(count: 1, files: { _ in Data("<html><body>Log in</body></html>".utf8) }) { _, _, data in
            .complete(contentType: "text/html", body: data)
        }
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 1)
        let id = setup.episode(1).id
        let outcome = await setup.downloads.download([id])
        guard case .failure(let error)? = outcome.first?.result else {
            Issue.record("a web page was kept as an episode")
            return
        }
        #expect(error.code == .wrongContentType)
        #expect(try setup.store.download(episodeID: id)?.state == .failed)
        #expect(setup.downloads.playableFile(episodeID: id) == nil)
    }

    /// Over the cap, played downloads go first (oldest first), then ones never started; a partly
    /// played one stays even when that leaves the downloads over the cap.
    @Test func theStorageCapRemovesPlayedDownloadsFirstAndNeverAPartlyPlayedOne() async throws {
        let server = try Self.server(count: 3, files: { Self.bytes($0, size: 100_000) })
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 3)
        let (new, partly, played) = (setup.episode(1), setup.episode(2), setup.episode(3))
        _ = await setup.downloads.download([new.id, partly.id, played.id])
        try setup.store.savePosition(episodeID: partly.id, position: 10, duration: 60)
        try setup.store.savePosition(episodeID: played.id, position: 60, duration: 60)
        try setup.store.markPlayed(episodeID: played.id)

        try setup.downloads.setStorageCap(250_000)
        let first = try setup.downloads.keepUnderStorageCap()
        #expect(first.removed == [played.id] && !first.overCap && first.totalBytes == 200_000)

        try setup.downloads.setStorageCap(50_000)
        let second = try setup.downloads.keepUnderStorageCap()
        #expect(second.removed == [new.id])
        #expect(second.overCap && second.totalBytes == 100_000, "the partly played download stays")
        #expect(setup.downloads.playableFile(episodeID: partly.id) != nil)
        #expect(setup.files() == [try #require(try setup.store.download(episodeID: partly.id)).fileName])
    }

    @Test func automaticDownloadsKeepThePodcastsNewestEpisodes() async throws {
        let server = try Self.server(count: 4, files: { Self.bytes($0, size: 50_000) })
        defer { server.stop() }
        let setup = try await Setup(server: server, episodes: 4)
        let podcastID = setup.episode(1).podcastID
        #expect(try await setup.downloads.autoDownload(podcastID: podcastID).isEmpty, "off by default")
        // Newest first is feed order here (the items share a date).
        let newest = try setup.store.episodes(podcastID: podcastID).map(\.id)
        try setup.store.setAutoDownload(podcastID: podcastID, keepLatest: 2)
        let outcomes = try await setup.downloads.autoDownload(podcastID: podcastID)
        #expect(outcomes.map(\.episode.id) == Array(newest.prefix(2)))
        #expect(try setup.store.downloads().map(\.episodeID).sorted() == Array(newest.prefix(2)).sorted())

        // Keeping one: the second newest goes; a partly played older one would stay.
        try setup.store.setAutoDownload(podcastID: podcastID, keepLatest: 1)
        _ = try await setup.downloads.autoDownload(podcastID: podcastID)
        #expect(try setup.store.downloads().map(\.episodeID) == [newest[0]])
        #expect(setup.files().count == 1)
    }

    /// Downloaded, then the server stops: the episode plays from disk to its end, from the place
    /// saved, under the episode's own identity (so its place is kept as for a streamed one).
    @Test func aDownloadedEpisodePlaysToItsEndWithTheServerGone() async throws {
        let wav = EpisodeResumeTests.countingWAV(seconds: 3)
        let server = try Self.server(count: 1, files: { _ in wav })
        let setup = try await Setup(server: server, episodes: 1)
        let id = setup.episode(1).id
        _ = try #require(try await setup.downloads.download([id]).first?.result.get())
        server.stop()
        try setup.store.savePosition(episodeID: id, position: 1, duration: 3)

        let library = try await LibraryContext.open(directory: setup.directory, logger: .silent)
        guard case .play(let request) = try library.episodeToPlay(id: id) else {
            Issue.record("the downloaded episode cannot be played")
            return
        }
        let track = try #require(request.items.first?.track)
        #expect(track.url.isFileURL && track.id == "episode:\(id)" && track.kind == .episode)
        #expect(request.startPosition == 1)

        let sink = CapturingSink()
        let radio = try await RadioHarness(
            configuration: PlayerStateMachine.Configuration(fadeOutAtEnd: false), output: sink, mode: .asFastAsPossible)
        try await radio.player.play(request)
        await radio.waitFor("finished", timeout: 60) { $0.name == .finished }
        await radio.shutdown()
        #expect(!radio.names.contains(.failed) && !radio.names.contains(.reconnecting), "states: \(radio.names)")
        let numbers = EpisodeResumeTests.frameNumbers(sink.samples)
        #expect(numbers.count == 2 * EpisodeResumeTests.sampleRate, "rendered \(numbers.count) frames from the saved place to the end")
        #expect(EpisodeResumeTests.jumps(numbers).isEmpty)

        // Its place is recorded the same way a streamed episode's is: finished means played.
        let recorder = EpisodeProgressRecorder(store: setup.store, episodeID: id)
        for update in radio.updates { recorder.observe(update) }
        #expect(try setup.store.episode(id: id).played)
    }
}
