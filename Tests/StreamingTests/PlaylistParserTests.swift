import Foundation
import PlayerCore
import Testing

@testable import Streaming

/// Parses `text` (UTF-8) and returns entries, or the typed error.
private func parse(_ text: String, _ kind: PlaylistKind, base: URL? = nil) -> Result<[PlaylistEntry], PlaybackError> {
    parse(Data(text.utf8), kind, base: base)
}

private func parse(_ data: Data, _ kind: PlaylistKind, base: URL? = nil) -> Result<[PlaylistEntry], PlaybackError> {
    do throws(PlaybackError) {
        return .success(try PlaylistParser.parse(data, kind: kind, baseURL: base))
    } catch {
        return .failure(error)
    }
}

private func errorCode(_ result: Result<[PlaylistEntry], PlaybackError>) -> PlaybackError.Code? {
    if case .failure(let error) = result { return error.code }
    return nil
}

private func urls(_ result: Result<[PlaylistEntry], PlaybackError>) -> [String] {
    (try? result.get())?.map(\.url.absoluteString) ?? []
}

private let networkBase = URL(string: "http://radio.example.com/lists/station.m3u?sid=1")!

@Suite("Playlist parser: PLS")
struct PlaylistPLSTests {
    @Test func shoutcastPLSIsOrderedByNumberNotByLine() throws {
        let body = """
            [playlist]
            NumberOfEntries=3
            File2=http://backup.example.com:8000/stream
            Title2=(#2 - 10/500) Jazz FM
            Length2=-1
            File1=http://main.example.com:8000/;stream.mp3
            Title1=(#1 - 123/500) Jazz FM
            Length1=-1
            File3=https://third.example.com/live
            Version=2
            """
        let entries = try parse(body, .pls).get()
        #expect(entries.map(\.url.absoluteString) == [
            "http://main.example.com:8000/;stream.mp3",
            "http://backup.example.com:8000/stream",
            "https://third.example.com/live",
        ])
        #expect(entries.map(\.title) == ["(#1 - 123/500) Jazz FM", "(#2 - 10/500) Jazz FM", nil])
    }

    @Test func crlfBOMCaseInsensitiveKeysSpacesAndGaps() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("[Playlist]\r\nFILE7 = http://b.example.com/s \r\ntitle7= Seven \r\nfile2=http://a.example.com/s\r\nnumberofentries=2\r\n".utf8))
        let entries = try parse(data, .pls).get()
        #expect(entries == [
            PlaylistEntry(url: URL(string: "http://a.example.com/s")!, title: nil),
            PlaylistEntry(url: URL(string: "http://b.example.com/s")!, title: "Seven"),
        ])
    }

    @Test func linesWithoutEqualsAndBadNumbersAreSkipped() {
        let body = "[playlist]\nFile1\nFileX=http://x.example.com/\nFile99999999999999999999=http://y.example.com/\nFile3=http://ok.example.com/\n=\n"
        #expect(urls(parse(body, .pls)) == ["http://ok.example.com/"])
    }

    @Test func valueKeepsEqualsSignsOfTheQuery() {
        #expect(urls(parse("[playlist]\nFile1=http://a.example.com/listen?sid=1&type=.mp3\n", .pls)) == [
            "http://a.example.com/listen?sid=1&type=.mp3",
        ])
    }

    @Test func plsWithoutFilesIsMalformed() {
        #expect(errorCode(parse("[playlist]\nNumberOfEntries=0\nVersion=2\n", .pls)) == .malformedData)
    }
}

@Suite("Playlist parser: M3U")
struct PlaylistM3UTests {
    @Test func extendedM3UTitlesAndRelativeURLs() throws {
        let body = """
            #EXTM3U
            #EXTINF:-1,Station Name
            /live/hi.mp3
            # a comment

            #EXTINF:-1 tvg-name="a,b" logo="x.png",Low Quality
            low.aac
            http://other.example.org/direct
            """
        let entries = try parse(body, .m3u, base: networkBase).get()
        #expect(entries == [
            PlaylistEntry(url: URL(string: "http://radio.example.com/live/hi.mp3")!, title: "Station Name"),
            PlaylistEntry(url: URL(string: "http://radio.example.com/lists/low.aac")!, title: "Low Quality"),
            PlaylistEntry(url: URL(string: "http://other.example.org/direct")!, title: nil),
        ])
    }

    @Test func plainM3UWithCRLFAndDuplicatesKeptInOrder() {
        let body = "http://a.example.com/1\r\nhttps://b.example.com/2\r\nhttp://a.example.com/1\r\n"
        #expect(urls(parse(body, .m3u)) == ["http://a.example.com/1", "https://b.example.com/2", "http://a.example.com/1"])
    }

    @Test func relativeEntriesWithoutBaseAreDropped() {
        #expect(errorCode(parse("#EXTM3U\nlive.mp3\n", .m3u)) == .malformedData)
    }

    @Test func hlsMasterPlaylistIsNotSupported() {
        let body = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            https://cdn.example.com/hls/128/index.m3u8
            """
        #expect(errorCode(parse(body, .m3u, base: networkBase)) == .hlsNotSupported)
    }

    @Test func hlsMediaPlaylistIsNotSupported() {
        let body = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:1\n#EXTINF:10.0,\nseg1.aac\n"
        #expect(errorCode(parse(body, .m3u, base: networkBase)) == .hlsNotSupported)
        // Even when the tag comes after playable entries.
        #expect(errorCode(parse("http://a.example.com/\n#ext-x-endlist\n", .m3u)) == .hlsNotSupported)
    }

    @Test func headerWinsOverDeclaredKind() {
        #expect(urls(parse("[playlist]\nFile1=http://a.example.com/\n", .m3u)) == ["http://a.example.com/"])
        #expect(urls(parse("#EXTM3U\nhttp://b.example.com/\n", .pls)) == ["http://b.example.com/"])
    }
}

@Suite("Playlist parser: safety")
struct PlaylistSafetyTests {
    @Test(arguments: [
        "<!DOCTYPE html>\n<html><body>http://a.example.com/</body></html>",
        "\u{FEFF}  <html lang=\"en\"><head><title>Login</title></head></html>",
        "\n<HEAD><title>x</title>",
    ])
    func htmlIsWrongContentType(body: String) {
        #expect(errorCode(parse(body, .pls)) == .wrongContentType)
        #expect(errorCode(parse(body, .m3u)) == .wrongContentType)
    }

    @Test func networkPlaylistKeepsOnlyWebURLs() {
        let body = """
            #EXTM3U
            file:///etc/passwd
            /etc/shadow
            javascript:alert(1)
            ftp://ftp.example.com/a.mp3
            data:audio/mpeg;base64,AAAA
            http://ok.example.com/stream
            HTTPS://OK2.example.com/x
            http:///nohost
            """
        // `/etc/shadow` is a path on the playlist's own server, never a local file.
        #expect(urls(parse(body, .m3u, base: networkBase)) == [
            "http://radio.example.com/etc/shadow", "http://ok.example.com/stream", "HTTPS://OK2.example.com/x",
        ])
        #expect(urls(parse(body, .m3u, base: nil)) == ["http://ok.example.com/stream", "HTTPS://OK2.example.com/x"])
        #expect(errorCode(parse("[playlist]\nFile1=file:///etc/passwd\nFile2=javascript:alert(1)\n", .pls)) == .malformedData)
    }

    @Test func localPlaylistKeepsFilePaths() throws {
        let base = URL(fileURLWithPath: "/home/user/Music/list.m3u")
        let body = "#EXTM3U\n#EXTINF:200,Song\nsong.mp3\n/srv/music/abs.flac\nfile:///srv/music/u.ogg\n../other/x.mp3\nhttp://radio.example.com/s\njavascript:alert(1)\n"
        let entries = try parse(body, .m3u, base: base).get()
        #expect(entries.map(\.url.path) == [
            "/home/user/Music/song.mp3", "/srv/music/abs.flac", "/srv/music/u.ogg", "/home/user/other/x.mp3", "/s",
        ])
        #expect(entries.map(\.url.isFileURL) == [true, true, true, true, false])
        #expect(entries[0].title == "Song")
        let pls = try parse("[playlist]\nFile1=/srv/a.mp3\n", .pls, base: base).get()
        #expect(pls.map(\.url) == [URL(fileURLWithPath: "/srv/a.mp3")])
    }

    @Test func titlesAreSanitised() throws {
        let body = "#EXTM3U\n#EXTINF:-1,\u{1B}[31mRed\u{1B}[0m \u{202E}evil\u{2066}\tname\u{7F}\nhttp://a.example.com/\n#EXTINF:-1,   \nhttp://b.example.com/\n"
        let entries = try parse(body, .m3u).get()
        #expect(entries[0].title == "[31mRed[0m evil name")
        #expect(entries[1].title == nil)
        let pls = try parse("[playlist]\nFile1=http://a.example.com/\nTitle1=\u{202E}abc\u{9B}x\n", .pls).get()
        #expect(pls[0].title == "abcx")
        let long = try parse("#EXTINF:-1,\(String(repeating: "x", count: 5000))\nhttp://a.example.com/\n", .m3u).get()
        #expect((long[0].title?.count ?? 0) <= TextSanitizer.defaultMaxLength)
    }

    @Test func latin1TitlesFallBack() throws {
        var data = Data("#EXTM3U\n#EXTINF:-1,Caf".utf8)
        data.append(contentsOf: [0xE9, 0x20, 0x4D, 0xFC, 0x6E, 0x63, 0x68, 0x65, 0x6E])  // "é München" in Latin-1
        data.append(Data("\nhttp://a.example.com/\n".utf8))
        let entries = try parse(data, .m3u).get()
        #expect(entries[0].title == "Café München")
        // Valid UTF-8 stays UTF-8.
        let utf8 = try parse("[playlist]\nFile1=http://a.example.com/\nTitle1=Радио Café\n", .pls).get()
        #expect(utf8[0].title == "Радио Café")
    }

    @Test func tooLargeEmptyAndEntryCap() {
        let big = Data(repeating: UInt8(ascii: "#"), count: StreamingLimits.maxPlaylistBytes + 1)
        #expect(errorCode(parse(big, .m3u)) == .malformedData)
        #expect(errorCode(parse(Data(), .m3u)) == .malformedData)
        #expect(errorCode(parse(Data(), .pls)) == .malformedData)
        #expect(errorCode(parse("#EXTM3U\n\n# nothing\n", .m3u)) == .malformedData)
        let many = (1...(StreamingLimits.maxPlaylistEntries + 50)).map { "http://s.example.com/\($0)" }.joined(separator: "\n")
        let result = urls(parse(many, .m3u))
        #expect(result.count == StreamingLimits.maxPlaylistEntries)
        #expect(result.first == "http://s.example.com/1")
        #expect(result.last == "http://s.example.com/\(StreamingLimits.maxPlaylistEntries)")
        // Exactly at the limit is still parsed.
        var atLimit = Data("http://a.example.com/\n".utf8)
        atLimit.append(Data(repeating: UInt8(ascii: " "), count: StreamingLimits.maxPlaylistBytes - atLimit.count))
        #expect(urls(parse(atLimit, .m3u)) == ["http://a.example.com/"])
    }

    @Test func hugeLineWithoutNewline() {
        let line = "http://a.example.com/" + String(repeating: "a", count: StreamingLimits.maxPlaylistBytes - 30)
        #expect(urls(parse(line, .m3u)).count == 1)
        #expect(errorCode(parse(String(repeating: "=", count: 200_000), .pls)) == .malformedData)
    }

    @Test func garbageNeverCrashes() {
        for seed in UInt64(0)..<300 {
            var rng = SeededRandom(seed: seed)
            let count = Int(rng.next() % 3000)
            var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            // Sometimes give the garbage a plausible start so the line parsers are exercised too.
            switch seed % 4 {
            case 1: bytes = Array("[playlist]\nFile1=".utf8) + bytes
            case 2: bytes = Array("#EXTM3U\n#EXTINF:-1,".utf8) + bytes
            case 3: bytes = Array("http://a.example.com/".utf8) + bytes
            default: break
            }
            for kind in PlaylistKind.allCases {
                for base in [nil, networkBase, URL(fileURLWithPath: "/tmp/x.m3u")] {
                    switch parse(Data(bytes), kind, base: base) {
                    case .success(let entries):
                        #expect(!entries.isEmpty && entries.count <= StreamingLimits.maxPlaylistEntries)
                        for entry in entries {
                            let scheme = entry.url.scheme?.lowercased() ?? ""
                            #expect(Track.playableSchemes.contains(scheme))
                            if base?.isFileURL != true { #expect(scheme == "http" || scheme == "https") }
                            #expect(entry.title?.unicodeScalars.contains(where: TextSanitizer.isForbidden) != true)
                        }
                    case .failure(let error):
                        #expect([.malformedData, .hlsNotSupported, .wrongContentType].contains(error.code))
                    }
                }
            }
            _ = PlaylistKind.detect(contentType: nil, url: nil, firstBytes: bytes)
        }
    }
}

@Suite("Playlist kind detection")
struct PlaylistKindDetectionTests {
    private static let mp3Bytes: [UInt8] = [0xFF, 0xFB, 0x90, 0x64, 0x00, 0x0F, 0xF0, 0x00, 0x00, 0x69]
    private static let id3Bytes: [UInt8] = Array("ID3".utf8) + [0x04, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00]

    @Test(arguments: [
        ("audio/x-scpls", PlaylistKind.pls),
        ("audio/scpls; charset=utf-8", .pls),
        ("Audio/X-MpegURL", .m3u),
        ("audio/mpegurl", .m3u),
        ("application/x-mpegURL; charset=UTF-8", .m3u),
        ("application/vnd.apple.mpegurl", .m3u),
        (" application/vnd.apple.mpegurl ;charset=utf-8", .m3u),
    ])
    func byContentType(contentType: String, expected: PlaylistKind) {
        #expect(PlaylistKind.detect(contentType: contentType, url: nil, firstBytes: []) == expected)
    }

    @Test(arguments: [
        ("http://a.example.com/listen.pls", PlaylistKind?.some(.pls)),
        ("http://a.example.com/LISTEN.PLS?sid=1&x=.mp3", .pls),
        ("https://a.example.com/radio.m3u?token=abc", .m3u),
        ("https://a.example.com/radio.M3U8#frag", .m3u),
        ("http://a.example.com/stream.mp3?format=.pls", nil),
        ("http://a.example.com/;stream", nil),
    ])
    func byExtension(url: String, expected: PlaylistKind?) {
        #expect(PlaylistKind.detect(contentType: nil, url: URL(string: url), firstBytes: Self.mp3Bytes) == expected)
        #expect(PlaylistKind.detect(contentType: "application/octet-stream", url: URL(string: url), firstBytes: []) == expected)
    }

    @Test func bySniffing() {
        #expect(PlaylistKind.detect(contentType: "text/plain", url: nil, firstBytes: Array("[playlist]\nFile1=x".utf8)) == .pls)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: [0xEF, 0xBB, 0xBF] + Array(" \r\n[Playlist]\r\n".utf8)) == .pls)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: Array("#EXTM3U\n#EXT-X-VERSION:3".utf8)) == .m3u)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: Array("# list\n\nhttp://a.example.com/s\n".utf8)) == .m3u)
        #expect(PlaylistKind.detect(contentType: "text/plain", url: nil, firstBytes: Array("HTTPS://a.example.com/s".utf8)) == .m3u)
        // Bytes beat a wrong header: a playlist served as audio/mpeg is still a playlist.
        #expect(PlaylistKind.detect(contentType: "audio/mpeg", url: nil, firstBytes: Array("[playlist]\n".utf8)) == .pls)
        // Header says M3U, body says PLS: the body wins.
        #expect(PlaylistKind.detect(contentType: "audio/x-mpegurl", url: nil, firstBytes: Array("[playlist]\n".utf8)) == .pls)
    }

    @Test func audioIsNotAPlaylist() {
        #expect(PlaylistKind.detect(contentType: "audio/mpeg", url: nil, firstBytes: Self.mp3Bytes) == nil)
        #expect(PlaylistKind.detect(contentType: "audio/aacp", url: URL(string: "http://a.example.com/live"), firstBytes: Self.id3Bytes) == nil)
        #expect(PlaylistKind.detect(contentType: "application/ogg", url: nil, firstBytes: Array("OggS".utf8)) == nil)
        // A media content type beats a playlist-looking extension.
        #expect(PlaylistKind.detect(contentType: "audio/mpeg", url: URL(string: "http://a.example.com/s.m3u"), firstBytes: Self.mp3Bytes) == nil)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: Self.mp3Bytes) == nil)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: []) == nil)
        // Text that is not a URL list.
        #expect(PlaylistKind.detect(contentType: "text/plain", url: nil, firstBytes: Array("hello\nhttp://a/".utf8)) == nil)
        #expect(PlaylistKind.detect(contentType: nil, url: nil, firstBytes: Array("#x\n".utf8) + [0x00, 0x01] + Array("\nhttp://a/".utf8)) == nil)
    }

    @Test func htmlIsNotAPlaylistButIsRecognised() {
        let page = Array("<!DOCTYPE html><html><a href=\"x.pls\">".utf8)
        #expect(PlaylistKind.detect(contentType: "text/html; charset=utf-8", url: nil, firstBytes: page) == nil)
        #expect(PlaylistKind.isHTML(firstBytes: page))
        #expect(PlaylistKind.isHTML(contentType: "text/html; charset=utf-8", firstBytes: []))
        #expect(!PlaylistKind.isHTML(contentType: "audio/mpeg", firstBytes: Self.mp3Bytes))
        #expect(!PlaylistKind.isHTML(firstBytes: Array("[playlist]".utf8)))
        // A .pls URL answered with HTML is detected by extension; the parser then rejects the page.
        #expect(PlaylistKind.detect(contentType: "text/html", url: URL(string: "http://a.example.com/x.pls"), firstBytes: page) == .pls)
    }
}

