import Foundation
import Media
import Testing
import TestProcesses

@Suite(.blocking) struct ImageKindTests {
    @Test func realPNGAndJPEGAreRecognised() throws {
        #expect(ImageKind.detect(try ImageFixture.image(format: "png")) == .png)
        #expect(ImageKind.detect(try ImageFixture.image(format: "jpg")) == .jpeg)
    }

    @Test(arguments: [
        ("GIF89a\u{01}\u{00}\u{01}\u{00}", ImageKind.Sniffed.gif),
        ("GIF87a....", .gif),
        ("RIFF\u{00}\u{00}\u{00}\u{00}WEBPVP8 ", .webp),
        ("BM6\u{00}\u{00}\u{00}", .bmp),
        ("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", .svg),
        ("<?xml version=\"1.0\"?>\n<svg></svg>", .svg),
        ("\u{FEFF}  <!DOCTYPE html><html><body>login</body></html>", .html),
        ("<html><head></head></html>", .html),
        ("{\"error\": \"not found\"}", .unknown),
        ("", .unknown),
    ])
    func otherFormatsAreRefused(text: String, expected: ImageKind.Sniffed) {
        let data = Data(text.utf8)
        #expect(ImageKind.sniff(data) == expected)
        #expect(ImageKind.detect(data) == nil)
    }

    @Test func truncatedSignaturesAreNotImages() {
        #expect(ImageKind.detect(Data([0x89, 0x50, 0x4E, 0x47])) == nil)
        #expect(ImageKind.detect(Data([0xFF, 0xD8])) == nil)
        #expect(ImageKind.detect(Data([0xFF, 0xD8, 0xFF])) == .jpeg)
    }

    @Test func contentTypes() {
        #expect(ImageKind.isAcceptable(mediaType: "image/png"))
        #expect(ImageKind.isAcceptable(mediaType: "image/jpeg"))
        #expect(ImageKind.isAcceptable(mediaType: "application/octet-stream"))
        #expect(ImageKind.isAcceptable(mediaType: nil))
        #expect(!ImageKind.isAcceptable(mediaType: "text/html"))
        #expect(!ImageKind.isAcceptable(mediaType: "application/json"))
        #expect(!ImageKind.isAcceptable(mediaType: "image/svg+xml"))
    }

    @Test func hexOfColors() {
        #expect(RGBColor(red: 0x33, green: 0x66, blue: 0x99).hex == "#336699")
        #expect(RGBColor(red: 0, green: 10, blue: 255).hex == "#000AFF")
        #expect(RGBColor(hex: "#336699") == RGBColor(red: 0x33, green: 0x66, blue: 0x99))
        #expect(RGBColor(hex: "33669") == nil)
    }
}
