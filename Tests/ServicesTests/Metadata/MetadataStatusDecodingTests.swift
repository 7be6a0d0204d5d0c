import Foundation
import PlayerCore
import Testing
@testable import Services

@Suite struct MetadataIcecastStatusTests {
    @Test func absentSourceMeansNoSources() throws {
        let status = try IcecastStatus.decode(Data(IcecastFixtures.noSource.utf8))
        #expect(status.sources.isEmpty)
        #expect(status.source(forMount: "/jazz") == nil)
    }

    @Test func anObjectIsOneSource() throws {
        let status = try IcecastStatus.decode(Data(IcecastFixtures.oneSource.utf8))
        #expect(status.sources.count == 1)
        let source = try #require(status.sources.first)
        #expect(source.title == "Miles Davis - So What")
        #expect(source.artist == nil)
        #expect(source.serverName == "Jazz FM")
        #expect(source.genre == "Jazz")
        #expect(source.bitrate == 128)
        #expect(source.mountPath == "/jazz")
        #expect(source.track == StreamTitle(title: "So What", artist: "Miles Davis"))
    }

    @Test func anArrayIsSeveralSourcesAndNumbersReadAsText() throws {
        let status = try IcecastStatus.decode(Data(IcecastFixtures.twoSources.utf8))
        #expect(status.sources.count == 2)
        let rock = try #require(status.sources.last)
        #expect(rock.title == "1999")
        #expect(rock.artist == "Prince")
        #expect(rock.bitrate == 192)
        #expect(rock.track == StreamTitle(title: "1999", artist: "Prince"))
    }

    @Test func theMountSelectsBySourcePath() throws {
        let status = try IcecastStatus.decode(Data(IcecastFixtures.twoSources.utf8))
        #expect(status.source(forMount: "/rock.ogg")?.serverName == "Rock Radio")
        #expect(status.source(forMount: "jazz")?.serverName == "Jazz FM")
        #expect(status.source(forMount: "/missing") == nil)
    }

    @Test func theOnlySourceAnswersForAnyMount() throws {
        let status = try IcecastStatus.decode(Data(IcecastFixtures.oneSource.utf8))
        #expect(status.source(forMount: "/renamed-by-proxy")?.serverName == "Jazz FM")
    }

    @Test func missingFieldsAndOddTypesAreNil() throws {
        let json = #"{"icestats":{"source":{"listenurl":"http://h:8000/m","bitrate":"n/a","title":{"x":1},"genre":null}}}"#
        let source = try #require(try IcecastStatus.decode(Data(json.utf8)).sources.first)
        #expect(source.title == nil)
        #expect(source.bitrate == nil)
        #expect(source.genre == nil)
        #expect(source.serverName == nil)
        #expect(source.mountPath == "/m")
    }

    @Test(arguments: ["not json", #"{"foo":1}"#, "[]", #"{"icestats":"down"}"#, ""])
    func invalidDocumentsAreMalformedData(text: String) {
        #expect(throws: PlaybackError(.malformedData)) { try IcecastStatus.decode(Data(text.utf8)) }
    }

    @Test func textIsSanitisedAsItIsDecoded() throws {
        let json = #"{"icestats":{"source":{"server_name":"Evil\u001b[2J\u202eFM","title":"\#(String(repeating: "x", count: 4000))"}}}"#
        let source = try #require(try IcecastStatus.decode(Data(json.utf8)).sources.first)
        #expect(source.serverName == "Evil[2JFM")
        #expect((source.title?.count ?? 0) <= 256)
    }
}

@Suite struct MetadataRadioStatusTests {
    @Test func decodesTheCurrentTrack() throws {
        let status = try RadioStatus.decode(radioStatusJSON(title: "Miles Davis - So What"))
        let track = try #require(status.currentTrack)
        #expect(track.title == "Miles Davis - So What")
        #expect(track.artworkURLLarge == URL(string: "https://cdn.example/covers/large.jpg"))
        #expect(track.artwork == URL(string: "https://cdn.example/covers/large.jpg"))
    }

    @Test func theSmallCoverStandsInForAMissingLargeOne() throws {
        let json = #"{"current_track":{"title":"A - B","artwork_url":"http://cdn.example/s.jpg"}}"#
        let track = try #require(try RadioStatus.decode(Data(json.utf8)).currentTrack)
        #expect(track.artworkURLLarge == nil)
        #expect(track.artwork == URL(string: "http://cdn.example/s.jpg"))
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "data:image/png;base64,AAAA", "/relative.jpg", "https://", ""])
    func nonHTTPArtworkIsIgnored(url: String) throws {
        let status = try RadioStatus.decode(radioStatusJSON(title: "A - B", artwork: url))
        #expect(status.currentTrack?.artworkURLLarge == nil)
    }

    @Test func noTrackOrNoTitleStillDecodes() throws {
        #expect(try RadioStatus.decode(Data(#"{"status":"offline"}"#.utf8)).currentTrack == nil)
        #expect(try RadioStatus.decode(Data(#"{"current_track":null}"#.utf8)).currentTrack == nil)
        #expect(try RadioStatus.decode(Data(#"{"current_track":{}}"#.utf8)).currentTrack?.title == nil)
    }

    @Test(arguments: ["<html>503</html>", "[1,2]", #"{"current_track":"#, ""])
    func invalidJSONIsMalformedData(text: String) {
        #expect(throws: PlaybackError(.malformedData)) { try RadioStatus.decode(Data(text.utf8)) }
    }

    @Test func roundTripsThroughCodable() throws {
        let status = RadioStatus(currentTrack: .init(title: "A - B", artworkURLLarge: URL(string: "https://c.example/l.jpg")))
        let data = try JSONEncoder().encode(status)
        #expect(try RadioStatus.decode(data) == status)
    }
}
