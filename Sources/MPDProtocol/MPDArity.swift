/// How many arguments a command takes, checked before the command runs so no handler sees a
/// count it does not expect.
public struct MPDArity: Sendable, Hashable {
    public let min: Int
    /// nil: no upper bound (`idle`'s subsystems, `tagtypes`' names, `close`'s ignored words).
    public let max: Int?

    public init(_ range: ClosedRange<Int>) {
        min = range.lowerBound
        max = range.upperBound
    }

    public init(_ range: PartialRangeFrom<Int>) {
        min = range.lowerBound
        max = nil
    }

    public func accepts(_ count: Int) -> Bool { count >= min && max.map { count <= $0 } ?? true }

    /// The refusal for `count` arguments to `command`, worded as MPD words it: a command that
    /// takes an exact number is told "wrong number", one that takes a range "too few" or "too
    /// many". nil when the count fits.
    public func refusal(count: Int, command: String) -> MPDAck? {
        guard !accepts(count) else { return nil }
        let problem =
            if min == max { "wrong number of" } else if count < min { "too few" } else { "too many" }
        return MPDAck(.argument, "\(problem) arguments for \"\(command)\"", command: command)
    }
}
