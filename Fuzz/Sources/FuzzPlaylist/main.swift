import Foundation
import FuzzSupport
import PlayerCore
import Streaming

// The PLS/M3U parser and playlist detection. Input: one byte choosing the kind and where the
// playlist came from (the network, a web page's address, a local file), then the body.
//
// Contract: `parse` returns 1...maxPlaylistEntries entries or throws `.malformedData`,
// `.hlsNotSupported` or `.wrongContentType`; a network playlist yields only http(s) URLs with a
// host, a local one also file URLs; titles are clean one-line text.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzPlaylist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let kind: PlaylistKind = header[0] & 1 == 0 ? .pls : .m3u
    let bases: [URL?] = [nil, URL(string: "http://radio.example/listen/stream.pls"), URL(fileURLWithPath: "/music/lists/radio.m3u")]
    let baseURL = bases[Int(header[0] >> 1) % bases.count]
    let isLocal = baseURL?.isFileURL == true

    do {
        let entries = try PlaylistParser.parse(Data(body), kind: kind, baseURL: baseURL)
        fuzzCheck(!entries.isEmpty && entries.count <= StreamingLimits.maxPlaylistEntries, "\(entries.count) entries")
        for entry in entries {
            fuzzCheckClean(entry.title)
            fuzzCheck(entry.title?.isEmpty != true, "empty title instead of nil")
            if entry.url.isFileURL {
                fuzzCheck(isLocal, "a network playlist named a local file")
            } else {
                fuzzCheckWebURL(entry.url)
            }
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData, .hlsNotSupported, .wrongContentType])
    }

    let contentTypes: [String?] = [nil, "audio/x-scpls", "text/html; charset=utf-8", "audio/mpeg", String(decoding: body.prefix(40), as: UTF8.self)]
    _ = PlaylistKind.detect(contentType: contentTypes[Int(header[0] >> 3) % contentTypes.count], url: baseURL, firstBytes: body)
    _ = PlaylistKind.isHTML(firstBytes: body)
    return 0
}

runLibFuzzer(fuzzPlaylist)
