import Clocks
import Foundation
import Media
import PlayerCore
import Streaming
import Testing
import TestProcesses

@testable import Services

/// The service against a real HTTP server on 127.0.0.1 (so `allowPrivateAddresses` is on unless a
/// test checks the refusal), with an immediate clock: retries never wait.
@Suite(.blocking) final class ArtworkServiceTests: Sendable {
    static let blue = RGBColor(red: 0x33, green: 0x66, blue: 0x99)

    let cache: URL
    let network = NetworkClient(clock: ImmediateClock(), seed: 7)

    init() throws {
        cache = try ArtworkFixtures.temporaryDirectory()
    }

    deinit { try? FileManager.default.removeItem(at: cache) }

    func service(
        allowPrivate: Bool = true, maxBytes: Int = ServiceLimits.maxArtworkBytes, logo: URL? = nil, analytics: ErrorAnalytics? = nil
    ) -> ArtworkService {
        ArtworkService(
            network: network,
            configuration: .init(cacheDirectory: cache, allowPrivateAddresses: allowPrivate, maxBytes: maxBytes, stationLogoURL: logo),
            analytics: analytics)
    }

    func expectError(_ code: PlaybackError.Code, _ body: () async throws(PlaybackError) -> Artwork, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            let artwork = try await body()
            Issue.record("expected \(code), got \(artwork.kind)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func realArtworkIsFetchedWithCacheBusting() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { server.stop() }
        let artwork = await service().artwork(artworkURL: server.url("/covers/1.png?size=large"), isStationIdentity: false)
        #expect(artwork.kind == .real)
        #expect(artwork.data == png)
        #expect(artwork.width == 64)
        #expect(artwork.height == 48)
        #expect(try #require(artwork.averageColor).distance(to: Self.blue) <= 3)
        let request = try #require(server.requests.first)
        #expect(request.path == "/covers/1.png")
        #expect(request.uri.contains("size=large"))
        #expect(request.uri.contains("nocache="))
        #expect(request.header("Accept")?.contains("image/png") == true)
    }

    @Test func jpegArtwork() async throws {
        let jpeg = try ImageFixture.image(format: "jpg")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/jpeg", body: jpeg) }
        defer { server.stop() }
        let artwork = try await service().load(server.url("/c.jpg"))
        #expect(artwork.kind == .real)
        #expect(try #require(artwork.averageColor).distance(to: Self.blue) <= 6)
    }

    @Test func htmlLabelledAsPNGIsWrongContentType() async throws {
        let html = Data("<!DOCTYPE html><html><body>Please log in</body></html>".utf8)
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: html) }
        defer { server.stop() }
        let service = service()
        await expectError(.wrongContentType) { () async throws(PlaybackError) in try await service.load(server.url("/c.png")) }
        #expect(server.requests.count == 1, "a wrong body is not retried")
        #expect(await service.artwork(artworkURL: server.url("/c.png"), isStationIdentity: false).kind == .default)
    }

    @Test func htmlContentTypeIsWrongContentType() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "text/html; charset=utf-8", body: png) }
        defer { server.stop() }
        let service = service()
        await expectError(.wrongContentType) { () async throws(PlaybackError) in try await service.load(server.url("/c.png")) }
    }

    @Test func gifAndSVGAreWrongContentType() async throws {
        let gif = Data("GIF89a\u{01}\u{00}\u{01}\u{00}\u{00}\u{00}\u{00};".utf8)
        let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)
        let server = try TestHTTPServer { request in
            request.path == "/a.gif" ? .complete(contentType: "image/gif", body: gif) : .complete(contentType: "image/png", body: svg)
        }
        defer { server.stop() }
        let service = service()
        await expectError(.wrongContentType) { () async throws(PlaybackError) in try await service.load(server.url("/a.gif")) }
        await expectError(.wrongContentType) { () async throws(PlaybackError) in try await service.load(server.url("/a.svg")) }
    }

    @Test func undecodableImageIsCorruptData() async throws {
        let bogus = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0x41, count: 300)
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: bogus) }
        defer { server.stop() }
        let service = service()
        await expectError(.corruptData) { () async throws(PlaybackError) in try await service.load(server.url("/c.png")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.path).isEmpty, "nothing bad is cached")
    }

    @Test func oversizedBodyIsDocumentTooLarge() async throws {
        let png = try ImageFixture.image(format: "png")
        let big = png + Data(repeating: 0, count: 5000)
        // One answer declares its length, the other is chunked and only the running count catches it.
        let server = try TestHTTPServer { request in
            request.path == "/declared.png"
                ? .complete(contentType: "image/png", body: big)
                : .init(status: 200, headers: [("Content-Type", "image/png")], body: [.bytes(big.prefix(3000)), .bytes(big.dropFirst(3000))])
        }
        defer { server.stop() }
        let service = service(maxBytes: 4000)
        await expectError(.documentTooLarge) { () async throws(PlaybackError) in try await service.load(server.url("/declared.png")) }
        await expectError(.documentTooLarge) { () async throws(PlaybackError) in try await service.load(server.url("/chunked.png")) }
    }

    @Test func serverErrorsAreRetried() async throws {
        let png = try ImageFixture.image(format: "png")
        let counter = RequestCounter()
        let server = try TestHTTPServer { _ in
            counter.next() <= 2 ? .complete(status: 500, contentType: "text/plain", body: Data("busy".utf8)) : .complete(contentType: "image/png", body: png)
        }
        defer { server.stop() }
        let artwork = try await service().load(server.url("/c.png"))
        #expect(artwork.kind == .real)
        #expect(artwork.data == png)
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { $0.uri.contains("nocache=") })
    }

    @Test func redirectsAreFollowedButCapped() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/moved.png": .init(status: 302, headers: [("Location", "/real.png"), ("Content-Length", "0")])
            case "/real.png": .complete(contentType: "image/png", body: png)
            default: .init(status: 302, headers: [("Location", request.path + "x"), ("Content-Length", "0")])
            }
        }
        defer { server.stop() }
        let service = service()
        #expect(try await service.load(server.url("/moved.png")).data == png)
        #expect(await service.artwork(artworkURL: server.url("/loop"), isStationIdentity: false) == .placeholder)
        let hops = server.requests.filter { $0.path.hasPrefix("/loop") }.count
        #expect(hops > 0)
        #expect(hops <= (StreamingLimits.maxRedirects + 1) * BackoffPolicy.artwork.maxAttempts)
    }

    @Test func threeFailuresGiveTheDefault() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 500, contentType: "text/plain", body: Data("down".utf8)) }
        defer { server.stop() }
        let service = service()
        let artwork = await service.artwork(artworkURL: server.url("/c.png"), isStationIdentity: false)
        #expect(artwork == .placeholder)
        #expect(artwork.kind == .default)
        #expect(server.requests.count == BackoffPolicy.artwork.maxAttempts)
        await expectError(.httpRetryable) { () async throws(PlaybackError) in try await service.load(server.url("/c.png")) }
    }

    @Test func aFailedFetchIsRecordedInTheAnalyticsWithoutItsURL() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("gone".utf8)) }
        defer { server.stop() }
        let analytics = ErrorAnalytics()
        let service = service(analytics: analytics)
        #expect(await service.artwork(artworkURL: server.url("/cover-SECRET.png"), isStationIdentity: false) == .placeholder)
        let events = try await analytics.events()
        #expect(events.map(\.operation) == ["loadArtwork"])
        #expect(events.map(\.errorType) == [PlaybackError(.httpNotFound).errorType])
        #expect(!String(describing: events).contains("SECRET"))
        // A picture that loads records nothing.
        let png = try ImageFixture.image()
        let good = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { good.stop() }
        #expect(await service.artwork(artworkURL: good.url("/c.png"), isStationIdentity: false).kind == .real)
        #expect(try await analytics.events().count == 1)
    }

    @Test func loopbackRefusedUnlessAllowed() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { server.stop() }
        let service = service(allowPrivate: false)
        await expectError(.permissionDenied) { () async throws(PlaybackError) in try await service.load(server.url("/c.png")) }
        #expect(await service.artwork(artworkURL: server.url("/c.png"), isStationIdentity: false).kind == .default)
        #expect(server.requests.isEmpty)
    }

    @Test func aRedirectIntoAPrivateAddressIsRefusedAtTheHop() async throws {
        // The policy allows the first host by name only (a stand-in for a public one) and checks
        // every hop: the redirect to 127.0.0.1 is refused before it is followed.
        let png = try ImageFixture.image(format: "png")
        let inner = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        let outer = try TestHTTPServer { _ in
            TestHTTPServer.Response(status: 302, headers: [("Location", inner.url("/secret.png").absoluteString), ("Content-Length", "0")])
        }
        let seen = HopRecorder()
        let network = NetworkClient(clock: ImmediateClock())
        let options = NetworkClient.Options(policy: .artwork, checkTarget: { target throws(PlaybackError) in
            seen.append(target)
            if target.port == inner.port { throw PlaybackError(.permissionDenied, underlying: "inner host") }
        })
        do {
            _ = try await network.data(from: outer.url("/cover.png"), operation: "artwork", options: options)
            Issue.record("the redirect was followed")
        } catch {
            #expect(error.code == .permissionDenied)
        }
        #expect(inner.requests.isEmpty)
        #expect(outer.requests.count == 1)
        #expect(seen.urls.map(\.port) == [outer.port, inner.port])
    }

    @Test func nonHTTPIsRefused() async throws {
        let service = service()
        await expectError(.streamUnavailable) { () async throws(PlaybackError) in try await service.load(URL(fileURLWithPath: "/etc/passwd")) }
        #expect(await service.artwork(artworkURL: URL(string: "ftp://example.com/a.png"), isStationIdentity: false).kind == .default)
        #expect(await service.artwork(artworkURL: nil, isStationIdentity: false) == .placeholder)
    }

    @Test func stationIdentityUsesTheLogo() async throws {
        let png = try ImageFixture.image(color: "0x102030", format: "png")
        let server = try TestHTTPServer { request in
            request.path == "/logo.png" ? .complete(contentType: "image/png", body: png) : .complete(status: 404, contentType: "text/plain", body: Data())
        }
        defer { server.stop() }
        let logo = await service(logo: server.url("/logo.png")).artwork(artworkURL: server.url("/cover.png"), isStationIdentity: true)
        #expect(logo.kind == .station)
        #expect(logo.data == png)
        #expect(try #require(logo.averageColor).distance(to: RGBColor(red: 0x10, green: 0x20, blue: 0x30)) <= 3)

        let missing = await service(logo: server.url("/gone.png")).artwork(artworkURL: nil, isStationIdentity: true)
        #expect(missing.kind == .station)
        #expect(missing.data == nil)
        let none = await service().artwork(artworkURL: server.url("/logo.png"), isStationIdentity: true)
        #expect(none.kind == .station)
        #expect(none.data == nil)
    }

    @Test func memoryCacheAnswersTheSecondTime() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { server.stop() }
        let service = service()
        let first = try await service.load(server.url("/c.png"))
        let second = try await service.load(server.url("/c.png?nocache=123"))
        #expect(first == second)
        #expect(server.requests.count == 1)
    }

    @Test func concurrentLoadsShareOneFetch() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .init(status: 200, headers: [("Content-Type", "image/png")], body: [.pause(0.2), .bytes(png)]) }
        defer { server.stop() }
        let service = service()
        let url = server.url("/slow.png")
        async let a = service.load(url)
        async let b = service.load(url)
        let (first, second) = try await (a, b)
        #expect(first == second)
        #expect(server.requests.count == 1)
    }

    @Test func diskCacheServesASecondInstance() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { server.stop() }
        let url = server.url("/artist/secret-token/cover.png?id=42")
        let first = try await service().load(url)
        #expect(server.requests.count == 1)

        let second = try await service().load(url)
        #expect(server.requests.count == 1, "served from disk")
        #expect(second.averageColor == first.averageColor)
        #expect(second.data == png)
        #expect(second.width == 64)

        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(names.count == 1)
        for name in names {
            #expect(name.count == 64)
            #expect(name.allSatisfy { $0.isHexDigit })
            // Only parts with non-hex letters: digits like the port can occur in any hash by chance.
            for part in ["secret", "token", "cover", "artist", "png", "http", "/", "?", "."] { #expect(!name.contains(part)) }
        }
        #expect(names.first == ArtworkCacheKey.key(for: url))
        #expect(ArtworkCacheKey.key(for: NetworkClient.cacheBusted(url, at: Date())) == ArtworkCacheKey.key(for: url))
    }

    @Test func corruptCacheFileIsIgnoredAndReplaced() async throws {
        let png = try ImageFixture.image(format: "png")
        let server = try TestHTTPServer { _ in .complete(contentType: "image/png", body: png) }
        defer { server.stop() }
        let url = server.url("/c.png")
        _ = try await service().load(url)
        let file = cache.appendingPathComponent(ArtworkCacheKey.key(for: url))
        for junk in [Data("garbage".utf8), Data("TNA1".utf8) + Data([0, 0, 0, 2]) + Data("{}".utf8) + png, Data()] {
            try junk.write(to: file)
            let before = server.requests.count
            let artwork = try await service().load(url)
            #expect(server.requests.count == before + 1, "a damaged file is not trusted")
            #expect(try #require(artwork.averageColor).distance(to: Self.blue) <= 3)
            #expect(ArtworkDiskCache.parse(try Data(contentsOf: file), maxBytes: ServiceLimits.maxArtworkBytes)?.data == png, "and is replaced")
        }
    }

    @Test func defaultCacheDirectoryFollowsXDG() {
        #expect(ArtworkDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path == "/x/cache/tonearm/artwork")
        #expect(ArtworkDiskCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.cache/tonearm/artwork")
        #expect(ArtworkDiskCache.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/tonearm/artwork")
    }

    @Test func memoryCacheEvictsTheLeastRecentlyUsed() throws {
        let image = DecodedImage(kind: .png, width: 1, height: 1, averageColor: Self.blue)
        var memory = ArtworkMemoryCache(capacity: 2)
        memory.put("a", CachedImage(data: Data([1]), image: image))
        memory.put("b", CachedImage(data: Data([2]), image: image))
        _ = memory.get("a")
        memory.put("c", CachedImage(data: Data([3]), image: image))
        #expect(memory.count == 2)
        #expect(memory.get("b") == nil)
        #expect(memory.get("a") != nil)
        #expect(memory.get("c") != nil)
    }
}

/// The targets a redirect check saw, in order.
final class HopRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [URL] = []
    func append(_ url: URL) { lock.withLock { list.append(url) } }
    var urls: [URL] { lock.withLock { list } }
}
