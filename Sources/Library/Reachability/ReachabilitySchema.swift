import GRDB

/// What Tonearm has learnt about reaching each library item (`ReachabilityRecord`), and how runs
/// ended per host class. A row goes with its podcast or station.
enum ReachabilitySchema {
    static func addReachability(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE reachability (
                item TEXT PRIMARY KEY,
                podcastId INTEGER REFERENCES podcast(id) ON DELETE CASCADE,
                stationId INTEGER REFERENCES station(id) ON DELETE CASCADE,
                hostClass TEXT NOT NULL,
                consecutiveFailures INTEGER NOT NULL,
                failingSince REAL,
                lastAttempt REAL,
                lastSuccess REAL,
                lastError INTEGER,
                recoveredRuns INTEGER NOT NULL,
                failedRuns INTEGER NOT NULL
            );
            CREATE TABLE runEnding (
                hostClass TEXT NOT NULL,
                tries INTEGER NOT NULL,
                count INTEGER NOT NULL,
                PRIMARY KEY (hostClass, tries)
            );
            """)
    }
}
