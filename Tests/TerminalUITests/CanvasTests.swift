import Testing

@testable import TerminalUI

@Suite("Canvas")
struct CanvasTests {
    @Test func controlCharactersNeverReachACell() {
        var canvas = Canvas(width: 40, height: 1)
        // ESC sequences, OSC 52, a raw C1 CSI (U+009B), a C1 0x9D (OSC), bidi overrides, BEL, DEL.
        canvas.put("A\u{1B}[31mB\u{1B}]52;c;SGVsbG8=\u{07}C\u{9B}D\u{9D}E\u{202E}F\u{2066}G\u{7F}H", row: 0, column: 0)
        let scalars = canvas.cells.flatMap { $0.character.unicodeScalars.map(\.value) }
        #expect(!scalars.contains { $0 < 0x20 || $0 == 0x7F || (0x80...0x9F).contains($0) || (0x202A...0x202E).contains($0) || (0x2066...0x2069).contains($0) })
        #expect(canvas.text.hasPrefix("A\u{FFFD}[31mB"))
    }

    @Test func textIsClippedWithAnEllipsisAndNeverWrapsOrOverflows() {
        var canvas = Canvas(width: 10, height: 2)
        let used = canvas.put("Hello, wide world", row: 0, column: 2, maxWidth: 6)
        #expect(used == 6)
        #expect(canvas.text == "  Hello…\n")
        #expect(canvas.put("x", row: 5, column: 0) == 0)
        #expect(canvas.put("abcdefghijklmnop", row: 1, column: 7) == 3)
        #expect(canvas.text.split(separator: "\n").last == "       ab…")
    }

    @Test func centredTextSitsInTheMiddleOfItsRange() {
        var canvas = Canvas(width: 11, height: 1)
        canvas.putCentered("abc", row: 0)
        #expect(canvas.text == "    abc")
    }

    @Test func artworkIsDrawnWithHalfBlocksFromThePixels() throws {
        // 2 x 2 pixels: red, green on top; blue, white below.
        let pixels = try #require(ArtworkPixels(width: 2, height: 2, rgb: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]))
        var canvas = Canvas(width: 2, height: 1)
        canvas.drawArtwork(pixels, row: 0, column: 0, columns: 2, rows: 1, accent: .standard)
        #expect(canvas.text == "▀▀")
        #expect(canvas[0, 0].style.foreground == .rgb(255, 0, 0) && canvas[0, 0].style.background == .rgb(0, 0, 255))
        #expect(canvas[0, 1].style.foreground == .rgb(0, 255, 0) && canvas[0, 1].style.background == .rgb(255, 255, 255))
        #expect(ArtworkPixels(width: 2, height: 2, rgb: [1, 2, 3]) == nil)
    }

    @Test func truecolorFallsBackToTheNearest256ColourCubeEntry() {
        #expect(TerminalColor.rgb(0, 0, 0).nearestIndexed == .indexed(16))
        #expect(TerminalColor.rgb(255, 255, 255).nearestIndexed == .indexed(231))
        #expect(TerminalColor.rgb(255, 0, 0).nearestIndexed == .indexed(196))
        #expect(TerminalColor.indexed(7).nearestIndexed == .indexed(7))
    }
}

@Suite("Key bindings")
struct KeyBindingTests {
    @Test func theStandardKeysDoWhatTheREADMESays() {
        let keys = KeyBindings.standard
        #expect(keys.action(for: .character("q")) == .quit)
        #expect(keys.action(for: .character(" ")) == .pauseResume)
        #expect(keys.action(for: .character("k")) == .up && keys.action(for: .up) == .up)
        #expect(keys.action(for: .left) == .seekBackward && keys.action(for: .right) == .seekForward)
        #expect(keys.action(for: .enter) == .play)
        #expect(keys.action(for: .character("0")) == .volumeUp && keys.action(for: .character("9")) == .volumeDown)
        #expect(keys.action(for: .character("z")) == .sleep && keys.action(for: .character("Z")) == .sleepLonger)
        #expect(keys.action(for: .character("]")) == .faster && keys.action(for: .character("[")) == .slower)
        #expect(keys.action(for: .character("y")) == .share)
        #expect(keys.action(for: .character("Y")) == nil)
    }

    @Test func severalKeysMayMapToOneActionButOneKeyNeverToTwo() throws {
        let custom = try KeyBindings(overriding: [.quit: ["q", "Q", "esc"]])
        #expect(custom.action(for: .character("Q")) == .quit && custom.action(for: .escape) == .quit)
        // Two of the listener's own bindings on one key are a clash.
        #expect(throws: KeyBindingError.keyBoundTwice("s", .stop, .quit)) { try KeyBindings(overriding: [.quit: ["s"], .stop: ["s"]]) }
        // A key the listener binds is taken from the action it had by default: a configuration
        // that put pause on p before p was the previous chapter still loads.
        let taken = try KeyBindings(overriding: [.pauseResume: ["p", "space"]])
        #expect(taken.action(for: .character("p")) == .pauseResume)
        #expect(taken.keys[.previousChapter]?.isEmpty == true)
        #expect(taken.action(for: .character("c")) == .chapters, "the other defaults stay")
        #expect(throws: KeyBindingError.unknownKey("ctrl-alt-banana")) { try KeyBindings(overriding: [.quit: ["ctrl-alt-banana"]]) }
        // A control character is not a key name.
        #expect(throws: KeyBindingError.unknownKey("\u{1B}")) { try KeyBindings(overriding: [.quit: ["\u{1B}"]]) }
        // Moving stop to another key frees "s" for something else.
        let moved = try KeyBindings(overriding: [.stop: ["S"], .search: ["s"]])
        #expect(moved.action(for: .character("s")) == .search)
    }
}

@Suite("Text wrapping")
struct TextWrapTests {
    @Test func wrapsAtSpacesAndHardBreaksLongWords() {
        #expect(TextWrap.lines("Check your internet connection and try again.", width: 20) == ["Check your internet", "connection and try", "again."])
        #expect(TextWrap.lines("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
        #expect(TextWrap.lines("", width: 10).isEmpty)
    }
}

@Suite("Palette")
struct PaletteTests {
    @Test func xtermPaletteEntriesAsRGB() {
        #expect(TerminalColor.rgb(ofIndexed: 16) == (0, 0, 0))
        #expect(TerminalColor.rgb(ofIndexed: 196) == (255, 0, 0))
        #expect(TerminalColor.rgb(ofIndexed: 39) == (0, 175, 255))
        #expect(TerminalColor.rgb(ofIndexed: 232) == (8, 8, 8) && TerminalColor.rgb(ofIndexed: 255) == (238, 238, 238))
        // Round trip through the nearest cube entry.
        for index in [UInt8(21), 46, 88, 130, 201, 226] {
            let (r, g, b) = TerminalColor.rgb(ofIndexed: index)
            #expect(TerminalColor.rgb(r, g, b).nearestIndexed == .indexed(index))
        }
    }
}
