import ArgumentParser
import PlayerKit

/// `--output pulse | wav:PATH | wav-float:PATH | null`.
extension OutputChoice: ExpressibleByArgument {}
