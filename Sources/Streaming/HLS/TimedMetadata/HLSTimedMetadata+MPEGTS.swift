import Foundation

/// Timed metadata in MPEG-2 transport stream segments: the program tables say which elementary
/// stream carries ID3 (stream_type 0x15, or a private stream whose descriptors name ID3), and that
/// stream's PES packets hold the tags, read as in packed audio.
extension HLSTimedMetadata {
    static let packetLength = 188
    static let syncByte: UInt8 = 0x47

    /// A metadata PES being reassembled, with the packet number it began at (to know which is last).
    private struct PendingPES {
        let order: Int
        var bytes: [UInt8]
    }

    static func titleInTransportStream(_ bytes: ArraySlice<UInt8>) -> String? {
        var position: Int? = bytes.first == syncByte ? bytes.startIndex : resync(bytes, from: bytes.startIndex)
        var programPIDs: Set<Int> = []
        var metadataPIDs: Set<Int> = []
        var pending: [Int: PendingPES] = [:]
        var last: (order: Int, title: String)?
        var packetNumber = 0

        func finish(_ pes: PendingPES) {
            guard let title = titleInPES(pes.bytes[...]) else { return }
            if last.map({ pes.order > $0.order }) ?? true { last = (pes.order, title) }
        }

        while let start = position, bytes.endIndex - start >= packetLength {
            guard bytes[start] == syncByte else {
                position = resync(bytes, from: start)
                continue
            }
            position = start + packetLength
            packetNumber += 1
            let packet = bytes[start..<start + packetLength]
            guard let payload = payload(packet) else { continue }
            let flags = packet[start + 1]
            let unitStart = flags & 0x40 != 0
            let pid = Int(flags & 0x1F) << 8 | Int(packet[start + 2])

            if pid == 0 {
                guard unitStart, let section = section(payload, tableID: 0x00) else { continue }
                for programPID in programMapPIDs(section) where programPIDs.count < Limits.maxProgramPIDs {
                    programPIDs.insert(programPID)
                }
            } else if programPIDs.contains(pid) {
                guard unitStart, let section = section(payload, tableID: 0x02) else { continue }
                for streamPID in id3StreamPIDs(section) where metadataPIDs.count < Limits.maxMetadataPIDs {
                    metadataPIDs.insert(streamPID)
                }
            } else if metadataPIDs.contains(pid) {
                if unitStart {
                    if let done = pending.removeValue(forKey: pid) { finish(done) }
                    pending[pid] = PendingPES(order: packetNumber, bytes: Array(payload.prefix(Limits.maxPESBytes)))
                } else if let kept = pending[pid]?.bytes.count, kept < Limits.maxPESBytes {
                    // A continuation with no start before it in this segment is dropped.
                    pending[pid]?.bytes.append(contentsOf: payload.prefix(Limits.maxPESBytes - kept))
                }
            }
        }
        for pes in pending.values { finish(pes) }
        return last?.title
    }

    /// The first offset from `start` where three packets in a row begin with the sync byte.
    static func resync(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        let end = min(bytes.endIndex - 2 * packetLength, start + Limits.maxResyncBytes)
        guard start < end else { return nil }
        return (start..<end).first {
            bytes[$0] == syncByte && bytes[$0 + packetLength] == syncByte && bytes[$0 + 2 * packetLength] == syncByte
        }
    }

    /// A packet's payload after any adaptation field; nil for errored packets and packets without one.
    private static func payload(_ packet: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let start = packet.startIndex
        guard packet[start + 1] & 0x80 == 0 else { return nil }  // transport_error_indicator
        let control = (packet[start + 3] >> 4) & 0x03
        guard control & 0x01 != 0 else { return nil }  // 0 is reserved, 2 is adaptation only
        var payloadStart = start + 4
        if control & 0x02 != 0 { payloadStart += 1 + Int(packet[start + 4]) }
        guard payloadStart < packet.endIndex else { return nil }
        return packet[payloadStart...]
    }

    /// The PSI section starting in a unit-start payload, without its CRC (not checked: a bad
    /// table only loses a title). Sections longer than one packet are not reassembled.
    private static func section(_ payload: ArraySlice<UInt8>, tableID: UInt8) -> ArraySlice<UInt8>? {
        let start = payload.startIndex + 1 + Int(payload[payload.startIndex])  // pointer_field
        guard payload.endIndex - start >= 3, payload[start] == tableID else { return nil }
        let length = Int(payload[start + 1] & 0x0F) << 8 | Int(payload[start + 2])
        guard length >= 9, payload.endIndex - start - 3 >= length else { return nil }
        return payload[start..<start + 3 + length - 4]
    }

    /// The program map PIDs a PAT lists (program 0 is the network PID).
    private static func programMapPIDs(_ section: ArraySlice<UInt8>) -> [Int] {
        var pids: [Int] = []
        var index = section.startIndex + 8
        while section.endIndex - index >= 4 {
            let program = Int(section[index]) << 8 | Int(section[index + 1])
            if program != 0 { pids.append(Int(section[index + 2] & 0x1F) << 8 | Int(section[index + 3])) }
            index += 4
        }
        return pids
    }

    /// The PIDs of a PMT's ID3 metadata streams: stream_type 0x15 (metadata in PES, Apple's
    /// choice), or 0x06 (private PES) when a registration or metadata descriptor says "ID3 ".
    private static func id3StreamPIDs(_ section: ArraySlice<UInt8>) -> [Int] {
        guard section.count >= 12 else { return [] }
        let programInfoLength = Int(section[section.startIndex + 10] & 0x0F) << 8 | Int(section[section.startIndex + 11])
        var index = section.startIndex + 12 + programInfoLength
        var pids: [Int] = []
        while index <= section.endIndex - 5 {
            let streamType = section[index]
            let pid = Int(section[index + 1] & 0x1F) << 8 | Int(section[index + 2])
            let infoLength = Int(section[index + 3] & 0x0F) << 8 | Int(section[index + 4])
            let descriptorsEnd = index + 5 + infoLength
            guard descriptorsEnd <= section.endIndex else { break }
            if streamType == 0x15 || (streamType == 0x06 && namesID3(section[index + 5..<descriptorsEnd])) { pids.append(pid) }
            index = descriptorsEnd
        }
        return pids
    }

    /// Whether a registration (0x05) or metadata (0x26) descriptor carries the "ID3 " identifier.
    private static func namesID3(_ descriptors: ArraySlice<UInt8>) -> Bool {
        let id3: [UInt8] = [0x49, 0x44, 0x33, 0x20]
        var index = descriptors.startIndex
        while descriptors.endIndex - index >= 2 {
            let tag = descriptors[index]
            let end = index + 2 + Int(descriptors[index + 1])
            guard end <= descriptors.endIndex else { return false }
            let body = descriptors[index + 2..<end]
            if tag == 0x05 || tag == 0x26, body.count >= 4 {
                for offset in body.startIndex...(body.endIndex - 4) where body[offset..<offset + 4].elementsEqual(id3) { return true }
            }
            index = end
        }
        return false
    }

    /// The title in a reassembled PES packet: its header skipped, its payload read as ID3 tags.
    static func titleInPES(_ pes: ArraySlice<UInt8>) -> String? {
        let start = pes.startIndex
        guard pes.count >= 6, pes[start] == 0, pes[start + 1] == 0, pes[start + 2] == 1 else { return nil }
        let streamID = pes[start + 3]
        let length = Int(pes[start + 4]) << 8 | Int(pes[start + 5])
        let end = length == 0 ? pes.endIndex : min(pes.endIndex, start + 6 + length)
        var payloadStart = start + 6
        // These stream IDs have no optional PES header (ISO/IEC 13818-1 §2.4.3.7).
        let headerless: Set<UInt8> = [0xBC, 0xBE, 0xBF, 0xF0, 0xF1, 0xF2, 0xF8, 0xFF]
        if !headerless.contains(streamID) {
            guard end - start >= 9 else { return nil }
            payloadStart = start + 9 + Int(pes[start + 8])
        }
        guard payloadStart < end else { return nil }
        let payload = pes[payloadStart..<end]
        guard streamID == metadataStreamID, id3Header(payload) == nil else { return titleInConsecutiveTags(payload) }
        // Apple's streams use private_stream_1 (0xBD) with the bare tag; the ISO metadata stream
        // (0xFC) wraps it in access-unit cells (ISO/IEC 13818-1 §2.12.4): a 5-byte header whose
        // last two bytes are the length of the cell's data.
        var cells = payload
        var found: String?
        var count = 0
        while count < Limits.maxConsecutiveTags, cells.count >= 5 {
            count += 1
            let length = bigEndian(cells, at: cells.startIndex + 3, count: 2)
            if let title = titleInConsecutiveTags(cells.dropFirst(5).prefix(length)) { found = title }
            guard cells.count - 5 > length else { break }
            cells = cells.dropFirst(5 + length)
        }
        return found
    }

    /// The PES stream_id of an ISO/IEC 13818-1 metadata stream.
    static let metadataStreamID: UInt8 = 0xFC
}
