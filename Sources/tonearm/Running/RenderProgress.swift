import Foundation
import PlayerCore

/// Progress of a render: a bar on a terminal, plain lines every 10 % otherwise, and a line whenever
/// the render waits on the network (a render never waits silently). Used from one task.
final class RenderProgress: @unchecked Sendable {
    private let total: Double?
    private let language: Language
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var lastTenth = -1
    private var lastDraw = Date.distantPast
    private var waiting: PlayerState.Name?

    init(total: Double?, language: Language) {
        self.total = total
        self.language = language
    }

    /// Says when the render starts waiting on the network (buffering, reconnecting with its
    /// countdown) and when it goes on.
    func note(_ state: PlayerState) {
        let name = state.name
        switch name {
        case .buffering, .reconnecting:
            let text = state.statusText(in: language)
            FileHandle.standardError.write(Data("\(isTerminal ? "\r\u{1B}[K" : "")render: \(text)\n".utf8))
            waiting = name
        case .playing where waiting != nil:
            waiting = nil
            FileHandle.standardError.write(Data("render: \(state.statusText(in: language))\n".utf8))
        default:
            break
        }
    }

    func update(audioTime: Double) {
        guard let total, total > 0 else { return }
        let fraction = min(1, max(0, audioTime / total))
        if isTerminal {
            guard Date().timeIntervalSince(lastDraw) > 0.1 else { return }
            lastDraw = Date()
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(Int(fraction * 100))% \(Self.clock(audioTime)) / \(Self.clock(total))".utf8))
        } else {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            FileHandle.standardError.write(Data("render: \(tenth * 10)% (\(Self.clock(audioTime)) / \(Self.clock(total)))\n".utf8))
        }
    }

    func finish() {
        if isTerminal && total != nil { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
