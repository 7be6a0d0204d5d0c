import Foundation
import FuzzSupport
import PlayerCore
import Streaming

// The HLS playlist parser (master and media playlists). Input: the playlist, as fetched from
// https://radio.example/live/index.m3u8.
//
// Contract: a master playlist of 1...maxVariants variants, or a media playlist of at most
// maxSegments segments, or `.malformedData` / `.unsupportedFormat`; every address http(s) with a
// host; a bandwidth, when given, above 0; a target duration above 0 and at most the maximum;
// segments numbered in increasing order from the first sequence (a segment whose address cannot
// be fetched is left out and keeps its number, so there may be gaps), each with a finite duration
// of 0 or more and a clean title.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzHLS(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = fuzzBytes(data, size)
    do {
        switch try HLSPlaylist.parse(Data(body), url: URL(string: "https://radio.example/live/index.m3u8")!) {
        case .master(let variants):
            fuzzCheck(!variants.isEmpty && variants.count <= HLSLimits.maxVariants, "\(variants.count) variants")
            for variant in variants {
                fuzzCheckWebURL(variant.url)
                fuzzCheck(variant.bandwidth.map { $0 > 0 } ?? true, "bandwidth \(String(describing: variant.bandwidth))")
            }
        case .media(let playlist):
            fuzzCheck(playlist.segments.count <= HLSLimits.maxSegments, "\(playlist.segments.count) segments")
            fuzzCheck(
                playlist.targetDuration.isFinite && playlist.targetDuration > 0 && playlist.targetDuration <= HLSLimits.maxTargetDuration,
                "target duration \(playlist.targetDuration)")
            var previous: Int?
            for (offset, segment) in playlist.segments.enumerated() {
                fuzzCheckWebURL(segment.url)
                if let initialization = segment.initialization { fuzzCheckWebURL(initialization) }
                fuzzCheck(
                    segment.sequence >= playlist.firstSequence &+ offset && previous.map { segment.sequence > $0 } ?? true,
                    "segment \(offset) numbered \(segment.sequence) after \(String(describing: previous)), first \(playlist.firstSequence)")
                previous = segment.sequence
                fuzzCheck(segment.duration.isFinite && segment.duration >= 0, "segment duration \(segment.duration)")
                fuzzCheckClean(segment.title)
            }
        }
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData, .unsupportedFormat])
    }
    return 0
}

runLibFuzzer(fuzzHLS)
