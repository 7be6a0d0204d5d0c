/// The version `tonearm --version` prints; bumped by hand with each release.
public enum TonearmVersion {
    public static let current = "0.1.0"
}
