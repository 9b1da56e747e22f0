import Foundation

/// The fonts a browser robotci or RobotKit starts (Chromium, WPEWebDriver with cog) may use: the installed Liberation set and
/// nothing else, through a fontconfig file of the run's own (`FONTCONFIG_FILE`). A page then
/// renders the same on every machine that has Liberation: `sans-serif` is Liberation Sans
/// here and on a CI image that lacks DejaVu, and a glyph Liberation lacks is the same empty
/// box everywhere instead of whatever fallback font a machine happens to have. Rendering
/// settings (anti-aliasing, hinting, no subpixel colour) are fixed in the same file, so the
/// host's `/etc/fonts` cannot change them either. Snapshots (`verifySnapshot`) depend on it.
///
/// A `FONTCONFIG_FILE` already in the browser's environment is the user's choice and is kept;
/// without any Liberation font installed the system's fonts are used.
public enum BrowserFonts {
    /// Where font packages put their files.
    public static let roots = ["/usr/share/fonts", "/usr/local/share/fonts"]

    /// Folders holding Liberation's TrueType files (Debian's `fonts-liberation` and
    /// `fonts-liberation2`, Fedora's `liberation-*-fonts`), found under `roots`.
    public static func liberationFolders(under roots: [String] = roots) -> [String] {
        var found: [String] = []
        let fm = FileManager.default
        for root in roots {
            guard let walker = fm.enumerator(atPath: root) else { continue }
            while let entry = walker.nextObject() as? String {
                let name = (entry as NSString).lastPathComponent
                guard name.hasPrefix("Liberation"), name.hasSuffix(".ttf") else { continue }
                let folder = (root as NSString).appendingPathComponent((entry as NSString).deletingLastPathComponent)
                if !found.contains(folder) { found.append(folder) }
            }
        }
        return found.sorted()
    }

    /// The fontconfig file for `folders`, its cache in `cache`.
    public static func configuration(folders: [String], cache: String) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        let aliases = [
            ("sans-serif", "Liberation Sans"), ("serif", "Liberation Serif"), ("monospace", "Liberation Mono"),
            ("Arial", "Liberation Sans"), ("Helvetica", "Liberation Sans"), ("system-ui", "Liberation Sans"),
            ("Times New Roman", "Liberation Serif"), ("Times", "Liberation Serif"),
            ("Courier New", "Liberation Mono"), ("Courier", "Liberation Mono"),
        ]
        var lines = [
            #"<?xml version="1.0"?>"#, #"<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">"#, "<fontconfig>",
        ]
        lines += folders.map { "  <dir>\(escaped($0))</dir>" }
        lines.append("  <cachedir>\(escaped(cache))</cachedir>")
        for (family, font) in aliases {
            lines.append("  <alias binding=\"same\"><family>\(family)</family><prefer><family>\(font)</family></prefer></alias>")
        }
        lines += [
            "  <match target=\"pattern\"><test qual=\"all\" name=\"family\" compare=\"not_eq\"><string>Liberation Serif</string></test>"
                + "<test qual=\"all\" name=\"family\" compare=\"not_eq\"><string>Liberation Mono</string></test>"
                + "<edit name=\"family\" mode=\"append_last\"><string>Liberation Sans</string></edit></match>",
            "  <match target=\"font\">",
            "    <edit name=\"antialias\" mode=\"assign\"><bool>true</bool></edit>",
            "    <edit name=\"hinting\" mode=\"assign\"><bool>true</bool></edit>",
            "    <edit name=\"hintstyle\" mode=\"assign\"><const>hintslight</const></edit>",
            "    <edit name=\"rgba\" mode=\"assign\"><const>none</const></edit>",
            "    <edit name=\"lcdfilter\" mode=\"assign\"><const>lcdnone</const></edit>",
            "    <edit name=\"embeddedbitmap\" mode=\"assign\"><bool>false</bool></edit>",
            "  </match>",
            "  <config><rescan><int>0</int></rescan></config>",
            "</fontconfig>",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Adds `FONTCONFIG_FILE` to a browser's `environment`: a file written in `folder` (the
    /// browser's own scratch folder), unless the environment names one already or no
    /// Liberation font is installed. Returns the environment to start the browser with.
    public static func controlled(_ environment: [String: String], folder: String) -> [String: String] {
        guard environment["FONTCONFIG_FILE"] == nil else { return environment }
        let folders = liberationFolders()
        guard !folders.isEmpty else { return environment }
        let file = (folder as NSString).appendingPathComponent("robotci-fonts.conf")
        let cache = (folder as NSString).appendingPathComponent("fontconfig-cache")
        do {
            try Data(configuration(folders: folders, cache: cache).utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            return environment
        }
        var out = environment
        out["FONTCONFIG_FILE"] = file
        return out
    }
}
