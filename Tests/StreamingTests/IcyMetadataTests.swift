import Foundation
import PlayerCore
import Testing
@testable import Streaming

@Suite("IcyMetadata parsing")
struct IcyMetadataTests {
    private func block(_ text: String, pad: Bool = true) -> [UInt8] {
        var bytes = Array(text.utf8)
        if pad { while bytes.count % 16 != 0 { bytes.append(0) } }
        return bytes
    }

    @Test func plainTitle() {
        let meta = IcyMetadata.parse(block("StreamTitle='Daft Punk - One More Time';"))
        #expect(meta.title == "Daft Punk - One More Time")
        #expect(meta.url == nil)
    }

    @Test func quotesAndSemicolonsInsideTitleAreKept() {
        let meta = IcyMetadata.parse(block("StreamTitle='Guns N' Roses - Sweet Child o' Mine';"))
        #expect(meta.title == "Guns N' Roses - Sweet Child o' Mine")
        let semi = IcyMetadata.parse(block("StreamTitle='A; B - It's; on';StreamUrl='http://x.example/';"))
        #expect(semi.title == "A; B - It's; on")
        #expect(semi.url == "http://x.example/")
    }

    @Test func quoteSemicolonInsideTitleNotFollowedByKeyIsKept() {
        let meta = IcyMetadata.parse(block("StreamTitle='Rock';n'Roll';StreamUrl='https://r.example/a';"))
        #expect(meta.title == "Rock';n'Roll")
        #expect(meta.url == "https://r.example/a")
    }

    @Test func bothFieldsInEitherOrder() {
        let meta = IcyMetadata.parse(block("StreamTitle='Artist - Song';StreamUrl='https://radio.example/now?id=1';"))
        #expect(meta == IcyMetadata(title: "Artist - Song", url: "https://radio.example/now?id=1"))
        let reversed = IcyMetadata.parse(block("StreamUrl='http://a.example/';StreamTitle='T';"))
        #expect(reversed == IcyMetadata(title: "T", url: "http://a.example/"))
    }

    @Test func nulPaddingIsRemoved() {
        let bytes = block("StreamTitle='Padded';") + [UInt8](repeating: 0, count: 32)
        #expect(bytes.count % 16 == 0)
        let meta = IcyMetadata.parse(bytes)
        #expect(meta.title == "Padded")
        #expect(!(meta.title ?? "").contains("\0"))
    }

    @Test func missingTerminatorTakesRestOfBlock() {
        #expect(IcyMetadata.parse(block("StreamTitle='Cut off")).title == "Cut off")
        #expect(IcyMetadata.parse(block("StreamTitle='Closed'")).title == "Closed")
        #expect(IcyMetadata.parse(block("StreamTitle=Bare;")).title == "Bare")
    }

    @Test func lowercaseKeyTolerated() {
        #expect(IcyMetadata.parse(block("streamtitle='lower';")).title == "lower")
    }

    @Test func latin1FallbackWhenNotUTF8() {
        var bytes = Array("StreamTitle='Caf".utf8)
        bytes.append(0xE9)  // é in ISO-8859-1, invalid as UTF-8 here
        bytes += Array(" - Beyonc".utf8) + [0xE9] + Array("';".utf8)
        let meta = IcyMetadata.parse(bytes)
        #expect(meta.title == "Café - Beyoncé")
    }

    @Test func utf8CyrillicKept() {
        let meta = IcyMetadata.parse(block("StreamTitle='Кино - Группа крови';"))
        #expect(meta.title == "Кино - Группа крови")
    }

    @Test func controlEscapeAndBidiStripped() {
        let raw = "StreamTitle='\u{1B}[31mRed\u{1B}]52;c;ZXZpbA==\u{07} \u{202E}txet\u{202C}\u{9D} Song\nNext';"
        let title = IcyMetadata.parse(Array(raw.utf8)).title
        let unwanted: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{202E}", "\u{202C}", "\u{9D}", "\n"]
        #expect(title != nil)
        for scalar in unwanted { #expect(!(title ?? "").unicodeScalars.contains(scalar)) }
        #expect((title ?? "").contains("Red"))
        #expect((title ?? "").hasSuffix("Song Next"))
    }

    @Test func rawC1ByteStrippedViaLatin1() {
        // 0x9D alone is not valid UTF-8, so the block decodes as Latin-1 where it is U+009D (C1).
        let bytes = Array("StreamTitle='A".utf8) + [0x9D, 0x1B] + Array("B';".utf8)
        #expect(IcyMetadata.parse(bytes).title == "AB")
    }

    @Test func overLongTitleIsCapped() {
        let long = String(repeating: "x", count: 4000)
        let title = IcyMetadata.parse(Array("StreamTitle='\(long)';".utf8)).title
        #expect(title?.count == StreamingLimits.maxMetadataValueLength)
        #expect(title?.hasSuffix("…") == true)
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "/relative", "http://", "ftp://x.example/"])
    func nonHTTPURLDropped(_ url: String) {
        let meta = IcyMetadata.parse(block("StreamTitle='T';StreamUrl='\(url)';"))
        #expect(meta.url == nil)
        #expect(meta.title == "T")
    }

    @Test func overLongURLDroppedNotCut() {
        let url = "https://a.example/" + String(repeating: "p", count: 400)
        #expect(IcyMetadata.parse(block("StreamTitle='T';StreamUrl='\(url)';")).url == nil)
    }

    @Test func emptyOrBlankTitleIsNil() {
        #expect(IcyMetadata.parse(block("StreamTitle='';")).title == nil)
        #expect(IcyMetadata.parse(block("StreamTitle='  \u{1B} ';")).title == nil)
        #expect(IcyMetadata.parse(block("StreamUrl='http://a.example/';")).title == nil)
        #expect(IcyMetadata.parse([]).title == nil)
    }

    @Test func looksLikeMetadataHeuristic() {
        #expect(IcyMetadata.looksLikeMetadata(block("StreamTitle='x';")))
        #expect(IcyMetadata.looksLikeMetadata([UInt8](repeating: 0, count: 16)))
        #expect(!IcyMetadata.looksLikeMetadata([0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 12)))
        #expect(!IcyMetadata.looksLikeMetadata(block("no equals sign here at all")))
        #expect(!IcyMetadata.looksLikeMetadata(block("=value;")))
    }

    // MARK: - Station info

    @Test func stationInfoFromHeadersCaseInsensitive() {
        let info = IcyStationInfo(headers: [
            "Icy-Name": "Radio \u{1B}[2JParadise\u{202E}", "ICY-GENRE": "Jazz\nBlues",
            "icy-br": "128", "Icy-Url": "https://paradise.example", "Content-Type": "audio/mpeg",
        ])
        #expect(info.name == "Radio [2JParadise")
        #expect(info.genre == "Jazz Blues")
        #expect(info.bitrate == 128)
        #expect(info.url == "https://paradise.example")
        #expect(!info.isEmpty)
    }

    @Test(arguments: [("128", 128), ("128,128", 128), (" 320 ", 320), ("abc", nil), ("", nil), ("-5", nil),
                      ("0", nil), ("99999999999999999999", nil), (",128", nil)] as [(String, Int?)])
    func bitrateParsing(_ text: String, _ expected: Int?) {
        #expect(IcyStationInfo(headers: ["icy-br": text]).bitrate == expected)
    }

    @Test func stationURLMustBeHTTP() {
        #expect(IcyStationInfo(headers: ["icy-url": "javascript:alert(1)"]).url == nil)
        #expect(IcyStationInfo(headers: ["icy-url": "http://ok.example/"]).url == "http://ok.example/")
        #expect(IcyStationInfo(headers: [:]).isEmpty)
    }

    @Test func stationNameCapped() {
        let info = IcyStationInfo(headers: ["icy-name": String(repeating: "n", count: 5000)])
        #expect(info.name?.count == StreamingLimits.maxMetadataValueLength)
    }
}
