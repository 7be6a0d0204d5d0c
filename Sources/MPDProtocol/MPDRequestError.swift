/// Why a request line could not be read. Each case is answered with the ACK MPD sends for it; the
/// ones that show the peer does not speak the protocol at all also end the connection, as MPD does.
public enum MPDRequestError: Error, Sendable, Hashable {
    /// Nothing but white space before the newline.
    case emptyLine
    /// The line does not start with a lower-case letter (a stray HTTP request, say).
    case letterExpected
    /// The command name holds something other than letters, digits and `_`.
    case invalidWordCharacter
    /// A bare argument holds a quote or a character below the space.
    case invalidUnquotedCharacter
    /// A quoted argument is not closed before the line ends.
    case missingClosingQuote
    /// A closing quote is followed by something other than white space.
    case spaceExpectedAfterQuote
    /// A control character (other than the tab) inside an argument, which MPD would silently take
    /// for a separator; refused so that what a client meant is never guessed.
    case controlCharacter
    /// An argument that is not UTF-8, which the protocol requires.
    case invalidUTF8
    /// More arguments than `MPDLimits.maxArguments`.
    case tooManyArguments
    /// More bytes than `MPDLimits.maxLineLength` before a newline.
    case lineTooLong

    /// Whether the server answers and then closes the connection: the peer is not an MPD client,
    /// or it would make the server buffer without bound.
    public var closesConnection: Bool {
        switch self {
        case .emptyLine, .letterExpected, .invalidWordCharacter, .lineTooLong: true
        default: false
        }
    }

    /// The answer MPD gives (its tokenizer's texts; the server's own words for the checks MPD lacks).
    public var ack: MPDAck {
        switch self {
        case .emptyLine: MPDAck(.unknown, "No command given")
        case .letterExpected: MPDAck(.unknown, "Letter expected")
        case .invalidWordCharacter: MPDAck(.unknown, "Invalid word character")
        case .invalidUnquotedCharacter: MPDAck(.unknown, "Invalid unquoted character")
        case .missingClosingQuote: MPDAck(.unknown, "Missing closing '\"'")
        case .spaceExpectedAfterQuote: MPDAck(.unknown, "Space expected after closing '\"'")
        case .controlCharacter: MPDAck(.unknown, "Control character in argument")
        case .invalidUTF8: MPDAck(.unknown, "Argument is not UTF-8")
        case .tooManyArguments: MPDAck(.argument, "Too many arguments")
        case .lineTooLong: MPDAck(.unknown, "Line too long")
        }
    }
}
