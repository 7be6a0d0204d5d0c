import Foundation
import PlayerCore
@testable import Streaming
import TestProcesses
import Testing

/// Song titles in HLS timed metadata: ID3v2 tags as stations write them (at the start of
/// packed-audio segments, in an ID3 stream of MPEG-TS segments), a real tag written by ffmpeg,
/// and the hostile cases. The inputs are built byte by byte here, so each test shows the layout.
@Suite("HLS timed metadata", .blocking)
struct HLSTimedMetadataTests {
    // MARK: - Building ID3v2 tags

    static func syncsafe(_ value: Int) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    static func bigEndian32(_ value: Int) -> [UInt8] {
        [UInt8((value >> 24) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// A v2.3/2.4 frame: ID, size (syncsafe in 2.4, plain in 2.3), two flag bytes, content.
    static func frame(_ id: String, _ content: [UInt8], version: UInt8 = 4, formatFlags: UInt8 = 0) -> [UInt8] {
        Array(id.utf8) + (version == 4 ? syncsafe(content.count) : bigEndian32(content.count)) + [0, formatFlags] + content
    }

    /// A whole tag: "ID3", version, flags, syncsafe size, then the body.
    static func tag(version: UInt8 = 4, flags: UInt8 = 0, _ frames: [[UInt8]], padding: Int = 0) -> [UInt8] {
        let body = frames.flatMap { $0 } + [UInt8](repeating: 0, count: padding)
        return Array("ID3".utf8) + [version, 0, flags] + syncsafe(body.count) + body
    }

    static func utf8(_ text: String) -> [UInt8] { [3] + Array(text.utf8) + [0] }
    static func latin1(_ text: String) -> [UInt8] { [0] + text.unicodeScalars.map { UInt8($0.value) } }

    /// UTF-16 with a little-endian BOM, as Windows-born tools write v2.3.
    static func utf16WithBOM(_ text: String) -> [UInt8] {
        [1, 0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0, 0]
    }

    static func txxx(_ description: String, _ value: String) -> [UInt8] {
        [3] + Array(description.utf8) + [0] + Array(value.utf8)
    }

    static func packed(_ bytes: [UInt8]) -> String? { HLSTimedMetadata.title(in: Data(bytes), container: .packedAudio) }
    static func transportStream(_ bytes: [UInt8]) -> String? { HLSTimedMetadata.title(in: Data(bytes), container: .mpegTS) }

    /// Some ADTS frame bytes, standing for the audio after the tags.
    static let adtsAudio: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x02, 0x1F, 0xFC, 0xDE, 0x02, 0x00, 0x4C, 0x61, 0x76, 0x63]

    // MARK: - ID3v2 in packed audio

    @Test func aVersion4TagWithUTF8ArtistAndTitle() {
        let bytes = Self.tag([Self.frame("TIT2", Self.utf8("Slow Song")), Self.frame("TPE1", Self.utf8("Night Band"))], padding: 20)
        #expect(Self.packed(bytes + Self.adtsAudio) == "Night Band - Slow Song")
        #expect(HLSTimedMetadata.title(fromID3: bytes) == "Night Band - Slow Song")
    }

    @Test func aTitleWithoutArtistIsTheTitleAlone() {
        #expect(Self.packed(Self.tag([Self.frame("TIT2", Self.utf8("Only A Title"))])) == "Only A Title")
        #expect(Self.packed(Self.tag([Self.frame("TPE1", Self.utf8("Only An Artist"))])) == nil, "an artist is no title")
    }

    @Test func aVersion3TagInUTF16WithBOM() {
        let bytes = Self.tag(version: 3, [
            Self.frame("TPE1", Self.utf16WithBOM("Sigur Rós"), version: 3),
            Self.frame("TIT2", Self.utf16WithBOM("Hoppípolla 🎵"), version: 3),
        ])
        #expect(Self.packed(bytes) == "Sigur Rós - Hoppípolla 🎵")
        let bigEndian: [UInt8] = [2] + "Ünder".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(Self.packed(Self.tag([Self.frame("TIT2", bigEndian)])) == "Ünder", "encoding 2 is UTF-16BE without BOM")
    }

    @Test func latin1TextIsDecodedByteForCodePoint() {
        let bytes = Self.tag(version: 3, [Self.frame("TIT2", [0] + Array("Caf".utf8) + [0xE9], version: 3)])
        #expect(Self.packed(bytes) == "Café")
        #expect(Self.packed(Self.tag([Self.frame("TIT2", Self.latin1("Smörgåsbord"))])) == "Smörgåsbord")
    }

    @Test func onlyTheFirstOfSeveralValuesIsTaken() {
        let utf8 = Self.frame("TIT2", [3] + Array("First".utf8) + [0] + Array("Second".utf8) + [0, 0, 0])
        #expect(Self.packed(Self.tag([utf8])) == "First")
        let utf16 = [1, 0xFF, 0xFE, 0x41, 0, 0x42, 0, 0, 0, 0xFF, 0xFE, 0x43, 0] as [UInt8]
        #expect(Self.packed(Self.tag([Self.frame("TIT2", utf16)])) == "AB")
    }

    @Test func aStreamTitleInTXXXIsAWholeTitleWhenThereIsNoTIT2() {
        #expect(Self.packed(Self.tag([Self.frame("TXXX", Self.txxx("StreamTitle", "Band - Tune"))])) == "Band - Tune")
        #expect(Self.packed(Self.tag([Self.frame("TXXX", Self.txxx("TITLE", "Shouted"))])) == "Shouted", "case does not matter")
        #expect(Self.packed(Self.tag([Self.frame("TXXX", Self.txxx("comment", "Not a title"))])) == nil)
        let both = Self.tag([Self.frame("TXXX", Self.txxx("StreamTitle", "From TXXX")), Self.frame("TIT2", Self.utf8("From TIT2"))])
        #expect(Self.packed(both) == "From TIT2", "TIT2 wins")
    }

    @Test func theLastOfConsecutiveTagsAtTheStartWins() {
        // Apple's segments begin with a PRIV timestamp tag; stations add a title tag after it.
        let timestamp = Self.tag([Self.frame("PRIV", Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x1F, 0x40])])
        let first = Self.tag(version: 3, [Self.frame("TIT2", Self.utf8("Earlier"), version: 3)])
        let second = Self.tag([Self.frame("TIT2", Self.utf8("Later")), Self.frame("TPE1", Self.utf8("Act"))])
        #expect(Self.packed(timestamp + first + second + Self.adtsAudio) == "Act - Later")
        #expect(Self.packed(first + timestamp + Self.adtsAudio) == "Earlier", "a tag without a title keeps the one before")
        #expect(Self.packed(Self.adtsAudio + second) == nil, "only tags at the very start count")
    }

    @Test func aSegmentWithoutATagHasNoTitle() {
        #expect(Self.packed(Self.adtsAudio) == nil)
        #expect(Self.packed([]) == nil)
        #expect(Self.packed(Self.tag([Self.frame("PRIV", [1, 2, 3])])) == nil)
        #expect(Self.transportStream(Self.adtsAudio) == nil)
    }

    @Test func extendedHeadersFootersAndVersion2Tags() {
        let v3 = Array("ID3".utf8) + [3, 0, 0x40]
        let v3Body = Self.bigEndian32(6) + [0, 0, 0, 0, 0, 0] + Self.frame("TIT2", Self.utf8("After Header"), version: 3)
        #expect(Self.packed(v3 + Self.syncsafe(v3Body.count) + v3Body) == "After Header")

        let v4Body = Self.syncsafe(6) + [1, 0] + Self.frame("TIT2", Self.utf8("After V4 Header"))
        #expect(Self.packed(Array("ID3".utf8) + [4, 0, 0x40] + Self.syncsafe(v4Body.count) + v4Body) == "After V4 Header")

        // A v2.4 footer ("3DI" + the header's fields) sits between a tag and the next one.
        let footed = Self.tag(flags: 0x10, [Self.frame("TIT2", Self.utf8("Footed"))])
        let footer = Array("3DI".utf8) + footed[3..<10]
        #expect(Self.packed(footed + footer + Self.tag([Self.frame("TIT2", Self.utf8("Next"))])) == "Next")

        // v2.2: three-letter IDs, three-byte sizes, no flags.
        let v2Frames: [UInt8] = Array("TT2".utf8) + [0, 0, 5] + Self.latin1("Tune") + Array("TP1".utf8) + [0, 0, 5] + Self.latin1("Band")
        #expect(Self.packed(Array("ID3".utf8) + [2, 0, 0] + Self.syncsafe(v2Frames.count) + v2Frames) == "Band - Tune")
    }

    @Test func unsynchronisationAndFrameFlagsAreUndone() {
        // "ÿes" in Latin-1 is FF 65 73; unsynchronisation writes FF 00 65 73.
        let content: [UInt8] = [0, 0xFF, 0x00, 0x65, 0x73]
        // In v2.3 the whole tag is unsynchronised after it is made: the frame size counts 4 bytes.
        let v3 = Array("TIT2".utf8) + Self.bigEndian32(4) + [0, 0] + content
        #expect(Self.packed(Array("ID3".utf8) + [3, 0, 0x80] + Self.syncsafe(v3.count) + v3) == "ÿes")
        #expect(Self.packed(Self.tag([Self.frame("TIT2", content, formatFlags: 0x02)])) == "ÿes")
        // v2.4 data length indicator (flag 0x01) and group identifier (flag 0x40) come before the text.
        let text = Self.utf8("Flagged")
        #expect(Self.packed(Self.tag([Self.frame("TIT2", [7] + Self.syncsafe(text.count) + text, formatFlags: 0x41)])) == "Flagged")
        #expect(Self.packed(Self.tag([Self.frame("TIT2", text, formatFlags: 0x08)])) == nil, "compressed frames are skipped")
    }

    @Test func controlAndBidiCharactersAreSanitised() {
        let hostile = "Evil\u{1B}[31m Song\nline two\u{202E}\u{0}tail"
        let bytes = Self.tag([Self.frame("TIT2", [3] + Array(hostile.utf8)), Self.frame("TPE1", Self.utf8("\u{7}\t"))])
        #expect(Self.packed(bytes) == "Evil[31m Song line two", "NUL ends the value; the bell-only artist is empty")
        let long = String(repeating: "x", count: 5000)
        #expect(Self.packed(Self.tag([Self.frame("TIT2", Self.utf8(long))]))?.count == 256)
        #expect(Self.packed(Self.tag([Self.frame("TIT2", Self.utf8("\u{1}\u{2}"))])) == nil, "nothing left is no title")
    }

    // MARK: - Hostile ID3

    @Test func truncatedTagsNeverCrashAndNeverInventATitle() {
        let whole = Self.tag([Self.frame("TPE1", Self.utf8("Band")), Self.frame("TIT2", Self.utf8("Tune"))])
        for length in 0..<whole.count {
            let title = Self.packed(Array(whole.prefix(length)))
            #expect(title == nil || title == "Band", "prefix \(length): \(title ?? "nil")")
            _ = HLSTimedMetadata.title(fromID3: whole.prefix(length))
        }
        #expect(Self.packed(whole) == "Band - Tune")
    }

    @Test func absurdSizesAreBoundedByTheBytesThere() {
        let frames = Self.frame("TIT2", Self.utf8("Still Here"))
        // FF FF FF FF (about 2 GB if read plainly) is no syncsafe size: no tag.
        #expect(Self.packed(Array("ID3".utf8) + [4, 0, 0] + [0xFF, 0xFF, 0xFF, 0xFF] + frames) == nil)
        // The largest syncsafe size (256 MB) is read as far as the bytes go.
        #expect(Self.packed(Array("ID3".utf8) + [4, 0, 0] + [0x7F, 0x7F, 0x7F, 0x7F] + frames) == "Still Here")
        // A frame claiming 4 GB (v2.3) or 256 MB (v2.4) ends the frames.
        let v3 = Array("TIT2".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0] + Self.utf8("Overflow")
        #expect(Self.packed(Array("ID3".utf8) + [3, 0, 0] + Self.syncsafe(v3.count) + v3) == nil)
        let v4 = Array("TIT2".utf8) + [0x7F, 0x7F, 0x7F, 0x7F, 0, 0] + Self.utf8("Overflow")
        #expect(Self.packed(Array("ID3".utf8) + [4, 0, 0] + Self.syncsafe(v4.count) + v4) == nil)
        // An extended header claiming 2 GB in an 8-byte tag, and an unknown version.
        #expect(Self.packed(Array("ID3".utf8) + [3, 0, 0x40] + Self.syncsafe(8) + [0x7F, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0]) == nil)
        #expect(Self.packed(Array("ID3".utf8) + [0xFF, 0, 0] + Self.syncsafe(0)) == nil, "unknown version")
        // Thousands of tiny tags, and thousands of empty frames, are cut off by the limits.
        let empty = Self.tag([Self.frame("TIT2", Self.utf8("x"))])
        #expect(Self.packed(Array([[UInt8]](repeating: empty, count: 5000).joined())) == "x")
        let manyFrames = Self.tag([[UInt8]](repeating: Self.frame("TPE2", []), count: 5000) + [Self.frame("TIT2", Self.utf8("Late"))])
        #expect(Self.packed(manyFrames) == nil, "a title after the frame limit is not reached")
    }

    @Test func randomAndMutatedBytesNeverCrash() {
        var random = SeededRandom(seed: 0x1D3)
        let good = Self.tag([Self.frame("TPE1", Self.utf16WithBOM("Band")), Self.frame("TIT2", Self.utf8("Tune")), Self.frame("TXXX", Self.txxx("title", "T"))])
        let segment = Self.segment(metadata: Self.tag([Self.frame("TIT2", Self.utf8("Tune"))]))
        for round in 0..<2000 {
            let noise = (0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = Self.packed(noise)
            _ = Self.packed(Array("ID3".utf8) + [UInt8(2 + round % 3)] + noise)
            _ = Self.transportStream(noise)
            _ = Self.transportStream([0x47] + noise)
            var tag = good
            var ts = segment
            for _ in 0..<(1 + round % 8) {
                tag[Int(random.next() % UInt64(tag.count))] = UInt8(truncatingIfNeeded: random.next())
                ts[Int(random.next() % UInt64(ts.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            _ = Self.packed(tag)
            _ = Self.transportStream(ts)
            _ = Self.transportStream(Array(ts.prefix(Int(random.next() % UInt64(ts.count)))))
        }
    }

    // MARK: - Building MPEG-TS segments

    static let pmtPID = 0x1000
    static let audioPID = 0x101
    static let metadataPID = 0x102

    /// One 188-byte packet. Short payloads are padded with adaptation-field stuffing (PES) or
    /// 0xFF after the section (PSI), as muxers do; `adaptation` adds a field of that many bytes.
    static func packet(pid: Int, unitStart: Bool, payload: [UInt8], continuity: Int = 0, adaptation: [UInt8]? = nil, stuffPayload: Bool = false) -> [UInt8] {
        precondition(payload.count <= 184)
        var header: [UInt8] = [0x47, UInt8((unitStart ? 0x40 : 0) | (pid >> 8 & 0x1F)), UInt8(pid & 0xFF)]
        var field = adaptation
        let room = 184 - payload.count - (field.map { $0.count + 1 } ?? 0)
        if room > 0 && !stuffPayload {
            if field == nil {
                // One byte of room is a length-0 adaptation field; more is flags plus stuffing.
                field = room == 1 ? [] : [0x00] + [UInt8](repeating: 0xFF, count: room - 2)
            } else {
                field! += [UInt8](repeating: 0xFF, count: room)
            }
        }
        let control: UInt8 = field == nil ? 0x1 : (payload.isEmpty ? 0x2 : 0x3)
        header.append(control << 4 | UInt8(continuity & 0x0F))
        var packet = header
        if let field { packet += [UInt8(field.count)] + field }
        packet += payload
        packet += [UInt8](repeating: 0xFF, count: 188 - packet.count)
        precondition(packet.count == 188)
        return packet
    }

    /// A PSI section in a unit-start packet. The parser does not check the CRC, but ffmpeg does.
    static func psi(pid: Int, tableID: UInt8, body: [UInt8]) -> [UInt8] {
        let length = 5 + body.count + 4
        let section = [tableID, UInt8(0xB0 | (length >> 8)), UInt8(length & 0xFF), 0x00, 0x01, 0xC1, 0x00, 0x00] + body
        return packet(pid: pid, unitStart: true, payload: [0x00] + section + bigEndian32(Int(crc32MPEG2(section))), stuffPayload: true)
    }

    /// CRC-32/MPEG-2 (polynomial 0x04C11DB7, no reflection, no final XOR), as PSI sections carry.
    static func crc32MPEG2(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? crc << 1 ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    static func pat(pmtPID: Int = pmtPID) -> [UInt8] {
        psi(pid: 0, tableID: 0x00, body: [0x00, 0x01, UInt8(0xE0 | (pmtPID >> 8)), UInt8(pmtPID & 0xFF)])
    }

    /// A PMT listing `streams` (stream type, PID, ES descriptors), PCR on the audio PID.
    static func pmt(_ streams: [(type: UInt8, pid: Int, descriptors: [UInt8])], programInfo: [UInt8] = []) -> [UInt8] {
        var body: [UInt8] = [UInt8(0xE0 | (audioPID >> 8)), UInt8(audioPID & 0xFF), UInt8(0xF0 | (programInfo.count >> 8)), UInt8(programInfo.count & 0xFF)]
        body += programInfo
        for stream in streams {
            body += [stream.type, UInt8(0xE0 | (stream.pid >> 8)), UInt8(stream.pid & 0xFF)]
            body += [UInt8(0xF0 | (stream.descriptors.count >> 8)), UInt8(stream.descriptors.count & 0xFF)] + stream.descriptors
        }
        return psi(pid: pmtPID, tableID: 0x02, body: body)
    }

    /// Apple's metadata_descriptor (0x26): application format 0xFFFF "ID3 ", format 0xFF "ID3 ".
    static let id3MetadataDescriptor: [UInt8] = [0x26, 0x0D, 0xFF, 0xFF, 0x49, 0x44, 0x33, 0x20, 0xFF, 0x49, 0x44, 0x33, 0x20, 0x00, 0x0F]

    /// A PES packet on private_stream_1 with a PTS, as Apple's segmenter writes timed metadata.
    static func pes(_ payload: [UInt8], streamID: UInt8 = 0xBD) -> [UInt8] {
        let header: [UInt8] = [0x84, 0x80, 0x05, 0x21, 0x00, 0x07, 0xD8, 0x61]
        let length = header.count + payload.count
        return [0, 0, 1, streamID, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header + payload
    }

    /// Splits a PES into packets on `pid`: the first with a PCR-sized adaptation field, and an
    /// adaptation-only packet between the second and third, to exercise every field control.
    static func packets(pid: Int, pes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var rest = pes[...]
        var continuity = 0
        let pcrField: [UInt8] = [0x10, 0, 0, 0, 0, 0x7E, 0]
        while !rest.isEmpty {
            let first = continuity == 0
            let take = min(rest.count, first ? 184 - pcrField.count - 1 : 184)
            out += packet(pid: pid, unitStart: first, payload: Array(rest.prefix(take)), continuity: continuity, adaptation: first ? pcrField : nil)
            rest = rest.dropFirst(take)
            if continuity == 1 { out += packet(pid: pid, unitStart: false, payload: [], continuity: continuity, adaptation: [0x00]) }
            continuity += 1
        }
        return out
    }

    /// A segment: PAT, PMT (AAC and, unless `metadataType` is nil, a metadata stream), some
    /// audio packets, then the metadata tags' PES packets, each followed by more audio.
    static func segment(metadata tags: [UInt8]..., metadataType: UInt8? = 0x15, descriptors: [UInt8] = id3MetadataDescriptor) -> [UInt8] {
        var streams: [(type: UInt8, pid: Int, descriptors: [UInt8])] = [(0x0F, audioPID, [])]
        if let metadataType { streams.append((metadataType, metadataPID, descriptors)) }
        let audio = packets(pid: audioPID, pes: pes(Array([[UInt8]](repeating: adtsAudio, count: 30).joined()), streamID: 0xC0))
        var out = pat() + pmt(streams) + audio
        for tag in tags { out += packets(pid: metadataPID, pes: pes(tag)) + audio }
        return out
    }

    // MARK: - ID3 in MPEG-TS

    @Test func aTagInATransportStreamAcrossSeveralPackets() {
        let tag = Self.tag([
            Self.frame("PRIV", Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0, 0, 0, 0, 0, 0, 0, 0x1F, 0x40]),
            Self.frame("PRIV", Array("com.station.cue".utf8) + [0] + [UInt8](repeating: 0xA5, count: 150)),
            Self.frame("TIT2", Self.utf8("A Long Title " + String(repeating: "la ", count: 60))),
            Self.frame("TPE1", Self.utf8("Chorus")),
        ])
        #expect(tag.count > 400, "the PES spans three packets and an adaptation-only one")
        let segment = Self.segment(metadata: tag)
        #expect(segment.count % 188 == 0)
        #expect(Self.transportStream(segment) == "Chorus - A Long Title " + String(repeating: "la ", count: 60).dropLast())
    }

    @Test func theLastTagInATransportStreamWins() {
        let first = Self.tag([Self.frame("TIT2", Self.utf8("First"))])
        let second = Self.tag(version: 3, [Self.frame("TIT2", Self.utf16WithBOM("Second"), version: 3)])
        let untitled = Self.tag([Self.frame("PRIV", [0])])
        #expect(Self.transportStream(Self.segment(metadata: first, second, untitled)) == "Second")
    }

    @Test func aTransportStreamWithoutAMetadataStreamHasNoTitle() {
        let tag = Self.tag([Self.frame("TIT2", Self.utf8("Hidden"))])
        #expect(Self.transportStream(Self.segment(metadata: tag, metadataType: nil)) == nil)
        // The same PES on a stream the PMT calls AAC is audio, not metadata.
        let asAudio = Self.pat() + Self.pmt([(0x0F, Self.metadataPID, [])]) + Self.packets(pid: Self.metadataPID, pes: Self.pes(tag))
        #expect(Self.transportStream(asAudio) == nil)
        // No PAT: the PMT is never found.
        #expect(Self.transportStream(Array(Self.segment(metadata: tag).dropFirst(188))) == nil)
        // Packed-audio parsing of a TS segment finds nothing either.
        #expect(Self.packed(Self.segment(metadata: tag)) == nil)
    }

    @Test func aPrivateStreamRegisteredAsID3CountsToo() {
        let tag = Self.tag([Self.frame("TIT2", Self.utf8("Private"))])
        let registration: [UInt8] = [0x05, 0x04, 0x49, 0x44, 0x33, 0x20]
        #expect(Self.transportStream(Self.segment(metadata: tag, metadataType: 0x06, descriptors: registration)) == "Private")
        #expect(Self.transportStream(Self.segment(metadata: tag, metadataType: 0x06, descriptors: [0x05, 0x04] + Array("AC-3".utf8))) == nil)
        #expect(Self.transportStream(Self.segment(metadata: tag, metadataType: 0x15, descriptors: [])) == "Private", "any 0x15 stream")
    }

    @Test func anISOMetadataStreamWrapsTagsInAccessUnitCells() {
        // stream_id 0xFC: each tag in a cell with a 5-byte header (service, sequence, flags, length).
        let first = Self.tag([Self.frame("TIT2", Self.utf8("Cell One"))])
        let second = Self.tag([Self.frame("TIT2", Self.utf8("Cell Two"))])
        func cell(_ tag: [UInt8]) -> [UInt8] { [0x00, 0x00, 0xDF, UInt8(tag.count >> 8), UInt8(tag.count & 0xFF)] + tag }
        let segment = Self.pat() + Self.pmt([(0x15, Self.metadataPID, Self.id3MetadataDescriptor)])
        #expect(Self.transportStream(segment + Self.packets(pid: Self.metadataPID, pes: Self.pes(cell(first) + cell(second), streamID: 0xFC))) == "Cell Two")
        #expect(Self.transportStream(segment + Self.packets(pid: Self.metadataPID, pes: Self.pes(first, streamID: 0xFC))) == "Cell One", "or bare")
        var lying = cell(first)
        lying[3] = 0xFF
        #expect(Self.transportStream(segment + Self.packets(pid: Self.metadataPID, pes: Self.pes(lying, streamID: 0xFC))) == "Cell One", "a cell length past the end is cut to the bytes there")
    }

    @Test func aTransportStreamIsResynchronisedAfterLeadingGarbage() {
        let segment = Self.segment(metadata: Self.tag([Self.frame("TIT2", Self.utf8("Synced"))]))
        #expect(Self.transportStream([0x00, 0x47, 0x12, 0x47, 0x00] + segment) == "Synced")
        // Seven stray bytes after the PMT: the packets after them are found again.
        #expect(Self.transportStream(Array(segment.prefix(376)) + [0x47, 1, 2, 3, 0x47, 5, 6] + segment.dropFirst(376)) == "Synced")
        #expect(Self.transportStream(Array(segment.dropFirst(1))) == nil, "in step again from the PMT on, but the PAT is lost")
        #expect(Self.transportStream([UInt8](repeating: 0x47, count: 100) + [UInt8](repeating: 0, count: 1000)) == nil, "no sync at all")
    }

    @Test func hostileTransportStreamTablesNeverCrash() {
        let tag = Self.tag([Self.frame("TIT2", Self.utf8("Tune"))])
        var segment = Self.segment(metadata: tag)
        // A pointer field and a section length pointing past the packet.
        segment[4] = 0xFF
        #expect(Self.transportStream(segment) == nil)
        segment = Self.segment(metadata: tag)
        segment[6] = 0xBF
        segment[7] = 0xFF
        #expect(Self.transportStream(segment) == nil)
        // A PMT whose program_info_length, or ES_info_length, overruns the section.
        let pcr: [UInt8] = [0xE1, 0x01]
        let metadataStream: [UInt8] = [0x15, 0xE1, 0x02]
        for body in [pcr + [0xFF, 0xFF] + metadataStream + [0xF0, 0x00], pcr + [0xF0, 0x00] + metadataStream + [0xFF, 0xFF]] {
            let pmt = Self.psi(pid: Self.pmtPID, tableID: 0x02, body: body)
            #expect(Self.transportStream(Self.pat() + pmt + Self.packets(pid: Self.metadataPID, pes: Self.pes(tag))) == nil)
        }
        #expect(Self.transportStream(Self.pat() + Self.psi(pid: Self.pmtPID, tableID: 0x02, body: pcr + [0xF0, 0x00] + metadataStream + [0xF0, 0x00])
            + Self.packets(pid: Self.metadataPID, pes: Self.pes(tag))) == "Tune", "the same PMT with sane lengths")
        // An adaptation field longer than the packet, a PES length of 0 ("unbounded"), a PES
        // header length past the end, and a PES far beyond the cap.
        var overlong = Self.packet(pid: Self.metadataPID, unitStart: true, payload: [], adaptation: [])
        overlong[4] = 0xFF
        overlong[3] = 0x30
        _ = Self.transportStream(Self.pat() + Self.pmt([(0x15, Self.metadataPID, [])]) + overlong)
        var unbounded = Self.pes(tag)
        unbounded[4] = 0
        unbounded[5] = 0
        #expect(Self.transportStream(Self.pat() + Self.pmt([(0x15, Self.metadataPID, [])]) + Self.packets(pid: Self.metadataPID, pes: unbounded)) == "Tune")
        var badHeader = Self.pes(tag)
        badHeader[8] = 0xFF
        #expect(Self.transportStream(Self.pat() + Self.pmt([(0x15, Self.metadataPID, [])]) + Self.packets(pid: Self.metadataPID, pes: badHeader)) == nil)
        let huge = Self.tag([Self.frame("TIT2", Self.utf8("Big"))]) + [UInt8](repeating: 0x55, count: 200_000)
        let hugeSegment = Self.pat() + Self.pmt([(0x15, Self.metadataPID, [])]) + Self.packets(pid: Self.metadataPID, pes: [0, 0, 1, 0xBD, 0, 0, 0x84, 0, 0] + huge)
        #expect(Self.transportStream(hugeSegment) == "Big", "the tag's start is within the kept 64 KiB")
    }

    // MARK: - Real files made by ffmpeg

    /// Runs `tool` with `arguments` in a new temporary directory, after writing `input` there,
    /// and returns the file named `output` it made there, or else its standard output. A missing
    /// tool or a failed run is a failure, not a skip: these are the proof that real files parse.
    static func run(_ tool: String, _ arguments: [String], input: (name: String, bytes: [UInt8])? = nil, output: String? = nil) async throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-id3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if let input { try Data(input.bytes).write(to: directory.appendingPathComponent(input.name)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.currentDirectoryURL = directory
        process.arguments = arguments
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()
        // Read both pipes to their ends (one on another thread), so neither can fill up and block.
        let errorReader = Task.detached { standardError.fileHandleForReading.readDataToEndOfFile() }
        let bytes = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errors = await errorReader.value
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0,
            "\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        guard let output else { return bytes }
        return try Data(contentsOf: directory.appendingPathComponent(output))
    }

    @Test func anADTSFileTaggedByFFmpeg() async throws {
        let file = try await Self.run(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "-f", "adts", "-write_id3v2", "1",
                "-metadata", "title=Tune", "-metadata", "artist=Band", "OUT.aac",
            ],
            output: "OUT.aac")
        #expect(file.starts(with: Array("ID3".utf8)))
        #expect(HLSTimedMetadata.title(in: file, container: .packedAudio) == "Band - Tune")
    }

    @Test func ffmpegReadsTheHandBuiltMetadataStreamAsTimedID3() async throws {
        // The other direction: FFmpeg's demuxer takes the hand-built PAT, PMT (with CRCs) and
        // metadata descriptor for a timed_id3 stream, so the segments above are laid out as real ones.
        let segment = Self.segment(metadata: Self.tag([Self.frame("TIT2", Self.utf8("Probed"))]))
        let streams = try await Self.run(
            "/usr/bin/ffprobe", ["-v", "quiet", "-show_entries", "stream=codec_name,id", "-of", "csv=p=0", "in.ts"],
            input: ("in.ts", segment))
        #expect(String(decoding: streams, as: UTF8.self).split(separator: "\n").contains("timed_id3,0x102"))
    }
}
