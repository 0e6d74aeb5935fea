import MoyaKit
import Sending
import TargetModel
import TargetServe
import TargetSpec
import TextSafety

/// A `serve` run: the APIs loaded as `list` and `call` find them, a builder each (the file's view
/// of the environment, `--env`), the server started, Ctrl-C and SIGTERM waited for.
struct ServeRun {
    var command: MoyaCommand.Serve

    func run() throws {
        let environment = ProcessEnvironment.current
        let loader = CatalogLoader(options: command.targetArguments.options, environment: environment)
        let factory = TargetFactory(environment: environment, environmentName: command.environmentName)
        let apis = try apis(loader: loader)
        let builders = apis.map { factory.builder(for: $0, isStubbed: true) }
        var configuration = SampleServer.Configuration()
        configuration.host = command.host
        configuration.port = command.port
        configuration.delay = command.delay?.value ?? 0
        configuration.defaultSample = command.sample
        configuration.cors = command.noCORS ? nil : CORSPolicy(allowedOrigins: command.corsOrigins)
        configuration.checksCredentials = !command.noAuth
        configuration.checksBodies = !command.noValidate
        if command.proxy {
            var request = RequestOptions()
            request.environment = command.environmentName
            configuration.forwarder = ServeProxy(
                apis: apis, sender: Sender(request: request, environment: environment, isStubbed: false),
                url: command.proxyURL,
                recording: command.record ? SampleRecording(options: RecordOptions(record: true)) : nil)
        }
        // Written by a thread of its own, never by an event loop: a log that is slow to take its
        // lines (a full pipe, a paused terminal) delays no answer. A terminal shows each line as it
        // comes; a file or pipe takes the lines of a burst in one write.
        let log = BufferedLog(immediate: Terminal.isTerminal(2)) { StandardStream.error.write($0) }
        let server: SampleServer
        do {
            server = try SampleServer(builders: builders, configuration: configuration, log: log.append)
        } catch {
            throw CommandFailure(Self.status(of: error), error.description)
        }
        let interrupt = Interrupt.install()
        interrupt.onInterrupt { server.stop() }
        interrupt.watchInBackground()
        let host = command.host.contains(":") ? "[\(command.host)]" : command.host
        StandardStream.error.write(
            DisplayText.escaped(
                "serving \(SampleServer.apiNames(builders).joined(separator: ", ")) on http://\(host):\(server.port)")
                + "\n")
        server.waitUntilStopped()
        log.flush()
        if let failure = Interrupt.failureIfSignalled { throw failure }
    }

    /// The APIs named, or every API found; a file with errors stops the run (65).
    private func apis(loader: CatalogLoader) throws -> [APISpec] {
        if !command.apis.isEmpty {
            return try command.apis.map { name in
                let (catalog, api) = try loader.api(named: name)
                loader.printDiagnostics(of: catalog.filtered(toFile: api.file))
                return api
            }
        }
        let catalog = try loader.load()
        loader.printDiagnostics(of: catalog)
        if catalog.hasErrors { throw CommandFailure(.invalidTargetFile, "some target files are invalid (see above)") }
        let apis = catalog.entries.compactMap(\.api)
        if apis.isEmpty {
            throw CommandFailure(
                .usage,
                "no target files found; searched: \(catalog.searchedDescription); "
                    + "put *.yaml files in ./targets or name them with --targets")
        }
        return apis
    }

    /// The exit status for a server that cannot start.
    private static func status(of error: ServeError) -> ExitStatus {
        switch error {
        case .routeClash: .invalidTargetFile
        case .baseURL, .unknownSample: .usage
        case .cannotListen: .cannotWriteOutput
        }
    }
}
