/// An audio format as filters name one, `SAMPLERATE:BITS:CHANNELS` (`44100:16:2`, `48000:f:2`,
/// `*:24:*`): the sample rate in Hz, the sample format (`8`, `16`, `24`, `32`, `f`, `dsd`) and the
/// channel count. A field left nil is `*`, "any", which only a mask (`=~`) may hold.
public struct MPDAudioFormat: Sendable, Hashable, CustomStringConvertible {
    public var sampleRate: Int?
    public var sampleFormat: String?
    public var channels: Int?

    public init(sampleRate: Int?, sampleFormat: String?, channels: Int?) {
        self.sampleRate = sampleRate
        self.sampleFormat = sampleFormat
        self.channels = channels
    }

    /// The sample formats MPD names (`24` is MPD's 24 bits in 32).
    public static let sampleFormats: Set<String> = ["8", "16", "24", "32", "f", "dsd"]

    public var description: String {
        "\(sampleRate.map(String.init) ?? "*"):\(sampleFormat ?? "*"):\(channels.map(String.init) ?? "*")"
    }

    /// Every field this mask gives equals the song's (MPD's `MatchMask`); a song with no known
    /// format matches none.
    public func isMatched(by mask: MPDAudioFormat) -> Bool {
        guard let sampleRate, let sampleFormat, let channels else { return false }
        return (mask.sampleRate.map { $0 == sampleRate } ?? true) && (mask.sampleFormat.map { $0 == sampleFormat } ?? true)
            && (mask.channels.map { $0 == channels } ?? true)
    }

    /// Reads `S:B:C` as MPD's `ParseAudioFormat` does; `*` is allowed only when `mask`. Errors
    /// are the client's `ACK [2@…]`, worded as MPD words them.
    public init(parsing text: String, mask: Bool) throws(MPDAck) {
        let fields = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        if mask, fields[0] == "*" {
            sampleRate = nil
        } else {
            guard let rate = Self.number(fields[0]) else { throw MPDAck(.argument, "Failed to parse the sample rate") }
            guard rate > 0, rate < 1 << 30 else { throw MPDAck(.argument, "Invalid sample rate: \(rate)") }
            sampleRate = rate
        }
        guard fields.count > 1 else { throw MPDAck(.argument, "Sample format missing") }
        if mask, fields[1] == "*" {
            sampleFormat = nil
        } else {
            guard Self.sampleFormats.contains(fields[1]) else { throw MPDAck(.argument, "Invalid sample format: \(fields[1])") }
            sampleFormat = fields[1]
        }
        guard fields.count > 2 else { throw MPDAck(.argument, "Channel count missing") }
        if mask, fields[2] == "*" {
            channels = nil
        } else {
            guard let count = Self.number(fields[2]) else { throw MPDAck(.argument, "Failed to parse the channel count") }
            guard (1...8).contains(count) else { throw MPDAck(.argument, "Invalid channel count: \(count)") }
            channels = count
        }
    }

    /// Decimal digits only, bounded so no value overflows.
    private static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
