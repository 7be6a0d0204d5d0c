import Presentation
import Testing

/// What the bug report's scrubber takes out, rule by rule.
@Suite("Bug report: the scrubber")
struct ReportScrubberTests {
    let scrubber = ReportScrubber(
        secrets: ["hunter22", "abc"], hosts: ["radio.example.org"], home: "/srv/people/alice", user: "alice")

    @Test func addressesHostsPathsUsersAndSecretsGo() {
        #expect(scrubber.scrub("GET https://u:p@radio.example.org:8000/live?token=T1 done") == "GET <address> done")
        #expect(scrubber.scrub("host=radio.example.org port=8000") == "host=<host> port=8000")
        #expect(scrubber.scrub("RADIO.EXAMPLE.ORG") == "<host>")
        #expect(scrubber.scrub("file=/srv/people/alice/Music/a b.flac") == "file=<home> b.flac")
        #expect(scrubber.scrub("file=/home/bob/x.mp3 next") == "file=<home> next")
        #expect(scrubber.scrub("user alice and malice") == "user <user> and malice")
        #expect(scrubber.scrub("password=hunter22;") == "password=<secret>;")
        #expect(scrubber.scrub("abc stays: a secret under four characters would eat words") == "abc stays: a secret under four characters would eat words")
        #expect(scrubber.scrub("Default Sink: rooms\nServer Version: 16.1") == "Default Sink: rooms\nServer Version: 16.1")
    }

    @Test func theConfigurationKeepsItsShapeWithoutItsSecrets() {
        let text = "[sync]\npassword = \"s3cret\"\n[mpd]\nPassword=\"x\"\n[keys]\nquit = [\"q\", \"Q\"]\n[telemetry]\nsalt = \"pepper\"\n"
        #expect(ReportScrubber.configuration(text) == "[sync]\npassword = \"<removed>\"\n[mpd]\nPassword= \"<removed>\"\n[keys]\nquit = [\"q\", \"Q\"]\n[telemetry]\nsalt = \"<removed>\"\n")
    }
}
