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

    /// One rule for the three directories: an absolute variable wins; unset, empty or relative
    /// falls back under $HOME.
    @Test func everyDirectoryFollowsTheSameRule() {
        let set = XDGDirectories(environment: ["XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s", "HOME": "/home/a"])
        #expect([set.data.path, set.config.path, set.state.path] == ["/d/tonearm", "/c/tonearm", "/s/tonearm"])
        let fallback = XDGDirectories(environment: ["XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "cfg", "HOME": "/home/a"])
        #expect(
            [fallback.data.path, fallback.config.path, fallback.state.path]
                == ["/home/a/.local/share/tonearm", "/home/a/.config/tonearm", "/home/a/.local/state/tonearm"])
    }
}
