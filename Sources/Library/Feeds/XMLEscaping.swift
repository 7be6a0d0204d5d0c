import PlayerCore

/// Text made safe for XML character data and quoted attribute values.
///
/// Written by hand because Foundation offers no escaping function on Linux (`XMLNode` would
/// build a whole tree for it). The five markup characters become entities; characters XML 1.0
/// cannot carry (C0 controls, U+FFFE/U+FFFF) and the ones Tonearm never lets through (C1, DEL,
/// bidi overrides, `TextSanitizer.isForbidden`) are dropped.
enum XMLEscaping {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if TextSanitizer.isForbidden(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
