import Presentation
import SnapshotTesting
import Testing

@testable import TerminalUI

/// Now Playing with the level meter shown (`v`): two bars under the details, the RMS in eighths
/// of a cell, the held peak as a mark and in dB.
@Suite("Level meter on Now Playing")
struct LevelMeterSnapshotTests {
    /// Left at −9 dB RMS with a −3 dB peak, right at −24 dB with a −15 dB peak.
    static let meter = LevelMeterViewState(
        left: .init(rms: -9, peak: -3), right: .init(rms: -24, peak: -15))

    static func screen(_ meter: LevelMeterViewState?) -> NowPlayingScreen {
        var screen = NowPlayingSnapshotTests.screen("playing", .english)
        screen.levelMeter = meter
        return screen
    }

    @Test func theMeterUnderTheDetails() {
        for (width, height) in NowPlayingSnapshotTests.sizes {
            let text = Self.screen(Self.meter).render(width: width, height: height).text
            #expect(text.contains("−3 dB") && text.contains("−15 dB"))
            assertSnapshot(of: text, as: .lines, named: "level-meter-en-\(width)x\(height)", testName: "nowPlaying")
        }
    }

    @Test func hiddenItDrawsNothing() {
        let plain = NowPlayingSnapshotTests.screen("playing", .english).render(width: 80, height: 24)
        #expect(Self.screen(nil).render(width: 80, height: 24) == plain)
    }

    @Test func barsAreLongerForLouderChannelsAndColouredByLevel() {
        let canvas = Self.screen(Self.meter).render(width: 120, height: 40)
        let rows = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
        let left = rows.firstIndex { $0.contains("−3 dB") }!
        let right = rows.firstIndex { $0.contains("−15 dB") }!
        #expect(right == left + 1)
        #expect(rows[left].filter { $0 == "█" }.count > rows[right].filter { $0 == "█" }.count)
        // The left bar reaches past −18 dB: its last full cell is yellow, its first green.
        let column = rows[left].distance(from: rows[left].startIndex, to: rows[left].firstIndex(of: "█")!)
        let last = rows[left].distance(from: rows[left].startIndex, to: rows[left].lastIndex(of: "█")!)
        #expect(canvas[left, column].style.foreground == .indexed(40))
        #expect(canvas[left, last].style.foreground == .indexed(220))
    }

    @Test func partialCellsAreEighths() {
        #expect(LevelMeterBars.cells(0.5, width: 10) == (5, nil))
        #expect(LevelMeterBars.cells(0.55, width: 10) == (5, "▌"))
        #expect(LevelMeterBars.cells(1, width: 10) == (10, nil))
        #expect(LevelMeterBars.cells(0, width: 10) == (0, nil))
    }
}
