/// Reads one request line as MPD's `Tokenizer` does: a command name (a letter, then letters,
/// digits and `_`), then arguments separated by spaces or tabs, each bare (no quote, nothing below
/// the space) or in double quotes, where a backslash takes the next byte literally. MPD would take
/// other control characters for separators; here they are refused (`controlCharacter`), and an
/// argument must be UTF-8.
public enum MPDRequestParser {
    /// Parses a line without its newline; trailing spaces, tabs and a carriage return are ignored.
    public static func parse(_ line: [UInt8], limits: MPDLimits = .standard) throws(MPDRequestError) -> MPDCommand {
        var end = line.count
        while end > 0, isSeparator(line[end - 1]) || line[end - 1] == carriageReturn { end -= 1 }
        guard end <= limits.maxLineLength else { throw .lineTooLong }
        guard end > 0 else { throw .emptyLine }
        guard isLowercaseLetter(line[0]) else { throw .letterExpected }

        var index = 1
        while index < end, !isSeparator(line[index]) {
            guard isWordCharacter(line[index]) else { throw .invalidWordCharacter }
            index += 1
        }
        let name = String(decoding: line[0..<index], as: UTF8.self)
        index = skipSeparators(line, from: index, to: end)

        var arguments: [String] = []
        while index < end {
            guard arguments.count < limits.maxArguments else { throw .tooManyArguments }
            var bytes: [UInt8] = []
            if line[index] == quote {
                index += 1
                while true {
                    guard index < end else { throw .missingClosingQuote }
                    var byte = line[index]
                    if byte == quote { break }
                    if byte == backslash {
                        index += 1
                        guard index < end else { throw .missingClosingQuote }
                        byte = line[index]
                    }
                    guard !isControl(byte) else { throw .controlCharacter }
                    bytes.append(byte)
                    index += 1
                }
                index += 1
                guard index == end || isSeparator(line[index]) else { throw .spaceExpectedAfterQuote }
            } else {
                while index < end, !isSeparator(line[index]) {
                    let byte = line[index]
                    guard !isControl(byte) else { throw .controlCharacter }
                    guard byte > space, byte != quote, byte != apostrophe else { throw .invalidUnquotedCharacter }
                    bytes.append(byte)
                    index += 1
                }
            }
            guard let argument = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
            arguments.append(argument)
            index = skipSeparators(line, from: index, to: end)
        }
        return MPDCommand(name, arguments)
    }

    /// Parses a line given as text (tests and tools); the same rules as for bytes.
    public static func parse(_ line: String, limits: MPDLimits = .standard) throws(MPDRequestError) -> MPDCommand {
        try parse(Array(line.utf8), limits: limits)
    }

    /// The line with its trailing white space removed, as MPD compares `noidle` and the
    /// `command_list_*` markers.
    static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = line.endIndex
        while end > line.startIndex, isSeparator(line[end - 1]) || line[end - 1] == carriageReturn { end -= 1 }
        return line[line.startIndex..<end]
    }

    private static let space: UInt8 = 0x20
    private static let tab: UInt8 = 0x09
    private static let carriageReturn: UInt8 = 0x0D
    private static let quote: UInt8 = 0x22
    private static let apostrophe: UInt8 = 0x27
    private static let backslash: UInt8 = 0x5C

    static func isSeparator(_ byte: UInt8) -> Bool { byte == space || byte == tab }
    static func isLowercaseLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    private static func isControl(_ byte: UInt8) -> Bool { (byte < space && byte != tab) || byte == 0x7F }
    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F
    }
    private static func skipSeparators(_ line: [UInt8], from start: Int, to end: Int) -> Int {
        var index = start
        while index < end, isSeparator(line[index]) { index += 1 }
        return index
    }
}
