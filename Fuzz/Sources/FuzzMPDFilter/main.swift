import FuzzSupport
import MPDProtocol

// MPD filter expressions. Input: one byte of settings (bit 0: `search`'s case folding; bit 1:
// the old syntax, the body split at tabs into `TAG VALUE` pairs; bit 2: `list`'s arguments), then
// the filter's argument text.
//
// Contract: the arguments read as a filter or are refused with an `ACK [2@…]` that has words;
// a filter decides on a song without trapping, and its expression reads back as the same filter.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzMPDFilter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let parser = MPDFilterParser(tags: ["Artist", "Album", "AlbumArtist", "Title", "Genre", "Date"], foldCase: header[0] & 1 == 1)
    let text = String(decoding: body, as: UTF8.self)
    let arguments = header[0] & 2 == 2 ? text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) : [text]
    do {
        if header[0] & 4 == 4 {
            let request = try MPDListRequest(arguments, parser: parser)
            if let filter = request.filter { check(filter, parser) }
        } else {
            check(try parser.parse(arguments), parser)
        }
    } catch {
        fuzzCheck(error.code == .argument, "refused with \(error.code)")
        fuzzCheck(!error.message.isEmpty, "refused without words")
    }
    return 0
}

struct FuzzSong: MPDFilterSubject {
    func values(ofTag name: String) -> [String] { name == "Artist" ? ["Nina Simone", "x"] : name == "Genre" ? [""] : [] }
    var allTagValues: [String] { ["Nina Simone", "x", ""] }
    var uri: String { "Music/A/01 é.flac" }
    var modified: Int64? { 1_700_000_000 }
    var added: Int64? { nil }
    var audioFormat: MPDAudioFormat? { MPDAudioFormat(sampleRate: 44100, sampleFormat: "16", channels: 2) }
    var priority: Int { 3 }
}

func check(_ filter: MPDFilter, _ parser: MPDFilterParser) {
    _ = filter.matches(FuzzSong())
    do {
        let again = try parser.parse([filter.expression])
        fuzzCheck(again == filter, "\(filter.expression) reads back as \(again)")
    } catch {
        fuzzCheck(false, "\(filter.expression) does not read back: \(error.message)")
    }
}

runLibFuzzer(fuzzMPDFilter)
