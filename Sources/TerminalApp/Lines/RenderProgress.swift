import Foundation
import PlayerCore
import Presentation
import Synchronization

/// Progress of a render: a bar on a terminal, plain lines every 10 % otherwise, and a line whenever
/// the render waits on the network (a render never waits silently).
package final class RenderProgress: Sendable {
    private struct Drawn {
        var lastTenth = -1
        var lastDraw = Date.distantPast
        var waiting: PlayerState.Name?
        /// A session's next bell and bed ("Next bell in 2:00 · Bed: playing 60%"), after the times.
        var layers: String?
    }

    private let total: Double?
    private let language: Language
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let drawn = Mutex(Drawn())

    package init(total: Double?, language: Language) {
        self.total = total
        self.language = language
    }

    /// Says when the render starts waiting on the network (buffering, reconnecting with its
    /// countdown) and when it goes on.
    package func note(_ state: PlayerState) {
        let line: String? = drawn.withLock { drawn in
            switch state.name {
            case .buffering, .reconnecting:
                drawn.waiting = state.name
                return "\(isTerminal ? "\r\u{1B}[K" : "")render: \(state.statusText(in: language))\n"
            case .playing where drawn.waiting != nil:
                drawn.waiting = nil
                return "render: \(state.statusText(in: language))\n"
            default:
                return nil
            }
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// The layers of the session rendered, as last told (nil once it is over).
    package func note(layers: SessionLayersViewState?) {
        drawn.withLock { $0.layers = layers?.detailText }
    }

    package func update(audioTime: Double) {
        guard let total, total > 0 else { return }
        let fraction = min(1, max(0, audioTime / total))
        let line: String? = drawn.withLock { drawn in
            if isTerminal {
                guard Date().timeIntervalSince(drawn.lastDraw) > 0.1 else { return nil }
                drawn.lastDraw = Date()
                let width = 30
                let filled = Int(fraction * Double(width))
                let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
                let layers = drawn.layers.map { " · \($0)" } ?? ""
                return "\r\u{1B}[K[\(bar)] \(Int(fraction * 100))% \(Self.clock(audioTime)) / \(Self.clock(total))\(layers)"
            }
            let tenth = Int(fraction * 10)
            guard tenth > drawn.lastTenth else { return nil }
            drawn.lastTenth = tenth
            let layers = drawn.layers.map { ", \($0)" } ?? ""
            return "render: \(tenth * 10)% (\(Self.clock(audioTime)) / \(Self.clock(total))\(layers))\n"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    package func finish() {
        if isTerminal && total != nil { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", s / 60, s % 60)
    }
}
