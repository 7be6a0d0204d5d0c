import Foundation
import GRDB
import PlayerCore

/// Small key-value settings (the last output device, the preferred language): strings, one line each.
extension LibraryStore {
    /// The value for `key`, or nil when unset.
    package func setting(_ key: String) throws(PlaybackError) -> String? {
        let key = try SettingKey.clean(key)
        return try read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key]) }
    }

    /// Sets `key` to `value`; nil removes it.
    package func setSetting(_ key: String, _ value: String?) throws(PlaybackError) {
        let key = try SettingKey.clean(key)
        let value = value.map { TextSanitizer.singleLine($0, maxLength: LibraryText.settingValueLength) }
        try write { db in
            if let value {
                try db.execute(
                    sql: "INSERT INTO setting (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key])
            }
        }
    }
}

enum SettingKey {
    static func clean(_ key: String) throws(PlaybackError) -> String {
        let cleaned = TextSanitizer.singleLine(key, maxLength: LibraryText.settingKeyLength)
        guard !cleaned.isEmpty else { throw PlaybackError(.malformedData, underlying: "empty setting key") }
        return cleaned
    }
}
