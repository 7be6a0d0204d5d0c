import Clocks
import Foundation
import PlayerCore
import Services
import Streaming
import TestProcesses
import Testing

@testable import PlayerKit

/// A service that fails beside playback becomes one `problem` for the front end's inline error
/// (not repeated while it keeps failing the same way, and recorded in the analytics).
@Suite("Now-playing pipeline problems", .blocking)
struct NowPlayingPipelineTests {
    @Test func aFailingStatusAPIIsReportedOnceAndRecorded() async throws {
        let server = try TestHTTPServer { _ in .complete(status: 404, contentType: "text/plain", body: Data("gone".utf8)) }
        defer { withExtendedLifetime(server) {} }
        let analytics = ErrorAnalytics()
        let network = NetworkClient(clock: ImmediateClock(), seed: 3)
        let pipeline = NowPlayingPipeline(
            metadata: MetadataService(
                network: network, configuration: .init(statusSource: .radioCo(server.url("/status"))), analytics: analytics),
            artwork: ArtworkService(network: network, configuration: .init(allowPrivateAddresses: true), analytics: analytics))
        let track = Track(id: "r", url: server.url("/live"), kind: .liveStream, title: "Radio")
        let info = IcyStationInfo(name: "Radio", genre: nil, bitrate: nil, url: nil)

        let first = await pipeline.handle(.metadata(track, IcyMetadata(title: "A - B", url: nil), info))
        #expect(first.metadata?.title == "B")
        #expect(first.problem?.code == .httpNotFound)
        let second = await pipeline.handle(.metadata(track, IcyMetadata(title: "C - D", url: nil), info))
        #expect(second.metadata?.title == "D")
        #expect(second.problem == nil, "the same failure is not shown again")
        #expect(try await analytics.events().count == 2, "each failed fetch is recorded")
    }
}
