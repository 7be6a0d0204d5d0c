import Foundation
import PlayerCore
import PlayerKit
import Streaming
import Synchronization
import Testing

@testable import TerminalApp

/// What `podcast download` prints while it works, and the sizes `--cap` takes.
@Suite("Download progress and sizes")
struct DownloadProgressTests {
    final class Written: Sendable {
        let text = Mutex("")
        var value: String { text.withLock { $0 } }
    }

    @Test func aPipeGetsALinePerTenPercentAndNoTerminalCodes() {
        let written = Written()
        let progress = DownloadProgress(isTerminal: false, write: { line in written.text.withLock { $0 += line } })
        progress.handle(.started(episodeID: 1, title: "Trains"))
        for received in stride(from: Int64(0), through: 1_000_000, by: 50_000) {
            progress.handle(.progress(episodeID: 1, FileDownload.Progress(received: received, total: 1_000_000)))
        }
        progress.handle(.finished(episodeID: 1, bytes: 1_000_000, seconds: 0.25))
        progress.finish()
        let lines = written.value.split(separator: "\n").map(String.init)
        #expect(lines.first == "download: Trains: started")
        #expect(lines.filter { $0.hasPrefix("download: Trains: ") && $0.contains("%") }.count == 9, "\(lines)")
        #expect(lines.contains("download: Trains: 40% (0.4 MB of 1.0 MB)"))
        #expect(lines.last == "Downloaded Trains (1.0 MB in 0.25 s)")
        #expect(!written.value.contains("\u{1B}") && !written.value.contains("\r"))
    }

    @Test func aTerminalGetsOneBarLineForEveryDownloadUnderWay() {
        let written = Written()
        let clock = Mutex(Date(timeIntervalSince1970: 0))
        let progress = DownloadProgress(isTerminal: true, now: { clock.withLock { $0 } }, write: { line in written.text.withLock { $0 += line } })
        progress.handle(.started(episodeID: 1, title: "One"))
        progress.handle(.started(episodeID: 2, title: "Two"))
        written.text.withLock { $0 = "" }
        // Within a tenth of a second of the last draw nothing is redrawn.
        progress.handle(.progress(episodeID: 2, FileDownload.Progress(received: 100, total: 1_000)))
        #expect(written.value.isEmpty)
        clock.withLock { $0 += 0.2 }
        progress.handle(.progress(episodeID: 2, FileDownload.Progress(received: 500, total: 1_000)))
        // Redrawn in place: a carriage return, the line cleared, both downloads on it.
        #expect(written.value.hasPrefix("\r\u{1B}[K") && !written.value.contains("\n"))
        #expect(written.value.contains("One") && written.value.contains("Two [######------] 50%"), "\(written.value.debugDescription)")
        progress.handle(.finished(episodeID: 1, bytes: 2_000_000, seconds: 1.5))
        #expect(written.value.contains("Downloaded One (2.0 MB in 1.50 s)\n"))
    }

    @Test(arguments: [
        ("500M", Int64?.some(500_000_000)), ("2G", 2_000_000_000), ("1.5GB", 1_500_000_000), ("750k", 750_000), ("1048576", 1_048_576),
        (" 3 mb ", 3_000_000),
    ])
    func sizesAreReadInDecimalUnits(text: String, bytes: Int64?) {
        #expect(StorageSize.parse(text) == StorageSize(bytes: bytes))
    }

    @Test func noneMeansNoCapAndNonsenseIsRefused() {
        #expect(StorageSize.parse("none") == StorageSize(bytes: nil))
        for text in ["lots", "-5M", "0", "", "1e30G", "nan"] { #expect(StorageSize.parse(text) == nil, "\(text)") }
    }
}
