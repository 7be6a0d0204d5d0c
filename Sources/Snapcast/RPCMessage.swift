/// A request Snapcast's server sends a stream plugin, as read from one line of stdin.
public struct RPCRequest: Sendable, Equatable {
    public var id: JSONValue
    public var method: String
    public var params: JSONValue

    public init(id: JSONValue, method: String, params: JSONValue = .null) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// Parses a line; a line that is not a JSON-RPC request is nil.
    public init?(line: String) {
        guard let value = JSONValue(line: line), case .string(let method)? = value["method"] else { return nil }
        self.init(id: value["id"] ?? .null, method: method, params: value["params"] ?? .null)
    }
}

/// The JSON-RPC lines a stream plugin writes to stdout.
public enum RPCMessage {
    /// JSON-RPC's error codes as Snapcast's plugins use them.
    public enum ErrorCode: Int, Sendable {
        case parseError = -32700
        case invalidParams = -32602
        case methodNotFound = -32601
        case internalError = -32603
    }

    public static func result(id: JSONValue, _ result: JSONValue) -> String {
        JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": result]).line
    }

    public static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> String {
        JSONValue.object([
            "jsonrpc": .string("2.0"), "id": id, "error": .object(["code": .number(Double(code.rawValue)), "message": .string(message)]),
        ]).line
    }

    public static func notification(_ method: String, _ params: JSONValue? = nil) -> String {
        var fields: [String: JSONValue] = ["jsonrpc": .string("2.0"), "method": .string(method)]
        if let params { fields["params"] = params }
        return JSONValue.object(fields).line
    }

    /// Sent once at start: the plugin takes requests.
    public static var ready: String { notification("Plugin.Stream.Ready") }

    /// Sent whenever the player's properties change.
    public static func properties(_ properties: JSONValue) -> String {
        notification("Plugin.Stream.Player.Properties", properties)
    }

    /// A message for the server's log.
    public static func log(_ severity: String, _ message: String) -> String {
        notification("Plugin.Stream.Log", .object(["severity": .string(severity), "message": .string(message)]))
    }
}
