import Foundation
import MPRIS
import TerminalUI

/// `tonearm share`: the line of what the Tonearm running on this session plays (read from its
/// MPRIS `tonearm:share`, the same line `y` gives on Now Playing), printed, and on a terminal also
/// handed to the clipboard with OSC 52 (terminals that do not allow it ignore the request).
package enum ShareCommands {
    /// Exit status: 0 with the line, 1 when nothing can be shared (said on stderr).
    package static func run() -> Int32 {
        switch MPRISService.shareLine() {
        case .success(let line):
            print(line)
            if isatty(STDOUT_FILENO) != 0, let bytes = OSC52.sequence(copying: line) {
                FileHandle.standardOutput.write(Data(bytes))
            }
            return 0
        case .failure(let problem):
            let text = switch problem {
            case .noPlayer: "no Tonearm is playing on this session (none has its MPRIS name on the session bus)"
            case .nothingPlaying: "Tonearm is running but plays nothing"
            case .bus(let reason): "the session bus could not be asked: \(reason)"
            }
            FileHandle.standardError.write(Data("tonearm: share: \(text)\n".utf8))
            return 1
        }
    }
}
