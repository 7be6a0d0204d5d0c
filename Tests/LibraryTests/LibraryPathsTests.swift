import Foundation
import Library
import PlayerCore
import Testing

@Suite("Library paths")
struct LibraryPathsTests {
    @Test func xdgDataHomeWinsThenHome() {
        #expect(LibraryPaths.dataDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]).path == "/data/tonearm")
        #expect(LibraryPaths.dataDirectory(environment: ["HOME": "/home/a"]).path == "/home/a/.local/share/tonearm")
        // A relative XDG_DATA_HOME is invalid per the XDG spec and ignored.
        #expect(LibraryPaths.dataDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/a"]).path == "/home/a/.local/share/tonearm")
    }

    /// One rule for every directory: an absolute variable wins; unset, empty or relative falls
    /// back under $HOME (the runtime directory has no fallback there).
    @Test func everyDirectoryFollowsTheSameRule() {
        let set = XDGDirectories(environment: [
            "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s", "XDG_CACHE_HOME": "/k", "XDG_RUNTIME_DIR": "/run/user/7",
            "HOME": "/home/a",
        ])
        #expect([set.data.path, set.config.path, set.state.path, set.cache.path] == ["/d/tonearm", "/c/tonearm", "/s/tonearm", "/k/tonearm"])
        #expect(set.runtimeDirectory?.path == "/run/user/7")
        let fallback = XDGDirectories(environment: ["XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "cfg", "XDG_RUNTIME_DIR": "run", "HOME": "/home/a"])
        #expect(
            [fallback.data.path, fallback.config.path, fallback.state.path, fallback.cache.path]
                == ["/home/a/.local/share/tonearm", "/home/a/.config/tonearm", "/home/a/.local/state/tonearm", "/home/a/.cache/tonearm"])
        #expect(fallback.runtimeDirectory == nil)
        // A relative HOME is no home: the account's is used.
        #expect(XDGDirectories(environment: ["HOME": "relative"]).home.path == NSHomeDirectory())
    }
}
