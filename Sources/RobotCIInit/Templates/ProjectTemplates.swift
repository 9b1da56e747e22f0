/// The files around the suite: Package.swift (new packages only), robotci.yml, the CI
/// workflow and the sample page.
enum ProjectTemplates {
    /// Tools 6.0: the generated code needs nothing newer (it marks its isolation itself, so no
    /// `.defaultIsolation`, which would need 6.2), and robotci itself is a 6.0 package.
    static let toolsVersion = "6.0"

    static func testTarget(_ names: SuiteNames, dependency: RobotCIDependency) -> String {
        """
                // Robot tests: RobotKit (XCUITest's API on headless Chromium), a MockServer per test.
                .testTarget(
                    name: "\(names.target)",
                    dependencies: [
                        .product(name: "RobotKit", package: \(SwiftLiteral.string(dependency.packageIdentity))),
                        .product(name: "MockServer", package: \(SwiftLiteral.string(dependency.packageIdentity))),
                    ]
                ),
        """
    }

    static func packageManifest(_ names: SuiteNames, dependency: RobotCIDependency, robotciVersion: String) -> String {
        """
        // swift-tools-version:\(toolsVersion)
        import PackageDescription

        // UI tests in the robot pattern, run by `robotci run` (written by robotci init \(robotciVersion)).
        let package = Package(
            name: \(SwiftLiteral.string(names.package)),
            // robotci's own minimum; robot tests run on Linux (see robotci's docs/install.md, *Platforms*).
            platforms: [.macOS(.v13)],
            dependencies: [
                \(dependency.packageLine),
            ],
            targets: [
        \(testTarget(names, dependency: dependency))
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    static func config(_ names: SuiteNames, addedToExistingPackage: Bool) -> String {
        let filter = addedToExistingPackage
            ? """
            # Only the robot tests (this package has other test targets); drop it to run them all.
            filter:
              - ^\(names.target)\\.

            """
            : ""
        return """
            # robotci.yml — read by `robotci run` in this folder (written by robotci init).
            # Every key, its flag, environment variable and default: `robotci config --keys`;
            # what a run would use here, and where each value comes from: `robotci config`.

            # Shards (parallel test processes, each with its own browser and mock port).
            # Default: the number of cores.
            # shards: 4
            # Extra attempts for a failing test; failed then passed is reported as flaky.
            retries: 2
            # Seconds a test may run before its process is killed and it is timedOut.
            test-timeout: 300
            # junit.xml, results.json, index.html (open it in a browser) and attachments/.
            report-dir: robotci-report
            \(filter)
            """
    }

    static func githubWorkflow(dependency: RobotCIDependency, robotciVersion: String) -> String {
        let install: String
        switch dependency {
        case .url(let url, let version):
            install = """
                      - name: \(YAMLScalar.quoted("Install robotci " + version))
                        run: |
                          git clone --depth 1 --branch \(ShellWord.quoted(version)) \(ShellWord.quoted(url)) /tmp/robotci
                          make -C /tmp/robotci install PREFIX=/usr/local
                """
        case .path(let path):
            install = """
                      # Package.swift finds robotci at \(path) (robotci init --robotci PATH):
                      # this job needs a robotci checkout there too (a submodule, or a clone step).
                      - name: \(YAMLScalar.quoted("Install robotci from " + path))
                        run: |
                          make -C \(ShellWord.quoted(path)) install PREFIX=/usr/local
                """
        }
        return """
            # .github/workflows/ui-tests.yml — the robot tests through robotci on every push
            # (written by robotci init \(robotciVersion)). Splitting across machines (--partition,
            # --queue) and merging reports: robotci's docs/ci.md, *Running on many machines*.
            name: ui-tests
            on: [push, pull_request]

            jobs:
              ui-tests:
                runs-on: ubuntu-latest
                container: swift:6.0-bookworm
                steps:
                  - uses: actions/checkout@v4
                  - name: System packages
                    run: apt-get update -qq && apt-get install -y -qq make git libxml2-dev libcurl4-openssl-dev libhiredis-dev libpng-dev chromium-headless-shell fonts-liberation
            \(install)
                  - name: Previous timings and history (plans the run, flake rates in the report)
                    uses: actions/cache/restore@v4
                    with:
                      path: |
                        robotci-report/timings.json
                        robotci-report/history.json
                      key: robotci-${{ github.ref_name }}-${{ github.run_id }}
                      restore-keys: robotci-
                  - name: UI tests
                    run: robotci run --reporter github
                  - uses: actions/cache/save@v4
                    if: always()
                    with:
                      path: |
                        robotci-report/timings.json
                        robotci-report/history.json
                      key: robotci-${{ github.ref_name }}-${{ github.run_id }}
                  - uses: actions/upload-artifact@v4
                    if: always()
                    with:
                      name: robotci-report
                      path: robotci-report/

            """
    }

    /// The build and the report are outputs; an existing .gitignore is left alone like any file.
    static let gitignore = """
        .build/
        /robotci-report/

        """

    /// A page that calls the mock server, so the first `robotci run` is green and the report
    /// shows a mock journal; the team replaces it with its app (`robotci init --app-url`).
    static let samplePage = """
        <!doctype html>
        <html lang="en">
        <head>
          <meta charset="utf-8">
          <title>Sample app</title>
        </head>
        <body>
          <!-- Written by robotci init: the page the generated robot tests open. Replace it with
               your app, or point the tests at it (ROBOTKIT_APP_URL, or the suite's appURL). -->
          <main data-testid="home.view">
            <h1>Sample app</h1>
            <button data-testid="home.loadGreetingButton">Load greeting</button>
            <p data-testid="home.greeting" hidden></p>
            <p data-testid="home.error" role="alert" hidden></p>
          </main>
          <script>
            // RobotKit hands the test's mock server to the page as a query item.
            const api = new URLSearchParams(location.search).get('API_BASE_URL') || 'http://127.0.0.1:8080';
            const greeting = document.querySelector('[data-testid="home.greeting"]');
            const error = document.querySelector('[data-testid="home.error"]');
            document.querySelector('[data-testid="home.loadGreetingButton"]').addEventListener('click', async () => {
              greeting.hidden = true;
              error.hidden = true;
              try {
                const response = await fetch(api + '/greeting', { headers: { Accept: 'application/json' } });
                if (!response.ok) throw new Error('the backend answered ' + response.status);
                greeting.textContent = (await response.json()).message;
                greeting.hidden = false;
              } catch (e) {
                error.textContent = 'Could not load the greeting: ' + e.message;
                error.hidden = false;
              }
            });
          </script>
        </body>
        </html>

        """
}
