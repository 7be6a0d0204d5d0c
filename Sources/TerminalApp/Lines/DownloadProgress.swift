import Foundation
import LibraryKit
import PlayerKit
import Streaming
import Synchronization

/// Progress of episode downloads on stderr: one bar line redrawn on a terminal (every download
/// under way, with its percent), plain lines every 10 % otherwise, so a log or a pipe shows how
/// far each got and a terminal does not scroll.
package final class DownloadProgress: Sendable {
    private struct Running {
        var title: String
        var progress: FileDownload.Progress?
        var lastTenth = -1
    }

    private struct Drawn {
        var running: [Int64: Running] = [:]
        var order: [Int64] = []
        var lastDraw = Date.distantPast
        var barShown = false
    }

    private let isTerminal: Bool
    private let drawn = Mutex(Drawn())
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> Date

    /// - Parameter now: when a redraw is due (the bar is redrawn ten times a second at most).
    package init(
        isTerminal: Bool = isatty(STDERR_FILENO) != 0,
        now: @escaping @Sendable () -> Date = Date.init,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.isTerminal = isTerminal
        self.now = now
        self.write = write
    }

    /// Takes one event of `EpisodeDownloads`.
    package func handle(_ event: EpisodeDownloads.Event) {
        let text: String? = drawn.withLock { drawn in
            switch event {
            case .started(let id, let title):
                drawn.running[id] = Running(title: title)
                drawn.order.append(id)
                return isTerminal ? bar(&drawn, force: true) : "download: \(title): started\n"
            case .progress(let id, let progress):
                guard var running = drawn.running[id] else { return nil }
                running.progress = progress
                drawn.running[id] = running
                if isTerminal { return bar(&drawn, force: false) }
                guard let fraction = progress.fraction else { return nil }
                let tenth = Int(fraction * 10)
                guard tenth > running.lastTenth, tenth > 0, tenth < 10 else { return nil }
                drawn.running[id]?.lastTenth = tenth
                return "download: \(running.title): \(tenth * 10)% (\(Self.megabytes(progress.received)) of \(Self.megabytes(progress.total ?? 0)))\n"
            case .finished(let id, let bytes, let seconds):
                let title = drawn.running.removeValue(forKey: id)?.title ?? "episode \(id)"
                drawn.order.removeAll { $0 == id }
                return clearBar(&drawn) + "Downloaded \(title) (\(Self.megabytes(bytes)) in \(String(format: "%.2f", seconds)) s)\n" + (isTerminal ? bar(&drawn, force: true) ?? "" : "")
            case .failed(let id, _):
                drawn.running.removeValue(forKey: id)
                drawn.order.removeAll { $0 == id }
                // The error itself is told by the command, with its typed wording.
                return clearBar(&drawn) + (isTerminal ? bar(&drawn, force: true) ?? "" : "")
            case .removed(_, let title):
                return clearBar(&drawn) + "Removed the download of \(title) to keep within the storage limits\n"
                    + (isTerminal ? bar(&drawn, force: true) ?? "" : "")
            }
        }
        if let text, !text.isEmpty { write(text) }
    }

    /// Ends the bar line, if one is shown.
    package func finish() {
        let text = drawn.withLock { clearBar(&$0) }
        if !text.isEmpty { write(text) }
    }

    private func bar(_ drawn: inout Drawn, force: Bool) -> String? {
        guard !drawn.order.isEmpty else { return nil }
        guard force || now().timeIntervalSince(drawn.lastDraw) > 0.1 else { return nil }
        drawn.lastDraw = now()
        drawn.barShown = true
        let parts = drawn.order.compactMap { id -> String? in
            guard let running = drawn.running[id] else { return nil }
            let title = running.title.count > 28 ? String(running.title.prefix(27)) + "…" : running.title
            guard let fraction = running.progress?.fraction else {
                return "\(title) \(Self.megabytes(running.progress?.received ?? 0))"
            }
            let width = 12
            let filled = Int(fraction * Double(width))
            return "\(title) [\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(Int(fraction * 100))%"
        }
        return "\r\u{1B}[K" + parts.joined(separator: "  ")
    }

    private func clearBar(_ drawn: inout Drawn) -> String {
        guard drawn.barShown else { return "" }
        drawn.barShown = false
        return "\r\u{1B}[K"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
