import ArgumentParser
import Foundation
import LibraryKit
import PlayerCore
import PlayerKit
import TerminalApp

/// `tonearm report`: one archive to attach to a bug report, its contents listed before it is
/// written; nothing in it names a station, a podcast, an address, a path or a secret.
struct ReportCommand: LibrarySubcommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an archive for a bug report: the last day's log, the error summary, versions, the sound setup, the configuration "
            + "without secrets and the last failure's states. Nothing personal; nothing is sent anywhere.")

    @Option(help: "Where to write the archive (default: tonearm-report-DATE.tar.gz here).") var output: String?
    @OptionGroup var logging: LoggingOptions

    func run(on library: LibraryContext) async throws {
        let report = await BugReport.gather(library: library)
        let stamp = ISO8601DateFormatter().string(from: Date()).prefix(19).replacingOccurrences(of: ":", with: "")
        let file = URL(fileURLWithPath: NSString(string: output ?? "tonearm-report-\(stamp).tar.gz").expandingTildeInPath)
        print("The report holds (web addresses, hosts, home paths, your user name and secrets taken out):")
        print(report.contents)
        CommandFailure.orExit { () throws(PlaybackError) in try report.write(to: file) }
        print("Wrote \(file.path). Read it before you send it: it is a plain tar.gz.")
    }
}
