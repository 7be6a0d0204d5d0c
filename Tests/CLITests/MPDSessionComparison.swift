import Foundation
import TestProcesses
import Testing

/// The same commands sent to a real mpd and to `tonearm serve` over the same music folder, each
/// pair of answers compared: both refuse with the same ACK code, or both answer with the same
/// fields once `normalised` (Tonearm's `Music/` prefix taken off, songs sorted where mpd's order
/// is the disk's), and where `wholeAck` says so for a command, the same ACK text too. `%` in a command is where each server's music folder prefix goes: none for
/// mpd, `Music/` for Tonearm.
enum MPDSessionComparison {
    typealias Answer = (fields: [(key: String, value: String)], ack: String?)
    typealias Normaliser = (_ answer: Answer, _ tonearm: Bool, _ ordered: Bool) -> [[String]]

    static func expectSameAnswers(
        _ session: [(command: String, ordered: Bool)], mpd real: MPDLineClient, tonearm ours: MPDLineClient,
        wholeAck: (String) -> Bool = { _ in false }, normalised: Normaliser, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (command, ordered) in session {
            let theirs = try real.command(command.replacingOccurrences(of: "%", with: ""))
            let mine = try ours.command(command.replacingOccurrences(of: "%", with: "Music/"))
            #expect(
                (mine.ack == nil) == (theirs.ack == nil), "\(command): mpd \(theirs.ack ?? "OK"), tonearm \(mine.ack ?? "OK")",
                sourceLocation: sourceLocation)
            if let ack = theirs.ack, let myAck = mine.ack {
                // The same error code: `ACK [code@0] {command} text`.
                #expect(
                    ack.prefix { $0 != "@" } == myAck.prefix { $0 != "@" }, "\(command): mpd \(ack), tonearm \(myAck)",
                    sourceLocation: sourceLocation)
                if wholeAck(command) { #expect(ack == myAck, "\(command): mpd \(ack), tonearm \(myAck)", sourceLocation: sourceLocation) }
                continue
            }
            let a = normalised(theirs, false, ordered)
            let b = normalised(mine, true, ordered)
            #expect(a == b, "\(command)\nmpd:     \(a)\ntonearm: \(b)", sourceLocation: sourceLocation)
        }
    }
}
