import Daemon
import Foundation
import Testing

@Suite struct DaemonOptionsTests {
    private func mpd(
        _ flag: String?, binds: [String] = [], password: String? = nil, environment: [String: String] = [:], config: String? = nil
    ) throws(DaemonOptions.Invalid) -> DaemonOptions.MPDSettings? {
        try DaemonOptions.mpd(flag: flag, binds: binds, password: password, environment: environment, configPassword: config)
    }

    @Test func metricsTakeATCPAddressAndBareIsLoopback9464() throws {
        #expect(try DaemonOptions.metrics(DaemonOptions.metricsDefault.description) == .tcp(host: "127.0.0.1", port: 9464))
        #expect(try DaemonOptions.metrics("[::1]:0") == .tcp(host: "::1", port: 0))
        // A scrape is HTTP over TCP: a socket path, or no port, is refused with the option's name.
        for text in ["/run/user/1000/tonearm/metrics.sock", "localhost", "9464"] {
            #expect(throws: DaemonOptions.Invalid.self) { try DaemonOptions.metrics(text) }
            #expect((try? DaemonOptions.metrics(text)) == nil)
        }
        do {
            _ = try DaemonOptions.metrics("9464")
        } catch {
            #expect(error.description.contains("--metrics"), "\(error)")
        }
    }

    /// The command list's bound is MPD's `max_command_list_size`, in KiB: 2 MiB unless the flag
    /// or config.toml says otherwise, the flag first.
    @Test func theCommandListBoundIsInKiBAsMPDsAndTheFlagWins() throws {
        #expect(try DaemonOptions.mpdLimits(maxCommandListKiB: nil, config: nil).maxCommandListBytes == 2 * 1024 * 1024)
        #expect(try DaemonOptions.mpdLimits(maxCommandListKiB: nil, config: 64).maxCommandListBytes == 64 * 1024)
        #expect(try DaemonOptions.mpdLimits(maxCommandListKiB: 8, config: 64).maxCommandListBytes == 8 * 1024)
        for wrong in [0, -1, 2 * 1024 * 1024] {
            #expect(throws: DaemonOptions.Invalid.self) { try DaemonOptions.mpdLimits(maxCommandListKiB: wrong, config: nil) }
        }
    }

    @Test func mpdIsOffUnlessAsked() throws {
        #expect(try mpd(nil) == nil)
    }

    @Test func bareMPDListensOnLoopback6600() throws {
        // A bare `--mpd` reaches the options as its default address.
        let settings = try #require(try mpd(ListenAddress.mpdDefault.description))
        #expect(settings.addresses == [.tcp(host: "127.0.0.1", port: 6600)])
        #expect(settings.password == nil)
    }

    @Test func bindAloneTurnsMPDOnAndAddsToTheFlag() throws {
        #expect(try mpd(nil, binds: ["[::1]:6601"])?.addresses == [.tcp(host: "::1", port: 6601)])
        let both = try mpd("127.0.0.1:6600", binds: ["/run/user/1000/tonearm/mpd.sock", "127.0.0.1:6600"])
        #expect(both?.addresses == [.tcp(host: "127.0.0.1", port: 6600), .unix(path: "/run/user/1000/tonearm/mpd.sock")])
    }

    @Test(arguments: ["6600", "localhost", ":6600", "host:70000", "::1:6600", "[]:6600", "[::1:6600", "a b:6600", "relative/sock"])
    func malformedAddressesAreRefusedByName(_ text: String) {
        #expect(throws: DaemonOptions.Invalid.self) { try mpd(text) }
        do {
            _ = try mpd(nil, binds: [text])
        } catch {
            #expect(error.description.contains("--mpd-bind"), "\(error)")
        }
    }

    /// The daemon asks the MPD server's listen policy, so the two never disagree about an
    /// address (an IPv4-mapped loopback address is loopback to both).
    @Test func anythingButLoopbackNeedsAPassword() throws {
        for open in ["0.0.0.0:6600", "192.168.1.5:6600", "[::]:6600", "example.org:6600", "128.0.0.1:6600"] {
            do {
                _ = try mpd(open)
                Issue.record("\(open) accepted without a password")
            } catch {
                #expect(error.description.contains("password"), "\(error)")
            }
        }
        for loopback in ["127.0.0.1:6600", "127.8.9.10:6600", "localhost:6600", "[::1]:6600", "[::ffff:127.0.0.1]:6600", "/tmp/x.sock"] {
            #expect(try mpd(loopback)?.password == nil)
        }
    }

    @Test func passwordComesFromFlagThenEnvironmentThenConfig() throws {
        let environment = ["TONEARM_MPD_PASSWORD": "from-env"]
        #expect(try mpd("0.0.0.0:6600", password: "flag", environment: environment, config: "file")?.password == "flag")
        #expect(try mpd("0.0.0.0:6600", environment: environment, config: "file")?.password == "from-env")
        #expect(try mpd("0.0.0.0:6600", environment: ["TONEARM_MPD_PASSWORD": ""], config: "file")?.password == "file")
        #expect(throws: DaemonOptions.Invalid.self) { try mpd("0.0.0.0:6600", password: "two\nlines") }
    }

    @Test func listenAddressDescriptionRoundTrips() throws {
        // Port 0: the system picks a free one (daemon.json names it).
        for text in ["127.0.0.1:6600", "[::1]:6600", "/run/user/1/tonearm/mpd.sock", "host.lan:1", "127.0.0.1:0"] {
            #expect(ListenAddress(parsing: text)?.description == text)
        }
    }

    @Test func logTargetPrefersTheFileThenTheJournal() {
        let file = URL(fileURLWithPath: "/tmp/a.log")
        let standard = URL(fileURLWithPath: "/tmp/standard.log")
        #expect(DaemonLogTarget.choose(logFile: file, journalConnected: true, standardFile: standard) == .file(file))
        #expect(DaemonLogTarget.choose(logFile: nil, journalConnected: true, standardFile: standard) == .journal)
        #expect(DaemonLogTarget.choose(logFile: nil, journalConnected: false, standardFile: standard) == .file(standard))
    }
}
