import Foundation

/// A timer without guidance, as a session: one silent stage as long as the timer (or without end,
/// counting up), an optional ambient bed, and bells (a start bell, interval or listed bells, an
/// end bell at the length).
///
/// The timer is an ordinary `SessionFile`, so it plays, pauses, seeks and ends exactly as any
/// session with layers, and one kept with `--save` is the very file that played.
public struct TimerSession: Sendable, Hashable {
    /// When bells ring besides the start (and the end, when there is one).
    public enum Bells: Sendable, Hashable {
        /// Only the start bell and the end bell.
        case startAndEnd
        /// Every so many seconds from the start.
        case every(TimeInterval)
        /// At these session times (seconds from the start).
        case at([TimeInterval])
    }

    /// Seconds; nil: open-ended, counting up until stopped.
    public let length: TimeInterval?
    /// A built-in noise (`brown`, `pink`) or a file path; nil: silence.
    public let bed: String?
    /// `bowl` (built in) or a file path.
    public let bell: String
    public let bells: Bells
    /// Strikes per bell, 1...5.
    public let strikes: Int
    /// Volumes 0...1; nil: the session defaults (bell 0.8, bed 0.6).
    public let bellVolume: Float?
    public let bedVolume: Float?

    /// Reads a timer from the words a listener typed; every problem is a typed error.
    ///
    /// - Parameters:
    ///   - length: `20m`, `1:30:00`...; nil (or `openEnded`) counts up until stopped.
    ///   - interval: a bell every so long (`5m`); `bellsAt`: listed times (`0,25m,30m,55m`). One of them.
    public init(
        length: String?, openEnded: Bool = false, bed: String? = nil, bell: String = BuiltInSound.bowl.rawValue, interval: String? = nil,
        bellsAt: String? = nil, strikes: Int = 1, bellVolume: Float? = nil, bedVolume: Float? = nil
    ) throws(TimerSessionError) {
        if openEnded, length != nil { throw .lengthAndOpenEnded }
        if interval != nil, bellsAt != nil { throw .intervalAndTimes }
        let seconds = try length.map { text throws(TimerSessionError) in try TimerDuration.parse(text) }
        var bells = Bells.startAndEnd
        if let interval {
            let every = try TimerDuration.parse(interval)
            guard every >= SessionFile.minimumBellInterval else { throw .intervalTooShort(every) }
            bells = .every(every)
        } else if let bellsAt {
            let times = try TimerDuration.parseList(bellsAt)
            if let seconds, let late = times.first(where: { $0 > seconds }) { throw .bellAfterEnd(late, length: seconds) }
            bells = .at(times)
        }
        try self.init(length: seconds, bed: bed, bell: bell, bells: bells, strikes: strikes, bellVolume: bellVolume, bedVolume: bedVolume)
    }

    /// A timer from values already read.
    public init(
        length: TimeInterval?, bed: String? = nil, bell: String = BuiltInSound.bowl.rawValue, bells: Bells = .startAndEnd, strikes: Int = 1,
        bellVolume: Float? = nil, bedVolume: Float? = nil
    ) throws(TimerSessionError) {
        if let length, !(length >= 1) { throw .lengthTooShort }
        if let length, length > TimerDuration.maximum { throw .longerThanADay(length) }
        guard (1...5).contains(strikes) else { throw .strikesOutOfRange(strikes) }
        for (layer, volume) in [(TimerSessionError.Layer.bell, bellVolume), (.bed, bedVolume)] {
            if let volume, !(0...1).contains(volume) { throw .volumeOutOfRange(layer, volume) }
        }
        if bell.trimmingCharacters(in: .whitespaces).isEmpty { throw .noSound(.bell) }
        if let bed, bed.trimmingCharacters(in: .whitespaces).isEmpty { throw .noSound(.bed) }
        switch bells {
        case .startAndEnd: break
        case .every(let every) where !(every >= SessionFile.minimumBellInterval && every <= TimerDuration.maximum):
            throw .intervalTooShort(every)
        case .every: break
        case .at(let times):
            guard times.count <= SessionFile.maximumBellTimes else { throw .tooManyBells(SessionFile.maximumBellTimes) }
            if let bad = times.first(where: { !($0 >= 0 && $0 <= TimerDuration.maximum) }) { throw .notADuration(String(bad)) }
            if let length, let late = times.first(where: { $0 > length }) { throw .bellAfterEnd(late, length: length) }
        }
        self.length = length
        self.bed = bed.map { $0.trimmingCharacters(in: .whitespaces) }
        self.bell = bell.trimmingCharacters(in: .whitespaces)
        self.bells = bells
        self.strikes = strikes
        self.bellVolume = bellVolume
        self.bedVolume = bedVolume
    }

    /// The session that plays this timer.
    ///
    /// - Parameters:
    ///   - name: the session's name (shown as its album; the name it is kept under).
    ///   - title: its one stage's title, shown as what plays ("Timer 20:00").
    public func session(name: String, title: String) -> SessionFile {
        // A `duration` cuts the endless silence at the length; without one it never ends.
        let stage = SessionFile.Stage(title: title, source: BuiltInSound.silence.url.absoluteString, duration: length)
        var times: [Double]?
        var interval: Double?
        switch bells {
        case .startAndEnd: break
        case .every(let every): interval = every
        case .at(let list): times = list
        }
        return SessionFile(
            name: name, stages: [stage], bed: bed.map { SessionFile.Bed(source: $0, level: bedVolume) },
            bells: SessionFile.Bells(
                sound: bell, level: bellVolume, at: times, interval: interval, strikes: strikes == 1 ? nil : strikes))
    }

    /// The session as JSON, keys sorted and indented: what `--save` keeps.
    public static func json(_ session: SessionFile) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values and optionals of them cannot fail.
        return (try? encoder.encode(session)) ?? Data("{}".utf8)
    }
}
