import Foundation
import FuzzSupport
import PlayerCore
import Streaming

// HLS timed metadata: the title in a segment's ID3 tags, in packed audio (tags before the audio)
// or in an MPEG-2 transport stream (ID3 in PES packets of a metadata stream). Input: one byte
// choosing the container (even: packed audio, odd: MPEG-TS), then the segment's bytes.
//
// Contract: nil, or a title that is clean one-line text and not empty.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzTimedMetadata(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 1)
    let container: HLSTimedMetadata.Container = header[0] & 1 == 0 ? .packedAudio : .mpegTS
    if let title = HLSTimedMetadata.title(in: Data(body), container: container) {
        fuzzCheckClean(title)
        fuzzCheck(!title.isEmpty, "an empty title instead of nil")
    }
    return 0
}

runLibFuzzer(fuzzTimedMetadata)
