import AudioEngine
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit

/// `tonearm loudness FILE...`: each file's loudness as levelling sees it (a kept figure, else its
/// ReplayGain or R128 tag, else measured on every core), kept in the library so a later play is
/// levelled from its first frame. One line per file, or a JSON array.
package enum LoudnessMeasurement {
    struct Line: Encodable {
        let file: String
        let lufs: Double
        let source: String
        let kept: Bool
        /// Wall time of the measurement, seconds (0 for a kept figure).
        let seconds: Double
    }

    /// Measures every file; a file that cannot be read is reported and the others go on. Exit
    /// status 1 when any failed.
    package static func run(_ paths: [String], json: Bool, library: LibraryContext) async -> Int32 {
        let store = LibraryLoudnessStore(store: library.store, logger: CommandLog.logger)
        var lines: [Line] = []
        var failed = false
        for path in paths {
            let url = URL(fileURLWithPath: path)
            let track = Track(id: path, url: url, kind: .file)
            let line: Line
            if let kept = store.loudness(of: track) {
                line = Line(file: path, lufs: kept.integrated, source: kept.source.rawValue, kept: true, seconds: 0)
            } else {
                let stopwatch = Stopwatch()
                let result = await BlockingCall.onOwnThread { Result { () throws(PlaybackError) in try FileLoudness.measure(url) } }
                let seconds = stopwatch.seconds
                switch result {
                case .success(let measured?):
                    store.keep(measured, of: track)
                    line = Line(file: path, lufs: measured.integrated, source: measured.source.rawValue, kept: false, seconds: seconds)
                case .success(nil):
                    CommandFailure.warn(PlaybackError(.unsupportedFormat, underlying: "silent throughout: no loudness"), about: path)
                    failed = true
                    continue
                case .failure(let error):
                    CommandFailure.warn(error, about: path)
                    failed = true
                    continue
                }
            }
            lines.append(line)
            if !json { print(text(line)) }
        }
        if json { JSONOutput.print(lines) }
        return failed ? 1 : 0
    }

    static func text(_ line: Line) -> String {
        let figure = String(format: "%6.1f LUFS", line.lufs).replacingOccurrences(of: "-", with: "−")
        let how = line.kept ? "\(line.source), kept" : "\(line.source) in \(String(format: "%.2f", line.seconds)) s"
        return "\(figure)  \(how)  \(TextSanitizer.singleLine(line.file, maxLength: 200))"
    }
}
