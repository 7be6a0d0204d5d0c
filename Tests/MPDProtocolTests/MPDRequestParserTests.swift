import MPDProtocol
import Testing

/// The tokenizer reads what MPD's `Tokenizer` reads, and refuses what it refuses with its words.
@Suite("MPD request parser")
struct MPDRequestParserTests {
    @Test(arguments: [
        ("ping", MPDCommand("ping")),
        ("play 5", MPDCommand("play", ["5"])),
        ("play\t5", MPDCommand("play", ["5"])),
        ("setvol   70  \r", MPDCommand("setvol", ["70"])),
        ("add \"a b\\\"c\\\\d\"", MPDCommand("add", ["a b\"c\\d"])),
        ("add \"\"", MPDCommand("add", [""])),
        ("add \"tab\tinside\"", MPDCommand("add", ["tab\tinside"])),
        ("seekcur +10 \"x\"", MPDCommand("seekcur", ["+10", "x"])),
        ("list_all2 Caf\u{e9}", MPDCommand("list_all2", ["Caf\u{e9}"])),
        // The protocol documentation's example of nested escaping.
        ("find \"(Artist == \\\"foo\\\\'bar\\\\\\\"\\\")\"", MPDCommand("find", ["(Artist == \"foo\\'bar\\\"\")"])),
    ])
    func readsWhatMPDReads(_ line: String, _ expected: MPDCommand) throws {
        #expect(try MPDRequestParser.parse(line) == expected)
    }

    @Test(arguments: [
        ("", MPDRequestError.emptyLine), ("  \t", .emptyLine), ("Play", .letterExpected), (" play", .letterExpected),
        ("9play", .letterExpected), ("pl-ay", .invalidWordCharacter), ("add \"open", .missingClosingQuote),
        ("add \"ends with escape\\", .missingClosingQuote), ("add \"a\"b", .spaceExpectedAfterQuote),
        ("add a\"b", .invalidUnquotedCharacter), ("add 'x'", .invalidUnquotedCharacter),
        ("add \"a\u{1}b\"", .controlCharacter), ("add a\u{7f}", .controlCharacter), ("add \"a\u{0}\"", .controlCharacter),
    ])
    func refusesWhatMPDRefuses(_ line: String, _ error: MPDRequestError) {
        #expect(throws: error) { try MPDRequestParser.parse(line) }
    }

    @Test func argumentsMustBeUTF8AndBounded() throws {
        #expect(throws: MPDRequestError.invalidUTF8) { try MPDRequestParser.parse(Array("add ".utf8) + [0xFF]) }
        let limits = MPDLimits(maxLineLength: 32, maxArguments: 2)
        #expect(throws: MPDRequestError.tooManyArguments) { try MPDRequestParser.parse("add a b c", limits: limits) }
        #expect(try MPDRequestParser.parse("add a b", limits: limits).arguments == ["a", "b"])
        #expect(throws: MPDRequestError.lineTooLong) { try MPDRequestParser.parse("add " + String(repeating: "x", count: 29), limits: limits) }
    }

    @Test func errorsAreTheACKsMPDSends() {
        #expect(MPDRequestError.missingClosingQuote.ack.line == "ACK [5@0] {} Missing closing '\"'")
        #expect(MPDRequestError.tooManyArguments.ack.line == "ACK [2@0] {} Too many arguments")
        #expect(MPDRequestError.letterExpected.closesConnection)
        #expect(!MPDRequestError.missingClosingQuote.closesConnection)
    }

    @Test func encodedCommandsReadBackUnchanged() throws {
        let command = MPDCommand("add", ["a \"quoted\" \\ path", "", "tab\there"])
        var line = try MPDRequestEncoder.line(command)
        #expect(line.last == 0x0A)
        line.removeLast()
        #expect(try MPDRequestParser.parse(line) == command)
        #expect(throws: MPDRequestError.controlCharacter) { try MPDRequestEncoder.line(MPDCommand("add", ["a\nplay"])) }
        #expect(throws: MPDRequestError.invalidWordCharacter) { try MPDRequestEncoder.line(MPDCommand("add x")) }
    }
}

@Suite("MPD response encoding and the client's reader")
struct MPDResponseEncodingTests {
    @Test func aValueWithALineBreakCannotForgeALine() {
        let bytes = MPDResponseEncoder.fields(MPDResponse([.init("Title", "a\nOK\r\nACK [5@0] {} x"), .init("file", "f")]))
        #expect(String(decoding: bytes, as: UTF8.self) == "Title: a OK  ACK [5@0] {} x\nfile: f\n")
        let ack = MPDResponseEncoder.ack(MPDAck(.noExist, "no\nsuch", command: "play\nOK", listIndex: 2))
        #expect(String(decoding: ack, as: UTF8.self) == "ACK [50@2] {play OK} no such\n")
        #expect(String(decoding: MPDResponseEncoder.idleAnswer([.mixer, .player, .database]), as: UTF8.self)
            == "changed: database\nchanged: player\nchanged: mixer\nOK\n")
    }

    @Test func readerSplitsAnswersInAnyChunking() throws {
        let stream = Array("OK MPD 0.23.5\nvolume: 42\nstate: play\nOK\nfile: a: b\nlist_OK\nlist_OK\nACK [50@1] {play} No such song\nOK\n".utf8)
        for chunk in [1, 3, stream.count] {
            var reader = MPDAnswerReader()
            var events: [MPDAnswerReader.Event] = []
            var start = 0
            while start < stream.count {
                reader.feed(stream[start..<min(stream.count, start + chunk)])
                while let event = try reader.next() { events.append(event) }
                start += chunk
            }
            #expect(
                events == [
                    .greeting(version: "0.23.5"), .ok(MPDResponse([.init("volume", "42"), .init("state", "play")])),
                    .listOK(MPDResponse([.init("file", "a: b")])), .listOK(MPDResponse()),
                    .ack(MPDAck(.noExist, "No such song", command: "play", listIndex: 1)), .ok(MPDResponse()),
                ])
        }
    }

    @Test func readerRefusesWhatIsNotAnAnswer() {
        var reader = MPDAnswerReader(expectsGreeting: false, maxLineLength: 8)
        reader.feed(Array("no colon\n".utf8))
        #expect(throws: MPDAnswerReader.ReadError.self) { try reader.next() }
        var long = MPDAnswerReader(expectsGreeting: false, maxLineLength: 8)
        long.feed(Array(repeating: 0x61, count: 9))
        #expect(throws: MPDAnswerReader.ReadError.lineTooLong) { try long.next() }
        var http = MPDAnswerReader()
        http.feed(Array("HTTP/1.1 200 OK\n".utf8))
        #expect(throws: MPDAnswerReader.ReadError.self) { try http.next() }
    }

    /// A binary part (`albumart`, `readpicture`) is sent as mpd sends it: `binary: N`, the bytes
    /// as they are (a newline or `OK` among them forges nothing), a newline; and read back whole.
    @Test func aBinaryPartIsSentAsItIsAndReadBackWhole() throws {
        let picture: [UInt8] = Array("\nOK\nACK [5@0] {} x\n".utf8) + [0, 255, 10]
        let response = MPDResponse([.init("size", "40"), .init("type", "image/png")], binary: picture)
        let bytes = MPDResponseEncoder.fields(response)
        #expect(bytes == Array("size: 40\ntype: image/png\nbinary: \(picture.count)\n".utf8) + picture + [0x0A])
        let stream = Array("OK MPD 0.23.5\n".utf8) + bytes + MPDResponseEncoder.ok + Array("volume: 1\nOK\n".utf8)
        for chunk in [1, 5, stream.count] {
            var reader = MPDAnswerReader()
            var events: [MPDAnswerReader.Event] = []
            var start = 0
            while start < stream.count {
                reader.feed(stream[start..<min(stream.count, start + chunk)])
                while let event = try reader.next() { events.append(event) }
                start += chunk
            }
            #expect(events == [.greeting(version: "0.23.5"), .ok(response), .ok(MPDResponse([.init("volume", "1")]))])
        }
        var tooLong = MPDAnswerReader(expectsGreeting: false, maxBinaryLength: 4)
        tooLong.feed(Array("binary: 5\n".utf8))
        #expect(throws: MPDAnswerReader.ReadError.self) { try tooLong.next() }
    }
}
