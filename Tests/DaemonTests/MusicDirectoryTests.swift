import Daemon
import Foundation
import Testing

@Suite struct MusicDirectoryTests {
    @Test func userDirsLineWinsWithHomeExpanded() {
        let file = """
            # This file is written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Desktop"
            XDG_MUSIC_DIR="$HOME/Музыка"
            """
        let url = MusicDirectory.resolve(userDirs: file, environment: ["XDG_MUSIC_DIR": "/env/music"], home: "/home/ann")
        #expect(url.path == "/home/ann/Музыка")
    }

    @Test func absolutePathInTheFileAndTheLastLineCount() {
        let file = "XDG_MUSIC_DIR=\"/srv/a\"\nXDG_MUSIC_DIR=\"/srv/music\"\n"
        #expect(MusicDirectory.resolve(userDirs: file, environment: [:], home: "/home/ann").path == "/srv/music")
    }

    @Test func malformedOrDisabledLinesFallBackToTheEnvironmentThenMusic() {
        for file in ["XDG_MUSIC_DIR=$HOME/Music", "XDG_MUSIC_DIR=\"relative\"", "XDG_MUSIC_DIR=\"$HOME\"", "", "# XDG_MUSIC_DIR=\"/x\""] {
            #expect(MusicDirectory.resolve(userDirs: file, environment: ["XDG_MUSIC_DIR": "/env/music"], home: "/h").path == "/env/music")
            #expect(MusicDirectory.resolve(userDirs: file, environment: [:], home: "/h").path == "/h/Music")
        }
        #expect(MusicDirectory.resolve(userDirs: nil, environment: ["XDG_MUSIC_DIR": "relative"], home: "/h").path == "/h/Music")
    }

    @Test func standardReadsTheUserDirsFileUnderXDGConfigHome() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("tonearm-userdirs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: config) }
        try "XDG_MUSIC_DIR=\"$HOME/Tunes\"\n".write(to: config.appendingPathComponent("user-dirs.dirs"), atomically: true, encoding: .utf8)
        #expect(MusicDirectory.standard(environment: ["HOME": "/home/bo", "XDG_CONFIG_HOME": config.path]).path == "/home/bo/Tunes")
        #expect(MusicDirectory.standard(environment: ["HOME": "/home/bo", "XDG_CONFIG_HOME": "/nonexistent"]).path == "/home/bo/Music")
    }
}
