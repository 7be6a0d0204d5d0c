import Foundation
import MPDProtocol

/// The argument forms MPD's commands take, read as MPD reads them; a malformed one is the
/// client's `ACK [2@…]` error. How many there are was checked against the command's table entry
/// before its handler runs (`MPDArity`).
package struct MPDArguments: Sendable {
    package let command: MPDCommand

    package init(_ command: MPDCommand) { self.command = command }

    package var count: Int { command.arguments.count }

    package func string(_ i: Int) -> String? { command.arguments.indices.contains(i) ? command.arguments[i] : nil }

    package func int(_ i: Int) throws(MPDAck) -> Int {
        guard let text = string(i), let value = Int(text) else { throw MPDAck(.argument, "Integer expected: \(string(i) ?? "")") }
        return value
    }

    package func unsigned(_ i: Int) throws(MPDAck) -> Int {
        let value = try int(i)
        guard value >= 0 else { throw MPDAck(.argument, "Number is negative: \(value)") }
        return value
    }

    package func bool(_ i: Int) throws(MPDAck) -> Bool {
        switch string(i) {
        case "0": return false
        case "1": return true
        default: throw MPDAck(.argument, "Boolean (0/1) expected: \(string(i) ?? "")")
        }
    }

    /// Seconds, fractions allowed (`seek`), finite and not negative unless `signed`.
    package func seconds(_ i: Int, signed: Bool = false) throws(MPDAck) -> Double {
        guard let text = string(i), let value = Double(text), value.isFinite, signed || value >= 0 else {
            throw MPDAck(.argument, "Number expected: \(string(i) ?? "")")
        }
        return value
    }

    /// `START:END` (END excluded, may be left out for "to the end") or one position.
    package func range(_ i: Int, count total: Int) throws(MPDAck) -> Range<Int> {
        guard let text = string(i) else { throw MPDAck(.argument, "Range expected") }
        guard let colon = text.firstIndex(of: ":") else {
            let position = try unsigned(i)
            return position..<(position + 1)
        }
        guard let start = Int(text[..<colon]), start >= 0 else { throw MPDAck(.argument, "Bad range: \(text)") }
        let endText = text[text.index(after: colon)...]
        let end = endText.isEmpty ? total : Int(endText)
        guard let end, end >= start else { throw MPDAck(.argument, "Bad range: \(text)") }
        return start..<end
    }

    /// A queue position that may be relative to the current song (`+N` after it, `-N` before),
    /// as `add`, `addid` and `move` take since MPD 0.23.
    package func position(_ i: Int, current: Int?, count total: Int) throws(MPDAck) -> Int {
        guard let text = string(i) else { throw MPDAck(.argument, "Position expected") }
        if let sign = text.first, sign == "+" || sign == "-" {
            guard let current else { throw MPDAck(.argument, "No current song for a relative position") }
            guard let offset = Int(text.dropFirst()), offset >= 0 else { throw MPDAck(.argument, "Bad position: \(text)") }
            let position = sign == "+" ? current + 1 + offset : current - offset
            guard (0...total).contains(position) else { throw MPDAck(.argument, "Bad song index") }
            return position
        }
        let position = try unsigned(i)
        guard position <= total else { throw MPDAck(.argument, "Bad song index") }
        return position
    }
}
