import Foundation
import Library
import Testing

@Suite("Library paths")
struct LibraryPathsTests {
    @Test func xdgDataHomeWinsThenHome() {
        #expect(LibraryPaths.dataDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/tonearm")
        #expect(LibraryPaths.dataDirectory(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/tonearm")
        // A relative XDG_DATA_HOME is invalid per the XDG spec and ignored.
        #expect(LibraryPaths.dataDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/a"]).path == "/home/a/.local/share/tonearm")
    }
}
