package io.graphragcode.launcher;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.kernel.internal.Version;

/**
 * Runs embedded Neo4j Community for graphrag_code.
 *
 * <p>Bolt listens on 127.0.0.1 only, and LOAD CSV cannot read local files (file URLs are
 * refused). Neo4j Browser's static files (from the
 * org.neo4j.client:neo4j-browser jar on the classpath) are served on 127.0.0.1 too; the Browser
 * then talks Bolt over WebSocket to the Bolt port, which Neo4j's Bolt connector accepts.
 *
 * <p>Protocol with the Python side: one line "READY {json}" on stdout once Bolt accepts
 * connections, and a file "launcher.state.json" in the home directory; SIGTERM (or stdin EOF when
 * --stop-on-stdin-eof is given) shuts the database down cleanly.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] argv) throws Exception {
        Map<String, String> args = parseArgs(argv);
        Path home = Path.of(require(args, "home")).toAbsolutePath();
        int boltPort = Integer.parseInt(require(args, "bolt-port"));
        int httpPort = Integer.parseInt(args.getOrDefault("http-port", "0"));
        String pageCache = args.getOrDefault("pagecache", "256m");
        String txMemory = args.getOrDefault("tx-memory", "1g");
        // Neo4j's default keeps two days of transaction logs whatever their size (gigabytes
        // per large index); what crash recovery needs is kept under any policy.
        String txLogRetention = args.getOrDefault("tx-log-retention", "256M size");
        Path passwordFile = args.containsKey("password-file") ? Path.of(args.get("password-file")) : null;
        Files.createDirectories(home);

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", boltPort))
                .setConfig(GraphDatabaseSettings.auth_enabled, passwordFile != null)
                .setConfig(GraphDatabaseSettings.pagecache_memory, parseBytes(pageCache))
                .setConfig(GraphDatabaseSettings.memory_transaction_global_max_size, parseBytes(txMemory))
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofMinutes(30))
                .setConfig(GraphDatabaseSettings.keep_logical_logs, txLogRetention)
                .setConfig(GraphDatabaseSettings.strict_config_validation, false)
                // LOAD CSV FROM 'file:///etc/passwd' would let any client read what the server
                // process can; code graphs never need it. The import root is an empty folder too.
                .setConfig(GraphDatabaseSettings.allow_file_urls, false)
                .setConfig(GraphDatabaseSettings.load_csv_file_url_root, emptyImportDir(home))
                .loadPropertiesFromFile(writeInternalConfig(home));
        DatabaseManagementService dbms = builder.build();

        CountDownLatch stopped = new CountDownLatch(1);
        HttpServer[] http = new HttpServer[1];
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (http[0] != null) {
                http[0].stop(0);
            }
            dbms.shutdown();
            stopped.countDown();
        }, "graphrag-code-shutdown"));

        if (passwordFile != null) {
            setInitialPassword(dbms, Files.readString(passwordFile, StandardCharsets.UTF_8).strip());
        }
        // Wait until the default database answers before saying READY.
        GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");

        String version = Version.getNeo4jVersion();
        if (httpPort > 0) {
            http[0] = startBrowserServer(httpPort, boltPort, version);
        }
        String state = String.format(
                "{\"pid\": %d, \"bolt_port\": %d, \"http_port\": %d, \"neo4j_version\": \"%s\","
                        + " \"auth\": %s, \"browser\": %s}",
                ProcessHandle.current().pid(), boltPort, httpPort, version, passwordFile != null,
                http[0] != null);
        Path stateFile = home.resolve("launcher.state.json");
        Path tmp = home.resolve("launcher.state.json.tmp");
        Files.writeString(tmp, state, StandardCharsets.UTF_8);
        Files.move(tmp, stateFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("READY " + state);
        System.out.flush();

        if (args.containsKey("stop-on-stdin-eof")) {
            // Used by tests: the server dies with its parent process.
            while (System.in.read() != -1) {
                // discard
            }
            System.exit(0);
        }
        stopped.await();
    }

    /**
     * Bolt otherwise waits ~10 s for idle connections and workers on shutdown. The settings are
     * internal, so they go through a properties file with strict validation off: a version that
     * renamed them logs a warning instead of refusing to start.
     */
    private static Path writeInternalConfig(Path home) throws IOException {
        Path conf = home.resolve("launcher-internal.conf");
        Files.writeString(conf,
                "internal.server.bolt.thread_pool_shutdown_wait_time=1s\n"
                        + "internal.server.bolt.connection_shutdown_wait_time=1s\n",
                StandardCharsets.UTF_8);
        return conf;
    }

    private static Path emptyImportDir(Path home) throws IOException {
        return Files.createDirectories(home.resolve("import"));
    }

    /** Sets the neo4j user's password on first start; later starts find it already set. */
    private static void setInitialPassword(DatabaseManagementService dbms, String password) {
        GraphDatabaseService system = dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
        boolean changeRequired = system.executeTransactionally(
                "SHOW USERS YIELD user, passwordChangeRequired WHERE user = 'neo4j' "
                        + "RETURN passwordChangeRequired",
                Map.of(),
                result -> result.hasNext() && Boolean.TRUE.equals(result.next().get("passwordChangeRequired")));
        if (changeRequired) {
            system.executeTransactionally(
                    "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", password));
        }
    }

    private static HttpServer startBrowserServer(int httpPort, int boltPort, String version) throws IOException {
        if (Launcher.class.getClassLoader().getResource("browser/index.html") == null) {
            System.err.println("neo4j-browser jar not on the classpath; Browser is not served");
            return null;
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", httpPort), 0);
        String discovery = String.format(
                "{\"bolt_direct\": \"bolt://127.0.0.1:%d\", \"bolt_routing\": \"neo4j://127.0.0.1:%d\","
                        + " \"neo4j_version\": \"%s\", \"neo4j_edition\": \"community\"}",
                boltPort, boltPort, version);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if (path.equals("/") || path.isEmpty()) {
                String accept = exchange.getRequestHeaders().getFirst("Accept");
                if (accept != null && accept.contains("text/html")) {
                    exchange.getResponseHeaders().set("Location", "/browser/");
                    exchange.sendResponseHeaders(303, -1);
                    exchange.close();
                    return;
                }
                send(exchange, 200, "application/json", discovery.getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (path.equals("/browser")) {
                exchange.getResponseHeaders().set("Location", "/browser/");
                exchange.sendResponseHeaders(301, -1);
                exchange.close();
                return;
            }
            if (!path.startsWith("/browser/") || path.contains("..")) {
                send(exchange, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
                return;
            }
            String resource = path.substring(1);
            if (resource.endsWith("/")) {
                resource = resource + "index.html";
            }
            try (InputStream in = Launcher.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    send(exchange, 404, "text/plain", "not found".getBytes(StandardCharsets.UTF_8));
                    return;
                }
                send(exchange, 200, contentType(resource), in.readAllBytes());
            }
        });
        server.start();
        return server;
    }

    private static void send(HttpExchange exchange, int status, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static String contentType(String resource) {
        Map<String, String> types = Map.of(
                "html", "text/html; charset=utf-8",
                "js", "application/javascript",
                "css", "text/css",
                "json", "application/json",
                "svg", "image/svg+xml",
                "png", "image/png",
                "woff", "font/woff",
                "woff2", "font/woff2",
                "ico", "image/x-icon",
                "ttf", "font/ttf");
        int dot = resource.lastIndexOf('.');
        String ext = dot < 0 ? "" : resource.substring(dot + 1);
        return types.getOrDefault(ext, "application/octet-stream");
    }

    private static long parseBytes(String text) {
        String t = text.trim().toLowerCase();
        long factor = 1;
        if (t.endsWith("g")) {
            factor = 1024L * 1024 * 1024;
        } else if (t.endsWith("m")) {
            factor = 1024L * 1024;
        } else if (t.endsWith("k")) {
            factor = 1024L;
        }
        if (factor != 1) {
            t = t.substring(0, t.length() - 1);
        }
        return Long.parseLong(t) * factor;
    }

    private static Map<String, String> parseArgs(String[] argv) {
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < argv.length; i++) {
            String a = argv[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + a);
            }
            String key = a.substring(2);
            if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
                out.put(key, argv[++i]);
            } else {
                out.put(key, "true");
            }
        }
        return out;
    }

    private static String require(Map<String, String> args, String key) {
        String value = args.get(key);
        if (value == null) {
            throw new IllegalArgumentException("missing --" + key);
        }
        return value;
    }
}
