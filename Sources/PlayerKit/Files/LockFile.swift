#if canImport(Glibc)
    import Glibc
#endif

/// What the flock(2)-based locks share.
enum LockFile {
    /// Drops the lock held on `descriptor`, then closes it.
    ///
    /// The lock belongs to the open file description, not the descriptor: a child process spawned
    /// while it is held shares that description until it execs (close-on-exec closes its copy only
    /// then), so closing alone leaves the lock held until the last copy goes. Unlocking drops it
    /// for every copy at once.
    static func unlockAndClose(_ descriptor: Int32) {
        _ = flock(descriptor, LOCK_UN)
        _ = close(descriptor)
    }
}
