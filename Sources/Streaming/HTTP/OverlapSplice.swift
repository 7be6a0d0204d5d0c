/// Joins a live stream's next connection to the audio already received, so that nothing is played
/// twice. Icecast (and most servers) answer a new connection with a burst of the last seconds
/// before going on in real time; after a reconnect those seconds were already received, and
/// played as they are they would be heard twice.
///
/// The bytes compared are compressed audio after ICY demuxing: a server relays its source's bytes
/// unchanged, so the new connection's opening bytes appear, byte for byte, somewhere in what was
/// received before when they repeat it. `OverlapSplice` keeps the last `historyCapacity` bytes
/// delivered; a new connection's first `probeLength` bytes are looked up in them, and when found,
/// every byte of the new connection up to the end of the history is dropped. When they are not
/// found (the server restarted and lost its queue, or another server answered), everything passes:
/// the decoder resynchronises on the next frame, as it does after any gap.
///
/// Hand-written: this is a bounded substring search over a ring; no library covers it. A pure value,
/// so every case is tested without a network.
package struct OverlapSplice: Sendable {
    package static let defaultHistory = 256 * 1024
    package static let defaultProbe = 4 * 1024

    private let historyCapacity: Int
    private let probeLength: Int
    /// The last bytes delivered, oldest first.
    private var history: [UInt8] = []

    private enum Phase: Sendable {
        /// Passing bytes through (a first connection, or a join that is decided).
        case passing
        /// A new connection: its first bytes wait here until they can be looked up.
        case probing([UInt8])
        /// Dropping this many more bytes of the new connection (the rest of the repeated part).
        case skipping(Int)
    }

    private var phase = Phase.passing
    /// Bytes dropped as repeats since the last `newConnection()`, for the log.
    package private(set) var droppedRepeats = 0

    package init(historyCapacity: Int = OverlapSplice.defaultHistory, probeLength: Int = OverlapSplice.defaultProbe) {
        self.historyCapacity = max(1, historyCapacity)
        self.probeLength = max(1, min(probeLength, historyCapacity))
    }

    /// The next bytes come from a new connection: they may repeat what was received.
    package mutating func newConnection() {
        droppedRepeats = 0
        phase = history.isEmpty ? .passing : .probing([])
    }

    /// Takes the connection's next bytes; returns those to deliver.
    package mutating func feed(_ bytes: [UInt8]) -> [UInt8] {
        switch phase {
        case .passing:
            remember(bytes)
            return bytes
        case .skipping(let remaining):
            let dropped = min(remaining, bytes.count)
            droppedRepeats += dropped
            let rest = Array(bytes[dropped...])
            phase = remaining > dropped ? .skipping(remaining - dropped) : .passing
            remember(rest)
            return rest
        case .probing(let held):
            let waiting = held + bytes
            guard waiting.count >= probeLength else {
                phase = .probing(waiting)
                return []
            }
            return join(waiting)
        }
    }

    /// The connection ended while its first bytes were still held: they pass (too few to compare).
    package mutating func flush() -> [UInt8] {
        guard case .probing(let held) = phase else { return [] }
        phase = .passing
        remember(held)
        return held
    }

    /// Looks the held bytes up in the history and decides what of them is new.
    private mutating func join(_ waiting: [UInt8]) -> [UInt8] {
        // Only the last `historyCapacity` bytes count (more may be held until the next trim).
        if history.count > historyCapacity { history.removeFirst(history.count - historyCapacity) }
        guard let start = Self.bestMatch(of: waiting, probe: probeLength, in: history) else {
            phase = .passing
            remember(waiting)
            return waiting
        }
        let repeated = history.count - start
        if waiting.count <= repeated {
            droppedRepeats += waiting.count
            phase = repeated > waiting.count ? .skipping(repeated - waiting.count) : .passing
            return []
        }
        droppedRepeats += repeated
        phase = .passing
        let rest = Array(waiting[repeated...])
        remember(rest)
        return rest
    }

    /// Where in `history` the bytes of `waiting` begin: among the places its first `probe` bytes
    /// occur, the one from which `waiting` agrees with the history the longest (repeated frames,
    /// such as encoded silence, can occur many times); on a tie, the latest. nil when nowhere.
    static func bestMatch(of waiting: [UInt8], probe: Int, in history: [UInt8]) -> Int? {
        guard history.count >= probe, waiting.count >= probe else { return nil }
        let first = waiting[0]
        var best: (start: Int, agreed: Int)?
        var index = 0
        while index <= history.count - probe {
            if history[index] == first, history[index..<(index + probe)].elementsEqual(waiting[0..<probe]) {
                var agreed = probe
                let limit = min(history.count - index, waiting.count)
                while agreed < limit, history[index + agreed] == waiting[agreed] { agreed += 1 }
                // Only a match that runs to the end of the history (or of what arrived) is a repeat.
                if agreed == limit, best == nil || agreed >= best!.agreed { best = (index, agreed) }
            }
            index += 1
        }
        return best?.start
    }

    /// Keeps at least the last `historyCapacity` bytes. Trimmed only once twice that has piled up:
    /// this runs on every chunk of a live stream, and moving the whole history each time would
    /// cost a copy of it per chunk.
    private mutating func remember(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        history.append(contentsOf: bytes)
        if history.count > 2 * historyCapacity { history.removeFirst(history.count - historyCapacity) }
    }
}
