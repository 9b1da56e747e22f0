import Foundation
import SnapshotCompare

/// A picture of the page once it is still: animations and transitions finished or frozen,
/// the caret hidden, web fonts loaded, then screenshots until two in a row are the same.
/// What is frozen is thawed afterwards, so the test goes on with a live page.
///
/// What it cannot freeze is the page's own doing (a clock, a timer that redraws, a video):
/// such a page never holds still and the capture fails after `timeout`, saying so.
struct StillCapture {
    let driver: PageDriver
    /// How long the page has to hold still.
    var timeout: TimeInterval = 5

    /// The still viewport, cropped to what `region` returns (CSS pixels, read once the page
    /// is frozen; nil: the whole viewport), and how many screenshots it took.
    func capture(region: () throws(RobotKitError) -> CGRect?) throws(RobotKitError) -> (image: RGBAImage, captures: Int) {
        let frozen = try driver.evaluate(Self.freeze, awaitPromise: true, timeout: 10) as? [String: Any] ?? [:]
        defer { _ = try? driver.evaluate(Self.thaw, awaitPromise: false, timeout: 10) }
        let scale = (frozen["scale"] as? NSNumber)?.doubleValue ?? 1
        guard scale == 1 else {
            throw .unsupported(
                "a snapshot needs a device scale factor of 1 and the page has \(scale): robotci's and RobotKit's "
                    + "browsers run at 1 (--force-device-scale-factor=1); a browser of your own must too")
        }
        let box = try region()
        let deadline = Date().addingTimeInterval(timeout)
        var last = try driver.screenshot(jpegQuality: nil)
        var captures = 1
        while true {
            let next = try driver.screenshot(jpegQuality: nil)
            captures += 1
            if next == last { break }
            last = next
            guard Date() < deadline else {
                throw .webDriver(
                    code: "timeout",
                    "the page did not hold still for a snapshot within \(Int(timeout)) s (\(captures) screenshots, no two "
                        + "in a row alike): something in the page keeps drawing (a clock, a timer, a video); freeze it for the test")
            }
        }
        let image: RGBAImage
        do {
            image = try RGBAImage(png: last)
        } catch {
            throw .webDriver(code: "unknown error", "the browser's screenshot is \(error)")
        }
        guard let box else { return (image, captures) }
        // Whole pixels that cover the box: a fractional edge takes the pixel it touches.
        let left = Int(box.minX.rounded(.down)), top = Int(box.minY.rounded(.down))
        let right = Int(box.maxX.rounded(.up)), bottom = Int(box.maxY.rounded(.up))
        let cropped = image.cropped(x: left, y: top, width: right - left, height: bottom - top)
        guard cropped.width > 0, cropped.height > 0 else {
            throw .webDriver(
                code: "no such element",
                "the element's box (\(Int(box.minX)),\(Int(box.minY)) \(Int(box.width))×\(Int(box.height))) shows nothing "
                    + "in the \(image.width)×\(image.height) viewport")
        }
        return (cropped, captures)
    }

    /// Freezes the page for the shots: a style sheet that turns transitions off and hides the
    /// caret, finite animations (CSS and Web Animations) finished, infinite ones paused at
    /// their start, and web fonts awaited. Answers the device scale factor.
    static let freeze = """
        (async () => {
            const id = '__robotkit_snapshot_freeze';
            if (!document.getElementById(id)) {
                const style = document.createElement('style');
                style.id = id;
                style.textContent = '*, *::before, *::after { transition: none !important; caret-color: transparent !important; }';
                (document.head || document.documentElement).appendChild(style);
            }
            const paused = [];
            for (const animation of document.getAnimations()) {
                const timing = animation.effect ? animation.effect.getComputedTiming() : null;
                if (timing && Number.isFinite(timing.endTime)) {
                    try { animation.finish(); continue; } catch (e) { /* a zero playback rate: pause it below */ }
                }
                if (animation.playState === 'running') paused.push(animation);
                animation.pause();
                animation.currentTime = 0;
            }
            window.__robotkitSnapshotPaused = paused;
            if (document.fonts && document.fonts.ready) await document.fonts.ready;
            // Two frames drawn with all of it (a hidden page draws none: then a moment is enough).
            await Promise.race([new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
                new Promise((done) => setTimeout(done, 200))]);
            return { scale: window.devicePixelRatio };
        })()
        """

    /// Undoes `freeze`: the style sheet removed, the paused animations playing again.
    static let thaw = """
        (() => {
            const style = document.getElementById('__robotkit_snapshot_freeze');
            if (style) style.remove();
            for (const animation of window.__robotkitSnapshotPaused || []) animation.play();
            window.__robotkitSnapshotPaused = [];
            return true;
        })()
        """
}
