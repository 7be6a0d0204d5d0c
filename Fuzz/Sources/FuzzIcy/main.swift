import Foundation
import FuzzSupport
import PlayerCore
import Streaming

// The ICY demuxer and metadata parser. Input: two bytes of `icy-metaint` (1...4096, small so
// blocks come often), one byte of chunk size, then the body.
//
// Contract: `feed` throws only `.malformedData` and `finish` only `.connectionLost` (or the stored
// error); an error is sticky; audio never grows beyond the body; the result does not depend on
// how a readable body was chunked; every title is clean one-line text within the cap; every URL is http(s).
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzIcy(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 3)
    let interval = (Int(header[0]) << 8 | Int(header[1])) % 4096 + 1
    let chunk = Int(header[2]) + 1

    let whole = demux(body, interval: interval, chunk: body.count + 1)
    let chunked = demux(body, interval: interval, chunk: chunk)
    fuzzCheck(whole.error == chunked.error, "error depends on chunking")
    // A malformed block drops the audio of the chunk it ends in, so only streams that were read
    // to their end (cleanly or cut) must give the same audio however they arrived.
    if whole.error?.code != .malformedData {
        fuzzCheck(whole.audio == chunked.audio, "audio depends on chunking")
        fuzzCheck(whole.metadata == chunked.metadata, "metadata depends on chunking")
    }
    fuzzCheck(whole.audio.count <= body.count, "more audio than input")

    // The block parser alone, on any bytes (the demuxer only hands it blocks that look right).
    check(IcyMetadata.parse(body))
    _ = IcyMetadata.looksLikeMetadata(body)
    // The header parsers.
    let text = String(decoding: body.prefix(64), as: UTF8.self)
    do {
        let demuxer = try IcyDemuxer(metaIntervalHeader: text)
        fuzzCheck((demuxer.metaInterval ?? 1) > 0, "non-positive interval accepted")
    } catch {
        fuzzCheck(error, isOneOf: [.malformedData])
    }
    let info = IcyStationInfo(headers: ["icy-name": text, "Icy-Genre": text, "icy-br": text, "icy-url": text])
    fuzzCheckClean(info.name, maxLength: StreamingLimits.maxMetadataValueLength)
    fuzzCheckClean(info.genre, maxLength: StreamingLimits.maxMetadataValueLength)
    fuzzCheck((info.bitrate ?? 1) > 0, "non-positive bitrate")
    fuzzCheckWebURL(info.url.flatMap { URL(string: $0) })
    return 0
}

struct Demuxed {
    var audio: [UInt8] = []
    var metadata: [IcyMetadata] = []
    var error: PlaybackError?
}

func demux(_ body: [UInt8], interval: Int, chunk: Int) -> Demuxed {
    var result = Demuxed()
    var demuxer: IcyDemuxer
    do {
        demuxer = try IcyDemuxer(metaInterval: interval)
    } catch {
        fuzzCheck(false, "valid interval \(interval) refused")
        return result
    }
    var start = 0
    repeat {
        let end = min(body.count, start + chunk)
        do {
            let output = try demuxer.feed(body[start..<end])
            result.audio += output.audio
            result.metadata += output.metadata
            output.metadata.forEach(check)
        } catch {
            fuzzCheck(error, isOneOf: [.malformedData])
            result.error = error
            // Sticky: the same error again, for feed and finish alike.
            do {
                _ = try demuxer.feed([0])
                fuzzCheck(false, "feed after an error succeeded")
            } catch let again {
                fuzzCheck(again == error, "a different error after the first")
            }
            return result
        }
        start = end
    } while start < body.count
    do {
        try demuxer.finish()
    } catch {
        fuzzCheck(error, isOneOf: [.connectionLost])
        result.error = error
    }
    return result
}

func check(_ metadata: IcyMetadata) {
    fuzzCheckClean(metadata.title, maxLength: StreamingLimits.maxMetadataValueLength)
    fuzzCheck(metadata.title?.isEmpty != true, "empty title instead of nil")
    if let url = metadata.url {
        fuzzCheckClean(url, maxLength: StreamingLimits.maxMetadataValueLength)
        fuzzCheckWebURL(URL(string: url))
    }
}

runLibFuzzer(fuzzIcy)
