import Foundation
import PlayerCore
import Testing

/// What a log may show of a URL, a path and an error, checked on the pure functions every layer uses.
@Suite("Log redaction")
struct LogRedactionTests {
    static let canary = "CANARY-7f3a"

    @Test func aURLKeepsSchemeHostPortAndPathOnly() {
        let url = URL(string: "http://canaryuser:\(Self.canary)@127.0.0.1:8000/live/stream.mp3?token=\(Self.canary)&x=1#\(Self.canary)")!
        #expect(LogRedaction.url(url) == "http://127.0.0.1:8000/live/stream.mp3")
    }

    @Test(arguments: [
        ("https://example.org/feed.xml", "https://example.org/feed.xml"),
        ("https://user@example.org", "https://example.org"),
        ("https://user:pa@ss@example.org:8443/a?b=c", "https://example.org:8443/a"),
        ("http://[::1]:8000/x?y", "http://[::1]:8000/x"),
        ("HTTP://Example.org/A%20B?q", "HTTP://Example.org/A%20B"),
        ("http://host#frag", "http://host"),
        ("icy://host/path;type=mp3?x", "icy://host/path;type=mp3"),
        ("mailto:someone@example.org?subject=x", "mailto:…"),
        ("urn:isbn:123?x", "urn:isbn:123"),
    ])
    func urlsAsText(_ input: String, _ expected: String) {
        #expect(LogRedaction.url(string: input) == expected)
    }

    @Test func fileURLsShowTheirPathOnlyWhenPathsAreAllowed() {
        let url = URL(fileURLWithPath: "/home/anna/Music/Secret Album/01.flac")
        #expect(LogRedaction.url(url) == "file://<path>")
        #expect(LogRedaction.url(url, keepPaths: true) == "file:///home/anna/Music/Secret%20Album/01.flac")
    }

    @Test func hostKeepsThePortAndBracketsIPv6() {
        #expect(LogRedaction.host(URL(string: "http://u:p@radio.example:8000/x?t=1")!) == "radio.example:8000")
        #expect(LogRedaction.host(URL(string: "http://[::1]:9/x")!) == "[::1]:9")
        #expect(LogRedaction.host(URL(fileURLWithPath: "/tmp/x")) == nil)
    }

    @Test func urlsInsideFreeTextAreRedacted() {
        let text = """
            HTTPClientError.invalidURL: "http://canaryuser:\(Self.canary)@127.0.0.1:1/s.mp3?token=\(Self.canary)" \
            (NSErrorFailingURLStringKey=https://a:\(Self.canary)@h/x?t=\(Self.canary), next=http://h2/?q=\(Self.canary))
            """
        let redacted = LogRedaction.text(text)
        #expect(!redacted.contains(Self.canary))
        #expect(!redacted.contains("canaryuser"))
        #expect(redacted.contains("http://127.0.0.1:1/s.mp3"))
        #expect(redacted.contains("https://h/x"))
        #expect(redacted.hasPrefix("HTTPClientError.invalidURL: "))
    }

    @Test func aQueryWithCommasOrSemicolonsDoesNotLeakItsTail() {
        let redacted = LogRedaction.text("see http://h/p?a=1,token=\(Self.canary);b=\(Self.canary) now")
        #expect(redacted == "see http://h/p now")
    }

    @Test func aURLGluedToAnotherDoesNotLeakTheSecondsUserInfo() {
        let redacted = LogRedaction.text("a=http://x,b=http://u:\(Self.canary)@y/z")
        #expect(!redacted.contains(Self.canary))
    }

    @Test func pathsAreReplacedUnlessKept() {
        let text = "open: No such file or directory path=/home/anna/Music/a.mp3 \"~/Podcasts/x.mp3\" (/srv/m/b.ogg)"
        let redacted = LogRedaction.text(text)
        #expect(!redacted.contains("anna") && !redacted.contains("Podcasts") && !redacted.contains("/srv"))
        #expect(redacted == "open: No such file or directory path=<path> \"<path>\" (<path>)")
        #expect(LogRedaction.text(text, keepPaths: true) == text)
    }

    @Test func slashesInsideWordsAreNotPaths() {
        let text = "HTTP/1.1 503, 1/2 of a file, and/or"
        #expect(LogRedaction.text(text) == text)
    }

    @Test func controlCharactersAndNewlinesAreFlattened() {
        #expect(LogRedaction.text("a\nb\r\tc\u{1B}[2Jd\u{202E}e") == "a b  c [2Jd e")
    }

    @Test func errorFieldsCarryCodeTypeAndRedactedUnderlying() {
        let error = PlaybackError(
            .connectionFailed, underlying: "connect to http://u:\(Self.canary)@10.0.0.1:80/s?t=\(Self.canary) failed, cache /var/cache/x")
        let fields = LogFields.error(error)
        #expect(fields["code"] == String(PlaybackError.Code.connectionFailed.rawValue))
        #expect(fields["errorType"] == error.errorType)
        #expect(fields["underlying"] == "connect to http://10.0.0.1:80/s failed, cache <path>")
        #expect(LogFields.error(error, keepPaths: true)["underlying"]?.contains("/var/cache/x") == true)
        #expect(LogFields.error(PlaybackError(.httpNotFound, httpStatus: 404))["httpStatus"] == "404")
    }

    @Test func eventAndEffectFieldsNeverHoldTheTitleOrTheURLsSecrets() {
        let track = Track(
            id: "radio", url: URL(string: "http://u:\(Self.canary)@h:1/s.mp3?token=\(Self.canary)")!, kind: .liveStream,
            title: "Title \(Self.canary)", artist: "Artist \(Self.canary)", album: "Album \(Self.canary)")
        let request = PlayRequest(track: track)
        let texts = [
            LogFields.event(.play(request)), LogFields.event(.cannotPlay(PlaybackError(.missingAudioURL))),
            LogFields.effect(.load(LoadID(1), deck: .a, track: track, from: 0)), LogFields.effect(.trackFinished(track)),
            LogFields.effect(.persistPosition(ResumePoint(track: track, position: 3))),
        ].flatMap { $0.keys.map { $0 } + $0.values.map { $0 } }
        #expect(!texts.isEmpty)
        for text in texts { #expect(!text.contains(Self.canary), "\(text)") }
        #expect(LogFields.event(.play(request))["track.url"] == "http://h:1/s.mp3")
        #expect(LogFields.event(.play(request))["event"] == "play")
        #expect(LogFields.effect(.load(LoadID(1), deck: .a, track: track, from: 0))["effect"] == "load")
    }

    @Test func caseNamesComeWithoutPayloads() {
        #expect(LogFields.caseName(PlayerEvent.pause) == "pause")
        #expect(LogFields.caseName(PlayerEvent.timerFired(.retry(attempt: 2), at: .zero)) == "timerFired")
        #expect(LogFields.caseName(PlayerEffect.cancelTimer(.retry)) == "cancelTimer")
        #expect(LogFields.caseName(PlayerEffect.scheduleTimer(.retry(attempt: 1), at: .zero)) == "scheduleTimer")
        #expect(LogFields.caseName(PlayerTimer.underrunTimeout) == "underrunTimeout")
        #expect(LogFields.effectNames([.pauseOutput, .cancelTimer(.retry)]) == "pauseOutput,cancelTimer")
        #expect(LogFields.effect(.scheduleTimer(.retry(attempt: 3), at: PlayerTime(seconds: 2)))["attempt"] == "3")
        #expect(LogFields.effectNames([]) == "none")
    }

    @Test func highFrequencyEventsAreTheProgressOnes() {
        #expect(LogFields.isHighFrequency(.positionChanged(.a, position: 1)))
        #expect(LogFields.isHighFrequency(.bufferProgress(.a, fill: 0.5)))
        #expect(LogFields.isHighFrequency(.crossfadeProgress(0.5, fromPosition: 1, toPosition: 2)))
        #expect(!LogFields.isHighFrequency(.underrun(.a)))
        #expect(!LogFields.isHighFrequency(.pause))
    }
}
