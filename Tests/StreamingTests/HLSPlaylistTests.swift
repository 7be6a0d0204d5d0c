import Foundation
import PlayerCore
@testable import Streaming
import Testing

/// HLS playlists as servers write them (RFC 8216 and what ffmpeg's hls muxer produces): master
/// and media playlists, relative addresses, titles, and the hostile cases.
@Suite("HLS playlists")
struct HLSPlaylistTests {
    static let base = URL(string: "https://radio.example/live/master.m3u8")!

    static func parse(_ text: String, url: URL = base) throws(PlaybackError) -> HLSPlaylist {
        try HLSPlaylist.parse(Data(text.utf8), url: url)
    }

    @Test func aMasterPlaylistListsItsAudioVariantsWithBandwidths() throws {
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
            low/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2",NAME="High, best"
            https://cdn.example/high/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f"
            video/index.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=96000
            mid/index.m3u8
            """)
        guard case .master(let variants) = playlist else { Issue.record("got \(playlist)"); return }
        #expect(variants.map(\.url.absoluteString) == [
            "https://radio.example/live/low/index.m3u8", "https://cdn.example/high/index.m3u8", "https://radio.example/live/mid/index.m3u8",
        ])
        #expect(variants.map(\.bandwidth) == [64_000, 128_000, 96_000])
        #expect(variants[1].codecs == ["mp4a.40.2"], "a comma inside quotes stays in the value")
    }

    @Test func aLiveMediaPlaylistNumbersItsSegments() throws {
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-VERSION:3
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:41
            #EXTINF:2.002,
            seg41.ts
            #EXTINF:1.96,Night Band - Slow Song
            seg42.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:2.0,
            /other/seg43.aac
            """, url: URL(string: "http://127.0.0.1:8080/hls/live.m3u8")!)
        guard case .media(let media) = playlist else { Issue.record("got \(playlist)"); return }
        #expect(media.targetDuration == 2 && media.firstSequence == 41 && !media.ended)
        #expect(media.segments.map(\.sequence) == [41, 42, 43])
        #expect(media.segments.map(\.url.absoluteString) == [
            "http://127.0.0.1:8080/hls/seg41.ts", "http://127.0.0.1:8080/hls/seg42.ts", "http://127.0.0.1:8080/other/seg43.aac",
        ])
        #expect(media.segments.map(\.duration) == [2.002, 1.96, 2.0])
        #expect(media.segments.map(\.title) == [nil, "Night Band - Slow Song", nil])
        #expect(media.segments.map(\.discontinuity) == [false, false, true])
    }

    @Test func anEndedPlaylistWithAnInitialisationSection() throws {
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:6,
            part0.m4s
            #EXTINF:4.5,
            part1.m4s
            #EXT-X-ENDLIST
            """)
        guard case .media(let media) = playlist else { Issue.record("got \(playlist)"); return }
        #expect(media.ended)
        #expect(media.segments.allSatisfy { $0.initialization?.absoluteString == "https://radio.example/live/init.mp4" })
        let total: Double = media.segments.map(\.duration).reduce(0, +)
        #expect(total == 10.5)
    }

    @Test func encryptedSegmentsAreATypedRefusal() {
        #expect(throws: PlaybackError(.unsupportedFormat)) {
            try Self.parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=AES-128,URI=\"key\"\n#EXTINF:6,\nseg.ts\n")
        }
        // METHOD=NONE is no encryption at all.
        #expect(throws: Never.self) { try Self.parse("#EXTM3U\n#EXT-X-KEY:METHOD=NONE\n#EXTINF:6,\nseg.ts\n") }
    }

    @Test func hostileAndBrokenPlaylistsAreTypedErrors() throws {
        // Not a playlist at all (an HTML error page).
        #expect(throws: PlaybackError(.malformedData)) { try Self.parse("<html><body>502</body></html>") }
        // No segment and not ended.
        #expect(throws: PlaybackError(.malformedData)) { try Self.parse("#EXTM3U\n#EXT-X-TARGETDURATION:6\n") }
        // A master playlist with video only.
        #expect(throws: PlaybackError(.malformedData)) {
            try Self.parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nv.m3u8\n")
        }
        // Too large.
        let huge = "#EXTM3U\n" + String(repeating: "#EXTINF:1,\nseg.ts\n", count: 80_000)
        #expect(throws: PlaybackError(.malformedData)) { try Self.parse(huge) }
        // Addresses of other schemes are skipped, their sequence numbers kept; control and bidi
        // characters are removed from titles.
        let playlist = try Self.parse("""
            #EXTM3U
            #EXT-X-MEDIA-SEQUENCE:7
            #EXTINF:2,a\u{1B}[2J\u{202E}b
            file:///etc/passwd
            #EXTINF:2,c\u{0007}d
            seg8.ts
            """)
        guard case .media(let media) = playlist else { Issue.record("got \(playlist)"); return }
        #expect(media.segments.map(\.sequence) == [8])
        #expect(media.segments.first?.title == "cd")
        #expect(media.targetDuration == 2, "no target duration: the longest segment")
    }

    /// Found by FuzzHLS: a playlist whose target duration is missing or garbled and whose segments
    /// say no length had a target duration of 0, which the follower waits between loads (so it
    /// would load the playlist without pause). It is the fallback instead, and a segment's huge
    /// length is capped.
    @Test func aTargetDurationIsNeverZeroOrBeyondTheMaximum() throws {
        for text in [
            "#EXTM3U\n#EXTmX-TARGE\u{0}\u{0}TDURATION:4\neRa\nseg.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:0\n#EXTINF:0,\nseg.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:abc\nseg.ts\n",
        ] {
            guard case .media(let media) = try Self.parse(text) else { Issue.record("not a media playlist: \(text)"); continue }
            #expect(media.targetDuration == HLSLimits.fallbackTargetDuration, "\(text.debugDescription)")
        }
        guard case .media(let long) = try Self.parse("#EXTM3U\n#EXTINF:1e9,\nseg.ts\n") else { Issue.record("not media"); return }
        #expect(long.targetDuration == HLSLimits.maxTargetDuration)
    }

    /// Found by FuzzHLS: a media sequence tag after the first segment numbered two segments alike
    /// (the follower tells new segments by their numbers). It counts only before the first one.
    @Test func aMediaSequenceAfterTheFirstSegmentIsIgnored() throws {
        let text = "#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:5\n#EXTINF:2,\na.ts\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2,\nb.ts\n"
        guard case .media(let media) = try Self.parse(text) else { Issue.record("not media"); return }
        #expect(media.firstSequence == 5)
        #expect(media.segments.map(\.sequence) == [5, 6])
    }

    @Test func attributeListsKeepQuotedCommas() {
        let attributes = HLSPlaylist.attributes(#"BANDWIDTH=128000,CODECS="mp4a.40.2,mp4a.40.5",name="x=y""#)
        #expect(attributes == ["BANDWIDTH": "128000", "CODECS": "mp4a.40.2,mp4a.40.5", "NAME": "x=y"])
    }
}
