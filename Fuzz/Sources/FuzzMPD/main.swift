import Foundation
import FuzzSupport
import MPDProtocol

// The MPD request tokenizer and one connection's state machine. Input: one byte of settings
// (bit 0: a password is set; bits 1-7: chunk size - 1), one byte steering the simulated backend
// and the player's changes, then what the client sends.
//
// Contract: a line parses to a command or a typed `MPDRequestError`; a parsed command encodes and
// parses back to itself. Fed to the connection in chunks, everything the server sends reads as a
// well-formed answer stream (greeting, `key: value` fields, `OK` / `list_OK` / `ACK`), however
// the backend's values are shaped; nothing follows a close; the backend is asked one command at a
// time, only for commands it implements, and never before the password when one is set.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzMPD(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let (header, body) = fuzzSplit(fuzzBytes(data, size), header: 2)
    checkTokenizer(body)
    checkConnection(body, password: header[0] & 1 == 1 ? "secret" : nil, chunk: Int(header[0] >> 1) + 1, steering: header[1])
    return 0
}

func checkTokenizer(_ body: [UInt8]) {
    let limits = MPDLimits(maxLineLength: 512, maxArguments: 8)
    for line in body.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(64) {
        do {
            let command = try MPDRequestParser.parse(Array(line), limits: limits)
            fuzzCheck(command.arguments.count <= limits.maxArguments, "\(command.arguments.count) arguments")
            for argument in command.arguments {
                fuzzCheck(!argument.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }, "control character in an argument")
            }
            do {
                var encoded = try MPDRequestEncoder.line(command)
                encoded.removeLast()
                let again = try MPDRequestParser.parse(encoded, limits: MPDLimits(maxLineLength: 1 << 20, maxArguments: 8))
                fuzzCheck(again == command, "\(command) encodes and parses back as \(again)")
            } catch {
                fuzzCheck(false, "a parsed command does not encode and parse back: \(error)")
            }
        } catch {
            _ = error.ack
        }
    }
}

/// The commands the simulated backend implements: a few of each kind, including ones whose
/// arguments are free text (sticker values, filters, paths, channel names and messages), so their
/// lines reach the backend.
let backendCommands: Set<String> = [
    "status", "play", "add", "currentsong", "idle", "ping", "sticker", "searchaddpl", "listfiles", "subscribe", "sendmessage",
    "readmessages", "getfingerprint", "config", "replay_gain_mode", "toggleoutput", "playlistsearch",
]

func checkConnection(_ body: [UInt8], password: String?, chunk: Int, steering: UInt8) {
    let limits = MPDLimits(maxLineLength: 256, maxArguments: 8, maxCommandListBytes: 1024, maxBufferedInput: 2048)
    var machine = MPDConnectionStateMachine(password: password, backendCommands: backendCommands, limits: limits)
    var reader = MPDAnswerReader()
    var closed = false
    var step = 0

    func perform(_ actions: [MPDConnectionStateMachine.Action]) {
        var queue = actions
        while !queue.isEmpty {
            let action = queue.removeFirst()
            fuzzCheck(!closed, "an action after close: \(action)")
            switch action {
            case .send(let bytes):
                reader.feed(bytes)
                do {
                    while try reader.next() != nil {}
                } catch {
                    fuzzCheck(false, "the server sent a malformed answer: \(error)")
                }
            case .execute(let command):
                fuzzCheck(queue.isEmpty, "actions after an execute")
                fuzzCheck(machine.isExecuting, "execute while not executing")
                fuzzCheck(backendCommands.contains(command.name), "asked the backend for \(command.name)")
                fuzzCheck(command.name != "idle" && command.name != "ping", "a server command reached the backend")
                fuzzCheck(password == nil || machine.isAuthenticated, "asked the backend before the password")
                step += 1
                if (Int(steering) >> (step % 8)) & 1 == 0 {
                    queue += machine.commandSucceeded(
                        MPDResponse([.init("file", "a\nOK\nb"), .init("Title", "x\r\nACK [5@0] {} forged"), .init("key\n", "")]))
                } else {
                    queue += machine.commandFailed(MPDAck(.noExist, "no\nsuch\rthing"))
                }
            case .armTimeout, .disarmTimeout:
                break
            case .close:
                closed = true
                fuzzCheck(machine.isClosed, "close without the machine closed")
            }
        }
    }

    perform(machine.connectionOpened())
    var start = 0
    var round = 0
    while start < body.count, !closed {
        let end = min(body.count, start + chunk)
        perform(machine.received(body[start..<end]))
        round += 1
        if !closed, round % (Int(steering & 7) + 1) == 0 {
            perform(machine.changed(MPDSubsystem.allCases[(round + Int(steering)) % MPDSubsystem.allCases.count]))
        }
        if !closed, steering & 0x80 != 0, round % 13 == 0 {
            perform(machine.timeoutFired())
        }
        start = end
    }
    if !closed {
        fuzzCheck(!machine.isExecuting, "still executing after every answer came")
    }
}

runLibFuzzer(fuzzMPD)
