import Clocks
import Foundation
import PlayerCore
import Streaming
import Synchronization
import TestProcesses
import Testing

/// `NetworkClient.download` against a real HTTP server on loopback: a cut download continues at
/// the byte, a file that changed on the server starts over, documents are refused, a full disk is
/// a typed error. The retry waits run on an immediate clock.
@Suite("File downloads over HTTP", .serialized, .blocking)
struct FileDownloadTests {
    /// Bytes that say where they are (no two 4-byte windows alike), so a joined or shifted file shows.
    static func file(size: Int, seed: UInt32 = 1) -> Data {
        var data = Data(capacity: size)
        var value = seed &* 2_654_435_761
        while data.count < size {
            value = value &* 1_103_515_245 &+ 12_345
            withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
        }
        return data.prefix(size)
    }

    static func partialFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-download-\(UUID().uuidString).part")
    }

    static let network = NetworkClient(clock: ImmediateClock(), seed: 5, breakers: nil)

    /// The typed error a download ends with, or nil when it succeeded.
    static func failure(_ url: URL, to target: URL) async -> PlaybackError? {
        do throws(PlaybackError) {
            _ = try await network.download(url, to: target, validators: nil)
            return nil
        } catch {
            return error
        }
    }

    @Test func aWholeDownloadEqualsTheServersFile() async throws {
        let source = Self.file(size: 700_000)
        let server = try TestHTTPServer { .file(source, for: $0, etag: "\"v1\"") }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        let reports = Mutex<[FileDownload.Progress]>([])
        let outcome = try await Self.network.download(
            server.url("/episode.mp3"), to: target, validators: nil, progress: { progress in reports.withLock { $0.append(progress) } })
        #expect(try Data(contentsOf: target) == source)
        #expect(outcome.bytes == Int64(source.count))
        #expect(outcome.validators.etag == "\"v1\"" && outcome.validators.length == Int64(source.count))
        #expect(outcome.resumedFrom == 0 && outcome.restarts == 0)
        #expect(server.requests.count == 1 && server.requests[0].header("Range") == nil)
        #expect(server.requests[0].header("User-Agent")?.hasPrefix("Tonearm/") == true)
        // Progress rises to the whole file, a few times, not per chunk.
        let received = reports.withLock { $0.map(\.received) }
        #expect(received.last == Int64(source.count) && received == received.sorted(), "\(received)")
        #expect(received.count >= 2 && received.count <= 10, "\(received.count) reports")
    }

    @Test(arguments: [true, false])
    func aDownloadCutAt40PercentContinuesAtTheByte(withETag: Bool) async throws {
        let source = Self.file(size: 1_000_000)
        let cutAt = source.count * 2 / 5
        let cuts = Mutex(0)
        let server = try TestHTTPServer { request in
            let first = cuts.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            return .file(source, for: request, etag: withETag ? "\"v1\"" : nil, ending: first ? .cut(after: cutAt) : .complete)
        }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        let outcome = try await Self.network.download(server.url("/episode.mp3"), to: target, validators: nil)
        #expect(try Data(contentsOf: target) == source, "the joined file differs from the server's")
        let requests = server.requests
        #expect(requests.count == 2, "\(requests.map { $0.header("Range") ?? "-" })")
        // The second request asks for the byte after the last one kept, for the same file.
        #expect(requests.last.flatMap(TestHTTPServer.Response.requestedStart) == cutAt)
        #expect(requests.last?.header("If-Range") == (withETag ? "\"v1\"" : nil))
        #expect(outcome.restarts == 0)
    }

    /// A partial file from an earlier run continues with the validators kept beside it.
    @Test func aPartialFileFromAnEarlierRunIsContinued() async throws {
        let source = Self.file(size: 600_000)
        let server = try TestHTTPServer { .file(source, for: $0, etag: "\"v1\"") }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        try source.prefix(250_000).write(to: target)
        let outcome = try await Self.network.download(
            server.url("/e.mp3"), to: target, validators: .init(etag: "\"v1\"", length: Int64(source.count)))
        #expect(try Data(contentsOf: target) == source)
        #expect(outcome.resumedFrom == 250_000)
        #expect(server.requests.map { $0.header("Range") } == ["bytes=250000-"])
    }

    /// What metrics read: the bytes that came over the network (a continued download only its
    /// rest), downloads completed and failed; a whole document asked for counts as a request.
    @Test func transfersCountTheBytesReceivedAndHowDownloadsEnded() async throws {
        let source = Self.file(size: 300_000)
        let server = try TestHTTPServer { request in
            request.path == "/gone.mp3" ? .init(status: 404, headers: [("Content-Length", "0")]) : .file(source, for: request, etag: "\"v1\"")
        }
        defer { server.stop() }
        var network = Self.network
        let transfers = TransferCounters()
        network.transfers = transfers
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        try source.prefix(100_000).write(to: target)
        _ = try await network.download(server.url("/e.mp3"), to: target, validators: .init(etag: "\"v1\"", length: Int64(source.count)))
        var moved = transfers.snapshot
        #expect(moved.bytes == [.download: 200_000, .stream: 0, .request: 0])
        #expect(moved.downloads == [.completed: 1, .failed: 0])

        do throws(PlaybackError) {
            _ = try await network.download(server.url("/gone.mp3"), to: Self.partialFile(), validators: nil)
            Issue.record("a 404 downloaded")
        } catch {
            #expect(error.code == .httpNotFound)
        }
        _ = try await network.data(from: server.url("/e.mp3"), operation: "test", options: .init(maxBytes: 1_000_000))
        moved = transfers.snapshot
        #expect(moved.bytes == [.download: 200_000, .stream: 0, .request: 300_000])
        #expect(moved.downloads == [.completed: 1, .failed: 1])
    }

    /// The server's file changed since the partial bytes were fetched; a server that honours
    /// If-Range sends the new file whole (200), one that does not sends a range of the new file
    /// whose ETag gives it away. Either way the result is the new file, never a join of the two.
    @Test(arguments: [true, false])
    func aFileThatChangedOnTheServerStartsOver(serverHonoursIfRange: Bool) async throws {
        let old = Self.file(size: 500_000, seed: 1)
        let new = Self.file(size: 540_000, seed: 2)
        let server = try TestHTTPServer { request in
            if serverHonoursIfRange, let ifRange = request.header("If-Range"), ifRange != "\"v2\"" {
                // The validator no longer matches: the whole new file, as RFC 9110 says.
                return .file(new, for: request, ranges: false, etag: "\"v2\"")
            }
            return .file(new, for: request, etag: "\"v2\"")
        }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        try old.prefix(200_000).write(to: target)
        let outcome = try await Self.network.download(
            server.url("/e.mp3"), to: target, validators: .init(etag: "\"v1\"", length: Int64(old.count)))
        #expect(try Data(contentsOf: target) == new)
        #expect(outcome.restarts == 1)
        #expect(outcome.validators.etag == "\"v2\"")
        #expect(server.requests.first?.header("If-Range") == "\"v1\"")
    }

    /// A partial file already whole: the server's 416 at exactly its length ends the download.
    @Test func aWholePartialFileIsDoneWithoutABody() async throws {
        let source = Self.file(size: 100_000)
        let server = try TestHTTPServer { .file(source, for: $0, etag: "\"v1\"") }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        try source.write(to: target)
        let outcome = try await Self.network.download(
            server.url("/e.mp3"), to: target, validators: .init(etag: "\"v1\"", length: Int64(source.count)))
        #expect(outcome.bytes == Int64(source.count))
        #expect(try Data(contentsOf: target) == source)
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [("text/html", "<html><body>Sign in to the Wi-Fi</body></html>"), ("audio/mpeg", "<!DOCTYPE html><html>Not found</html>")])
    func aWebPageIsNotKeptAsAnEpisode(contentType: String, body: String) async throws {
        let server = try TestHTTPServer { _ in .complete(contentType: contentType, body: Data(body.utf8)) }
        defer { server.stop() }
        let target = Self.partialFile()
        defer { try? FileManager.default.removeItem(at: target) }
        let error = await Self.failure(server.url("/e.mp3"), to: target)
        #expect(error?.code == .wrongContentType)
        #expect(error?.isRetryable == false)
        #expect(server.requests.count == 1, "a document is not asked for again")
        let kept = (try? Data(contentsOf: target)) ?? Data()
        #expect(kept.isEmpty, "the page's bytes were kept: \(kept.count)")
    }

    @Test func aMissingFileIsFinalAfterOneRequest() async throws {
        let server = try TestHTTPServer { _ in .init(status: 404, headers: [("Content-Length", "0")]) }
        defer { server.stop() }
        let target = Self.partialFile()
        #expect(await Self.failure(server.url("/gone.mp3"), to: target)?.code == .httpNotFound)
        #expect(server.requests.count == 1)
    }

    /// A real full disk (a 256 KiB tmpfs): `diskFull`, explained in both languages, and what was
    /// written stays in the partial file for a later try.
    @Test func aFullDiskIsATypedError() async throws {
        let disk = try SmallDisk(bytes: 256 * 1024)
        defer { disk.unmount() }
        let source = Self.file(size: 1_000_000)
        let server = try TestHTTPServer { .file(source, for: $0) }
        defer { server.stop() }
        let target = disk.directory.appendingPathComponent("episode.mp3.part")
        let error = await Self.failure(server.url("/e.mp3"), to: target)
        #expect(error?.code == .diskFull)
        #expect(error?.isRetryable == false && error?.isRecoverable == true)
        let kept = try Data(contentsOf: target)
        #expect(kept.count > 0 && kept.count <= 256 * 1024)
        #expect(kept == source.prefix(kept.count), "the partial file is a prefix of the source")
    }
}
