import ArgumentParser
import PlayerKit

/// `--output pulse | wav:PATH | wav-float:PATH | fifo:PATH | null`, `--also-output fifo:PATH`.
extension OutputChoice: ExpressibleByArgument {}
